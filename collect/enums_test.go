package collect

import (
	"slices"
	"testing"
)

// TestEnumNames checks that a Cond site lists the names of iota groups of
// three or more that its condition compares with, and no others.
func TestEnumNames(t *testing.T) {
	f := load(t, "enums")
	for _, tt := range []struct {
		line int
		want []string
	}{
		{20, []string{"prMid", "prQuote"}},
		{23, nil}, // small's group has two names; limit has no iota
	} {
		site := f.prog.Sites[f.site(t, Cond, "en.go", tt.line)]
		if !slices.Equal(site.EnumNames, tt.want) {
			t.Errorf("en.go:%d `%s`: EnumNames %q, want %q", tt.line, site.Original, site.EnumNames, tt.want)
		}
	}
}
