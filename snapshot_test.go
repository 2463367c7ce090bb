package nopol

import (
	"fmt"
	"testing"

	"github.com/nopol-go/nopol/angelic"
	"github.com/nopol-go/nopol/synth"
)

// TestPickAtom: the observed boolean nearest to fitting, whose
// contradicting passing examples are checked by running their tests.
func TestPickAtom(t *testing.T) {
	inputs := []synth.Input{{Expr: "it.Custom", Kind: synth.Bool}, {Expr: "it.Scale", Kind: synth.Int}}
	// ex builds examples from (run, custom, scale, want); run 0 is the
	// failing test's.
	type row struct {
		run    int
		custom bool
		scale  int64
		want   bool
	}
	build := func(rows []row) examples {
		ex := examples{nFailing: 1}
		for n, r := range rows {
			v := []synth.Value{synth.BoolValue(r.custom), synth.IntValue(r.scale)}
			ex.all = append(ex.all, angelic.Example{State: stateKey(v), Want: r.want})
			ex.vals = append(ex.vals, v)
			ex.from = append(ex.from, r.run)
			ex.ord = append(ex.ord, n+1)
		}
		return ex
	}
	plain := []row{{1, false, 2, false}, {1, false, 3, false}, {1, false, 4, false}, {1, false, 5, false}}
	for _, tc := range []struct {
		name     string
		original string
		rows     []row
		missing  bool // the failing example's boolean is missing
		want     string
		examples int
	}{
		{"an atom one passing example contradicts", "", append([]row{{0, true, 2, true}, {2, true, 3, false}}, plain...), false, "it.Custom", 1},
		{"an atom that contradicts a quarter of what it agrees with, no more", "", append([]row{{0, true, 2, true}, {2, true, 3, false}, {3, true, 4, false}}, plain...), false, "", 0},
		{"the original with an operand deleted (mux's Route.Schemes)", "it.Scale > 1 && it.Custom",
			[]row{{0, false, 3, true}, {1, true, 2, true}, {1, true, 5, true}, {1, false, 1, false}, {1, false, 0, false}, {2, false, 2, false}},
			false, "it.Scale > 1", 1},
		{"one contradicted example, none agreeing", "", []row{{0, true, 2, true}, {2, true, 3, false}}, false, "", 0},
		{"an atom that contradicts nothing needs no run", "", append([]row{{0, true, 2, true}}, plain...), false, "", 0},
		{"a failing example without the value", "", append([]row{{0, true, 2, true}, {2, true, 3, false}}, plain...), true, "", 0},
		{"a clause joined to the original before an atom alone", "it.Scale > 1",
			[]row{{0, true, 2, false}, {1, false, 2, true}, {1, false, 3, true}, {1, false, 4, true}, {1, false, 5, true}, {1, false, 1, false}, {2, true, 3, true}},
			false, "it.Scale > 1 && !it.Custom", 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ex := build(tc.rows)
			if tc.missing {
				ex.vals[0][0] = synth.MissingValue(synth.Bool)
			}
			spec := &synth.Spec{Inputs: inputs, Original: tc.original}
			a, ok := pickAtom(spec, ex)
			if !ok {
				if tc.want != "" {
					t.Fatalf("no atom, want %s", tc.want)
				}
				return
			}
			if a.src != tc.want || a.examples != tc.examples || a.tests != 1 {
				t.Fatalf("atom %s against %d examples of %d tests, want %q against %d of 1", a.src, a.examples, a.tests, tc.want, tc.examples)
			}
			for j := range ex.all {
				if a.against(j) != (ex.from[j] == 2) {
					t.Errorf("example %d (run %d): against = %v", j, ex.from[j], a.against(j))
				}
			}
		})
	}
}

// TestPickAtoms: the atoms nearestAtom tries in turn, fewest
// contradicted tests and examples first, at most n.
func TestPickAtoms(t *testing.T) {
	inputs := []synth.Input{{Expr: "many", Kind: synth.Bool}, {Expr: "few", Kind: synth.Bool}}
	ex := examples{nFailing: 1}
	// run, many, few, want: the failing run needs true where both hold;
	// "many" contradicts two passing examples, "few" one.
	for n, r := range [][4]int{{0, 1, 1, 1}, {1, 1, 0, 0}, {1, 1, 0, 0}, {2, 1, 1, 0}, {3, 0, 0, 0}, {3, 0, 0, 0}, {3, 0, 0, 0}, {3, 0, 0, 0}, {3, 0, 0, 0}, {3, 0, 0, 0}, {3, 0, 0, 0}, {3, 0, 0, 0}, {3, 0, 0, 0}, {3, 0, 0, 0}, {3, 0, 0, 0}, {3, 0, 0, 0}} {
		v := []synth.Value{synth.BoolValue(r[1] == 1), synth.BoolValue(r[2] == 1)}
		ex.all = append(ex.all, angelic.Example{State: stateKey(v), Want: r[3] == 1})
		ex.vals = append(ex.vals, v)
		ex.from = append(ex.from, r[0])
		ex.ord = append(ex.ord, n+1)
	}
	spec := &synth.Spec{Inputs: inputs}
	var got []string
	for _, a := range pickAtoms(spec, ex, 3) {
		got = append(got, fmt.Sprintf("%s:%d/%d", a.src, a.tests, a.examples))
	}
	if want := "[few:1/1 many:2/3]"; fmt.Sprint(got) != want {
		t.Errorf("pickAtoms = %v, want %s", got, want)
	}
	if got := pickAtoms(spec, ex, 1); len(got) != 1 || got[0].src != "few" {
		t.Errorf("pickAtoms(1) = %v, want few only", got)
	}
}
