package nopol

import (
	"go/parser"
	"slices"
	"testing"
)

// FuzzMutants: every mutant of a condition parses, differs from it, and
// appears once.
func FuzzMutants(f *testing.F) {
	for _, s := range []string{"a < b", "n > 0 && !done", "x == nil || len(x) >= max", "!(a && (b || c))", "f(x) != 'a'"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, cond string) {
		seen := map[string]bool{}
		for _, m := range mutants(cond) {
			if _, err := parser.ParseExpr(m); err != nil {
				t.Fatalf("mutant %q of %q does not parse: %v", m, cond, err)
			}
			if m == cond || seen[m] {
				t.Fatalf("mutant %q of %q repeated", m, cond)
			}
			seen[m] = true
		}
	})
}

// FuzzFailedGocheck: the gocheck tests read from a test's output are
// names gocheck could have printed, each once.
func FuzzFailedGocheck(f *testing.F) {
	f.Add("FAIL: a_test.go:1: S.TestA\nOOPS: 3 passed, 1 FAILED\n")
	f.Add("PANIC: b.go:9: T.TestB\r\nOOPS: 1 passed, 1 PANICKED, 1 MISSED\n")
	f.Fuzz(func(t *testing.T, output string) {
		names := failedGocheck(output)
		for i, n := range names {
			if !gocheckName.MatchString(n) || slices.Contains(names[:i], n) {
				t.Fatalf("failedGocheck(%q) = %q: %q is no gocheck name or is repeated", output, names, n)
			}
		}
	})
}
