package nopol

import (
	"fmt"
	"testing"

	"github.com/nopol-go/nopol/angelic"
	"github.com/nopol-go/nopol/collect"
)

// TestSplitIterations: a failing table-driven test's spectrum keeps the
// sites of its failing iterations and of its other segments; each other
// iteration of the loop becomes a passing spectrum of its own; failures
// outside table iterations leave the spectrum whole.
func TestSplitIterations(t *testing.T) {
	evals := []collect.Eval{
		{Site: 1, Segment: 0},               // setup, before the loop
		{Site: 2, Segment: 1, Iteration: 1}, // a passing iteration
		{Site: 3, Segment: 1, Iteration: 1},
		{Site: 3, Segment: 1, Iteration: 2}, // the failing iteration
		{Site: 4, Segment: 1, Iteration: 2},
		{Site: 2, Segment: 1, Iteration: 3},
	}
	sp := angelic.Spectrum{Test: "TestT", Reached: []int{1, 2, 3, 4}}
	res := collect.Result{Evals: evals}
	for _, tc := range []struct {
		name string
		frs  []angelic.Constituent
		want string
	}{
		{"one failing iteration", []angelic.Constituent{{Segment: 1, Iteration: 2}},
			"[{TestT false [1 3 4]} {TestT (iteration 1) true [2 3]} {TestT (iteration 3) true [2]}]"},
		{"failure outside iterations", []angelic.Constituent{{Segment: 2}},
			"[{TestT false [1 2 3 4]}]"},
		{"not split", nil, "[{TestT false [1 2 3 4]}]"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := fmt.Sprint(splitIterations(sp, res, tc.frs))
			if got != tc.want {
				t.Errorf("got %s, want %s", got, tc.want)
			}
		})
	}
}
