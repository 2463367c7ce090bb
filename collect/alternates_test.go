package collect

import (
	"fmt"
	"testing"
)

// TestAlternateSubstitutions: a condition's operands replaced by a
// boolean local refined from them, or by the same receiver's other method
// the function calls; no field swapped, no method compared with itself swapped, no
// local out of scope or defined after the condition.
func TestAlternateSubstitutions(t *testing.T) {
	f := load(t, "alternates")
	for _, tc := range []struct {
		line int
		want string
	}{
		{8, `[pkg != "" && !isEmbed]`},
		{24, `[want != t.String()]`},
		{32, `[]`},
		{40, `[]`},
		{49, `[]`},
		{53, `[]`},
		{63, `[]`},
	} {
		got := fmt.Sprint(f.prog.Sites[f.site(t, Cond, "a.go", tc.line)].Alternates)
		if got != tc.want {
			t.Errorf("line %d: Alternates = %s, want %s", tc.line, got, tc.want)
		}
	}
}
