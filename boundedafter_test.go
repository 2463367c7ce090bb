package nopol

import (
	"go/parser"
	"testing"

	"github.com/nopol-go/nopol/collect"
)

// TestUpperCheckDropped checks length-check-dropped for the upper end of
// an index after a leaving guard (goldmark's seeded footnote parser).
func TestUpperCheckDropped(t *testing.T) {
	after := &collect.Branch{Exits: true, BoundedAfter: []collect.IndexVar{{X: "line", I: "pos"}}}
	for _, tc := range []struct {
		name, orig, cand string
		then             *collect.Branch
		loopVars         []string
		dropped          bool
	}{
		{"footnote: the index read ensured it, the candidate does not", "pos < len(line)-1 || line[pos] != '^'", "pos < len(line)-1 && line[pos] != '^'", after, nil, true},
		{"footnote: the developer's fix", "pos < len(line)-1 || line[pos] != '^'", "pos > len(line)-1 || line[pos] != '^'", after, nil, false},
		{"an index read under && ensures nothing", "pos >= len(line) || x", "pos < len(line) && line[pos] != '^'", after, nil, true},
		{"an index read first ensures it", "pos >= len(line) || x", "line[pos] != '^' && pos > 2", after, nil, false},
		{"i >= len(x)", "pos >= len(line)", "pos >= len(line) || pos < 0", after, nil, false},
		{"made an upper bound", "pos >= len(line)", "pos < len(line)", after, nil, true},
		{"one too far", "pos >= len(line)", "pos > len(line)", after, nil, true},
		{"len - 1, mirrored", "len(line)-1 < pos", "len(line) <= pos", after, nil, false},
		{"len - 1, mirrored, one too far", "len(line)-1 < pos", "len(line) < pos", after, nil, true},
		{"i + 1", "pos+1 > len(line)", "pos+1 >= len(line)", after, nil, false},
		{"an equality", "pos != len(line)-1", "pos != len(line)-2", after, nil, false},
		{"negated", "pos >= len(line)", "!(pos < len(line))", after, nil, false},
		{"negated wrong", "pos >= len(line)", "!(pos <= len(line))", after, nil, true},
		{"a clause added under &&", "pos >= len(line)", "pos >= len(line) && ok", after, nil, true},
		{"a clause added under ||", "pos >= len(line)", "pos >= len(line) || ok", after, nil, false},
		{"the original did not ensure it", "pos < 0", "pos > 3", after, nil, false},
		{"a named bound is not read", "pos >= n", "pos > n", after, nil, false},
		{"another slice", "pos >= len(b)", "pos > len(b)", after, nil, false},
		{"a loop counter", "pos >= len(line)", "pos < len(line)", after, []string{"pos"}, false},
		{"a branch that does not leave", "pos >= len(line)", "pos < len(line)", &collect.Branch{BoundedAfter: after.BoundedAfter}, nil, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			orig, err1 := parser.ParseExpr(tc.orig)
			cand, err2 := parser.ParseExpr(tc.cand)
			if err1 != nil || err2 != nil {
				t.Fatal(err1, err2)
			}
			site := collect.Site{Kind: collect.Cond, Original: tc.orig, Then: tc.then, LoopVars: tc.loopVars}
			if got := upperCheckDropped(site, orig, cand); (got != "") != tc.dropped {
				t.Errorf("upperCheckDropped(%s for %s) = %q, want dropped %v", tc.cand, tc.orig, got, tc.dropped)
			}
		})
	}
}
