package nopol

import (
	"slices"
	"testing"

	"github.com/nopol-go/nopol/collect"
)

func TestNilClauses(t *testing.T) {
	for _, tc := range []struct {
		name string
		cond string
		then *collect.Branch
		x    string
		want []string
	}{
		{"a branch that leaves: nil leaves first", "token.typ != A && token.typ != B", &collect.Branch{Exits: true}, "token",
			[]string{"token == nil || token.typ != A && token.typ != B", "token != nil && token.typ != A && token.typ != B"}},
		{"a branch that goes on: nil skips it first", "p.n > 0", &collect.Branch{}, "p",
			[]string{"p != nil && p.n > 0", "p == nil || p.n > 0"}},
		{"a branch that dereferences x: nil never enters it", "p.n > 0", &collect.Branch{Exits: true, Derefs: []string{"p"}}, "p",
			[]string{"p != nil && p.n > 0"}},
		{"an || under && is parenthesized", "p.a || p.b", &collect.Branch{}, "p",
			[]string{"p != nil && (p.a || p.b)", "p == nil || p.a || p.b"}},
		{"a condition that does not read x", "q.n > 0", &collect.Branch{}, "p", nil},
		{"a condition written over lines is one line", "p.a &&\n\tp.b", &collect.Branch{Exits: true}, "p",
			[]string{"p == nil || p.a && p.b", "p != nil && p.a && p.b"}},
		{"x deeper in a selector chain", "c.p.n > 0", nil, "c.p", []string{"c.p != nil && c.p.n > 0", "c.p == nil || c.p.n > 0"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := nilClauses(collect.Site{Kind: collect.Cond, Original: tc.cond, Then: tc.then}, tc.x)
			if !slices.Equal(got, tc.want) {
				t.Errorf("nilClauses(%q, %q) = %q, want %q", tc.cond, tc.x, got, tc.want)
			}
		})
	}
}
