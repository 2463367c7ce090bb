package nopol

import (
	"fmt"
	"testing"

	"github.com/nopol-go/nopol/angelic"
)

// TestInterleave: the screen's sites and the rank order take turns, each
// site once.
func TestInterleave(t *testing.T) {
	sites := func(ids ...int) []angelic.Suspicion {
		var out []angelic.Suspicion
		for _, id := range ids {
			out = append(out, angelic.Suspicion{Site: id})
		}
		return out
	}
	for _, tc := range []struct {
		a, b []angelic.Suspicion
		want string
	}{
		{sites(7, 9), sites(1, 2, 3, 7, 8, 9), "[7 1 9 2 3 8]"},
		{sites(1), sites(1, 2, 3), "[1 2 3]"},
		{nil, sites(1, 2), "[1 2]"},
		{sites(2, 1), sites(1, 2), "[2 1]"},
	} {
		var got []int
		for _, s := range interleave(tc.a, tc.b) {
			got = append(got, s.Site)
		}
		if g := fmt.Sprint(got); g != tc.want {
			t.Errorf("interleave(%v, %v) = %s, want %s", tc.a, tc.b, g, tc.want)
		}
	}
}
