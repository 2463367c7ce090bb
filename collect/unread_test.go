package collect

import (
	"fmt"
	"testing"
)

// TestUnreadSubstitutions: a condition's operands replaced by a
// parameter its function never reads, of the operand's type, and none
// where every parameter is read or none has an operand's type.
func TestUnreadSubstitutions(t *testing.T) {
	f := load(t, "unread")
	for _, tc := range []struct {
		line int
		want string
	}{
		{8, "[total != len(fields)-1 idx[0] != total idx[0] != total-1]"},
		{20, "[]"},
		{28, "[]"},
	} {
		got := fmt.Sprint(f.prog.Sites[f.site(t, Cond, "u.go", tc.line)].Unread)
		if got != tc.want {
			t.Errorf("line %d: Unread = %s, want %s", tc.line, got, tc.want)
		}
	}
}
