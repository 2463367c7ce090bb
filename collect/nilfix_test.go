package collect

import (
	"strings"
	"testing"
)

// TestNilFixes: the NpeFix replacements before statements that
// dereference a nil-able operand: in-scope values of its type first
// (parameters, locals, package variables), then new instances (a
// package type implementing an interface, &T{} for a pointer to a
// struct); a call of a function value; nothing for a map write, which
// does not dereference.
func TestNilFixes(t *testing.T) {
	f := load(t, "nilfix")
	tests := []struct {
		line int
		want string // strategy:body, "|"-separated
	}{
		{30, "nil-new-instance:it.cmp = Natural{}|nil-new-instance:it.cmp = &Reverse{}|nil-new-instance:it = &Iter{}"},
		{34, "nil-in-scope-value:n = other|nil-in-scope-value:n = Default|nil-new-instance:n = &Node{}"},
		{39, "nil-in-scope-value:it.f = g|nil-new-instance:it = &Iter{}"},
		// n dereferenced; then n.Next and last, passed to First.
		{44, "nil-in-scope-value:n = last|nil-in-scope-value:n = Default|nil-new-instance:n = &Node{}|" +
			"passed nil-in-scope-value:n.Next = n|passed nil-in-scope-value:n.Next = last|passed nil-in-scope-value:n.Next = Default|passed nil-new-instance:n.Next = &Node{}|" +
			"passed nil-in-scope-value:last = n|passed nil-in-scope-value:last = Default|passed nil-new-instance:last = &Node{}"},
		{48, ""},
	}
	for _, tt := range tests {
		var site *Site
		for i, s := range f.prog.Sites {
			if s.Kind == Guard && s.Line == tt.line && strings.HasSuffix(s.File, "nf.go") {
				site = &f.prog.Sites[i]
				break
			}
		}
		if site == nil {
			t.Errorf("nf.go:%d: no guard site", tt.line)
			continue
		}
		var got []string
		for _, fx := range site.NilFixes {
			if !strings.HasPrefix(fx.Body, fx.Operand+" = ") {
				t.Errorf("nf.go:%d: fix %q does not assign its operand %q", tt.line, fx.Body, fx.Operand)
			}
			s := fx.Strategy + ":" + fx.Body
			if fx.Passed {
				s = "passed " + s
			}
			got = append(got, s)
		}
		if strings.Join(got, "|") != tt.want {
			t.Errorf("nf.go:%d `%s`: replacements\n%s\nwant\n%s", tt.line, site.Original, strings.Join(got, "|"), tt.want)
		}
	}
}
