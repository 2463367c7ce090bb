package collect

import (
	"fmt"
	"testing"
)

// TestSameBodyConds: the conditions of the other ifs whose block is the
// same, comments aside; none for blocks that only leave or have one
// statement; a string literal keeps its spaces, and a condition with a
// comment inside is left out.
func TestSameBodyConds(t *testing.T) {
	f := load(t, "samebody")
	for _, tc := range []struct {
		line int
		want string
	}{
		{10, `[o.limit || o.addrs o.addrs]`},
		{15, `[o.limit o.addrs]`},
		{20, `[o.limit o.limit || o.addrs]`},
		{30, `[]`},
		{33, `[]`},
		{36, `[]`},
		{39, `[]`},
		{43, `[]`},
		{46, `[]`},
		{56, `[s == "c"]`},
		{60, `[s == "a  b"]`},
	} {
		got := fmt.Sprint(f.prog.Sites[f.site(t, Cond, "a.go", tc.line)].SameBody)
		if got != tc.want {
			t.Errorf("line %d: SameBody = %s, want %s", tc.line, got, tc.want)
		}
	}
}
