package nopol

import (
	"slices"
	"testing"

	"github.com/nopol-go/nopol/collect"
)

// TestGuessPredicates checks the predicates a per-evaluation guess
// forces, and their order: over what the original reads first, booleans,
// then integers against constants, then pairs; characters only equal to
// a character the code tests for equality, loop counters against no
// constant.
func TestGuessPredicates(t *testing.T) {
	tests := []struct {
		name string
		site collect.Site
		want []string
		// joined are those joined with the original (nil: not checked).
		joined []string
	}{
		{"an integer field",
			collect.Site{Kind: collect.Cond, Original: "n.child == 0", Observed: []collect.Observed{
				{Expr: "n.child", Kind: collect.KindInt, Type: "int32"},
				{Expr: "n == nil", Kind: collect.KindBool}}},
			[]string{"n.child == 0", "n.child != 0", "n.child < 0", "n.child >= 0", "n.child <= 0", "n.child > 0", "n == nil", "!(n == nil)"}, nil},
		{"the original's operands first",
			collect.Site{Kind: collect.Cond, Original: "ok", Observed: []collect.Observed{
				{Expr: "k", Kind: collect.KindInt, Type: "reflect.Kind", Enum: true},
				{Expr: "ok", Kind: collect.KindBool}},
				Constants: []collect.Constant{{Expr: "reflect.Slice", Value: collect.Value{Kind: collect.KindInt, Int: 23}, Type: "reflect.Kind"}, {Expr: "2", Value: collect.Value{Kind: collect.KindInt, Int: 2}}}},
			// k is not an operand of ok.
			[]string{"ok", "!(ok)", "k == 0", "k != 0", "k == reflect.Slice", "k != reflect.Slice", "k == 2", "k != 2"}, nil},
		{"an operand first",
			collect.Site{Kind: collect.Cond, Original: "!ok && n > 2", Observed: []collect.Observed{
				{Expr: "ok", Kind: collect.KindBool},
				{Expr: "x", Kind: collect.KindBool},
				{Expr: "n", Kind: collect.KindInt, Type: "int"}},
				Constants: []collect.Constant{{Expr: "2", Value: collect.Value{Kind: collect.KindInt, Int: 2}}}},
			[]string{"ok", "!(ok)", "n == 0", "n != 0", "n < 0", "n >= 0", "n <= 0", "n > 0", "n == 2", "n != 2", "n < 2", "n >= 2", "n <= 2", "n > 2", "x", "!(x)"}, nil},
		// A clause added: the original's operands compared with the
		// constants, then the other booleans, each joined both ways.
		{"joined with the original",
			collect.Site{Kind: collect.Cond, Original: "k == reflect.Slice || ok", Observed: []collect.Observed{
				{Expr: "k", Kind: collect.KindInt, Type: "reflect.Kind", Enum: true},
				{Expr: "h == nil", Kind: collect.KindBool}},
				Constants: []collect.Constant{{Expr: "reflect.Array", Value: collect.Value{Kind: collect.KindInt, Int: 17}, Type: "reflect.Kind"}}},
			[]string{"k == 0", "k != 0", "k == reflect.Array", "k != reflect.Array", "h == nil", "!(h == nil)"},
			[]string{
				"k == reflect.Slice || ok || k == 0", "(k == reflect.Slice || ok) && k == 0", "k == reflect.Slice || ok || k != 0", "(k == reflect.Slice || ok) && k != 0",
				"k == reflect.Slice || ok || k == reflect.Array", "(k == reflect.Slice || ok) && k == reflect.Array", "k == reflect.Slice || ok || k != reflect.Array", "(k == reflect.Slice || ok) && k != reflect.Array",
				"k == reflect.Slice || ok || h == nil", "(k == reflect.Slice || ok) && h == nil", "k == reflect.Slice || ok || !(h == nil)", "(k == reflect.Slice || ok) && !(h == nil)"}},
		{"a character, a loop counter, a pair",
			collect.Site{Kind: collect.Cond, Original: "s2[i-1] == s1[j-1]", LoopVars: []string{"i"}, Observed: []collect.Observed{
				{Expr: "s2[i-1]", Kind: collect.KindInt, Type: "rune", Char: true},
				{Expr: "s1[j-1]", Kind: collect.KindInt, Type: "rune", Char: true},
				{Expr: "i", Kind: collect.KindInt, Type: "int"}},
				Constants: []collect.Constant{{Expr: "'a'", Value: collect.Value{Kind: collect.KindInt, Int: 'a'}}, {Expr: "'z'", Value: collect.Value{Kind: collect.KindInt, Int: 'z'}, Bound: true}, {Expr: "10", Value: collect.Value{Kind: collect.KindInt, Int: 10}, Factor: true}}},
			[]string{
				"s2[i-1] == 'a'", "s2[i-1] != 'a'", "s2[i-1] == 'z'", "s2[i-1] != 'z'", "s2[i-1] < 'z'", "s2[i-1] >= 'z'", "s2[i-1] <= 'z'", "s2[i-1] > 'z'",
				"s1[j-1] == 'a'", "s1[j-1] != 'a'", "s1[j-1] == 'z'", "s1[j-1] != 'z'", "s1[j-1] < 'z'", "s1[j-1] >= 'z'", "s1[j-1] <= 'z'", "s1[j-1] > 'z'",
				"s2[i-1] == s1[j-1]", "s2[i-1] != s1[j-1]", "s2[i-1] < s1[j-1]", "s2[i-1] >= s1[j-1]", "s2[i-1] <= s1[j-1]", "s2[i-1] > s1[j-1]"}, nil},
	}
	for _, tt := range tests {
		var got, joined []string
		for _, p := range guessPredicates(tt.site) {
			if p.Combine != collect.CombineNone {
				joined = append(joined, predicateSource(tt.site, p))
				continue
			}
			got = append(got, predicateSource(tt.site, p))
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("%s:\n got %q\nwant %q", tt.name, got, tt.want)
		}
		if tt.joined != nil && !slices.Equal(joined, tt.joined) {
			t.Errorf("%s, joined:\n got %q\nwant %q", tt.name, joined, tt.joined)
		}
	}
}

// TestPredicateSourceOneLine: an original on several lines is joined
// into one with the spaces of its string literals kept, and kept on its
// lines when a comment is inside.
func TestPredicateSourceOneLine(t *testing.T) {
	p := collect.Predicate{Op: collect.PredBool, Combine: collect.CombineOr}
	for _, tc := range []struct{ orig, want string }{
		{"s == \"a  b\" ||\n\t\ts == \"c\"", "s == \"a  b\" || s == \"c\" || ok"},
		{"s == \"a  b\" || // the old name\n\t\ts == \"c\"", "s == \"a  b\" || // the old name\n\t\ts == \"c\" || ok"},
	} {
		site := collect.Site{Kind: collect.Cond, Original: tc.orig, Observed: []collect.Observed{{Expr: "ok", Kind: collect.KindBool}}}
		if got := predicateSource(site, p); got != tc.want {
			t.Errorf("predicateSource(`%s`) = %q, want %q", tc.orig, got, tc.want)
		}
	}
}
