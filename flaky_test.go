package nopol

import (
	"math"
	"testing"
)

func TestFewerPasses(t *testing.T) {
	for _, c := range []struct {
		a, n, b, m int
		// want is the p-value, computed by hand from the
		// hypergeometric distribution.
		want   float64
		broken bool
	}{
		{12, 13, 3, 12, 0.000895, true},
		{12, 13, 4, 12, 0.003258, false},
		{10, 13, 1, 12, 0.000787, true},
		{10, 13, 2, 12, 0.003812, false},
		// Half the runs before, none after: 0.00357, not below the
		// level (brokenFlaky's other rule rejects it).
		{7, 13, 0, 12, 0.003570, false},
		{7, 13, 7, 12, 0.734544, false},
		{12, 13, 12, 12, 1, false},
	} {
		got := fewerPasses(c.a, c.n, c.b, c.m)
		if math.Abs(got-c.want) > 1e-5 || (got < brokenLevel) != c.broken {
			t.Errorf("fewerPasses(%d of %d, %d of %d) = %.6f, want %.6f (broken %v)", c.a, c.n, c.b, c.m, got, c.want, c.broken)
		}
	}
}
