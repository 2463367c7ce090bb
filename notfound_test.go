package nopol

import (
	"go/parser"
	"strings"
	"testing"
)

// TestOddIndexTest checks which comparisons of an Index result read
// "not found or at the start".
func TestOddIndexTest(t *testing.T) {
	for _, tc := range []struct {
		cond string
		odd  bool
	}{
		{"bytes.IndexByte(b, '.') <= 0", true},
		{"0 >= strings.Index(s, x)", true},
		{"ok && strings.LastIndexAny(s, x) <= 0", true},
		{"bytes.IndexByte(b, '.') < 0", false},
		{"bytes.IndexByte(b, '.') > 0", false},
		{"strings.Index(s, x) == -1", false},
		{"len(s) <= 0", false},
		{"r.Index(s) <= 1", false},
	} {
		e, err := parser.ParseExpr(tc.cond)
		if err != nil {
			t.Fatal(err)
		}
		if got := oddIndexTest(e); got != tc.odd {
			t.Errorf("oddIndexTest(%s) = %v, want %v", tc.cond, got, tc.odd)
		}
	}
}

// TestOddIndexLast checks that such a mutant goes after the other
// mutants, that other candidates keep their places, and that nothing
// moves where the original writes it so.
func TestOddIndexLast(t *testing.T) {
	cands := []candidate{
		{src: "x > 1", method: "synthesis"},
		{src: "bytes.IndexByte(b, '.') <= 0", method: "mutation"},
		{src: "bytes.IndexByte(b, '.') < 0", method: "mutation"},
		{src: "bytes.IndexByte(b, '.') >= 0", method: "mutation"},
	}
	srcs := func(cs []candidate) string {
		var out []string
		for _, c := range cs {
			out = append(out, c.src)
		}
		return strings.Join(out, " | ")
	}
	want := "x > 1 | bytes.IndexByte(b, '.') < 0 | bytes.IndexByte(b, '.') >= 0 | bytes.IndexByte(b, '.') <= 0"
	if got := srcs(oddIndexLast("bytes.IndexByte(b, '.') > 0", cands)); got != want {
		t.Errorf("oddIndexLast = %s, want %s", got, want)
	}
	if got := srcs(oddIndexLast("bytes.IndexByte(b, '.') <= 0 && ok", cands)); got != srcs(cands) {
		t.Errorf("oddIndexLast where the original has it = %s, want the order unchanged", got)
	}
}
