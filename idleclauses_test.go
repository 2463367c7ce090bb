package nopol

import (
	"strings"
	"testing"

	"github.com/nopol-go/nopol/synth"
)

// TestIdleClauses: a clause of a patch that no recorded outcome depends
// on is untested, unless the original has it with the same connective.
func TestIdleClauses(t *testing.T) {
	ex := func(i, n int64, want bool) synth.Example {
		return synth.Example{Values: []synth.Value{synth.IntValue(i), synth.IntValue(n)}, Want: want}
	}
	oneKey := []synth.Example{ex(0, 1, true), ex(0, 1, true), ex(0, 3, false), ex(2, 3, false)}
	for _, tc := range []struct {
		name       string
		examples   []synth.Example
		orig, cand string // orig "" for a new guard
		want       string
	}{
		// hcl's alignedItems: i == n-2 never holds at the recorded
		// states, so the || swap rests on n == 1 alone.
		{"swapped connective", oneKey, "i == n-2 && n == 1", "i == n-2 || n == 1", "i == n-2"},
		// With a state where i == n-2 holds and the patch needs it, the
		// clause decides.
		{"clause decides", append(oneKey[:3:3], ex(1, 3, true)), "i == n-2 && n == 1", "i == n-2 || n == 1", ""},
		// The original's own clause, idle with the same connective, is
		// the developer's.
		{"original's clause", oneKey, "n == 1 || i == n-2", "n <= 1 || i == n-2", ""},
		// The original whole, joined with a clause, is the developer's
		// even where it decides nothing (packagename's c == nil).
		{"original whole", oneKey, "i > 7", "i > 7 || n == 1", ""},
		// A clause added that decides nothing; at a new guard too.
		{"added clause", oneKey, "n == 1", "n == 1 && i < 5", "i < 5"},
		{"new guard", oneKey, "", "n == 1 || i > 7", "i > 7"},
		// A single comparison has no clause to be idle.
		{"no chain", oneKey, "n == 2", "n == 1", ""},
		// Nested chains: the && clause never holds, and what is inside
		// it says no more; where it decides, its own clause i >= 0 holds
		// at every state where it does.
		{"nested", oneKey, "n == 2", "n == 1 || (n == 4 && i >= 0)", "n == 4 && i >= 0"},
		{"nested inner", append(oneKey[:4:4], ex(0, 4, true)), "n == 2", "n == 1 || (n == 4 && i >= 0)", "i >= 0"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			spec := &synth.Spec{Inputs: []synth.Input{{Expr: "i", Kind: synth.Int}, {Expr: "n", Kind: synth.Int}}, Examples: tc.examples}
			var orig *synth.Term
			if tc.orig != "" {
				orig = mustParseTerm(t, spec, tc.orig)
			}
			if got := strings.Join(idleClauses(spec, orig, mustParseTerm(t, spec, tc.cand)), " | "); got != tc.want {
				t.Errorf("idleClauses(%q, %q) = %q, want %q", tc.orig, tc.cand, got, tc.want)
			}
		})
	}
}
