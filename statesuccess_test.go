package nopol

import (
	"go/parser"
	"go/token"
	"testing"

	"github.com/nopol-go/nopol/collect"
	"github.com/nopol-go/nopol/synth"
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

// TestErrorSwallowed: a zero-values guard just before `if err != nil`
// that leaves where err is not nil, without reading err, is rejected;
// one that tests err, leaves where err is nil, or returns an error is
// not.
func TestErrorSwallowed(t *testing.T) {
	spec := &synth.Spec{
		Inputs: []synth.Input{{Expr: "val == nil", Kind: synth.Bool}, {Expr: "err == nil", Kind: synth.Bool}, {Expr: "len(name)", Kind: synth.Int}},
		Examples: []synth.Example{
			{Values: []synth.Value{synth.BoolValue(false), synth.BoolValue(true), synth.IntValue(2)}, Want: false, Origin: "TestSet"},
			{Values: []synth.Value{synth.BoolValue(true), synth.BoolValue(false), synth.IntValue(2)}, Want: true, Origin: "TestEmpty"},
		},
	}
	site := collect.Site{Kind: collect.Guard, Original: "if err != nil { …", IfConds: []string{"err != nil"}}
	zero := style{name: "return", strategy: collect.StrategyZero, exit: "return nil, nil"}
	errNew := style{name: "return", strategy: collect.StrategyErrNew, exit: `return nil, errors.New("f: bad")`}
	for _, tc := range []struct {
		name string
		site collect.Site
		st   style
		cand string
		rule string
	}{
		{"the error dropped", site, zero, "val == nil", "error-swallowed"},
		{"err tested", site, zero, "val == nil && err != nil", ""},
		{"another error", site, errNew, "val == nil", ""},
		{"no error check after", collect.Site{Kind: collect.Guard, IfConds: []string{"val != nil"}}, zero, "val == nil", ""},
		{"err nil where it leaves", collect.Site{Kind: collect.Guard, IfConds: []string{"err != nil"}}, zero, "len(name) > 2", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			term, err := synth.ParseTerm(spec, tc.cand)
			if err != nil {
				t.Fatal(err)
			}
			sp := spec
			if tc.name == "err nil where it leaves" {
				c := *spec
				c.Examples = []synth.Example{spec.Examples[0], {Values: []synth.Value{synth.BoolValue(true), synth.BoolValue(true), synth.IntValue(3)}, Want: true, Origin: "TestLong"}}
				sp = &c
			}
			got := errorSwallowed(tc.site, tc.st, sp, candidate{src: tc.cand, term: term, method: "synthesis"})
			if ruleOf(got) != tc.rule {
				t.Errorf("errorSwallowed(%q) = %q, want rule %q", tc.cand, got, tc.rule)
			}
		})
	}
}
