package collect

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestObservedCalls: per kind of observed call, what a site observes.
func TestObservedCalls(t *testing.T) {
	f := load(t, "calls")
	s := f.prog.Sites[f.site(t, Cond, "c.go", 54)]
	calls := observedCalls(s)
	got := " " + strings.Join(calls, " | ") + " "
	for _, tc := range []struct {
		what, expr string
		want       bool
	}{
		{"a pure method", "n.IsLeaf()", true},
		{"a pure recursive method", "n.Depth()", true},
		{"a method that writes a field", "n.Touch()", false},
		{"a pure function of the package", "isSeparator(r)", true},
		{"a function that writes a package variable", "bump(r)", false},
		{"the site's own function", "Check(", false},
		{"math", "math.IsNaN(f)", true},
		{"unicode", "unicode.IsUpper(r)", true},
		{"strings, with the function's constants", `strings.Contains(s, "x")`, true},
		{"errors.Is with the package's sentinels", "errors.Is(err, ErrEmpty)", true},
	} {
		if strings.Contains(got, tc.expr) != tc.want {
			t.Errorf("%s: %s observed = %v, want %v; calls:%s", tc.what, tc.expr, !tc.want, tc.want, got)
		}
	}
	// Check calls math.IsNaN: that is the code's
	// own test; strings.Contains and unicode.IsUpper are nopol's guesses.
	for expr, want := range map[string]bool{"math.IsNaN(f)": false, `strings.Contains(s, "x")`: true, "unicode.IsUpper(r)": true, "n.IsLeaf()": false} {
		i := slices.IndexFunc(s.Observed, func(o Observed) bool { return o.Expr == expr })
		if i < 0 {
			t.Errorf("%s not observed", expr)
		} else if got := s.Observed[i].Invented; got != want {
			t.Errorf("%s: Invented = %v, want %v", expr, got, want)
		}
	}
	converted := false
	for _, o := range f.prog.Sites[f.site(t, Cond, "c.go", 62)].Observed {
		if strings.Contains(o.Expr, "(op)") {
			t.Errorf("%s observed: op is not a rune", o.Expr)
		}
		converted = converted || strings.Contains(o.Expr, "(string(label), prefix)")
	}
	if !converted {
		t.Errorf("no strings function of string(label) observed at Walk: a Label is converted")
	}
	skip := observedCalls(f.prog.Sites[f.site(t, Cond, "c.go", 74)])
	for _, want := range []string{"omit(o, r)", "seen[r]", "fields(t)"} {
		if !slices.Contains(skip, want) {
			t.Errorf("%s not observed (a function of two parameters, a map element, a method of reflect.Type); calls: %s", want, strings.Join(skip, " | "))
		}
	}
	if len(calls) > maxCalls {
		t.Errorf("%d calls, more than %d", len(calls), maxCalls)
	}
}

// TestCallsTestedFirst checks that a method the file tests in a
// condition is observed before methods it does not test, boolean or not,
// when the budget of calls cannot hold them all.
func TestCallsTestedFirst(t *testing.T) {
	f := load(t, "calls")
	for _, s := range f.prog.Sites {
		if s.Kind != Guard || s.Func != "Use" || !strings.HasPrefix(s.Original, "x++") {
			continue
		}
		var calls []string
		for _, o := range s.Observed {
			if o.Call && strings.HasPrefix(o.Expr, "b.") && strings.HasSuffix(o.Expr, "()") {
				calls = append(calls, o.Expr)
			}
		}
		if len(calls) == 0 || calls[0] != "b.Kind()" {
			t.Errorf("calls of b observed at Use: %q, want b.Kind() first", calls)
		}
		return
	}
	t.Fatal("no guard site x++ in Use")
}

// TestCallsOfSiteOperands checks that the operands a condition names
// take their turns first, with the calls the file makes or tests, when
// more operands than calls are in scope.
func TestCallsOfSiteOperands(t *testing.T) {
	f := load(t, "calls")
	for _, s := range f.prog.Sites {
		if s.Kind != Cond || s.Func != "Pick" {
			continue
		}
		calls := observedCalls(s)
		for _, want := range []string{"b.Lit()", "b.Kind()"} {
			if !slices.Contains(calls, want) {
				t.Errorf("%s not observed at Pick's b.k > 0; calls: %s", want, strings.Join(calls, " | "))
			}
		}
		if !slices.ContainsFunc(calls, func(e string) bool { return strings.HasPrefix(e, "n") }) {
			t.Errorf("no call of the other operands observed at Pick; calls: %s", strings.Join(calls, " | "))
		}
		return
	}
	t.Fatal("no condition site in Pick")
}

// TestPureAcrossPackages: a function that calls another package of the
// module is pure when that package's function is, though only the site's
// package is loaded from source.
func TestPureAcrossPackages(t *testing.T) {
	dir := extract(t, "calls")
	prog, err := Load(context.Background(), dir, []string{"./c"})
	if err != nil {
		t.Fatal(err)
	}
	f := &fixture{dir: dir, prog: prog}
	retract := observedCalls(prog.Sites[f.site(t, Cond, "c.go", 91)])
	if !slices.Contains(retract, "isCanonical(hi)") {
		t.Errorf("isCanonical(hi) not observed (pure through another package of the module); calls: %s", strings.Join(retract, " | "))
	}
	// Two parameters of one type: the arguments are named as the
	// parameters, or the call is not observed.
	if !slices.Contains(retract, "between(lo, hi)") || slices.ContainsFunc(retract, func(e string) bool { return strings.HasPrefix(e, "ordered(") || e == "between(hi, lo)" }) {
		t.Errorf("want between(lo, hi) observed, not between(hi, lo) nor ordered(...); calls: %s", strings.Join(retract, " | "))
	}
	if slices.ContainsFunc(retract, func(e string) bool { return strings.HasPrefix(e, "isCounted(") }) {
		t.Errorf("isCounted observed, but ver.Count writes a package variable; calls: %s", strings.Join(retract, " | "))
	}
}

// TestRunCalls: observed calls are evaluated in snapshot runs without
// changing the test's outcome; a call that panics (a nil receiver) or
// loops is a missing value.
func TestRunCalls(t *testing.T) {
	f := instrument(t, "calls")
	id := f.site(t, Cond, "c.go", 54)
	site := f.prog.Sites[id]
	res, err := f.build.Run(context.Background(), Run{Package: "example.com/calls/c", Test: "TestCheck", Mode: ModeSnapshot, Sites: []int{id}, ForceSegment: -1, Timeout: 30 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Passed {
		t.Fatalf("the test failed in the snapshot run:\n%s", res.Output)
	}
	index := map[string]int{}
	for i, o := range site.Observed {
		index[o.Expr] = i
	}
	var evals []Eval
	for _, e := range res.Evals {
		if e.Site == id {
			evals = append(evals, e)
		}
	}
	if len(evals) != 2 {
		t.Fatalf("%d evaluations, want 2: %+v\n%s", len(evals), res.Evals, res.Output)
	}
	value := func(e Eval, expr string) Value {
		i, ok := index[expr]
		if !ok {
			t.Fatalf("%s not observed", expr)
		}
		return e.Values[i]
	}
	nilNode, leaf := evals[0], evals[1]
	if v := value(nilNode, "n.Depth()"); !v.Missing {
		t.Errorf("n.Depth() on a nil node = %+v, want missing (it panics)", v)
	}
	if v := value(leaf, "n.Depth()"); v.Missing || v.Int != 1 {
		t.Errorf("n.Depth() = %+v, want 1", v)
	}
	if v := value(leaf, "n.IsLeaf()"); v.Missing || v.Bool {
		t.Errorf("n.IsLeaf() = %+v, want false", v)
	}

	if v := value(leaf, "unicode.IsUpper(r)"); v.Missing || !v.Bool {
		t.Errorf("unicode.IsUpper('A') = %+v", v)
	}
	if v := value(leaf, "math.IsNaN(f)"); v.Missing || !v.Bool {
		t.Errorf("math.IsNaN = %+v", v)
	}
	if v := value(leaf, "errors.Is(err, ErrEmpty)"); v.Missing || !v.Bool {
		t.Errorf("errors.Is = %+v", v)
	}
	// A call that never ends makes the snapshot run time out; run again
	// with the calls left out, it passes and the calls are missing.
	walk := f.site(t, Cond, "c.go", 62)
	index = map[string]int{}
	for i, o := range f.prog.Sites[walk].Observed {
		index[o.Expr] = i
	}
	run := Run{Package: "example.com/calls/c", Test: "TestCheck", Mode: ModeSnapshot, Sites: []int{walk}, ForceSegment: -1, Timeout: 3 * time.Second}
	res, err = f.build.Run(context.Background(), run)
	if err != nil || !res.TimedOut {
		t.Fatalf("walk: %v, timed out %v, want a timeout", err, res.TimedOut)
	}
	run.NoCalls = true
	res, err = f.build.Run(context.Background(), run)
	if err != nil || !res.Passed || len(res.Evals) != 1 {
		t.Fatalf("walk without calls: %v %+v", err, res)
	}
	if v := value(res.Evals[0], "n.IsLeaf()"); !v.Missing {
		t.Errorf("n.IsLeaf() = %+v without calls, want missing", v)
	}
	if v := value(res.Evals[0], "l.Spin()"); !v.Missing {
		t.Errorf("l.Spin() = %+v without calls, want missing", v)
	}
	f.checkUntouched(t)
}

// TestNoOpAndComparedErrors checks, at the guard sites around the
// assignments of Clear, the observed "x == v" of each (Observed.NoOp),
// last and no input of its own, with its value in a snapshot run; and
// "err == ErrFull", an error the package compares by identity (Full),
// and not errors.Is of it.
func TestNoOpAndComparedErrors(t *testing.T) {
	f := instrument(t, "calls")
	for _, tc := range []struct {
		line int
		noop string
		// values are the no-op's in TestClear's two calls.
		values []bool
	}{
		{147, "n.seen == 0", []bool{true, false}},
		{148, "err == nil", []bool{false, true}},
	} {
		id := f.site(t, Guard, "c.go", tc.line)
		site := f.prog.Sites[id]
		last := site.Observed[len(site.Observed)-1]
		if !last.NoOp || last.Expr != tc.noop || last.Kind != KindBool {
			t.Errorf("line %d: last observed %+v, want the no-op %s", tc.line, last, tc.noop)
		}
		var exprs []string
		for _, o := range site.Observed[:len(site.Observed)-1] {
			if o.NoOp {
				t.Errorf("line %d: %s is a no-op too", tc.line, o.Expr)
			}
			exprs = append(exprs, o.Expr)
		}
		if !slices.Contains(exprs, "err == ErrFull") || slices.Contains(exprs, "errors.Is(err, ErrFull)") {
			t.Errorf("line %d: err == ErrFull not observed, or errors.Is(err, ErrFull) too; observed: %s", tc.line, strings.Join(exprs, " | "))
		}
		res, err := f.build.Run(context.Background(), Run{Package: "example.com/calls/c", Test: "TestClear", Mode: ModeSnapshot, Sites: []int{id}, ForceSegment: -1, Timeout: 30 * time.Second})
		if err != nil || !res.Passed {
			t.Fatalf("line %d: snapshot run: %v\n%s", tc.line, err, res.Output)
		}
		var got []bool
		for _, e := range res.Evals {
			if e.Site == id {
				got = append(got, e.Values[len(e.Values)-1].Bool)
			}
		}
		if !slices.Equal(got, tc.values) {
			t.Errorf("line %d: %s recorded %v, want %v", tc.line, tc.noop, got, tc.values)
		}
	}
	// No no-op where the statement is no assignment of one value.
	use := f.prog.Sites[f.site(t, Guard, "c.go", 126)]
	if slices.ContainsFunc(use.Observed, func(o Observed) bool { return o.NoOp }) {
		t.Errorf("Use's x++ has a no-op")
	}
}

// TestWrittenCalls: a call the function writes with a package constant
// (containsOnly(s, digits)) is observed at its sites, pure through the
// function literal it passes to strings.IndexFunc; one whose literal
// writes a package variable (countsAll) is not. The return of the final
// else has the chain's conditions, negated, as its guard.
func TestWrittenCalls(t *testing.T) {
	f := load(t, "written")
	site := f.prog.Sites[f.site(t, Cond, "w.go", 22)]
	calls := observedCalls(site)
	for _, want := range []string{"containsOnly(s, digits)", "containsOnly(s, letters)"} {
		if !slices.Contains(calls, want) {
			t.Errorf("%s not observed at `%s`; calls: %s", want, site.Original, strings.Join(calls, " | "))
		}
	}
	if slices.ContainsFunc(calls, func(e string) bool { return strings.HasPrefix(e, "countsAll(") }) {
		t.Errorf("countsAll observed, but its literal writes a package variable; calls: %s", strings.Join(calls, " | "))
	}
	guard := guardSiteAt(t, f, "w.go", 33)
	if guard == nil {
		return
	}
	want := "!containsOnly(s, digits) && !(containsOnly(s, letters) && countsAll(s, letters))"
	for _, e := range guard.Exits {
		if e.Body == "return -1" {
			if e.Guard != want {
				t.Errorf("the guard of `return -1` is %q, want %q", e.Guard, want)
			}
			return
		}
	}
	t.Errorf("`return -1` is not an exit at w.go:33: %+v", guard.Exits)
}

// observedCalls are the expressions of the calls observed at s.
func observedCalls(s Site) []string {
	var calls []string
	for _, o := range s.Observed {
		if o.Call {
			calls = append(calls, o.Expr)
		}
	}
	return calls
}

// TestDynamicCalls: a call through an interface is observed when every
// implementation of the method is pure (pureDynamic).
func TestDynamicCalls(t *testing.T) {
	f := load(t, "dynamic")
	site := f.prog.Sites[f.site(t, Cond, "e.go", 16)]
	calls := observedCalls(site)
	for _, tc := range []struct {
		call string
		want bool
	}{
		{"pc.InLabel()", true}, // its one implementation reads a map
		{"pc.Depth()", true},   // and a length
		{"pc.Next()", false},   // increments a field
		{"src.Ready()", false}, // the test file's fake writes a package variable
	} {
		if got := slices.Contains(calls, tc.call); got != tc.want {
			t.Errorf("%s observed: %v, want %v; calls: %s", tc.call, got, tc.want, strings.Join(calls, " | "))
		}
	}
}
