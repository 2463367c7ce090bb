package nopol

import (
	"slices"
	"testing"

	"github.com/nopol-go/nopol/collect"
)

// TestErrorTestedFirst: at an exit that returns an error variable, the
// candidates whose every clause reads it come first, each group in its
// order; elsewhere the order stays.
func TestErrorTestedFirst(t *testing.T) {
	site := collect.Site{Kind: collect.Guard, Exits: []collect.Exit{
		{Body: "return err", Strategy: collect.StrategyVar, Err: "err"},
		{Body: "return nil, ErrShort", Strategy: collect.StrategyErrSentinel},
	}}
	ret := style{name: "return", guard: collect.GuardExit(0), exit: "return err"}
	tests := []struct {
		name  string
		st    style
		cands []string
		want  []string
	}{
		{"mux's walk", ret,
			[]string{"err != nil && t.handler == nil", "err != SkipRouter && err != nil"},
			[]string{"err != SkipRouter && err != nil", "err != nil && t.handler == nil"}},
		{"stable within each group", ret,
			[]string{"t.handler == nil", "err != nil", "x > 0 || err == nil", "!(err == io.EOF) && errors.Is(err, fs.ErrNotExist)"},
			[]string{"err != nil", "!(err == io.EOF) && errors.Is(err, fs.ErrNotExist)", "t.handler == nil", "x > 0 || err == nil"}},
		{"a field named err of another value is not the error", ret,
			[]string{"p.err != nil", "err != nil"},
			[]string{"err != nil", "p.err != nil"}},
		{"none reads only err: the order stays", ret,
			[]string{"t.handler == nil", "err != nil && n > 0"},
			[]string{"t.handler == nil", "err != nil && n > 0"}},
		{"an exit with no error variable", style{name: "return", guard: collect.GuardExit(1), exit: "return nil, ErrShort"},
			[]string{"n > 0", "err != nil"},
			[]string{"n > 0", "err != nil"}},
		{"a guard around the statement", style{name: "guard"},
			[]string{"n > 0", "err != nil"},
			[]string{"n > 0", "err != nil"}},
	}
	for _, tc := range tests {
		var cands []candidate
		for _, src := range tc.cands {
			cands = append(cands, candidate{src: src, method: "synthesis"})
		}
		var got []string
		for _, c := range errorTestedFirst(site, tc.st, cands) {
			got = append(got, c.src)
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s:\n got %q\nwant %q", tc.name, got, tc.want)
		}
	}
}
