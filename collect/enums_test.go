package collect

import (
	"slices"
	"testing"
)

// TestEnumNames checks that a Cond site lists the names of iota groups of
// three or more that its condition compares with, and another package's
// named values of a defined integer type, and no others.
func TestEnumNames(t *testing.T) {
	f := load(t, "enums")
	for _, tt := range []struct {
		line int
		want []string
	}{
		{25, []string{"prMid", "prQuote"}},
		{28, nil}, // small's group has two names; limit has no iota
		{54, []string{"reflect.String", "time.Second"}},
		{46, []string{"sbATerm"}},
	} {
		site := f.prog.Sites[f.site(t, Cond, "en.go", tt.line)]
		if !slices.Equal(site.EnumNames, tt.want) {
			t.Errorf("en.go:%d `%s`: EnumNames %q, want %q", tt.line, site.Original, site.EnumNames, tt.want)
		}
	}
}

// TestEnumGroups checks that a site's observed values carry the
// enumerations its function compares them with, and its constants the
// enumeration they belong to.
func TestEnumGroups(t *testing.T) {
	f := load(t, "enums")
	site := f.prog.Sites[f.site(t, Cond, "en.go", 46)]
	groups := map[string][]string{}
	for _, o := range site.Observed {
		groups[o.Expr] = o.Groups
	}
	if g := groups["state"]; !slices.Equal(g, []string{"sbAny"}) {
		t.Errorf("Groups of state = %q, want [sbAny] (compared with sbATerm and, in a switch, sbClose)", g)
	}
	if g, ok := groups["other"]; !ok || len(g) != 0 {
		t.Errorf("Groups of other = %q (observed %v), want none", g, ok)
	}
	want := map[string]string{"sbATerm": "sbAny", "prMid": "prXX", "limit": ""}
	for _, c := range site.Constants {
		if w, ok := want[c.Expr]; ok {
			if c.Group != w {
				t.Errorf("Group of constant %s = %q, want %q", c.Expr, c.Group, w)
			}
			delete(want, c.Expr)
		}
	}
	if len(want) > 0 {
		t.Errorf("constants not at the site: %v", want)
	}
}
