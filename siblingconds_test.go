package nopol

import (
	"testing"

	"github.com/nopol-go/nopol/collect"
)

// TestSiblingCond: the condition the copies of a function write at the
// same place, when they agree among themselves and not with the site.
func TestSiblingCond(t *testing.T) {
	cond := func(id int, fn string, line int, lines [2]int, src string) collect.Site {
		return collect.Site{ID: id, Kind: collect.Cond, File: "key.go", Func: fn, Line: line, FuncLines: lines, Original: src}
	}
	guard := func(id int, fn string, line int, lines [2]int) collect.Site {
		return collect.Site{ID: id, Kind: collect.Guard, File: "key.go", Func: fn, Line: line, FuncLines: lines, Original: "return val"}
	}
	sites := []collect.Site{
		cond(0, "Key.RangeFloat64", 3, [2]int{1, 7}, "val < min || val > max"), guard(1, "Key.RangeFloat64", 6, [2]int{1, 7}),
		cond(2, "Key.RangeInt", 13, [2]int{11, 17}, "val < min"), guard(3, "Key.RangeInt", 16, [2]int{11, 17}),
		cond(4, "Key.RangeInt64", 23, [2]int{21, 27}, "val < min || val > max"), guard(5, "Key.RangeInt64", 26, [2]int{21, 27}),
		// One word from RangeInt but no copy: another length.
		cond(6, "Key.MustInt", 33, [2]int{31, 40}, "err != nil"), guard(7, "Key.MustInt", 36, [2]int{31, 40}),
		// Copies that disagree among themselves.
		cond(8, "Key.InFloat64", 43, [2]int{41, 47}, "val == a"),
		cond(9, "Key.InInt", 53, [2]int{51, 57}, "val == b"),
		cond(10, "Key.InInt64", 63, [2]int{61, 67}, "val == c"),
		// Another receiver.
		cond(11, "File.RangeUint", 73, [2]int{71, 77}, "val < min && ok"), guard(12, "File.RangeUint", 76, [2]int{71, 77}),
		// A long condition, on two lines in a copy.
		cond(13, "Key.StartSequence", 83, [2]int{81, 87}, "e.flowLevel > 0 || e.canonical || e.seqStyle == flowStyle"),
		cond(14, "Key.StartMapping", 93, [2]int{91, 97}, "e.flowLevel > 0 || e.canonical ||\n\te.mapStyle == flowStyle || e.isEmptyMapping()"),
		cond(15, "Key.StartMappings", 103, [2]int{101, 107}, "e.flowLevel > 0 || e.canonical ||\n\te.mapStyle == flowStyle || e.isEmptyMapping()"),
		// A string literal with two spaces, and a comment, in the copies.
		cond(16, "Key.QuoteInt", 113, [2]int{111, 118}, "s == \"a\""),
		cond(17, "Key.QuoteInt64", 123, [2]int{121, 128}, "s == \"a  b\" ||\n\ts == \"c\""),
		cond(18, "Key.QuoteFloat64", 133, [2]int{131, 138}, "s == \"a  b\" ||\n\ts == \"c\""),
		cond(19, "Key.TrimText", 143, [2]int{141, 147}, "s == \"a\""),
		cond(20, "Key.TrimTexts", 153, [2]int{151, 157}, "s == \"a  b\" || // old\n\ts == \"c\""),
		cond(21, "Key.TrimTextAll", 163, [2]int{161, 167}, "s == \"a  b\" || // old\n\ts == \"c\""),
	}
	for _, tc := range []struct {
		id   int
		want string
	}{
		{2, "val < min || val > max"},
		{0, ""}, // RangeInt64 agrees with it
		{6, ""},
		{9, ""},
		{11, ""},
		{13, "e.flowLevel > 0 || e.canonical || e.mapStyle == flowStyle || e.isEmptyMapping()"},
		{16, "s == \"a  b\" || s == \"c\""},
		{19, "s == \"a  b\" || // old\n\ts == \"c\""},
	} {
		if got := siblingCond(sites, sites[tc.id]); got != tc.want {
			t.Errorf("siblingCond(%s `%s`) = %q, want %q", sites[tc.id].Func, sites[tc.id].Original, got, tc.want)
		}
	}
}
