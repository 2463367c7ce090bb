package nopol

import (
	"go/parser"
	"reflect"
	"strings"
	"testing"

	"github.com/nopol-go/nopol/angelic"
)

// TestMutationOrder: the fallback's conditions alternate between the
// ranking (outcomes scored) and reach alone, and the sites where a
// patch was withheld as speculative come first.
func TestMutationOrder(t *testing.T) {
	ranked := []angelic.Suspicion{
		{Site: 1, Score: 0.5, Reach: 0.1, Outcome: "false"},
		{Site: 2, Score: 0.4, Reach: 0.1, Outcome: "true"},
		{Site: 3, Score: 0.3, Reach: 0.3},
		{Site: 4, Score: 0.2, Reach: 0.2},
		{Site: 5, Score: 0.1, Reach: 0.1},
	}
	tests := []struct {
		name     string
		withheld map[int]bool
		want     []int
	}{
		{name: "alternate", want: []int{1, 3, 2, 4, 5}},
		{name: "withheld first", withheld: map[int]bool{5: true, 2: true}, want: []int{2, 5, 1, 3, 4}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []int
			for _, s := range sitesFirst(reachToo(ranked), tt.withheld) {
				got = append(got, s.Site)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("order %v, want %v", got, tt.want)
			}
		})
	}
}

func TestMutants(t *testing.T) {
	tests := []struct {
		cond string
		want []string // in order
	}{
		// An index's offset moves by one (i-1 becomes i-2 or i); an
		// equality made an ordering comes last.
		{"s2[i-1] == s1[j-1]", []string{
			"s2[i-1] != s1[j-1]", "s2[i-2] == s1[j-1]", "s2[i-1] == s1[j-2]", "s2[i] == s1[j-1]", "s2[i-1] == s1[j]",
			"s2[i-1] < s1[j-1]", "s2[i-1] <= s1[j-1]", "s2[i-1] > s1[j-1]", "s2[i-1] >= s1[j-1]"}},
		// A slice bound moves too (go-cmp's seeded structFilter.filter:
		// p[i+0:] for p[i+1:]).
		{"ok && match(p[i+0:])", []string{"ok || match(p[i+0:])", "!ok && match(p[i+0:])", "ok && !match(p[i+0:])", "ok && match(p[i+1:])", "match(p[i+0:])", "!(ok && match(p[i+0:]))", "ok"}},
		{"b[k+1] == 'x'", []string{"b[k+1] != 'x'", "b[k+2] == 'x'", "b[k] == 'x'", "b[k+1] < 'x'", "b[k+1] <= 'x'", "b[k+1] > 'x'", "b[k+1] >= 'x'"}},
		// Every one-token change is at distance 1; ties keep the
		// generation order: negation first, then the bound moved by one.
		{"n <= 0", []string{"n > 0", "n < 0", "n == 0", "n != 0", "n >= 0", "n <= 1"}},
		// Integer literals move by one; under a unary minus, its operand.
		// An equality made an ordering comes after the off-by-one constant.
		{"i != -0x10", []string{"i == -0x10", "i != -17", "i != -15", "i < -0x10", "i <= -0x10", "i > -0x10", "i >= -0x10"}},
		{"p == nil", []string{"p != nil"}},
		// A value bounded twice from one side: the mutants that still
		// do come after the others (the operator swap, the negation).
		{"nlPos > 0 && nlPos >= w", []string{"nlPos <= 0 && nlPos >= w", "nlPos == 0 && nlPos >= w", "nlPos != 0 && nlPos >= w", "nlPos < 0 && nlPos >= w",
			"nlPos > 0 && nlPos < w", "nlPos > 0 && nlPos == w", "nlPos > 0 && nlPos != w", "nlPos > 0 && nlPos <= w", "nlPos >= w", "nlPos > 0",
			"nlPos > 0 || nlPos >= w", "nlPos >= 0 && nlPos >= w", "nlPos > 1 && nlPos >= w", "nlPos > 0 && nlPos > w", "!(nlPos > 0 && nlPos >= w)"}},
		// A bound of a range made an equality comes last too.
		{"1 <= t && t < n", []string{"1 <= t || t < n", "1 > t && t < n", "1 < t && t < n", "1 >= t && t < n", "2 <= t && t < n", "0 <= t && t < n",
			"1 <= t && t >= n", "1 <= t && t <= n", "1 <= t && t > n", "!(1 <= t && t < n)", "t < n", "1 <= t",
			"1 == t && t < n", "1 != t && t < n", "1 <= t && t == n", "1 <= t && t != n"}},
		// Inside a larger condition, a comparison with nil (or true, or
		// another comparison) is only negated.
		{"c == nil || c2 != nil", []string{"c == nil && c2 != nil", "c != nil || c2 != nil", "c == nil || c2 == nil", "!(c == nil || c2 != nil)", "c2 != nil", "c == nil"}},
		{"ok == (n > 0) && done", []string{"ok == (n > 0) || done", "ok == (n > 0) && !done", "ok != (n > 0) && done", "ok == (n <= 0) && done",
			"ok == (n >= 0) && done", "ok == (n == 0) && done", "ok == (n != 0) && done", "ok == (n < 0) && done", "ok == (n > 1) && done", "ok == (n > 0)", "!(ok == (n > 0) && done)", "done"}},
		{"ok", []string{"!ok"}},
		{"!ok", []string{"ok"}},
		{"!(a && b)", []string{"!(a || b)", "!(!a && b)", "!(a && !b)", "a && b", "!b", "!a"}},
		// A `!` added to a boolean operand is one token, as a swap is.
		{"a && b", []string{"a || b", "!a && b", "a && !b", "b", "a", "!(a && b)"}},
		{"x < lo || f(x)", []string{
			"x < lo && f(x)", "x < lo || !f(x)", "x >= lo || f(x)", "x <= lo || f(x)", "x == lo || f(x)", "x != lo || f(x)",
			"x > lo || f(x)", "!(x < lo || f(x))", "f(x)", "x < lo"}},
		// Swapping the && of a || b && c makes a chain of ||, printed
		// without parentheses: one token changed.
		{"a || b && c", []string{"a && b && c", "!a || b && c", "a || b || c", "a || !b && c", "a || b && !c", "b && c", "a || c", "a || b", "!(a || b && c)", "a"}},
		// Parentheses the condition writes stay (toml's seeded lexValue:
		// the fix, the inner || made &&, is one token away).
		{"(a && b) || (c || d)", []string{"(a && b) && (c || d)", "(a || b) || (c || d)", "(!a && b) || (c || d)", "(a && !b) || (c || d)", "(a && b) || (c && d)",
			"(a && b) || (!c || d)", "(a && b) || (c || !d)", "!((a && b) || (c || d))", "b || (c || d)", "a || (c || d)", "(a && b) || d", "(a && b) || c", "c || d", "a && b"}},
		// Swapping the inner && of a && b && c needs parentheses.
		{"a && b && c", []string{"a && b || c", "a && b && !c", "!a && b && c", "a && !b && c", "a && b", "b && c", "a && c", "!(a && b && c)", "(a || b) && c", "c"}},
		// Redundant parentheses go; distances count from the original without them.
		{"(x) > 0 && !(y)", []string{"x > 0 || !y", "x <= 0 && !y", "x >= 0 && !y", "x == 0 && !y", "x != 0 && !y", "x < 0 && !y",
			"x > 1 && !y", "x > 0 && y", "!(x > 0 && !y)", "x > 0", "!y"}},
		{"a ==", nil},
		// A condition over several lines gives mutants on one line.
		{"a &&\n\t!(b || c)", []string{"a || !(b || c)", "!a && !(b || c)", "a && (b || c)", "a && !(b && c)", "a && !(!b || c)", "a && !(b || !c)", "!(b || c)", "!(a && !(b || c))", "a && !c", "a && !b", "a"}},
	}
	for _, tc := range tests {
		got := mutants(tc.cond)
		if strings.Join(got, " | ") != strings.Join(tc.want, " | ") {
			t.Errorf("mutants(%q):\n got %q\nwant %q", tc.cond, got, tc.want)
		}
	}
}

// TestExtensions: a clause added at each boolean operand of the original,
// && under || parenthesized, no || added under a || (nor && under &&):
// that is the clause added to the operator above.
func TestExtensions(t *testing.T) {
	for _, tt := range []struct {
		cond    string
		clauses []string
		want    []string
	}{
		{"a || b", []string{"x"}, []string{
			"(a || b) && x", "a || b || x", "(a || b) && !x", "a || b || !x",
			"(a && x) || b", "(a && !x) || b",
			"a || (b && x)", "a || (b && !x)",
		}},
		{"!f(v, L) || v.IsNil()", []string{"f(v, C)"}, []string{
			"(!f(v, L) || v.IsNil()) && f(v, C)", "!f(v, L) || v.IsNil() || f(v, C)",
			"(!f(v, L) || v.IsNil()) && !f(v, C)", "!f(v, L) || v.IsNil() || !f(v, C)",
			"(!f(v, L) && f(v, C)) || v.IsNil()", "(!f(v, L) && !f(v, C)) || v.IsNil()",
			"!(f(v, L) && f(v, C)) || v.IsNil()", "!(f(v, L) || f(v, C)) || v.IsNil()",
			"!(f(v, L) && !f(v, C)) || v.IsNil()", "!(f(v, L) || !f(v, C)) || v.IsNil()",
			"!f(v, L) || (v.IsNil() && f(v, C))", "!f(v, L) || (v.IsNil() && !f(v, C))",
		}},
		{"n > 0 && m < 2", []string{"ok"}, []string{
			"n > 0 && m < 2 && ok", "n > 0 && m < 2 || ok", "n > 0 && m < 2 && !ok", "n > 0 && m < 2 || !ok",
			"(n > 0 || ok) && m < 2", "(n > 0 || !ok) && m < 2",
			"n > 0 && (m < 2 || ok)", "n > 0 && (m < 2 || !ok)",
		}},
		{"x +", []string{"ok"}, nil},
	} {
		var got []string
		for _, e := range extensions(tt.cond, tt.clauses) {
			got = append(got, e.src)
			if e.clause != tt.clauses[0] {
				t.Errorf("extension %s: clause %q, want %q", e.src, e.clause, tt.clauses[0])
			}
		}
		if strings.Join(got, " | ") != strings.Join(tt.want, " | ") {
			t.Errorf("extensions(%q, %q) =\n%s\nwant\n%s", tt.cond, tt.clauses, strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
		}
	}
}

func TestSameSideBounds(t *testing.T) {
	for _, tc := range []struct {
		cond string
		want bool
	}{
		{"nlPos > 0 && nlPos >= w", true},
		{"!(lo <= n && n >= hi)", true},
		{"x > 0 || x > 7", true},
		{"len(b) < extOff || len(b) < bodyOff", true},
		// A range, bounds in different chains, literals bounded.
		{"lo <= n && n < hi", false},
		{"n > lo && (m > 0 || n > hi)", false},
		{"0 < x && 0 < y", false},
		{"'a' <= r && 'a' <= s", false},
		{"n == lo && n >= hi", false},
	} {
		e, err := parser.ParseExpr(tc.cond)
		if err != nil {
			t.Fatal(err)
		}
		if got := sameSideBounds(e); got != tc.want {
			t.Errorf("sameSideBounds(%q) = %v, want %v", tc.cond, got, tc.want)
		}
	}
}
