package collect

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

// condSite returns the Cond site of function fn in fixture f.
func (f *fixture) condSite(t *testing.T, fn string) *Site {
	t.Helper()
	for i := range f.prog.Sites {
		if s := &f.prog.Sites[i]; s.Kind == Cond && s.Func == fn {
			return s
		}
	}
	t.Fatalf("no Cond site in %s", fn)
	return nil
}

// TestAtomsObserved checks which atoms of each condition are observed,
// first and with their source text.
func TestAtomsObserved(t *testing.T) {
	f := load(t, "atoms")
	for _, tt := range []struct {
		fn    string
		atoms []string // Expr:kind
	}{
		{"Addr", []string{"v.CanAddr():1"}},
		{"Size", []string{"v.Len() > 0:1", "v.Len():2"}},
		{"Both", []string{"v.CanAddr():1"}},
		{"Listy", []string{"v.Kind() == Slice:1", "v.Kind():2", "v.Kind() == Array:1"}},
		{"Either", []string{"a.CanAddr():1", "b.Len() > 0:1", "b.Len():2"}},
		{"Rec", []string{"Rec(n-1):1"}},
	} {
		s := f.condSite(t, tt.fn)
		var got []string
		for _, ob := range s.Observed[:min(len(tt.atoms), len(s.Observed))] {
			got = append(got, fmt.Sprintf("%s:%d", ob.Expr, ob.Kind))
			if ob.NilGuard != "" {
				t.Errorf("%s: %s has NilGuard %q", tt.fn, ob.Expr, ob.NilGuard)
			}
		}
		if strings.Join(got, " | ") != strings.Join(tt.atoms, " | ") {
			t.Errorf("%s: observed first %q, want %q", tt.fn, got, tt.atoms)
		}
		seen := map[string]bool{}
		for _, ob := range s.Observed {
			if seen[ob.Expr] {
				t.Errorf("%s: %s observed twice", tt.fn, ob.Expr)
			}
			seen[ob.Expr] = true
		}
	}
}

// TestAtomsRecorded checks the atoms' values as the condition evaluates
// them, missing when not reached, also when the site is forced, and that
// no call is made beyond those of the program (Calls, printed by the
// tests, is the same as in a plain run).
func TestAtomsRecorded(t *testing.T) {
	f := instrument(t, "atoms")
	for _, tt := range []struct {
		name, test, fn string
		force          *bool
		mode           Mode
		evals          []string // outcome then the atoms' values
		calls          string
		passed         bool
	}{
		{name: "plain", test: "TestAddr", fn: "Addr", calls: "calls=2", passed: true},
		{name: "call", test: "TestAddr", fn: "Addr", mode: ModeSnapshot, calls: "calls=2", passed: true,
			evals: []string{"false true", "true false"}},
		{name: "cover", test: "TestAddr", fn: "Addr", mode: ModeCover, calls: "calls=2", passed: true},
		{name: "forced cover", test: "TestAddr", fn: "Addr", mode: ModeCover, force: new(true), calls: "calls=0"},
		{name: "forced snapshot", test: "TestAddr", fn: "Addr", mode: ModeSnapshot, force: new(false), calls: "calls=2",
			evals: []string{"false true", "false false"}},
		{name: "int", test: "TestSize", fn: "Size", mode: ModeSnapshot, calls: "calls=2", passed: true,
			evals: []string{"true true 3", "false false 0"}},
		{name: "short-circuit", test: "TestBoth", fn: "Both", mode: ModeSnapshot, calls: "calls=1", passed: true,
			evals: []string{"false M", "true true"}},
		{name: "named int twice", test: "TestListy", fn: "Listy", mode: ModeSnapshot, calls: "calls=3", passed: true,
			evals: []string{"true false 2 true", "true true 1 M"}},
		{name: "plain panic", test: "TestEither", fn: "Either", calls: "calls=3", passed: true},
		{name: "panic unforced", test: "TestEither", fn: "Either", mode: ModeSnapshot, calls: "calls=3", passed: true,
			evals: []string{"true true M M"}},
		{name: "panic forced", test: "TestEither", fn: "Either", mode: ModeSnapshot, force: new(true), calls: "calls=3", passed: true,
			evals: []string{"true true M M", "true false M M"}},
		{name: "recursion", test: "TestRec", fn: "Rec", mode: ModeSnapshot, passed: true,
			evals: []string{"false M", "true true", "true true"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s := f.condSite(t, tt.fn)
			r := Run{Package: "example.com/atoms/p", Test: tt.test, Mode: tt.mode, ForceSegment: -1}
			if tt.mode == ModeSnapshot {
				r.Sites = []int{s.ID}
			}
			if tt.force != nil {
				r.Force = map[int]bool{s.ID: *tt.force}
			}
			res, err := f.build.Run(context.Background(), r)
			if err != nil {
				t.Fatal(err)
			}
			if res.Passed != tt.passed {
				t.Errorf("passed = %v, want %v\n%s", res.Passed, tt.passed, res.Output)
			}
			if tt.calls != "" && !strings.Contains(res.Output, tt.calls+"\n") {
				t.Errorf("want %s in the output:\n%s", tt.calls, res.Output)
			}
			if tt.mode != ModeSnapshot {
				return
			}
			natoms := len(strings.Fields(tt.evals[0])) - 1
			var got []string
			for _, ev := range res.Evals {
				if ev.Site != s.ID {
					continue
				}
				if len(ev.Values) != len(s.Observed) {
					t.Fatalf("%d values, want %d", len(ev.Values), len(s.Observed))
				}
				w := []string{fmt.Sprint(ev.Outcome)}
				for _, v := range ev.Values[:natoms] {
					switch {
					case v.Missing:
						w = append(w, "M")
					case v.Kind == KindBool:
						w = append(w, fmt.Sprint(v.Bool))
					case v.Kind == KindInt:
						w = append(w, fmt.Sprint(v.Int))
					default:
						w = append(w, fmt.Sprintf("%+v", v))
					}
				}
				got = append(got, strings.Join(w, " "))
			}
			if strings.Join(got, "\n") != strings.Join(tt.evals, "\n") {
				t.Errorf("evaluations:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tt.evals, "\n"))
			}
		})
	}
	f.checkUntouched(t)
}

// TestGenericsOK checks the language versions that get atoms.
func TestGenericsOK(t *testing.T) {
	for v, want := range map[string]bool{"": true, "go1.17": false, "go1.18": true, "go1.22": true, "go1.16.5": false} {
		if got := genericsOK(v); got != want {
			t.Errorf("genericsOK(%q) = %v, want %v", v, got, want)
		}
	}
}

// TestSiblingConstants checks that a condition comparing with a constant
// of another package gets the constants of that type the file uses, those
// of its function first.
func TestSiblingConstants(t *testing.T) {
	f := load(t, "atoms")
	s := f.condSite(t, "KListy")
	var got []string
	for _, c := range s.Constants {
		got = append(got, fmt.Sprintf("%s=%d", c.Expr, c.Value.Int))
	}
	if want := "k.Slice=1 k.Map=3 k.Array=2"; !strings.HasPrefix(strings.Join(got, " "), want) {
		t.Errorf("constants %q, want first %s", got, want)
	}
	if s := f.condSite(t, "Size"); len(s.Constants) > 0 && strings.HasPrefix(s.Constants[0].Expr, "k.") {
		t.Errorf("Size has sibling constants: %v", s.Constants)
	}
}

// TestCondConstants checks that a site keeps the named constants its
// condition reads, with their values, even past the cap on constants.
func TestCondConstants(t *testing.T) {
	f := load(t, "manyconsts")
	s := f.condSite(t, "Skip")
	got := map[string]int64{}
	for _, c := range s.Constants {
		got[c.Expr] = c.Value.Int
	}
	for expr, want := range map[string]int64{"p01": 1, "p43": 43, "p44": 44} {
		if v, ok := got[expr]; !ok || v != want {
			t.Errorf("constant %s: %d (present %v), want %d; constants %v", expr, v, ok, want, s.Constants)
		}
	}
	if n := len(s.Constants); n > maxConstants+2 {
		t.Errorf("%d constants, want at most %d: only those the condition reads past the cap", n, maxConstants+2)
	}
}

// TestFactorConstants checks that a literal written only as an operand
// of *, /, %, << or >> is a Factor, and one written elsewhere as well is
// not.
func TestFactorConstants(t *testing.T) {
	f := load(t, "atoms")
	s := f.condSite(t, "Decimal")
	got := map[string]bool{}
	for _, c := range s.Constants {
		got[c.Expr] = c.Factor
	}
	for expr, want := range map[string]bool{"10": true, "4": true, "9": true, "1e2": true, "7": false, "'0'": false, "0": false} {
		if factor, ok := got[expr]; !ok || factor != want {
			t.Errorf("constant %s: Factor %v (present %v), want %v", expr, factor, ok, want)
		}
	}
	// The observed numbers have their Go types; the constants of the
	// package theirs, the literals none.
	types := map[string]string{}
	for _, o := range s.Observed {
		types[o.Expr] = o.Type
	}
	for _, c := range s.Constants {
		types[c.Expr] = c.Type
	}
	for expr, want := range map[string]string{"v": "int", "len(b)": "int", "10": "", "Array": "example.com/atoms/p.Kind"} {
		if got, ok := types[expr]; !ok || got != want {
			t.Errorf("%s: type %q (present %v), want %q", expr, got, ok, want)
		}
	}
}

// TestFileAtoms checks that a site observes the atoms of the file's
// conditions over the parameters its function shares with theirs (by
// name and type), and not those that call an impure method.
func TestFileAtoms(t *testing.T) {
	f := load(t, "atoms")
	guard := func(fn string) map[string]bool {
		for _, s := range f.prog.Sites {
			if s.Kind == Guard && s.Func == fn {
				got := map[string]bool{}
				for _, o := range s.Observed {
					got[o.Expr] = o.Call
				}
				return got
			}
		}
		t.Fatalf("no Guard site in %s", fn)
		return nil
	}
	b := guard("FileB")
	if call, ok := b["n > 3"]; !ok || !call {
		t.Errorf("FileB: n > 3 observed %v (evaluated under recover %v), want both", ok, call)
	}
	if _, ok := b["v.CanAddr()"]; ok {
		t.Errorf("FileB observes v.CanAddr(), which writes Calls")
	}
	c := guard("FileC")
	for _, no := range []string{"n > 3", "v.addr"} {
		if _, ok := c[no]; ok {
			t.Errorf("FileC observes %s: its n is a string and it has no v", no)
		}
	}
}

// TestAtomsBeforeGenerics checks that a Go 1.16 module records its
// atoms of plain types with the non-generic hooks, and compiles.
func TestAtomsBeforeGenerics(t *testing.T) {
	f := instrument(t, "atomsold")
	s := f.condSite(t, "Size")
	var got []string
	for _, ob := range s.Observed[:3] {
		got = append(got, ob.Expr)
	}
	if want := "v.Len() > 0 | v.Len() | v.Kind() == 1"; strings.Join(got, " | ") != want {
		t.Errorf("observed first %q, want %s", got, want)
	}
	res, err := f.build.Run(context.Background(), Run{Package: "example.com/atomsold/p", Test: "TestSize", Mode: ModeSnapshot, Sites: []int{s.ID}, ForceSegment: -1})
	if err != nil {
		t.Fatal(err)
	}
	var evals []string
	for _, ev := range res.Evals {
		evals = append(evals, fmt.Sprintf("%v %v %d %v", ev.Outcome, ev.Values[0].Bool, ev.Values[1].Int, ev.Values[2].Bool))
	}
	if want := "true true 3 true, false false 0 false"; !res.Passed || strings.Join(evals, ", ") != want {
		t.Errorf("passed %v, evaluations %q, want %s\n%s", res.Passed, evals, want, res.Output)
	}
}

// TestSameLocalAndShadows: a check another function of the file makes
// over a local defined the same way (rv := reflect.ValueOf(x)) is
// observed; not where the local is defined otherwise. The pure calls of
// a condition have shadows, evaluated by the snapshot where a short
// circuit skips them.
func TestSameLocalAndShadows(t *testing.T) {
	f := load(t, "atoms")
	observed := func(fn string) map[string]Observed {
		got := map[string]Observed{}
		for _, o := range f.condSite(t, fn).Observed {
			if prev, ok := got[o.Expr]; ok && prev.Shadow == o.Shadow {
				t.Errorf("%s: %s observed twice", fn, o.Expr)
			}
			if o.Shadow {
				got["shadow "+o.Expr] = o
			} else {
				got[o.Expr] = o
			}
		}
		return got
	}
	set := observed("Set")
	for _, want := range []string{"rv.Len() > 1", "shadow rv.IsNil()", "shadow rv.Kind() != reflect.Slice", "rv.IsNil()"} {
		if _, ok := set[want]; !ok {
			t.Errorf("Set does not observe %s", want)
		}
	}
	if o := set["shadow rv.IsNil()"]; !o.Call {
		t.Errorf("Set: the shadow of rv.IsNil() is not a call")
	}
	for i, o := range f.condSite(t, "Set").Observed {
		if o.Shadow && i < len(f.condSite(t, "Set").Observed)-3 {
			t.Errorf("Set: shadow %s at %d, not after the other observed values", o.Expr, i)
		}
	}
	other := observed("Other")
	if _, ok := other["rv.Len() > 1"]; ok {
		t.Errorf("Other observes Long's rv.Len() > 1, but its rv is another value")
	}
}
