package nopol

import (
	"slices"
	"testing"

	"github.com/nopol-go/nopol/synth"
)

func TestFillHole(t *testing.T) {
	for _, tc := range []struct{ tmpl, x, want string }{
		{"(!less(f) && nopolClause) || f == nil", "!compare(f)", "(!less(f) && !compare(f)) || f == nil"},
		{"a && nopolClause", "b || c", "a && (b || c)"},
		{"!(a || nopolClause)", "n > 0", "!(a || n > 0)"},
		{"a && b", "c", ""}, // no hole
		{"a && nopolClause", "c &&", ""},
	} {
		if got := fillHole(tc.tmpl, tc.x); got != tc.want {
			t.Errorf("fillHole(%q, %q) = %q, want %q", tc.tmpl, tc.x, got, tc.want)
		}
	}
}

func TestHoleSpec(t *testing.T) {
	// go-cmp's SortMaps: `!less || isNil`; a Compare function (less
	// false, compare true) must not panic, a Less one does not either, a
	// nil one does.
	spec := &synth.Spec{
		Inputs: []synth.Input{{Expr: "less", Kind: synth.Bool}, {Expr: "compare", Kind: synth.Bool}, {Expr: "isNil", Kind: synth.Bool}},
	}
	ex := func(less, compare, isNil, want bool) synth.Example {
		return synth.Example{Values: []synth.Value{synth.BoolValue(less), synth.BoolValue(compare), synth.BoolValue(isNil)}, Want: want}
	}
	spec.Examples = []synth.Example{ex(false, true, false, false), ex(true, false, false, false), ex(false, false, true, true)}
	holed := *spec
	holed.Inputs = append(slices.Clone(spec.Inputs), synth.Input{Expr: holeName, Kind: synth.Bool})
	for _, tc := range []struct {
		tmpl  string
		ok    bool
		wants []bool // the hole's examples' wants
	}{
		// The hole decides only the Compare state, which needs it false.
		{"(!less && nopolClause) || isNil", true, []bool{false}},
		// The hole decides every state.
		{"(!less || isNil) && nopolClause", true, []bool{false, true}},
		// A Compare function panics whatever the hole is.
		{"!less || isNil || nopolClause", false, nil},
	} {
		sub, ok := holeSpec(spec, &holed, tc.tmpl)
		if ok != tc.ok {
			t.Errorf("holeSpec(%q): ok = %v, want %v", tc.tmpl, ok, tc.ok)
			continue
		}
		if !ok {
			continue
		}
		var wants []bool
		for _, e := range sub.Examples {
			wants = append(wants, e.Want)
		}
		if !slices.Equal(wants, tc.wants) {
			t.Errorf("holeSpec(%q): wants %v, want %v", tc.tmpl, wants, tc.wants)
		}
	}
}

func TestNarrower(t *testing.T) {
	spec := &synth.Spec{
		Inputs: []synth.Input{{Expr: "n", Kind: synth.Int}, {Expr: "max", Kind: synth.Int}},
		Examples: []synth.Example{
			{Values: []synth.Value{synth.IntValue(0), synth.IntValue(10)}, Want: true},
			{Values: []synth.Value{synth.IntValue(20), synth.IntValue(10)}, Want: true},
			{Values: []synth.Value{synth.IntValue(12), synth.IntValue(10)}, Want: false},
		},
	}
	parse := func(src string) *synth.Term { return mustParseTerm(t, spec, src) }
	for _, tc := range []struct {
		cand string
		want bool
	}{
		{"n > max && n != 12", true},
		{"n > max || n == 0", false}, // a new reason at n=0
		{"n > max", true},
	} {
		if got := narrower(spec, parse(tc.cand), parse("n > max")); got != tc.want {
			t.Errorf("narrower(%q) = %v, want %v", tc.cand, got, tc.want)
		}
	}
}

// mustParseTerm parses src over spec's inputs or fails the test.
func mustParseTerm(t *testing.T, spec *synth.Spec, src string) *synth.Term {
	t.Helper()
	term, err := synth.ParseTerm(spec, src)
	if err != nil {
		t.Fatal(err)
	}
	return term
}
