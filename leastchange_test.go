package nopol

import (
	"testing"

	"github.com/nopol-go/nopol/synth"
)

// TestFewerChanges checks which mutants change the original's outcome at
// fewer of the failing tests' states than a candidate that fits them all,
// and keep it everywhere else.
func TestFewerChanges(t *testing.T) {
	ex := func(origin string, x int64, want bool) synth.Example {
		return synth.Example{Origin: origin, Values: []synth.Value{synth.IntValue(x)}, Want: want}
	}
	// The original, x < 1, gives false at 1, 2 and 3, where TestF was
	// forced true; TestP passed with the original's true at 0.
	forced := []synth.Example{ex("TestF", 1, true), ex("TestF", 2, true), ex("TestF", 3, true)}
	failing := map[string]bool{"TestF": true, "TestG": true}
	for _, tc := range []struct {
		name     string
		examples []synth.Example
		cand     string
		ok       bool
		changes  int
	}{
		{"keeps the original at 1", forced, "x > 1", true, 2},
		{"keeps the original at 2 and 3", forced, "x <= 1", true, 1},
		{"fits every state: a candidate already", forced, "x >= 1", false, 0},
		{"changes nothing: TestF would still fail", forced, "x < 0", false, 0},
		{"misses a passing test's state", append(forced, ex("TestP", 0, true)), "x > 1", false, 0},
		{"keeps a passing test's state", append(forced, ex("TestP", 0, true)), "x != 1", true, 2},
		{"changes a failing test's state the forced value did not", append(forced, ex("TestF", 0, true)), "x > 1", false, 0},
		{"changes nothing of a second failing test", append(forced, ex("TestG", 1, true)), "x > 1", false, 0},
		{"changes a state of each failing test", append(forced, ex("TestG", 2, true)), "x > 1", true, 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			spec := &synth.Spec{Inputs: []synth.Input{{Expr: "x", Kind: synth.Int}}, Examples: tc.examples}
			orig, err := synth.ParseTerm(spec, "x < 1")
			if err != nil {
				t.Fatal(err)
			}
			cand, err := synth.ParseTerm(spec, tc.cand)
			if err != nil {
				t.Fatal(err)
			}
			was, need := originalAtFailing(spec, orig, failing)
			changes, ok := fewerChanges(spec, was, cand, failing, need)
			if ok != tc.ok || changes != tc.changes {
				t.Errorf("fewerChanges(%s) = %d, %v; want %d, %v", tc.cand, changes, ok, tc.changes, tc.ok)
			}
		})
	}
}

// TestKindChanged checks the tie-break of leastChange: an ordering made
// an equality or the reverse comes after one that stays an ordering.
func TestKindChanged(t *testing.T) {
	for _, tc := range []struct {
		orig, mutant string
		want         int
	}{
		{"len(p) < 1", "len(p) > 1", 0},
		{"len(p) < 1", "len(p) != 1", 1},
		{"x == 1 && y < 2", "x != 1 && y < 2", 0},
		{"x == 1 && y < 2", "x <= 1 && y < 2", 1},
		{"x == 1", "x == 1 || ok", 0}, // not one comparison for another
	} {
		if got := kindChanged(tc.orig, tc.mutant); got != tc.want {
			t.Errorf("kindChanged(%q, %q) = %d, want %d", tc.orig, tc.mutant, got, tc.want)
		}
	}
}
