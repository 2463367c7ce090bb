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
		{"abc", 0, 0, ""},
		{"abc", 0, 1, "a"},
		{"abc", 0, 3, "abc"},
		{"abc", 0, 4, "abc"},
		{"abc", 3, 1, ""},
		{"abc", 4, 1, ""},
		{"abc", 1, 1, "b"},
		{"abc", 1, 2, "bc"},
		{"abc", 1, 3, "bc"},
		{"abc", -1, 2, "ab"},
		{"foobar", 0, 80, "foobar"},
		{"foobar", 9, 3, ""},
		{"foobar", 2, 2, "ob"},
	} {
		if got := Mid(tc.str, tc.pos, tc.length); got != tc.want {
			t.Errorf("Mid(%q, %d, %d) = %q, want %q", tc.str, tc.pos, tc.length, got, tc.want)
		}
	}
}

// TestMidNegativeLength holds the cases of the original test that the bug
// breaks: a negative length gives "".
func TestMidNegativeLength(t *testing.T) {
	for _, tc := range []struct {
		str         string
		pos, length int
	}{
		{"", 0, -1},
		{"abc", 0, -1},
		{"foobar", 9, -1},
		{"foobar", 3, -1},
	} {
		if got := Mid(tc.str, tc.pos, tc.length); got != "" {
			t.Errorf("Mid(%q, %d, %d) = %q, want \"\"", tc.str, tc.pos, tc.length, got)
		}
	}
}
