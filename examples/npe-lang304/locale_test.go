package locale

import "testing"

func TestIsAvailable(t *testing.T) {
	for _, tc := range []struct {
		l    *Locale
		want bool
	}{{&Locale{"en", ""}, true}, {&Locale{"en", "GB"}, true}, {&Locale{"de", "DE"}, false}} {
		if got := IsAvailable(tc.l); got != tc.want {
			t.Errorf("IsAvailable(%v) = %v", tc.l, got)
		}
	}
}

func TestIsAvailableNil(t *testing.T) {
	if IsAvailable(nil) {
		t.Error("nil is available")
	}
}
