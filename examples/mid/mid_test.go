package mid

import (
	"fmt"
	"testing"
)

const foobar = "foobar"

// TestMid has the cases of Commons Lang's testMid_String, one statement
// each, as in the original JUnit test (the null cases aside): some take
// the early return, others not, so the test is impure on its condition.
func TestMid(t *testing.T) {
	assertMid(t, "", "", 0, -1)
	assertMid(t, "", "", 0, 0)
	assertMid(t, "", "", 0, 2)
	assertMid(t, "", foobar, 3, -1)
	assertMid(t, "", foobar, 3, 0)
	assertMid(t, "b", foobar, 3, 1)
	assertMid(t, "foo", foobar, 0, 3)
	assertMid(t, "bar", foobar, 3, 3)
	assertMid(t, "foobar", foobar, 0, 80)
	assertMid(t, "bar", foobar, 3, 80)
	assertMid(t, "", foobar, 9, 3)
	assertMid(t, "foo", foobar, -1, 3)
}

// assertMid checks Mid(str, pos, length) like JUnit's assertEquals. A
// panic fails the check and the test goes on with the next case.
func assertMid(t *testing.T, want, str string, pos, length int) {
	t.Helper()
	got, err := mid(str, pos, length)
	if err != nil || got != want {
		t.Errorf("Mid(%q, %d, %d) = %q (%v), want %q", str, pos, length, got, err, want)
	}
}

// mid calls Mid, turning a panic into an error.
func mid(str string, pos, length int) (s string, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panic: %v", r)
		}
	}()
	return Mid(str, pos, length), nil
}
