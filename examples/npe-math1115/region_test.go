package region

import "testing"

func TestContains(t *testing.T) {
	r := New(0, 1, 5, 6, -3, -2)
	for _, tc := range []struct {
		x    float64
		want bool
	}{{0.5, true}, {5.5, true}, {-2.5, true}, {3, false}, {-5, false}, {7, false}} {
		if got := r.Contains(tc.x); got != tc.want {
			t.Errorf("Contains(%g) = %v", tc.x, got)
		}
	}
}

func TestEmptyContains(t *testing.T) {
	if New().Contains(1) {
		t.Error("the empty region contains 1")
	}
}
