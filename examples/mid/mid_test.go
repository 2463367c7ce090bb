package mid

import "testing"

func TestMid(t *testing.T) {
	for _, tc := range []struct {
		str         string
		pos, length int
		want        string
	}{
		{"", 0, 0, ""},
		{"", 0, 2, ""},
		{"foo", 0, 0, ""},
		{"foo", 0, 2, "fo"},
		{"foo", 0, 5, "foo"},
		{"foo", 1, 1, "o"},
		{"foo", 2, 4, "o"},
		{"foo", 3, 2, ""},
		{"foo", 4, 2, ""},
		{"foo", -1, 2, "fo"},
		{"foobar", 3, 3, "bar"},
	} {
		if got := Mid(tc.str, tc.pos, tc.length); got != tc.want {
			t.Errorf("Mid(%q, %d, %d) = %q, want %q", tc.str, tc.pos, tc.length, got, tc.want)
		}
	}
}

func TestMidNegativeLength(t *testing.T) {
	if got := Mid("foo", 1, -1); got != "" {
		t.Errorf("Mid(\"foo\", 1, -1) = %q, want \"\"", got)
	}
}
