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

// TestScreenMoves: the sites where a failing test passed move, more
// tests first; a test that passed at too many sites moves none.
func TestScreenMoves(t *testing.T) {
	out := make([]screened, 40)
	for i := range out {
		out[i].site.Site = i
	}
	out[3].passed = 1 // test 0 at site 3 only
	out[7].passed = 3 // both tests at site 7
	out[9].passed = 1 // test 0 at site 9
	for i := 10; i < 15; i++ {
		out[i].passed |= 2 // test 1 at 6 sites of 40 with site 7: vague (more than 3 and 40/10)
	}
	moved, vague := screenMoves(out, 2)
	if fmt.Sprint(vague) != "[0 6]" {
		t.Errorf("vague = %v, want [0 6]", vague)
	}
	var got []string
	for _, s := range moved {
		got = append(got, fmt.Sprintf("%d:%d", s.site.Site, s.passed))
	}
	if g := fmt.Sprint(got); g != "[3:1 7:1 9:1]" {
		t.Errorf("moved = %s, want [3:1 7:1 9:1]", g)
	}
	// Four sites of 40 are not too many for a test.
	out[13].passed, out[14].passed = 0, 0
	moved, vague = screenMoves(out, 2)
	got = nil
	for _, s := range moved {
		got = append(got, fmt.Sprintf("%d:%d", s.site.Site, s.passed))
	}
	if g := fmt.Sprint(got); fmt.Sprint(vague) != "[0 0]" || g != "[3:1 7:2 9:1 10:1 11:1 12:1]" {
		t.Errorf("with 4 passes: vague %v, moved %s, want [0 0] and [3:1 7:2 9:1 10:1 11:1 12:1]", vague, g)
	}
}
