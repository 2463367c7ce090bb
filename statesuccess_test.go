package nopol

import (
	"go/parser"
	"go/token"
	"testing"

	"github.com/nopol-go/nopol/collect"
)

// TestStateSuccess: a zero-values guard that makes a method with
// parameters succeed on its receiver's state alone is rejected; one
// that reads a parameter or a local, tests the receiver's nil-ness,
// returns an error, or sits in a function without parameters or without
// an error result is not.
func TestStateSuccess(t *testing.T) {
	const src = `package p

func (f *FlagSet) GetIP(name string) (net.IP, error) {
	val, err := f.getFlagType(name, "ip", ipConv)
	if err != nil {
		return nil, err
	}
	return val.(net.IP), nil
}

func (c *Color) unset() error {
	Unset()
	return nil
}

func (c *Color) Set(n int) *Color {
	c.n = n
	return c
}

func GetIP(f *FlagSet, name string) (net.IP, error) {
	return f.get(name)
}
`
	fset := token.NewFileSet()
	file, err := parser.ParseFile(fset, "flag.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	zero := style{name: "return", strategy: collect.StrategyZero, exit: "return nil, nil"}
	errNew := style{name: "return", strategy: collect.StrategyErrNew, exit: `return nil, errors.New("f: bad")`}
	wrap := style{name: "guard", strategy: collect.StrategySkip}
	for _, tc := range []struct {
		name string
		line int
		st   style
		cand string
		rule string
	}{
		{"receiver state", 4, zero, "len(f.actual) == 0", "state-success"},
		{"receiver method", 4, zero, "!f.Parsed()", "state-success"},
		{"a parameter", 4, zero, `name == ""`, ""},
		{"a parameter and the receiver", 4, zero, `len(f.actual) == 0 && name == ""`, ""},
		{"a local", 8, zero, "val == nil", ""},
		{"the receiver's nil-ness", 4, zero, "f == nil || len(f.actual) == 0", ""},
		{"package state", 4, zero, "CommandLine == nil", ""},
		{"an error", 4, errNew, "len(f.actual) == 0", ""},
		{"a wrapping guard", 4, wrap, "len(f.actual) == 0", ""},
		{"no parameters", 12, zero, "c.isNoColorSet()", ""},
		{"no error result", 17, zero, "c.isNoColorSet()", ""},
		{"no receiver", 22, zero, "len(f.actual) == 0", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			site := collect.Site{Kind: collect.Guard, Func: "FlagSet.GetIP", Line: tc.line}
			got := stateSuccess(fset, file, site, tc.st, candidate{src: tc.cand, method: "synthesis"})
			if ruleOf(got) != tc.rule {
				t.Errorf("stateSuccess(%q) = %q, want rule %q", tc.cand, got, tc.rule)
			}
		})
	}
	if got := stateSuccess(fset, nil, collect.Site{Kind: collect.Guard, Line: 4}, zero, candidate{src: "len(f.actual) == 0"}); got != "" {
		t.Errorf("without a parsed file: %q", got)
	}
}
