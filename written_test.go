package nopol

import (
	"strings"
	"testing"

	"github.com/nopol-go/nopol/collect"
)

func TestWrittenFirst(t *testing.T) {
	sites := []collect.Site{
		{ID: 0, Kind: collect.Cond, File: "ast.go", Original: "n.child < 0"},
		{ID: 1, Kind: collect.Cond, File: "ast.go", Original: "n.next == 0"},
		{ID: 2, Kind: collect.Cond, File: "reader.go", Original: "r.pos.Start >= 0 && r.pos.Start > r.sourceLength"},
		{ID: 3, Kind: collect.Cond, File: "reader.go", Original: "r.pos.Start >= 0 && r.pos.Start < r.sourceLength"},
		{ID: 4, Kind: collect.Cond, File: "other.go", Original: "n.child == 0"},
		{ID: 5, Kind: collect.Cond, File: "reader.go", Original: "x > y"},
		{ID: 6, Kind: collect.Cond, File: "decode.go", Original: "!(k == iface || rv.NumMethod() == 0)"},
		{ID: 7, Kind: collect.Cond, File: "decode.go", Original: "rv.NumMethod() > 0"},
		{ID: 8, Kind: collect.Cond, File: "parser.go", Original: "i+1 < len(b) || b[i+1] == '\\n'"},
		{ID: 9, Kind: collect.Cond, File: "parser.go", Original: "j+1 < len(b) && b[j+1] == '\\n'"},
		{ID: 10, Kind: collect.Cond, File: "parser.go", Original: "i+1 >= len(b) || !isInRange(b[i+1])"},
	}
	cands := func(method string, srcs ...string) []candidate {
		var out []candidate
		for _, s := range srcs {
			out = append(out, candidate{src: s, method: method})
		}
		return out
	}
	// pointToRange are mutants that make an equality an ordering, as
	// mutantsOf marks them.
	pointToRange := func(srcs ...string) []candidate {
		out := cands("mutation", srcs...)
		for i := range out {
			out[i].pointToRange = true
		}
		return out
	}
	for _, tc := range []struct {
		site  int
		cands []candidate
		want  string
	}{
		// n.next == 0 is n.child == 0 with one name replaced.
		{0, cands("mutation", "n.child >= 0", "n.child <= 0", "n.child == 0"), "n.child == 0* | n.child >= 0 | n.child <= 0"},
		// Peek's comparison as written; the unchanged r.pos.Start >= 0 does not count.
		{2, cands("mutation", "r.pos.Start >= 0 && r.pos.Start != r.sourceLength", "r.pos.Start >= 0 && r.pos.Start < r.sourceLength"),
			"r.pos.Start >= 0 && r.pos.Start < r.sourceLength* | r.pos.Start >= 0 && r.pos.Start != r.sourceLength"},
		// Another file's conditions do not count, nor the site's own.
		{4, cands("mutation", "n.child != 0", "n.child < 0"), "n.child != 0 | n.child < 0"},
		// Bounds candidates keep their place before the mutants.
		{5, append(cands("bounds", "x > y && ok"), cands("mutation", "x <= y", "x < y")...), "x > y && ok | x <= y | x < y"},
		// An equality made an ordering stays after the other mutants,
		// though the file writes it; it goes first among those.
		{6, append(cands("mutation", "!(k == iface && rv.NumMethod() == 0)"), pointToRange("!(k == iface || rv.NumMethod() < 0)", "!(k == iface || rv.NumMethod() > 0)")...),
			"!(k == iface && rv.NumMethod() == 0) | !(k == iface || rv.NumMethod() > 0)* | !(k == iface || rv.NumMethod() < 0)"},
		// An && the file writes (with one name in place of another)
		// before a comparison it writes (go-toml's seeded
		// parseMultilineBasicString).
		{8, cands("mutation", "i+1 >= len(b) || b[i+1] == '\\n'", "i+1 < len(b) && b[i+1] == '\\n'", "i+1 <= len(b) || b[i+1] == '\\n'"),
			"i+1 < len(b) && b[i+1] == '\\n'* | i+1 >= len(b) || b[i+1] == '\\n'* | i+1 <= len(b) || b[i+1] == '\\n'"},
	} {
		var got []string
		for _, c := range writtenFirst(sites[tc.site], sites, tc.cands) {
			if c.written {
				c.src += "*"
			}
			got = append(got, c.src)
		}
		if g := strings.Join(got, " | "); g != tc.want {
			t.Errorf("writtenFirst at %s:\n got %s\nwant %s", sites[tc.site].Original, g, tc.want)
		}
	}
}
