package collect

import (
	"context"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/nopol-go/nopol/internal/constituent"
)

func TestCancelled(t *testing.T) {
	f := load(t, "crash")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if b, err := Instrument(ctx, f.prog); err == nil {
		b.Close()
		t.Fatal("Instrument with a cancelled context succeeded")
	}
	site := f.prog.Sites[0]
	if s, err := BuildSchema(ctx, f.prog, site, 0, []string{"true"}); err == nil {
		s.Close()
		t.Fatal("BuildSchema with a cancelled context succeeded")
	}
	if _, err := VerifyPatch(ctx, f.prog, site.File, []byte("package p\n"), time.Minute); err == nil {
		t.Fatal("VerifyPatch with a cancelled context succeeded")
	}
	// TestMain checks that no temp dir is left.
}

func TestBaseline(t *testing.T) {
	f := load(t, "basic")
	res, err := Baseline(context.Background(), f.prog, time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	got := outcomes(res)
	want := "TestAbs:false TestAbsNegative:false TestWithdraw:true TestCount:true TestCountMany:true TestClamp:true TestExternal:true ExampleClamp:true"
	if got != want {
		t.Errorf("baseline = %s\nwant %s", got, want)
	}
	if !strings.Contains(res[1].Output, "calc_test.go:17: Abs(-5) = -5") {
		t.Errorf("TestAbsNegative output lacks the failure: %q", res[1].Output)
	}
	f.checkUntouched(t)
}

func TestInstrumentPlainSameOutcomes(t *testing.T) {
	f := instrument(t, "basic")
	base, err := Baseline(context.Background(), f.prog, time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range base {
		res, err := f.build.Run(context.Background(), Run{Package: b.Package, Test: b.Test, Mode: ModeCover, ForceSegment: -1})
		if err != nil {
			t.Fatal(err)
		}
		if res.Passed != b.Passed {
			t.Errorf("%s: instrumented passed=%v, plain %v\n%s", b.Test, res.Passed, b.Passed, res.Output)
		}
		if len(res.Reached) == 0 {
			t.Errorf("%s: reached no site", b.Test)
		}
	}
	f.checkUntouched(t)
}

func TestRun(t *testing.T) {
	f := instrument(t, "basic")
	const pkg = "example.com/basic/calc"
	abs := f.site(t, Cond, "calc.go", 13)
	withdraw := f.site(t, Cond, "calc.go", 29)
	balance := f.site(t, Guard, "calc.go", 30)
	count := f.site(t, Cond, "calc.go", 40)
	clamp := f.site(t, Guard, "calc.go", 50)
	zero := f.exit(t, clamp, StrategyZero)
	tests := []struct {
		name     string
		run      Run
		passed   bool
		timedOut bool
		check    func(t *testing.T, res Result)
	}{
		{"plain failing", Run{Test: "TestAbsNegative"}, false, false, func(t *testing.T, res Result) {
			if res.Reached[abs] != [2]int{1, 0} {
				t.Errorf("reached = %v", res.Reached[abs])
			}
			if !strings.Contains(res.Output, "calc_test.go:17: Abs(-5) = -5") {
				t.Errorf("output lacks the original file:line:\n%s", res.Output)
			}
		}},
		{"forcing flips", Run{Test: "TestAbsNegative", Force: map[int]bool{abs: true}}, true, false, func(t *testing.T, res Result) {
			var evals []Eval
			for _, e := range res.Evals {
				if e.Site == abs {
					evals = append(evals, e)
				}
			}
			if len(evals) != 1 || !evals[0].Outcome || evals[0].Values != nil || evals[0].Segment != 0 {
				t.Errorf("evals = %+v", res.Evals)
			}
		}},
		{"snapshot", Run{Test: "TestAbsNegative", Mode: ModeSnapshot, Sites: []int{abs}}, false, false, func(t *testing.T, res Result) {
			if len(res.Evals) != 1 {
				t.Fatalf("evals = %+v", res.Evals)
			}
			// x, Calls, then the pure calls Clamp(x), Count(x),
			// generated(x): observing them records nothing more (Count
			// has a site of its own) and changes nothing.
			want := []Value{{Kind: KindInt, Int: -5}, {Kind: KindInt, Int: 1}, {Kind: KindInt, Int: -5}, {Kind: KindInt, Int: 0}, {Kind: KindInt, Int: -5}}
			if fmt.Sprint(res.Evals[0].Values) != fmt.Sprint(want) {
				t.Errorf("values = %v, want %v", res.Evals[0].Values, want)
			}
		}},
		// x < 0, the fix, forced at every evaluation: it reads x, the
		// first observed value.
		{"predicate", Run{Test: "TestAbsNegative", Mode: ModeSnapshot, Sites: []int{abs}, Predicates: map[int]Predicate{abs: {Index: 0, Op: PredLess, Other: -1}}}, true, false, func(t *testing.T, res Result) {
			if len(res.Evals) != 1 || !res.Evals[0].Outcome || res.Evals[0].Values[0].Int != -5 {
				t.Errorf("evals = %+v, want x = -5 recorded with the outcome true", res.Evals)
			}
		}},
		// Evaluation 0 negates every evaluation: !(x > 0) holds at -5,
		// as the fix does; so in a snapshot run, the negated outcome
		// recorded with the values.
		{"every evaluation negated", Run{Test: "TestAbsNegative", FlipEval: map[int][]int{abs: {0}}}, true, false, nil},
		{"every evaluation negated, snapshot", Run{Test: "TestAbsNegative", Mode: ModeSnapshot, Sites: []int{abs}, FlipEval: map[int][]int{abs: {0}}}, true, false, func(t *testing.T, res Result) {
			if len(res.Evals) != 1 || !res.Evals[0].Outcome || res.Evals[0].Values[0].Int != -5 {
				t.Errorf("evals = %+v, want x = -5 recorded with the outcome true", res.Evals)
			}
		}},
		// -2, 3 and 0: each outcome negated, -2 and 0 true.
		{"every evaluation negated, three evaluations", Run{Test: "TestAbs", FlipEval: map[int][]int{abs: {0}}}, true, false, func(t *testing.T, res Result) {
			if res.Reached[abs] != [2]int{1, 2} {
				t.Errorf("reached = %v, want 1 false and 2 true", res.Reached[abs])
			}
		}},
		{"predicate negated", Run{Test: "TestAbsNegative", Mode: ModeSnapshot, Sites: []int{abs}, Predicates: map[int]Predicate{abs: {Index: 0, Op: PredLess, Other: -1, Negate: true}}}, false, false, nil},
		// Joined with the original x > 0: x > 0 || x < 0 holds at -5,
		// x > 0 && x < 0 does not.
		{"predicate or original", Run{Test: "TestAbsNegative", Mode: ModeSnapshot, Sites: []int{abs}, Predicates: map[int]Predicate{abs: {Index: 0, Op: PredLess, Other: -1, Combine: CombineOr}}}, true, false, func(t *testing.T, res Result) {
			if len(res.Evals) != 1 || !res.Evals[0].Outcome {
				t.Errorf("evals = %+v, want the outcome true", res.Evals)
			}
		}},
		{"predicate and original", Run{Test: "TestAbsNegative", Mode: ModeSnapshot, Sites: []int{abs}, Predicates: map[int]Predicate{abs: {Index: 0, Op: PredLess, Other: -1, Combine: CombineAnd}}}, false, false, nil},
		// A value the predicate reads is missing: the condition as
		// written decides.
		{"predicate reads nothing", Run{Test: "TestAbsNegative", Mode: ModeSnapshot, Sites: []int{abs}, Predicates: map[int]Predicate{abs: {Index: 99, Op: PredLess, Other: -1}}}, false, false, nil},
		{"nil field missing", Run{Test: "TestWithdraw", Mode: ModeSnapshot, Sites: []int{withdraw}}, true, false, func(t *testing.T, res Result) {
			if len(res.Evals) != 2 {
				t.Fatalf("evals = %+v", res.Evals)
			}
			// a != nil, a.Balance >= n, a.Balance, n, a == nil, a.Name, Calls
			v := res.Evals[1].Values
			if v[0].Bool || !v[2].Missing || v[3].Int != 3 || !v[4].Bool || !v[5].Missing {
				t.Errorf("values with a nil account = %+v", v)
			}
			if w := res.Evals[0].Values; w[2].Missing || w[2].Int != 10 || w[5].Str != "x" {
				t.Errorf("values with an account = %+v", w)
			}
			if res.Evals[0].Segment != 2 || res.Evals[1].Segment != 3 {
				t.Errorf("segments = %d, %d, want 2, 3", res.Evals[0].Segment, res.Evals[1].Segment)
			}
		}},
		{"cover by constituent", Run{Test: "TestWithdraw"}, true, false, func(t *testing.T, res Result) {
			// A quiet site: its record for segment 2 is written when
			// segment 3 starts, its evaluation in segment 3, the last,
			// is read from the counts file.
			var got []string
			for _, e := range res.Evals {
				if e.Site == withdraw {
					got = append(got, fmt.Sprintf("%v@%d.%d", e.Outcome, e.Segment, e.Iteration))
				}
			}
			if want := []string{"true@2.0", "false@3.0"}; !slices.Equal(got, want) {
				t.Errorf("evaluations of Withdraw's condition = %v, want %v", got, want)
			}
			if res.Reached[withdraw] != [2]int{1, 1} {
				t.Errorf("reached = %v, want [1 1]", res.Reached[withdraw])
			}
		}},
		{"guard skip", Run{Test: "TestWithdraw", Force: map[int]bool{balance: false}}, false, false, func(t *testing.T, res Result) {
			if res.Reached[balance] != [2]int{1, 0} {
				t.Errorf("reached = %v", res.Reached[balance])
			}
		}},
		{"guard return", Run{Test: "TestClamp", Force: map[int]bool{clamp: false}, ForceExit: map[int]int{clamp: zero}}, false, false, nil},
		{"example", Run{Test: "ExampleClamp"}, true, false, nil},
		{"example guard return", Run{Test: "ExampleClamp", Force: map[int]bool{clamp: false}, ForceExit: map[int]int{clamp: zero}}, false, false, nil},
		{"external", Run{Test: "TestExternal"}, true, false, nil},
		{"endless loop", Run{Test: "TestCount", Force: map[int]bool{count: false}, Timeout: 2 * time.Second}, false, true, func(t *testing.T, res Result) {
			if res.Duration > 10*time.Second {
				t.Errorf("took %v", res.Duration)
			}
		}},
		{"endless loop, stacks", Run{Test: "TestCount", Force: map[int]bool{count: false}, Timeout: 2 * time.Second, StackOnTimeout: true}, false, true, func(t *testing.T, res Result) {
			if !strings.Contains(res.Output, "panic: test timed out after 1.5s") || !strings.Contains(res.Output, "goroutine ") {
				t.Errorf("no test timeout's stacks in the output:\n%s", res.Output)
			}
		}},
		{"subtest", Run{Test: "TestAbs", Subtest: "TestAbs/#02"}, true, false, nil},
		{"snapshot cap", Run{Test: "TestCountMany", Mode: ModeSnapshot, Sites: []int{count}}, true, false, func(t *testing.T, res Result) {
			if len(res.Evals) != 200 {
				t.Errorf("%d evals, want the cap of 200", len(res.Evals))
			}
			// Exact counts (the mapped NOPOL_COUNTS), not a power of two.
			if r := res.Reached[count]; r != [2]int{1000, 1} {
				t.Errorf("reached = %v, want [1000 1]", r)
			}
		}},
		{"cover lines", Run{Test: "TestCountMany"}, true, false, func(t *testing.T, res Result) {
			n := 0
			for _, e := range res.Evals {
				if e.Site == count {
					n++
				}
			}
			if n != 2 {
				t.Errorf("%d cover evals of the loop condition, want one per outcome", n)
			}
			if r := res.Reached[count]; r != [2]int{1000, 1} {
				t.Errorf("reached = %v, want [1000 1]", r)
			}
		}},
		{"failing subtest", Run{Test: "TestAbs", Subtest: "TestAbs/#00"}, false, false, nil},
		{"segment forcing elsewhere", Run{Test: "TestAbsNegative", Force: map[int]bool{abs: true}, ForceSegment: 5}, false, false, nil},
		{"segment forcing", Run{Test: "TestAbsNegative", Force: map[int]bool{abs: true}, ForceSegment: 0}, true, false, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.run.Package = pkg
			if tt.run.Mode == 0 {
				tt.run.Mode = ModeCover
			}
			if tt.run.ForceSegment == 0 && !strings.HasPrefix(tt.name, "segment") {
				tt.run.ForceSegment = -1
			}
			res, err := f.build.Run(context.Background(), tt.run)
			if err != nil {
				t.Fatal(err)
			}
			if res.Passed != tt.passed || res.TimedOut != tt.timedOut {
				t.Errorf("passed=%v timedOut=%v, want %v %v\n%s", res.Passed, res.TimedOut, tt.passed, tt.timedOut, res.Output)
			}
			if tt.check != nil {
				tt.check(t, res)
			}
		})
	}
	f.checkUntouched(t)
}

func TestCrash(t *testing.T) {
	f := instrument(t, "crash")
	base, err := Baseline(context.Background(), f.prog, time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	if g := outcomes(base); g != "TestA:true TestPanics:false TestB:true TestNameNil:false" {
		t.Errorf("baseline = %s", g)
	}
	// VerifyPatch sees every failing test, even after a crash.
	file := filepath.Join(f.dir, "p", "p.go")
	orig, _ := os.ReadFile(file)
	vr, err := VerifyPatch(context.Background(), f.prog, file, orig, time.Minute)
	if err != nil || strings.Join(vr.Failed, " ") != "TestPanics TestNameNil" {
		t.Errorf("VerifyPatch of the original: %v %+v", err, vr)
	}
	// Forcing a condition that panics does not evaluate it.
	name := f.site(t, Cond, "p.go", 17)
	res, err := f.build.Run(context.Background(), Run{Package: "example.com/crash/p", Test: "TestNameNil", Force: map[int]bool{name: false}, ForceSegment: -1})
	if err != nil || !res.Passed {
		t.Errorf("forced TestNameNil: %v %+v", err, res)
	}
	site := f.site(t, Cond, "p.go", 6)
	res, err = f.build.Run(context.Background(), Run{Package: "example.com/crash/p", Test: "TestPanics", Mode: ModeSnapshot, Sites: []int{site}, ForceSegment: -1})
	if err != nil {
		t.Fatal(err)
	}
	if res.Passed || res.TimedOut || !strings.Contains(res.Output, "index out of range") {
		t.Errorf("passed=%v timedOut=%v output:\n%s", res.Passed, res.TimedOut, res.Output)
	}
	if len(res.Evals) != 1 || res.Evals[0].Outcome {
		t.Errorf("evals before the panic = %+v", res.Evals)
	}
	f.checkUntouched(t)
}

// TestStackLimit checks the stack limits of instrumented runs: a runaway
// recursion overflows at 256 MB, at 32 MB with StackOnTimeout (whose
// stack is read for the recursion), and a recursion 10000 calls deep
// passes with either.
func TestStackLimit(t *testing.T) {
	f := instrument(t, "recursion")
	const pkg = "example.com/recursion/r"
	tests := []struct {
		run    Run
		passed bool
		limit  string
	}{
		{Run{Test: "TestDeep"}, true, ""},
		{Run{Test: "TestDeep", StackOnTimeout: true}, true, ""},
		{Run{Test: "TestNegative"}, false, "goroutine stack exceeds 268435456-byte limit"},
		{Run{Test: "TestNegative", StackOnTimeout: true}, false, "goroutine stack exceeds 33554432-byte limit"},
	}
	for _, tt := range tests {
		tt.run.Package, tt.run.Mode, tt.run.ForceSegment, tt.run.Timeout = pkg, ModeCover, -1, time.Minute
		res, err := f.build.Run(context.Background(), tt.run)
		if err != nil {
			t.Fatal(err)
		}
		if res.Passed != tt.passed || res.TimedOut {
			t.Errorf("%s (StackOnTimeout %v): passed=%v timedOut=%v, want passed=%v\n%s", tt.run.Test, tt.run.StackOnTimeout, res.Passed, res.TimedOut, tt.passed, res.Output)
		}
		if tt.limit != "" && (!strings.Contains(res.Output, tt.limit) || !strings.Contains(res.Output, "fatal error: stack overflow")) {
			t.Errorf("%s (StackOnTimeout %v): no %q in the output:\n%.2000s", tt.run.Test, tt.run.StackOnTimeout, tt.limit, res.Output)
		}
	}
	f.checkUntouched(t)
}

func TestRunConcurrent(t *testing.T) {
	f := instrument(t, "basic")
	abs := f.site(t, Cond, "calc.go", 13)
	runs := []Run{
		{Test: "TestAbsNegative", Force: map[int]bool{abs: true}},
		{Test: "TestAbsNegative"},
		{Test: "TestCountMany", Mode: ModeSnapshot, Sites: []int{f.site(t, Cond, "calc.go", 40)}},
		{Test: "TestAbs", Mode: ModeSnapshot, Sites: []int{abs}},
	}
	want := []struct {
		passed bool
		evals  int
	}{{true, 4}, {false, 4}, {true, 200}, {false, 3}}
	errs := make(chan error, len(runs))
	for i, r := range runs {
		go func() {
			r.Package, r.ForceSegment = "example.com/basic/calc", -1
			if r.Mode == 0 {
				r.Mode = ModeCover
			}
			res, err := f.build.Run(context.Background(), r)
			if err == nil && (res.Passed != want[i].passed || len(res.Evals) != want[i].evals) {
				err = fmt.Errorf("run %d: passed=%v with %d evals, want %v %d", i, res.Passed, len(res.Evals), want[i].passed, want[i].evals)
			}
			errs <- err
		}()
	}
	for range runs {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
}

// TestBaselineBuildFailure checks that a package whose tests do not build
// gives a *LoadError from Baseline (here the file changed after Load).
func TestBaselineBuildFailure(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module m\n\ngo 1.22\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "a.go"), []byte("package m\n\nfunc F() int { return 1 }\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "a_test.go"), []byte("package m\n\nimport \"testing\"\n\nfunc TestF(t *testing.T) { F() }\n"), 0o644)
	prog, err := Load(context.Background(), dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "a.go"), []byte("package m\n\nfunc F() int\n"), 0o644)
	_, err = Baseline(context.Background(), prog, time.Minute)
	le, ok := err.(*LoadError)
	if !ok || !strings.Contains(le.Msg, "missing function body") {
		t.Errorf("err = %v, want a *LoadError about the missing body", err)
	}
}

// TestForceConstituents checks forcing a site in several test
// constituents at once, and in every iteration of a table loop; and
// negating it at every evaluation in some constituents only.
func TestForceConstituents(t *testing.T) {
	f := instrument(t, "multiseg")
	const pkg = "example.com/multiseg/abs"
	abs := f.site(t, Cond, "abs.go", 5)
	force := map[int]bool{abs: true}
	tests := []struct {
		name   string
		run    Run
		passed bool
	}{
		{"plain", Run{Test: "TestSegments", ForceSegment: -1}, false},
		{"everywhere", Run{Test: "TestSegments", Force: force, ForceSegment: -1}, false},
		{"one segment", Run{Test: "TestSegments", Force: force, ForceSegment: 0}, false},
		{"failing segments", Run{Test: "TestSegments", Force: force, ForceSegment: -1, ForceConstituents: []Constituent{{0, 0}, {2, 0}}}, true},
		{"list replaces ForceSegment", Run{Test: "TestSegments", Force: force, ForceSegment: 0, ForceConstituents: []Constituent{{0, 0}, {2, 0}}}, true},
		{"wrong segments", Run{Test: "TestSegments", Force: force, ForceSegment: -1, ForceConstituents: []Constituent{{0, 0}, {1, 0}}}, false},
		{"failing iterations", Run{Test: "TestTable", Force: force, ForceSegment: -1, ForceConstituents: []Constituent{{0, 1}, {0, 3}}}, true},
		{"every iteration", Run{Test: "TestTable", Force: force, ForceSegment: -1, ForceConstituents: []Constituent{{0, -1}}}, false},
		// ForceValues: each iteration its own value, whatever Force says.
		{"own value per iteration", Run{Test: "TestTable", Force: map[int]bool{abs: false}, ForceSegment: -1,
			ForceConstituents: []Constituent{{0, 1}, {0, 2}, {0, 3}}, ForceValues: []bool{true, false, true}}, true},
		{"own value per iteration, one wrong", Run{Test: "TestTable", Force: force, ForceSegment: -1,
			ForceConstituents: []Constituent{{0, 1}, {0, 2}, {0, 3}}, ForceValues: []bool{true, false, false}}, false},
		{"every iteration, all failing", Run{Test: "TestAllNegative", Force: force, ForceSegment: -1, ForceConstituents: []Constituent{{1, -1}}}, true},
		{"one iteration, all failing", Run{Test: "TestAllNegative", Force: force, ForceSegment: -1, ForceConstituents: []Constituent{{1, 1}}}, false},
		{"ForceIteration -1", Run{Test: "TestAllNegative", Force: force, ForceSegment: 1, ForceIteration: -1}, true},
		{"no valid constituent", Run{Test: "TestAllNegative", Force: force, ForceSegment: -1, ForceConstituents: []Constituent{{-1, 0}}}, false},
		// Every evaluation negated (FlipEval 0): in the constituents
		// only, when there are some.
		{"negated everywhere", Run{Test: "TestSegments", FlipEval: map[int][]int{abs: {0}}, ForceSegment: -1}, false},
		{"negated in the failing segments", Run{Test: "TestSegments", FlipEval: map[int][]int{abs: {0}}, ForceSegment: -1, ForceConstituents: []Constituent{{0, 0}, {2, 0}}}, true},
		{"negated in the wrong segments", Run{Test: "TestSegments", FlipEval: map[int][]int{abs: {0}}, ForceSegment: -1, ForceConstituents: []Constituent{{0, 0}, {1, 0}}}, false},
		{"negated in the failing iterations", Run{Test: "TestTable", FlipEval: map[int][]int{abs: {0}}, ForceSegment: -1, ForceConstituents: []Constituent{{0, 1}, {0, 3}}}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.run.Package, tt.run.Mode = pkg, ModeCover
			res, err := f.build.Run(context.Background(), tt.run)
			if err != nil {
				t.Fatal(err)
			}
			if res.Passed != tt.passed {
				t.Errorf("passed=%v, want %v\n%s", res.Passed, tt.passed, res.Output)
			}
		})
	}
	f.checkUntouched(t)
}

// TestCoverConstituents checks the coverage records of a quiet site in
// cover mode, one per outcome and test constituent: written at the start
// of the next constituent, and for the last one read from the counts.
func TestCoverConstituents(t *testing.T) {
	f := instrument(t, "multiseg")
	const pkg = "example.com/multiseg/abs"
	abs := f.site(t, Cond, "abs.go", 5)
	tests := []struct {
		test string
		want []string // outcome@segment.iteration
	}{
		{"TestTable", []string{"false@0.1", "false@0.2", "false@0.3"}},
		{"TestAllNegative", []string{"false@0.0", "false@1.1", "false@1.2"}},
	}
	for _, tt := range tests {
		t.Run(tt.test, func(t *testing.T) {
			res, err := f.build.Run(context.Background(), Run{Package: pkg, Test: tt.test, Mode: ModeCover, ForceSegment: -1})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, e := range res.Evals {
				if e.Site == abs {
					got = append(got, fmt.Sprintf("%v@%d.%d", e.Outcome, e.Segment, e.Iteration))
				}
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("evaluations = %v, want %v", got, tt.want)
			}
			if n := len(tt.want); res.Reached[abs] != [2]int{n, 0} {
				t.Errorf("reached = %v, want [%d 0]", res.Reached[abs], n)
			}
		})
	}
}

// TestCloseDuringRun checks that Close cancels a run in progress and
// returns only once it has ended, so that nothing writes into the build's
// dir after it is removed, and that Run fails on a closed build.
func TestCloseDuringRun(t *testing.T) {
	f := load(t, "basic")
	b, err := Instrument(context.Background(), f.prog)
	if err != nil {
		t.Fatal(err)
	}
	count := f.site(t, Cond, "calc.go", 40)
	dir := b.Dir
	done := make(chan error, 1)
	started := time.Now()
	go func() {
		_, err := b.Run(context.Background(), Run{Package: "example.com/basic/calc", Test: "TestCount", Force: map[int]bool{count: false}, ForceSegment: -1, Timeout: time.Minute})
		done <- err
	}()
	time.Sleep(500 * time.Millisecond)
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-done:
		if err == nil {
			t.Error("a run cancelled by Close reported no error")
		}
	default:
		t.Fatal("Close returned while a run was still in progress")
	}
	if d := time.Since(started); d > 10*time.Second {
		t.Errorf("Close took %v", d)
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("build dir %s left behind: %v", dir, err)
	}
	if _, err := b.Run(context.Background(), Run{Package: "example.com/basic/calc", Test: "TestAbs", ForceSegment: -1}); err == nil {
		t.Error("Run on a closed build succeeded")
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("build dir %s recreated by a run after Close", dir)
	}
}

// TestBaselineFatal: a test that kills its binary (stack overflow) is a
// failing test, and the tests after it still run.
func TestBaselineFatal(t *testing.T) {
	f := load(t, "fatal")
	res, err := Baseline(context.Background(), f.prog, time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	got := outcomes(res)
	if want := "TestDepth:true TestNegative:false TestAfter:true"; got != want {
		t.Errorf("baseline = %s\nwant %s", got, want)
	}
	for _, r := range res {
		if r.Test == "TestNegative" && !strings.Contains(r.Output, "stack overflow") {
			t.Errorf("TestNegative output lacks the crash: %q", r.Output)
		}
	}
	f.checkUntouched(t)
}

// outcomes prints a baseline as "Test:passed" words in its order.
func outcomes(res []TestResult) string {
	words := make([]string, len(res))
	for i, r := range res {
		words[i] = fmt.Sprintf("%s:%v", r.Test, r.Passed)
	}
	return strings.Join(words, " ")
}

// TestPrintReach checks the reach lines (Run.PrintReach): one per site at
// its first evaluation, interleaved with the test's failure messages.
// TestAbs fails in its first subtest (Abs(-2)); `return -x` first runs in
// the second one, after the failure.
func TestPrintReach(t *testing.T) {
	f := instrument(t, "basic")
	cond := f.site(t, Cond, "calc.go", 13)
	neg := f.site(t, Guard, "calc.go", 14)
	res, err := f.build.Run(context.Background(), Run{Package: "example.com/basic/calc", Test: "TestAbs", Mode: ModeCover, ForceSegment: -1, PrintReach: true})
	if err != nil {
		t.Fatal(err)
	}
	reach := constituent.Reach(res.Output)
	seen := map[int]int{}
	for i, id := range reach {
		if _, dup := seen[id]; dup {
			t.Errorf("site %d has two reach lines", id)
		}
		seen[id] = i
	}
	for id, c := range res.Reached {
		if _, ok := seen[id]; !ok && c[0]+c[1] > 0 {
			t.Errorf("site %d was reached but has no reach line", id)
		}
	}
	locs := constituent.ParseOutput(res.Output)
	if len(locs) == 0 {
		t.Fatalf("no failure in the output:\n%s", res.Output)
	}
	first := locs[0].Reached
	if i, ok := seen[cond]; !ok || i >= first {
		t.Errorf("the condition's reach line is at %d (present %v), want before the first failure (%d)\n%s", i, ok, first, res.Output)
	}
	if i, ok := seen[neg]; !ok || i < first {
		t.Errorf("`return -x`'s reach line is at %d (present %v), want after the first failure (%d)\n%s", i, ok, first, res.Output)
	}
	// Without PrintReach, no line, and the same counts: a site turns
	// quiet after its reach line and still counts every evaluation.
	withReach := res.Reached
	res, err = f.build.Run(context.Background(), Run{Package: "example.com/basic/calc", Test: "TestAbs", Mode: ModeCover, ForceSegment: -1})
	if err != nil {
		t.Fatal(err)
	}
	if n := len(constituent.Reach(res.Output)); n > 0 {
		t.Errorf("%d reach lines without PrintReach", n)
	}
	if !reflect.DeepEqual(withReach, res.Reached) {
		t.Errorf("counts with reach lines %v, without %v", withReach, res.Reached)
	}
}

// TestEvalLimit forces Count's loop exit false, so the loop never ends:
// the evaluation limit ends the run as hung, long before its timeout.
func TestEvalLimit(t *testing.T) {
	f := instrument(t, "basic")
	count := f.site(t, Cond, "calc.go", 40)
	run := Run{Package: "example.com/basic/calc", Test: "TestCount", Mode: ModeCover, ForceSegment: -1,
		Force: map[int]bool{count: false}, Timeout: 10 * time.Minute, EvalLimit: 100_000}
	res, err := f.build.Run(context.Background(), run)
	if err != nil {
		t.Fatal(err)
	}
	if !res.Hung || !res.TimedOut || res.Passed {
		t.Errorf("forced to spin with a limit: hung=%v timed out=%v passed=%v, want hung and timed out\n%s", res.Hung, res.TimedOut, res.Passed, res.Output)
	}
	// Unforced, the test stays under the limit and passes.
	run.Force = nil
	if res, err = f.build.Run(context.Background(), run); err != nil {
		t.Fatal(err)
	}
	if !res.Passed || res.Hung {
		t.Errorf("unforced with a limit: passed=%v hung=%v, want passed\n%s", res.Passed, res.Hung, res.Output)
	}
	// The guard of c++ skipped spins the loop too, where only its
	// condition, quiet in a cover run with mapped counts, is evaluated:
	// the watchdog of the counts ends it.
	incr := f.site(t, Guard, "calc.go", 43)
	run.Force = map[int]bool{incr: false}
	if res, err = f.build.Run(context.Background(), run); err != nil {
		t.Fatal(err)
	}
	if n := res.Evaluations(); !res.Hung || !res.TimedOut || res.Passed || n < 100_000 {
		t.Errorf("spun at a quiet condition with a limit: hung=%v timed out=%v passed=%v, %d evaluations, want hung and timed out past 100000\n%s", res.Hung, res.TimedOut, res.Passed, n, res.Output)
	}
	// Without a limit the timeout ends it, not as hung.
	run.Force, run.EvalLimit, run.Timeout = map[int]bool{count: false}, 0, 2*time.Second
	if res, err = f.build.Run(context.Background(), run); err != nil {
		t.Fatal(err)
	}
	if !res.TimedOut || res.Hung {
		t.Errorf("forced to spin without a limit: timed out=%v hung=%v, want timed out only", res.TimedOut, res.Hung)
	}
}

// TestCountsOnly: a cover run with Run.CountsOnly writes no coverage
// records, and counts the same evaluations as one without.
func TestCountsOnly(t *testing.T) {
	f := instrument(t, "basic")
	run := Run{Package: "example.com/basic/calc", Test: "TestAbs", Mode: ModeCover, ForceSegment: -1, EvalLimit: 1_000_000}
	full, err := f.build.Run(context.Background(), run)
	if err != nil {
		t.Fatal(err)
	}
	run.CountsOnly = true
	counted, err := f.build.Run(context.Background(), run)
	if err != nil {
		t.Fatal(err)
	}
	if full.Passed != counted.Passed || !maps.Equal(full.Reached, counted.Reached) || len(full.Reached) == 0 {
		t.Errorf("reached %v (passed %v) with records, %v (passed %v) counts only; want the same", full.Reached, full.Passed, counted.Reached, counted.Passed)
	}
	// TestAbs runs Abs in three subtests: with records, one per
	// constituent and outcome; counts only, one per site and outcome,
	// the evaluations of the last constituent.
	abs := f.site(t, Cond, "calc.go", 13)
	var n, m int
	for _, e := range full.Evals {
		if e.Site == abs {
			n++
		}
	}
	for _, e := range counted.Evals {
		if e.Site == abs {
			m++
		}
	}
	if m >= n || m > 2 {
		t.Errorf("site %d: %d evaluations with records, %d counts only; want fewer, at most one per outcome", abs, n, m)
	}
}

// TestSnapshotBuild checks the second build, with the snapshot functions,
// made in the background: snapshot runs wait for it and record values;
// a build closed before it ends leaves nothing behind (TestMain checks
// the temp dirs).
func TestSnapshotBuild(t *testing.T) {
	f := load(t, "basic")
	b, err := Instrument(context.Background(), f.prog)
	if err != nil {
		t.Fatal(err)
	}
	abs := f.site(t, Cond, "calc.go", 13)
	res, err := b.Run(context.Background(), Run{Package: "example.com/basic/calc", Test: "TestAbsNegative", Mode: ModeSnapshot, Sites: []int{abs}, ForceSegment: -1})
	if err != nil {
		t.Fatal(err)
	}
	if err := b.SnapshotError(); err != nil || b.SnapshotBuildTime == 0 {
		t.Errorf("after a snapshot run: SnapshotError() = %v, SnapshotBuildTime = %v", err, b.SnapshotBuildTime)
	}
	if len(res.Evals) == 0 || len(res.Evals[0].Values) != len(f.prog.Sites[abs].Observed) || len(res.Evals[0].Values) == 0 {
		t.Errorf("snapshot run recorded %+v, want the %d observed values", res.Evals, len(f.prog.Sites[abs].Observed))
	}
	// Cover runs use the first binaries, without snapshots: no values.
	res, err = b.Run(context.Background(), Run{Package: "example.com/basic/calc", Test: "TestAbsNegative", Mode: ModeCover, ForceSegment: -1})
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range res.Evals {
		if len(e.Values) > 0 {
			t.Errorf("a cover run recorded values: %+v", e)
		}
	}
	b.Close()
	// Closed while the snapshot build runs.
	b, err = Instrument(context.Background(), f.prog)
	if err != nil {
		t.Fatal(err)
	}
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := b.Run(context.Background(), Run{Package: "example.com/basic/calc", Test: "TestAbsNegative", Mode: ModeSnapshot, Sites: []int{abs}, ForceSegment: -1}); err == nil {
		t.Error("a snapshot run after Close succeeded")
	}
}

// TestBuildSnapshotsOf builds the snapshot functions of one site only:
// snapshot runs record its values, and none of another site's.
func TestBuildSnapshotsOf(t *testing.T) {
	f := load(t, "basic")
	b, err := Instrument(context.Background(), f.prog)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	abs := f.site(t, Cond, "calc.go", 13)
	withdraw := f.site(t, Cond, "calc.go", 29)
	b.BuildSnapshots([]int{abs})
	b.BuildSnapshots(nil) // only the first call builds
	for _, c := range []struct {
		site   int
		test   string
		values bool
	}{{abs, "TestAbsNegative", true}, {withdraw, "TestWithdraw", false}} {
		res, err := b.Run(context.Background(), Run{Package: "example.com/basic/calc", Test: c.test, Mode: ModeSnapshot, Sites: []int{c.site}, ForceSegment: -1})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Evals) == 0 || len(f.prog.Sites[c.site].Observed) == 0 {
			t.Fatalf("%s: %d evaluations recorded, %d observed", c.test, len(res.Evals), len(f.prog.Sites[c.site].Observed))
		}
		if got := len(res.Evals[0].Values) > 0; got != c.values {
			t.Errorf("site %d: values recorded %v, want %v", c.site, got, c.values)
		}
	}
}

// TestInliningProfile checks that a test that counts allocations passes
// instrumented as it does plain: the profile makes the compiler inline
// New and NewWithSeed into the test's closure, as it does plain, and the
// profile names exactly the calls of functions inlined plain.
func TestInliningProfile(t *testing.T) {
	f := instrument(t, "allocs")
	if len(f.prog.gcflags) == 0 {
		t.Fatal("no inlining profile for a module whose tests call testing.AllocsPerRun")
	}
	profile, err := os.ReadFile(filepath.Join(f.build.Dir, "inline.pgo"))
	if err != nil {
		t.Fatal(err)
	}
	for _, edge := range []string{
		"example.com/allocs/digest.TestAllocs.func1.1\nexample.com/allocs/digest.New\n1 1\n",
		// Inlined from New: the line of NewWithSeed's call in New
		// (digest.go:12) less the closure's (digest_test.go:9).
		"example.com/allocs/digest.TestAllocs.func1.1\nexample.com/allocs/digest.NewWithSeed\n3 1\n",
		"example.com/allocs/digest.New\nexample.com/allocs/digest.NewWithSeed\n1 1\n",
		"example.com/allocs/digest.NewWithSeed\nexample.com/allocs/digest.(*Digest).Reset\n2 1\n",
	} {
		if !strings.Contains(string(profile), edge) {
			t.Errorf("profile lacks the edge\n%s\nprofile:\n%s", edge, profile)
		}
	}
	res, err := f.build.Run(context.Background(), Run{Package: "example.com/allocs/digest", Test: "TestAllocs", Mode: ModeCover, ForceSegment: -1})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Passed {
		t.Errorf("TestAllocs fails instrumented:\n%s", res.Output)
	}
	if g := instrument(t, "basic"); len(g.prog.gcflags) != 0 {
		t.Errorf("a module whose tests count no allocations gets build flags %q", g.prog.gcflags)
	}
}

func TestManyCrashes(t *testing.T) {
	f := load(t, "crashes")
	base, err := Baseline(context.Background(), f.prog, time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	var failed, notRun []string
	for _, r := range base {
		switch {
		case r.NotRun:
			notRun = append(notRun, r.Test)
		case !r.Passed:
			failed = append(failed, r.Test)
		}
	}
	// maxRounds rounds: the crashes keep the last tests and TestMasked
	// (paused behind them) from running, and they say so.
	if len(failed) != maxRounds || len(notRun) != 26-maxRounds || !slices.Contains(notRun, "TestMasked") {
		t.Errorf("baseline: failed %s; not run %s", strings.Join(failed, " "), strings.Join(notRun, " "))
	}
	// A patch that ends the crashes lets TestMasked run: it fails.
	file := filepath.Join(f.dir, "p", "p.go")
	orig, _ := os.ReadFile(file)
	patched := strings.Replace(string(orig), "if add || m != nil {", "if m != nil {", 1)
	vr, err := VerifyPatch(context.Background(), f.prog, file, []byte(patched), time.Minute)
	if err != nil || strings.Join(vr.Failed, " ") != "TestMasked" {
		t.Errorf("VerifyPatch of a patch that ends the crashes: %v, failed %s", err, strings.Join(vr.Failed, " "))
	}
	// Without one, the tests the baseline did not run are not failures
	// of VerifyPatch; those it ran are, when they do not run.
	vr, err = VerifyPatch(context.Background(), f.prog, file, orig, time.Minute)
	if err != nil || len(vr.Failed) != maxRounds || slices.Contains(vr.Failed, "TestMasked") {
		t.Errorf("VerifyPatch of the original: %v, failed %s", err, strings.Join(vr.Failed, " "))
	}
	f.checkUntouched(t)
}

// TestRecoveredStack checks that a runtime error that a deferred function
// recovers prints its stack in a coverage run with reach lines (the test
// helper's, the package's own, an external test's), and that the
// panicking line is then the innermost frame of the module's code;
// without reach lines, nothing is printed, and the recovered value is
// what the code sees either way.
func TestRecoveredStack(t *testing.T) {
	f := instrument(t, "recovered")
	for _, test := range []string{"TestNext", "TestSafe", "TestExternal"} {
		run := Run{Package: "example.com/recovered/rc", Test: test, Mode: ModeCover, ForceSegment: -1, PrintReach: true}
		res, err := f.build.Run(context.Background(), run)
		if err != nil {
			t.Fatal(err)
		}
		if res.Passed || !strings.Contains(res.Output, "index out of range") {
			t.Errorf("%s: passed %v, want a failure naming the recovered panic:\n%s", test, res.Passed, res.Output)
		}
		var frames []string
		for _, l := range constituent.ParseOutput(res.Output) {
			if l.Panic && !strings.HasSuffix(l.File, "_test.go") && !IsHook(l.File) {
				frames = append(frames, fmt.Sprintf("%s:%d", filepath.Base(l.File), l.Line))
			}
		}
		if len(frames) == 0 || frames[0] != "rc.go:8" {
			t.Errorf("%s: module frames %v, want rc.go:8 first:\n%s", test, frames, res.Output)
		}
		run.PrintReach = false
		res, err = f.build.Run(context.Background(), run)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(res.Output, constituent.RecoveredPrefix) || !strings.Contains(res.Output, "index out of range") {
			t.Errorf("%s without reach lines:\n%s", test, res.Output)
		}
	}
}

func TestMemoryCap(t *testing.T) {
	for _, tc := range []struct{ prog, own, want int64 }{
		{0, 0, 0},
		{0, 5, 5},
		{8, 0, 8},
		{8, 5, 5},
		{3, 5, 3},
	} {
		prog := &Program{}
		prog.SetTestMemory(tc.prog)
		if got := prog.memoryCap(tc.own); got != tc.want {
			t.Errorf("program cap %d, run cap %d: %d, want %d", tc.prog, tc.own, got, tc.want)
		}
		if got := prog.goRunner().TestMemory; got != tc.prog {
			t.Errorf("program cap %d: the go test runner caps at %d", tc.prog, got)
		}
	}
}
