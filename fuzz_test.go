package nopol

import (
	"go/parser"
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
