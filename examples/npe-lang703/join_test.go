package join

import (
	"fmt"
	"testing"
)

type word string

func (w word) String() string { return string(w) }

func TestJoin(t *testing.T) {
	if got := Join([]fmt.Stringer{word("a"), word("b"), word("c")}, ","); got != "a,b,c" {
		t.Errorf("Join = %q", got)
	}
	if got := Join(nil, ","); got != "" {
		t.Errorf("Join(nil) = %q", got)
	}
}

func TestJoinNil(t *testing.T) {
	if got := Join([]fmt.Stringer{word("a"), nil, word("c")}, "-"); got != "a--c" {
		t.Errorf("Join = %q, want %q", got, "a--c")
	}
}
