package nopol

import (
	"slices"
	"testing"
)

// TestSymmetric checks which conditions test two values alike.
func TestSymmetric(t *testing.T) {
	for _, tc := range []struct {
		src  string
		want bool
	}{
		{"c == nil || c2 == nil", true},
		{"c == nil || c2 != nil", false},
		{"nil == c || c2 == nil", true}, // == in either order
		{"!vx.IsValid() || !vx.CanInterface() || !vy.IsValid() || !vy.CanInterface()", true},
		{"!vx.IsValid() || vx.CanInterface() || !vy.IsValid() || !vy.CanInterface()", false},
		{"!vx.IsValid() || !vy.IsValid() || !vy.CanInterface()", false},
		{"a.x < b.x && a.y < b.y", false},  // fields are not swapped
		{"x < len(a) && len(b) > x", true}, // an ordering read from either side
		{"x < len(a) && len(b) < x", false},
		{"x == y || ok", false}, // the swap changes no operand
		{"x == y", false},       // not a chain
		{"i < len(a) && i < len(b)", true},
		{"i < len(a) && i <= len(b)", false},
		{`flag.Shorthand != "" || flag.ShorthandDeprecated != ""`, false}, // two fields of one value
		{`a.Shorthand != "" || b.Shorthand != ""`, true},
	} {
		if got := symmetric(tc.src); got != tc.want {
			t.Errorf("symmetric(%q) = %v, want %v", tc.src, got, tc.want)
		}
	}
}

// TestSymmetricFirst checks that the symmetric mutants move before the
// other mutants, and the other candidates keep their places.
func TestSymmetricFirst(t *testing.T) {
	cands := []candidate{
		{src: "len(b) > 0", method: "bounds"},
		{src: "c == nil && c2 != nil", method: "mutation"},
		{src: "c != nil || c2 != nil", method: "synthesis"},
		{src: "c == nil || c2 == nil", method: "mutation"},
	}
	var got []string
	for _, c := range symmetricFirst("c == nil || c2 != nil", cands) {
		got = append(got, c.src)
	}
	want := []string{"len(b) > 0", "c == nil || c2 == nil", "c != nil || c2 != nil", "c == nil && c2 != nil"}
	if !slices.Equal(got, want) {
		t.Errorf("symmetricFirst = %q, want %q", got, want)
	}
	// A range: the order stands (x <= n.lo && x <= n.hi is no parallel).
	rng := []candidate{{src: "x < n.lo && x <= n.hi", method: "mutation"}, {src: "x <= n.lo && x <= n.hi", method: "mutation"}}
	if got := symmetricFirst("x >= n.lo && x <= n.hi", rng); got[0].src != rng[0].src {
		t.Errorf("symmetricFirst of a range moved %q first", got[0].src)
	}
	// A symmetric original: the order stands.
	if got := symmetricFirst("c == nil || c2 == nil", cands); got[1].src != cands[1].src {
		t.Errorf("symmetricFirst of a symmetric original moved %q", got[1].src)
	}
}
