package nopol

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nopol-go/nopol/angelic"
	"github.com/nopol-go/nopol/collect"
	"github.com/nopol-go/nopol/internal/constituent"
	"github.com/nopol-go/nopol/synth"
)

// The fake module: func sign(n int) int { if n <= 0 { return -1 }; ... }
// where the condition should be n < 0. Site 0 is that condition, site 1 a
// condition every test reaches and no forcing helps, site 2 a guard no
// test reaches.
const fakeSrc = `package m

func sign(n int) int {
	if n <= 0 {
		return -1
	}
	if n > 100 {
		n = 100
	}
	return 1
}
`

// fakeTest is a test calling sign on inputs; it passes when every
// evaluation of site 0 has the outcome of n < 0.
type fakeTest struct {
	name   string
	inputs []int64
	broken bool // fails whatever the condition
	// alone fails when run alone in the instrumented binary (it needs a
	// test before it), passes in the plain suite.
	alone bool
	// impure makes every input a top-level statement of its own (a
	// fragment, segment i at line 10+i of m_test.go) checking its result
	// with t.Errorf.
	impure bool
}

type fake struct {
	dir     string
	tests   []fakeTest
	loadErr error
	// snapSites are the sites BuildSnapshots was given.
	snapSites []int
	flaky     bool // failing tests pass when instrumented
	// flakyTests pass and fail on identical runs.
	flakyTests map[string]bool
	// brokenFlaky are flaky tests that fail in the suite with the good
	// candidate, with how many runs of 12 they pass again with it.
	brokenFlaky map[string]int
	// aloneFails are tests that fail every run alone on the user's code
	// (they pass only after the tests before them in the suite).
	aloneFails map[string]bool
	hang       bool // forced runs hang until their timeout
	// site1Skipped are the tests that do not evaluate site 1.
	site1Skipped map[string]bool
	// slowSnapshots is how many snapshot runs time out (a busy machine)
	// when their time limit is under 10 s.
	slowSnapshots int
	// slowForced: forced runs of the angelic search (not snapshot runs)
	// whose time limit is under 2 s time out, not at their evaluation
	// limit (a busy machine).
	slowForced bool
	// failedSnapshots is how many snapshot runs of a forced test fail
	// (a race of the test's goroutines).
	failedSnapshots int
	good            string // the candidate that passes the suite
	// breaks maps a candidate to the passing test it fails, when it
	// passes the failing test.
	breaks map[string]string
	// quickTimeouts is how many runs of the failing tests alone time
	// out (a busy machine), at the evaluation limit when quickHung.
	quickTimeouts int
	quickHung     bool
	// quickCaps are the memory caps of the runs of the failing tests
	// alone.
	quickCaps []int64
	// runaway: the failing tests' baseline runs met the time limit in a
	// loop (collect.TestResult.Runaway).
	runaway bool
	// elapsed are the tests' baseline times, 1ms when not set.
	elapsed map[string]time.Duration
	mu      sync.Mutex // guards runs
	runs    []collect.Run
	closed  int
	// schemas counts the schemas built, schemaCands has the last one's
	// candidates.
	schemas     int
	schemaCands []string
	solutions   []*synth.Term
	// testRuns counts the schema runs of the failing tests only,
	// schemaSuites the schema's runs of the suite, verifies the runs of
	// the suite with a patched file.
	testRuns, schemaSuites, verifies int
	// panics makes site 0's branch panic and observes a second value
	// there, flag: 1 where n < 0 in the tests, by accident; solve, when
	// set, replaces solutions.
	panics bool
	solve  func(p *synth.Problem) []*synth.Term
}

func (f *fake) program() *collect.Program {
	return &collect.Program{Dir: f.dir, Module: "example.com/m", Packages: []string{"example.com/m"},
		Sites: []collect.Site{
			{ID: 0, Kind: collect.Cond, Package: "example.com/m", File: filepath.Join(f.dir, "m.go"), Line: 4, Col: 5, Func: "sign", Original: "n <= 0",
				Observed: []collect.Observed{{Expr: "n", Kind: collect.KindInt}}, Constants: []collect.Constant{{Expr: "0", Value: collect.Value{Kind: collect.KindInt}}}},
			{ID: 1, Kind: collect.Cond, Package: "example.com/m", File: filepath.Join(f.dir, "m.go"), Line: 7, Col: 5, Func: "sign", Original: "n > 100",
				Observed: []collect.Observed{{Expr: "n", Kind: collect.KindInt}}},
			{ID: 2, Kind: collect.Guard, Package: "example.com/m", File: filepath.Join(f.dir, "m.go"), Line: 8, Col: 3, Func: "sign", Original: "n = 100",
				Observed: []collect.Observed{{Expr: "n", Kind: collect.KindInt}}},
		}}
}

func (f *fake) Load(ctx context.Context, dir string, patterns, tags []string) (*collect.Program, error) {
	if f.loadErr != nil {
		return nil, f.loadErr
	}
	prog := f.program()
	if f.panics {
		s := &prog.Sites[0]
		s.Then = &collect.Branch{Panics: true, Exits: true}
		s.Observed = append(s.Observed, collect.Observed{Expr: "flag", Kind: collect.KindInt})
	}
	return prog, nil
}

func (f *fake) Baseline(ctx context.Context, prog *collect.Program, timeout time.Duration) ([]collect.TestResult, error) {
	var out []collect.TestResult
	for _, t := range f.tests {
		res := f.exec(t, collect.Run{ForceSegment: -1})
		d := time.Millisecond
		if e, ok := f.elapsed[t.name]; ok {
			d = e
		}
		out = append(out, collect.TestResult{Package: "example.com/m", Test: t.name, Passed: res.Passed, Elapsed: d, Runaway: f.runaway && !res.Passed})
	}
	return out, nil
}

func (f *fake) Instrument(ctx context.Context, prog *collect.Program) (testBinary, error) {
	return f, nil
}

func (f *fake) Close() error { f.closed++; return nil }

func (f *fake) DroppedExits() []string { return nil }

// BuildSnapshots records the sites whose states may be recorded.
func (f *fake) BuildSnapshots(sites []int) { f.snapSites = sites }

func (f *fake) Constituents(pkg string) []constituent.Constituent {
	var cons []constituent.Constituent
	for _, t := range f.tests {
		for i := range t.inputs {
			if t.impure {
				cons = append(cons, constituent.Constituent{Test: t.name, Segment: i, File: filepath.Join(f.dir, "m_test.go"), StartLine: 10 + i, EndLine: 10 + i})
			}
		}
	}
	return cons
}

func (f *fake) Run(ctx context.Context, r collect.Run) (collect.Result, error) {
	f.mu.Lock()
	f.runs = append(f.runs, r)
	f.mu.Unlock()
	for _, t := range f.tests {
		if t.name == r.Test {
			// wait sleeps d, or until ctx is done.
			wait := func(d time.Duration) error {
				select {
				case <-ctx.Done():
					return ctx.Err()
				case <-time.After(d):
					return nil
				}
			}
			if f.hang && len(r.Force) > 0 {
				if err := wait(r.Timeout); err != nil {
					return collect.Result{}, err
				}
				return collect.Result{TimedOut: true}, nil
			}
			if f.slowForced && r.Mode == collect.ModeCover && len(r.Force)+len(r.FlipEval) > 0 && r.Timeout < 2*time.Second {
				return collect.Result{TimedOut: true}, nil
			}
			if r.Mode == collect.ModeSnapshot && r.Timeout < 10*time.Second && f.slowSnapshots > 0 {
				f.mu.Lock()
				f.slowSnapshots--
				f.mu.Unlock()
				return collect.Result{TimedOut: true}, nil
			}
			res := f.exec(t, r)
			if r.Mode == collect.ModeSnapshot && len(r.Force) > 0 && f.failedSnapshots > 0 {
				f.mu.Lock()
				f.failedSnapshots--
				f.mu.Unlock()
				res.Passed = false
			}
			if f.flaky && len(r.Force) == 0 {
				res.Passed = true
			}
			if t.alone {
				res.Passed = false
			}
			return res, nil
		}
	}
	return collect.Result{}, errors.New("no such test " + r.Test)
}

// exec simulates test t: site 0 decides, site 1 always evaluates false,
// and forcing site 1 or skipping site 2 breaks the test. In an impure
// test, forcing applies in the forced segment only, and failures are
// reported at the failing input's line.
func (f *fake) exec(t fakeTest, r collect.Run) collect.Result {
	res := collect.Result{Passed: !t.broken, Reached: map[int][2]int{}}
	var out strings.Builder
	seg := -1
	eval := func(site int, v bool, n int64) bool {
		if forced, ok := r.Force[site]; ok && (len(r.ForceConstituents) == 0 || slices.Contains(r.ForceConstituents, collect.Constituent{Segment: seg})) {
			v = forced
		}
		c := res.Reached[site]
		if v {
			c[1]++
		} else {
			c[0]++
		}
		res.Reached[site] = c
		e := collect.Eval{Site: site, Outcome: v, Segment: seg}
		if r.Mode == collect.ModeSnapshot {
			e.Values = []collect.Value{{Kind: collect.KindInt, Int: n}}
			if f.panics && site == 0 {
				flag := int64(0)
				if n < 0 {
					flag = 1
				}
				e.Values = append(e.Values, collect.Value{Kind: collect.KindInt, Int: flag})
			}
		}
		res.Evals = append(res.Evals, e)
		return v
	}
	for i, n := range t.inputs {
		if t.impure {
			seg = i
			if r.PrintConstituents {
				out.WriteString(constituent.Line(i, 0))
			}
		}
		ok := eval(0, n <= 0, n) == (n < 0)
		if !f.site1Skipped[t.name] && eval(1, false, n) {
			ok = false
		}
		if !ok {
			res.Passed = false
			if t.impure {
				fmt.Fprintf(&out, "    m_test.go:%d: sign(%d) is wrong\n", 10+i, n)
			}
		}
	}
	res.Output = out.String()
	return res
}

func (f *fake) BuildSchemas(ctx context.Context, prog *collect.Program, parts []collect.SchemaPart, timeout time.Duration, evalLimit func(pkg string, tests []string) int64) (suiteRunner, error) {
	f.schemas++
	var cands []string
	for _, p := range parts {
		cands = append(cands, p.Candidates...)
	}
	f.schemaCands = cands
	return &fakeSchema{f: f, cands: cands}, nil
}

type fakeSchema struct {
	f     *fake
	cands []string
}

func (s *fakeSchema) RunSuite(ctx context.Context, k int) (collect.SuiteResult, error) {
	s.f.schemaSuites++
	return s.f.suiteOf(s.cands[k]), nil
}

// suiteOf is the outcome of the whole suite with candidate cand.
func (f *fake) suiteOf(cand string) collect.SuiteResult {
	if name, ok := f.breaks[cand]; ok {
		return collect.SuiteResult{Failed: []string{name}}
	}
	return f.suite(cand == f.good)
}

// suite is the outcome of the whole suite with a good or bad condition.
func (f *fake) suite(good bool) collect.SuiteResult {
	var failed []string
	if !good {
		failed = append(failed, "TestZero")
	}
	for _, t := range f.tests {
		if _, flaky := f.brokenFlaky[t.name]; t.broken || good && flaky {
			failed = append(failed, t.name+"/sub")
		}
	}
	return collect.SuiteResult{Passed: len(failed) == 0, Failed: failed}
}

// RunTests is RunSuite restricted to names.
func (s *fakeSchema) RunTests(ctx context.Context, k int, names []string, timeout time.Duration, maxRSS int64) (collect.SuiteResult, error) {
	s.f.testRuns++
	s.f.quickCaps = append(s.f.quickCaps, maxRSS)
	if s.f.quickTimeouts > 0 {
		s.f.quickTimeouts--
		return collect.SuiteResult{TimedOut: true, Hung: s.f.quickHung}, nil
	}
	res := s.f.suiteOf(s.cands[k])
	res.Failed = slices.DeleteFunc(res.Failed, func(n string) bool { return !slices.Contains(names, n) })
	res.Passed = len(res.Failed) == 0
	return res, nil
}

func (s *fakeSchema) Close() error { return nil }

// Rerun repeats each test's plain outcome, but for the tests of
// flakyTests, which fail once and pass the other runs, and those of
// brokenFlaky with a patch, which pass as many runs as it says.
func (f *fake) Rerun(ctx context.Context, prog *collect.Program, patch *collect.Patch, tests []collect.TestID, count int, timeout time.Duration) (map[collect.TestID]collect.Repeats, error) {
	out := map[collect.TestID]collect.Repeats{}
	for _, id := range tests {
		for _, t := range f.tests {
			if t.name != id.Test {
				continue
			}
			passes, broken := f.brokenFlaky[t.name]
			switch {
			case patch != nil && broken:
				out[id] = collect.Repeats{Passes: min(passes, count), Fails: count - min(passes, count)}
			case patch == nil && f.aloneFails[t.name]:
				out[id] = collect.Repeats{Fails: count}
			case patch != nil && f.flakyTests[t.name]:
				out[id] = collect.Repeats{Passes: count - 1, Fails: 1}
			case f.flakyTests[t.name]:
				out[id] = collect.Repeats{Passes: count - 1, Fails: 1}
			case f.exec(t, collect.Run{ForceSegment: -1}).Passed:
				out[id] = collect.Repeats{Passes: count}
			default:
				out[id] = collect.Repeats{Fails: count}
			}
		}
	}
	return out, nil
}

func (f *fake) VerifyPatch(ctx context.Context, prog *collect.Program, file string, src []byte, timeout time.Duration) (collect.SuiteResult, error) {
	f.verifies++
	for cand := range f.breaks {
		if strings.Contains(string(src), "if "+cand+" {") {
			return f.suiteOf(cand), nil
		}
	}
	return f.suite(strings.Contains(string(src), "if "+f.good+" {")), nil
}

// fakeBackend returns fixed terms.
type fakeBackend struct{ f *fake }

func (b fakeBackend) Search(ctx context.Context, p *synth.Problem, opts synth.Options) ([]*synth.Term, error) {
	if b.f.solve != nil {
		return b.f.solve(p), nil
	}
	return b.f.solutions, nil
}

func init() { synth.Register("fake", fakeBackend{}) }

func newFake(t *testing.T) *fake {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "m.go"), []byte(fakeSrc), 0o644); err != nil {
		t.Fatal(err)
	}
	f := &fake{dir: dir, good: "n < 0",
		tests: []fakeTest{
			{name: "TestNegative", inputs: []int64{-1, -7}},
			{name: "TestPositive", inputs: []int64{3, 200}},
			{name: "TestZero", inputs: []int64{0}},
		},
		solutions: []*synth.Term{
			// n <= -1 ranks after n < 0 (same size, further from the original);
			// n != 0 fails the examples.
			synth.BinTerm(synth.OpLe, synth.InputTerm(0), synth.LitTerm(synth.IntValue(-1))),
			synth.BinTerm(synth.OpNe, synth.InputTerm(0), synth.ConstTerm(0)),
			synth.BinTerm(synth.OpLt, synth.InputTerm(0), synth.ConstTerm(0)),
		}}
	synth.Register("fake", fakeBackend{f})
	return f
}

const wantDiff = `--- a/m.go
+++ b/m.go
@@ -1,7 +1,7 @@
 package m
 
 func sign(n int) int {
-	if n <= 0 {
+	if n < 0 {
 		return -1
 	}
 	if n > 100 {
`

func TestRepair(t *testing.T) {
	f := newFake(t)
	var progress strings.Builder
	res, err := repair(context.Background(), Options{Dir: f.dir, Backend: "fake", Logf: logTo(&progress), Verbose: true}, f)
	if err != nil {
		t.Fatalf("repair: %v\n%s", err, progress.String())
	}
	if !res.Patched {
		t.Fatalf("no patch: %s\n%s", res.Reason, progress.String())
	}
	if res.Diff != wantDiff {
		t.Errorf("diff:\n%s\nwant:\n%s", res.Diff, wantDiff)
	}
	if res.Condition != "n < 0" || res.Style != "cond" || res.Site.ID != 0 || res.File != "m.go" || res.Site.Method != "synthesis" {
		t.Errorf("patch %q style %s site %d file %s method %s", res.Condition, res.Style, res.Site.ID, res.File, res.Site.Method)
	}
	// The states are recorded in binaries built for the searched sites.
	if !slices.Contains(f.snapSites, res.Site.ID) {
		t.Errorf("snapshots built for sites %v, not the patched %d", f.snapSites, res.Site.ID)
	}
	if got := strings.Join(res.Site.Needs, ","); got != "TestZero=false" {
		t.Errorf("needs %s", got)
	}
	// TestZero evaluated site 0 only true: forcing true is its own run and is skipped.
	for _, r := range f.runs {
		if r.Force[0] && r.Test == "TestZero" {
			t.Errorf("ran TestZero with site 0 forced true")
		}
	}
	// Candidates in rank order: n < 0 before n <= -1; the failing one validated first.
	var tried []string
	for _, c := range res.Candidates {
		tried = append(tried, c.Condition)
	}
	if got := strings.Join(tried, " | "); got != "n < 0" {
		t.Errorf("candidates tried: %s", got)
	}
	var phases []string
	for _, p := range res.Phases {
		phases = append(phases, p.Name)
	}
	// The first candidate passes as a patched file: no schema, no second check.
	if got := strings.Join(phases, " "); got != "load baseline instrument coverage localize angelic snapshot synthesis validation" {
		t.Errorf("phases: %s", got)
	}
	if f.closed != 1 {
		t.Errorf("build closed %d times", f.closed)
	}
	if src, _ := os.ReadFile(filepath.Join(f.dir, "m.go")); string(src) != fakeSrc {
		t.Errorf("the user's file was written")
	}
	if !strings.Contains(progress.String(), "site 1/") {
		t.Errorf("progress lacks sites:\n%s", progress.String())
	}
}

// TestRepairSlowSnapshot: a snapshot run that times out on a busy
// machine runs again with a longer limit, and synthesis still gets the
// failing test's examples.
func TestRepairSlowSnapshot(t *testing.T) {
	f := newFake(t)
	f.slowSnapshots = 100
	var progress strings.Builder
	res, err := repair(context.Background(), Options{Dir: f.dir, Backend: "fake", Logf: logTo(&progress)}, f)
	if err != nil {
		t.Fatalf("repair: %v\n%s", err, progress.String())
	}
	if !res.Patched || res.Condition != "n < 0" || res.Site.Method != "synthesis" {
		t.Fatalf("patched %v %q by %q (%s)\n%s", res.Patched, res.Condition, res.Site.Method, res.Reason, progress.String())
	}
	if !strings.Contains(progress.String(), "timed out after") {
		t.Errorf("no retry reported:\n%s", progress.String())
	}
	var long int
	for _, r := range f.runs {
		if r.Mode == collect.ModeSnapshot && r.Timeout >= 10*time.Second {
			long++
		}
	}
	if long == 0 {
		t.Errorf("no snapshot run with a longer limit")
	}
}

// TestRepairSlowForced: a forced run that its time limit stops, not its
// evaluation limit (a busy machine slows it), runs again with a longer
// limit. The repair gives the patch it gives on an idle machine, and its
// work is counted as there: the effort spent is the same.
func TestRepairSlowForced(t *testing.T) {
	var idle struct {
		res    *Result
		forced int
	}
	for _, slow := range []bool{false, true} {
		f := newFake(t)
		f.slowForced = slow
		var progress strings.Builder
		res, err := repair(context.Background(), Options{Dir: f.dir, Backend: "fake", Logf: logTo(&progress), Verbose: true}, f)
		if err != nil {
			t.Fatalf("slow %v: repair: %v\n%s", slow, err, progress.String())
		}
		if !res.Patched || res.Condition != "n < 0" || res.Site.Method != "synthesis" {
			t.Fatalf("slow %v: patched %v %q by %q (%s)\n%s", slow, res.Patched, res.Condition, res.Site.Method, res.Reason, progress.String())
		}
		var forced, retried int
		for _, r := range f.runs {
			if len(r.Force)+len(r.FlipEval) > 0 && r.Mode == collect.ModeCover {
				forced++
				if r.Timeout >= 2*time.Second {
					retried++
				}
			}
		}
		retries := strings.Count(progress.String(), "run again with a longer limit: timed out=false")
		if !slow {
			idle.res, idle.forced = res, forced
			if retries != 0 || retried != 0 {
				t.Errorf("idle: %d retries logged, %d runs with a longer limit\n%s", retries, retried, progress.String())
			}
			continue
		}
		if retried == 0 || retries != retried || forced != 2*idle.forced {
			t.Errorf("busy: %d forced runs (idle %d), %d with a longer limit, %d retries logged\n%s", forced, idle.forced, retried, retries, progress.String())
		}
		if res.Runs != idle.res.Runs+retried {
			t.Errorf("busy: %d runs counted, want the idle %d and the %d runs again", res.Runs, idle.res.Runs, retried)
		}
		if fmt.Sprint(res.Sites) != fmt.Sprint(idle.res.Sites) {
			t.Errorf("busy: sites %+v\nidle: %+v", res.Sites, idle.res.Sites)
		}
	}
}

// TestRepairFailedSnapshot: a failing test whose snapshot run fails with
// the angelic value it passed with in the search (a race) runs again, and
// synthesis gets its states; failing every time, the site has no
// specification.
func TestRepairFailedSnapshot(t *testing.T) {
	for _, tc := range []struct {
		failures int
		method   string
		tier     string
	}{{2, "synthesis", "first"}, {100, "mutation", "mutants"}} {
		f := newFake(t)
		f.failedSnapshots = tc.failures
		var progress strings.Builder
		res, err := repair(context.Background(), Options{Dir: f.dir, Backend: "fake", Logf: logTo(&progress)}, f)
		if err != nil {
			t.Fatalf("repair: %v\n%s", err, progress.String())
		}
		if !res.Patched || res.Site.Method != tc.method || res.Tier != tc.tier {
			t.Errorf("%d failures: patched %v %q by %q in tier %q, want by %s in %s (%s)\n%s", tc.failures, res.Patched, res.Condition, res.Site.Method, res.Tier, tc.method, tc.tier, res.Reason, progress.String())
		}
		if !strings.Contains(progress.String(), "failed with its angelic value, with which it passed in the search; running it again") {
			t.Errorf("%d failures: no rerun reported:\n%s", tc.failures, progress.String())
		}
	}
}

// TestRepairBreaksFlaky: a flaky test that fails with the good candidate
// is left out of the suite's verdict, but when it then fails every run
// again with the patch, the patch broke it and is not printed.
func TestRepairBreaksFlaky(t *testing.T) {
	for _, tt := range []struct {
		name string
		// passes: the runs of 12 the flaky test passes with the patch.
		passes  int
		patched bool
	}{
		{"fails once with the patch", 11, true},
		{"fails every run with the patch", 0, false},
		// 12 of 13 runs before, 3 of 12 after: Fisher's p is 0.0009.
		{"passes far less often with the patch", 3, false},
		{"passes a little less often with the patch", 6, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			f := newFake(t)
			f.tests = append(f.tests, fakeTest{name: "TestFlaky", inputs: []int64{5}})
			f.flakyTests = map[string]bool{"TestFlaky": true}
			f.brokenFlaky = map[string]int{"TestFlaky": tt.passes}
			var progress strings.Builder
			res, err := repair(context.Background(), Options{Dir: f.dir, Backend: "fake", Logf: logTo(&progress), Verbose: true}, f)
			if err != nil {
				t.Fatalf("repair: %v\n%s", err, progress.String())
			}
			if res.Patched != tt.patched {
				t.Fatalf("patched %v, want %v: %s\n%s", res.Patched, tt.patched, res.Reason, progress.String())
			}
			if !slices.Contains(res.Flaky, "TestFlaky") {
				t.Errorf("flaky tests %v", res.Flaky)
			}
			why := fmt.Sprintf("breaks TestFlaky (flaky: passed 12 of 13 runs on the original code, %d of 12 with the patch)", tt.passes)
			if got := strings.Contains(progress.String(), why); got == tt.patched {
				t.Errorf("progress says %q: %v\n%s", why, got, progress.String())
			}
		})
	}
}

// TestRepairSecondCandidate checks the path of a first candidate that
// fails: the others go through a schema, and the one that passes there is
// checked again as a patched file.
func TestRepairSecondCandidate(t *testing.T) {
	f := newFake(t)
	f.good = "n <= -1"
	res, _ := mustRepair(t, f)
	if got := tried(res, false); got != "n < 0:false | n <= -1:true" {
		t.Errorf("candidates: %s", got)
	}
	// After it in the schema, the mutants of the original that fit the
	// failing test's states only (simplifications).
	if f.schemas != 1 || len(f.schemaCands) == 0 || f.schemaCands[0] != "n <= -1" {
		t.Errorf("%d schemas of %q", f.schemas, f.schemaCands)
	}
	if res.Phases[len(res.Phases)-1].Name != "verify" {
		t.Errorf("phases %v", res.Phases)
	}
	// The schema's candidate ran on the failing test first, then the suite.
	if f.testRuns != 1 || res.Candidates[1].FailingOnly {
		t.Errorf("%d runs of the failing tests, candidate %+v", f.testRuns, res.Candidates[1])
	}
}

// TestRepairSlowSuite checks the order of the runs where the passing
// tests are slow: the first candidate, which fails the failing test, is rejected in
// the schema before the suite, and the second, which passes it, runs the
// suite once, as the patched file. Where it is fast, the first candidate
// is checked as the patched file, and the second runs the suite in the
// schema before it is checked as the patched file.
func TestRepairSlowSuite(t *testing.T) {
	for _, tc := range []struct {
		name                 string
		positive, zero       time.Duration
		firstQuick           bool
		schemaCands          string
		testRuns, schemaRuns int
		verifies             int
	}{
		{"slow", slowSuiteFrom, 0, true, "n < 0 n <= -1", 2, 0, 1},
		{"fast", slowSuiteFrom - 10*time.Millisecond, 0, false, "n <= -1", 1, 1, 2},
		// The failing test ran until a time limit: the suite a patch
		// runs is fast all the same.
		{"slow failing test", time.Millisecond, 2 * slowSuiteFrom, false, "n <= -1", 1, 1, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFake(t)
			f.good = "n <= -1"
			f.elapsed = map[string]time.Duration{"TestPositive": tc.positive, "TestZero": cmp.Or(tc.zero, time.Millisecond)}
			res, progress := mustRepair(t, f)
			if got := tried(res, false); got != "n < 0:false | n <= -1:true" {
				t.Fatalf("candidates: %s\n%s", got, progress)
			}
			if res.Condition != "n <= -1" {
				t.Errorf("patch %q", res.Condition)
			}
			if res.Candidates[0].FailingOnly != tc.firstQuick || res.Candidates[1].FailingOnly {
				t.Errorf("candidates %+v", res.Candidates)
			}
			// The schema's first candidates; the mutants of the original
			// that fit the states only follow them.
			if got := strings.Join(f.schemaCands, " ") + " "; f.schemas != 1 || !strings.HasPrefix(got, tc.schemaCands+" ") {
				t.Errorf("%d schemas, the last of %q", f.schemas, f.schemaCands)
			}
			if f.testRuns != tc.testRuns || f.schemaSuites != tc.schemaRuns || f.verifies != tc.verifies {
				t.Errorf("%d runs of the failing tests, %d of the suite in the schema, %d as a patched file; want %d, %d, %d\n%s",
					f.testRuns, f.schemaSuites, f.verifies, tc.testRuns, tc.schemaRuns, tc.verifies, progress)
			}
		})
	}
}

// TestRepairQuickTimeout: on a busy machine, a run of the failing tests
// alone that times out once does not reject the candidate: it runs again
// with more time, passes, and the suite decides. On an idle machine, when
// the run reached the evaluation limit (the candidate spun), or when a
// failing test ran until the baseline's time limit (a loop without end),
// the first time-out rejects it.
func TestRepairQuickTimeout(t *testing.T) {
	defer func(f func() bool) { machineBusy = f }(machineBusy)
	for _, tc := range []struct {
		name                string
		busy, hung, runaway bool
		runs                int
		tried               string
	}{
		{"busy", true, false, false, 2, "n < 0:false | n <= -1:true"},
		{"idle", false, false, false, 1, "n < 0:false | n <= -1:false"},
		{"busy, at the evaluation limit", true, true, false, 1, "n < 0:false | n <= -1:false"},
		{"busy, a runaway failing test", true, false, true, 1, "n < 0:false | n <= -1:false"},
	} {
		machineBusy = func() bool { return tc.busy }
		f := newFake(t)
		f.good = "n <= -1"
		f.quickTimeouts, f.quickHung, f.runaway = 1, tc.hung, tc.runaway
		res, err := repair(context.Background(), Options{Dir: f.dir, Backend: "fake", NoMutants: true, NoPerEval: true}, f)
		if err != nil {
			t.Fatal(err)
		}
		if got := tried(res, false); !strings.HasPrefix(got, tc.tried) {
			t.Errorf("%s: candidates: %s, want %s first", tc.name, got, tc.tried)
		}
		if f.testRuns < tc.runs || tc.runs == 2 && f.testRuns != 2 {
			t.Errorf("%s: %d runs of the failing tests, want %d", tc.name, f.testRuns, tc.runs)
		}
		// The forced runs' cap (no coverage run of the fake measured
		// memory).
		for _, c := range f.quickCaps {
			if c != forcedMemBase {
				t.Errorf("%s: a run of the failing tests has the memory cap %d, want %d", tc.name, c, forcedMemBase)
			}
		}
	}
}

// TestRepairKeepsPanicCheck: at an if whose branch panics, when the only
// fit found reads other values than the original's (flag), it is
// rejected (guard-deleted) and synthesis runs again over the original's
// operands only, where n < 0 is found.
func TestRepairKeepsPanicCheck(t *testing.T) {
	f := newFake(t)
	f.panics = true
	var inputs []int
	f.solve = func(p *synth.Problem) []*synth.Term {
		inputs = append(inputs, len(p.Spec.Inputs))
		if len(p.Spec.Inputs) == 2 {
			// flag == 1 fits every state, and reads no operand of n <= 0.
			return []*synth.Term{synth.BinTerm(synth.OpEq, synth.InputTerm(1), synth.LitTerm(synth.IntValue(1)))}
		}
		return []*synth.Term{synth.BinTerm(synth.OpLt, synth.InputTerm(0), synth.ConstTerm(0))}
	}
	var progress strings.Builder
	res, err := repair(context.Background(), Options{Dir: f.dir, Backend: "fake", NoMutants: true, NoPerEval: true, Logf: logTo(&progress), Verbose: true}, f)
	if err != nil {
		t.Fatal(err)
	}
	if !res.Patched || res.Condition != "n < 0" {
		t.Fatalf("patch %q (%s), want n < 0\n%s", res.Condition, res.Reason, progress.String())
	}
	if !slices.Equal(inputs[:2], []int{2, 1}) || !strings.Contains(strings.Join(res.Site.Rejected, " "), "guard-deleted") {
		t.Errorf("synthesis over %v inputs, rejected %q; want 2 then 1, flag == 1 rejected", inputs, res.Site.Rejected)
	}
}

// TestRepairFailingFirst: a schema candidate that still fails the failing
// test is rejected on that test alone; its report says so.
func TestRepairFailingFirst(t *testing.T) {
	f := newFake(t)
	f.good = "none"
	res, err := repair(context.Background(), Options{Dir: f.dir, Backend: "fake", NoMutants: true, NoPerEval: true}, f)
	if err != nil {
		t.Fatal(err)
	}
	quick := 0
	for _, c := range res.Candidates[1:] {
		if c.FailingOnly && !c.Passed && slices.Equal(c.Failed, []string{"TestZero"}) {
			quick++
		}
	}
	if quick == 0 || quick != f.testRuns {
		t.Errorf("%d candidates rejected on the failing test, %d runs of it: %+v", quick, f.testRuns, res.Candidates)
	}

	// A passing test that failed an earlier candidate runs beside the
	// failing test: the next candidate that fails it is rejected there.
	// Unless it takes more than a quarter of the suite's time: then the
	// suite decides.
	for _, tc := range []struct {
		positive time.Duration // TestPositive's time, of 12ms in all
		quick    bool
	}{{time.Millisecond, true}, {10 * time.Millisecond, false}} {
		f = newFake(t)
		f.good = "none"
		f.breaks = map[string]string{"n < 0": "TestPositive", "n <= -1": "TestPositive"}
		f.elapsed = map[string]time.Duration{"TestPositive": tc.positive, "TestNegative": 11*time.Millisecond - tc.positive}
		var progress strings.Builder
		res, err = repair(context.Background(), Options{Dir: f.dir, Backend: "fake", NoMutants: true, NoPerEval: true, Logf: logTo(&progress), Verbose: true}, f)
		if err != nil {
			t.Fatal(err)
		}
		if got := tried(res, false); !strings.HasPrefix(got, "n < 0:false | n <= -1:false") {
			t.Fatalf("candidates: %s", got)
		}
		if c := res.Candidates[0]; c.FailingOnly || !slices.Equal(c.Failed, []string{"TestPositive"}) {
			t.Errorf("first candidate %+v, want the suite run, TestPositive failed", c)
		}
		if c := res.Candidates[1]; c.FailingOnly != tc.quick || !slices.Equal(c.Failed, []string{"TestPositive"}) {
			t.Errorf("TestPositive taking %v: second candidate %+v, want rejected before the suite: %v", tc.positive, c, tc.quick)
		}
		if got := strings.Contains(progress.String(), "fails TestPositive (the failing tests and 1 test that failed earlier candidates, before the suite)"); got != tc.quick {
			t.Errorf("TestPositive taking %v: progress:\n%s", tc.positive, progress.String())
		}
	}

	// A passing test that fails alone: the failing tests alone prove
	// nothing either, every candidate runs the suite.
	f = newFake(t)
	f.good = "none"
	f.tests = append(f.tests, fakeTest{name: "TestAfterSetup", inputs: []int64{5}, alone: true})
	res, err = repair(context.Background(), Options{Dir: f.dir, Backend: "fake", NoMutants: true, NoPerEval: true}, f)
	if err != nil {
		t.Fatal(err)
	}
	if f.testRuns != 0 || len(res.Candidates) < 2 {
		t.Errorf("%d runs of the failing tests alone, %d candidates, with a test that fails alone", f.testRuns, len(res.Candidates))
	}
}

func TestRepairOutcomes(t *testing.T) {
	tests := []struct {
		name   string
		edit   func(*fake)
		opts   Options
		input  string // substring of an *InputError
		reason string // substring of Result.Reason; "" means a patch
	}{
		{name: "does not compile", edit: func(f *fake) {
			f.loadErr = &collect.LoadError{Msg: "loading ./...: the module does not compile: m.go:3:1: syntax error"}
		}, input: "m.go:3:1: syntax error"},
		{name: "nothing fails", edit: func(f *fake) { f.tests = f.tests[:2] }, input: "all 2 tests pass"},
		{name: "passes instrumented", edit: func(f *fake) { f.flaky = true }, input: "the failing tests pass when instrumented"},
		{name: "flaky", edit: func(f *fake) { f.flakyTests = map[string]bool{"TestZero": true} }, input: "every failing test is flaky (TestZero)"},
		{name: "run matches nothing", opts: Options{Run: regexp.MustCompile("Nope")}, input: "no failing test matches -run"},
		{name: "no candidate passes", edit: func(f *fake) { f.good = "x" }, reason: "no patch at the 2 most suspicious sites, nor among 10 mutants of the top 2 conditions"}, // n < 0 was validated by synthesis, two more mutants with the failing tests' states (simplifications)
		{name: "no candidate passes, no mutants", edit: func(f *fake) { f.good = "x" }, opts: Options{NoMutants: true}, reason: "no patch at the 2 most suspicious sites"},
		{name: "guards only", opts: Options{Kinds: KindGuard}, reason: "no repair site is reached"},
		{name: "hang until timeout", edit: func(f *fake) { f.hang = true }, opts: Options{Timeout: 300 * time.Millisecond}, reason: "timed out"},
		{name: "another failing test left out with -run", opts: Options{Run: regexp.MustCompile("Zero")},
			edit: func(f *fake) { f.tests = append(f.tests, fakeTest{name: "TestBroken", broken: true}) }},
		{name: "another failing test not left out", edit: func(f *fake) {
			f.tests = append(f.tests, fakeTest{name: "TestBroken", inputs: []int64{1}, broken: true})
		}, reason: "no patch"},
		{name: "every state needs false: a change of the original still fits", edit: func(f *fake) { f.tests = f.tests[1:] }},
		{name: "unknown backend", opts: Options{Backend: "nope"}, input: `backend "nope"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := newFake(t)
			if tc.edit != nil {
				tc.edit(f)
			}
			opts := tc.opts
			opts.Dir = f.dir
			if opts.Backend == "" {
				opts.Backend = "fake"
			}
			res, err := repair(context.Background(), opts, f)
			var ie *InputError
			switch {
			case tc.input != "":
				if !errors.As(err, &ie) || !strings.Contains(err.Error(), tc.input) {
					t.Fatalf("got error %v, want an input error with %q", err, tc.input)
				}
			case err != nil:
				t.Fatalf("error %v", err)
			case tc.reason == "" && !res.Patched:
				t.Fatalf("no patch: %s", res.Reason)
			case tc.reason != "" && (res.Patched || !strings.Contains(res.Reason, tc.reason)):
				t.Fatalf("patched=%v reason %q, want %q", res.Patched, res.Reason, tc.reason)
			}
		})
	}
}

// TestRepairPurify repairs an impure failing test: its first statement
// needs the condition true, the others false. Forced as a whole it fails
// both ways; split into fragments, the two failing ones forced false
// pass.
func TestRepairPurify(t *testing.T) {
	for _, purify := range []bool{true, false} {
		t.Run(fmt.Sprint("purify=", purify), func(t *testing.T) {
			f := newFake(t)
			f.tests = []fakeTest{
				{name: "TestPositive", inputs: []int64{3, 200}},
				{name: "TestSign", inputs: []int64{-1, 0, 5, 0}, impure: true},
			}
			var progress strings.Builder
			// The mutation fallback would find n < 0 without purification.
			res, err := repair(context.Background(), Options{Dir: f.dir, Backend: "fake", Logf: logTo(&progress), NoPurify: !purify, NoMutants: true}, f)
			if err != nil {
				t.Fatalf("repair: %v\n%s", err, progress.String())
			}
			if !purify {
				if res.Patched || res.Sites[0].Purified || res.Sites[0].Outcome != "not angelic: TestSign fails under every forced value" {
					t.Errorf("patched=%v purified=%v outcome %q without purification", res.Patched, res.Sites[0].Purified, res.Sites[0].Outcome)
				}
				for _, r := range f.runs {
					if len(r.ForceConstituents) > 0 || r.PrintConstituents {
						t.Errorf("run %+v without purification", r)
					}
				}
				return
			}
			if !res.Patched || res.Diff != wantDiff {
				t.Fatalf("patched=%v %s, diff:\n%s\nprogress:\n%s", res.Patched, res.Reason, res.Diff, progress.String())
			}
			if got := strings.Join(res.Site.Needs, ","); got != "TestSign=false@1.0+3.0" {
				t.Errorf("needs %s", got)
			}
			want := []ConstituentReport{
				{Test: "TestSign", Segment: 1, File: "m_test.go", Line: 11, Value: "false"},
				{Test: "TestSign", Segment: 3, File: "m_test.go", Line: 13, Value: "false"},
			}
			if !res.Site.Purified || !reflect.DeepEqual(res.Site.Fragments, want) {
				t.Errorf("purified=%v fragments %+v, want %+v", res.Site.Purified, res.Site.Fragments, want)
			}
			if !strings.Contains(progress.String(), "TestSign fails under every value forced in the whole test; split into fragments, failing: m_test.go:11, m_test.go:13") {
				t.Errorf("progress does not say the test was split:\n%s", progress.String())
			}
		})
	}
}

func TestRepairInterrupted(t *testing.T) {
	f := newFake(t)
	f.hang = true
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(100*time.Millisecond, cancel)
	_, err := repair(ctx, Options{Dir: f.dir, Backend: "fake"}, f)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("got %v, want cancellation", err)
	}
	if f.closed != 1 {
		t.Errorf("build closed %d times", f.closed)
	}
}

func TestOriginalOperands(t *testing.T) {
	spec := &synth.Spec{
		Original: "len(item.Keys) > len( keys )",
		Inputs: []synth.Input{
			{Expr: "item == nil", Kind: synth.Bool},
			{Expr: "len(keys)", Kind: synth.Int},
			{Expr: "len(item.Keys)", Kind: synth.Int},
			{Expr: "n", Kind: synth.Int},
		},
		Examples: []synth.Example{{Values: []synth.Value{synth.BoolValue(false), synth.IntValue(1), synth.IntValue(2), synth.IntValue(7)}}},
	}
	ops := originalOperands(spec)
	if fmt.Sprint(ops) != "[1 2]" {
		t.Fatalf("operands %v, want [1 2]", ops)
	}
	p := project(spec, ops)
	if len(p.Inputs) != 2 || p.Inputs[0].Expr != "len(keys)" || fmt.Sprint(p.Examples[0].Values) != "[1 2]" {
		t.Errorf("projected %+v", p)
	}
	if len(spec.Inputs) != 4 || len(spec.Examples[0].Values) != 4 {
		t.Error("project changed its argument")
	}
	both := synth.BinTerm(synth.OpLt, synth.InputTerm(1), synth.InputTerm(0))
	one := synth.BinTerm(synth.OpLt, synth.InputTerm(1), synth.LitTerm(synth.IntValue(0)))
	if !readsAll(both, []int{0, 1}) || readsAll(one, []int{0, 1}) {
		t.Error("readsAll")
	}
}

func TestWholeTest(t *testing.T) {
	f := newFake(t)
	f.tests = []fakeTest{{name: "TestSign", inputs: []int64{-1, 0}, impure: true}, {name: "TestZero", inputs: []int64{0}}}
	r := &repairer{bin: f}
	sign := testKey{"example.com/m", "TestSign"}
	for _, tc := range []struct {
		frs  []angelic.Constituent
		want bool
	}{
		{[]angelic.Constituent{{Segment: 1}, {Segment: 0}}, true},
		{[]angelic.Constituent{{Segment: 1}}, false},
		{[]angelic.Constituent{{Segment: 0}, {Segment: 1, Iteration: 2}}, false},
		{nil, false},
	} {
		if got := r.wholeTest(sign, tc.frs); got != tc.want {
			t.Errorf("wholeTest(%v) = %v, want %v", tc.frs, got, tc.want)
		}
	}
	if r.wholeTest(testKey{"example.com/m", "TestZero"}, nil) {
		t.Error("a test without constituents is not known whole")
	}
}

// TestRepairMutation repairs the impure test of TestRepairPurify without
// purification: no site is angelic, and the mutation fallback validates
// the mutants of the original conditions, most suspicious site first.
// With NoMutants there is no patch.
func TestRepairMutation(t *testing.T) {
	for _, noMutants := range []bool{false, true} {
		t.Run(fmt.Sprint("mutants=", !noMutants), func(t *testing.T) {
			f := newFake(t)
			f.tests = []fakeTest{
				{name: "TestPositive", inputs: []int64{3, 200}},
				{name: "TestSign", inputs: []int64{-1, 0, 5, 0}, impure: true},
			}
			var progress strings.Builder
			// The fake's baseline takes no time: no bound on the effort.
			res, err := repair(context.Background(), Options{Dir: f.dir, Backend: "fake", Logf: logTo(&progress), NoPurify: true, NoMutants: noMutants, Effort: -1}, f)
			if err != nil {
				t.Fatalf("repair: %v\n%s", err, progress.String())
			}
			if noMutants {
				// The per-evaluation tier runs last (the fake negates
				// nothing, so it finds nothing).
				if res.Patched || res.Reason != "no patch at the 2 most suspicious sites, nor with per-evaluation values at 2 conditions" || f.schemas != 0 {
					t.Errorf("patched=%v reason %q, %d schemas without mutants", res.Patched, res.Reason, f.schemas)
				}
				if strings.Contains(progress.String(), "mutant") {
					t.Errorf("progress mentions mutants:\n%s", progress.String())
				}
				return
			}
			if !res.Patched || res.Reason != "" || res.Diff != wantDiff || res.Site.Method != "mutation" || res.Site.Outcome != "patched" {
				t.Fatalf("patched=%v reason %q method %q, diff:\n%s\nprogress:\n%s", res.Patched, res.Reason, res.Site.Method, res.Diff, progress.String())
			}
			// Site 0 is the most suspicious: its mutants come first in the one
			// schema of every condition's mutants, the fewest changes first,
			// then site 1's; the passing one verified as a patched file.
			want := []string{"n > 0", "n < 0", "n == 0", "n != 0", "n >= 0", "n <= 1"}
			if f.schemas != 1 || len(f.schemaCands) <= len(want) || !reflect.DeepEqual(f.schemaCands[:len(want)], want) || !slices.Contains(f.schemaCands[len(want):], "n < 100") {
				t.Errorf("%d schemas, last of %q, want one of %q then site 1's", f.schemas, f.schemaCands, want)
			}
			var tried []string
			for _, c := range res.Candidates {
				tried = append(tried, fmt.Sprintf("%s:%s:%v", c.Condition, c.Method, c.Passed))
			}
			if got := strings.Join(tried, " | "); got != "n > 0:mutation:false | n < 0:mutation:true" {
				t.Errorf("candidates: %s", got)
			}
			var methods []string
			for _, s := range res.Sites {
				methods = append(methods, fmt.Sprintf("%d:%s", s.ID, s.Method))
			}
			if got := strings.Join(methods, " "); got != "0:synthesis 1:synthesis 0:mutation" {
				t.Errorf("sites searched: %s", got)
			}
			if !strings.Contains(progress.String(), "mutation: no angelic site; trying 13 mutants of the top 2 conditions") {
				t.Errorf("progress does not announce the mutants:\n%s", progress.String())
			}
		})
	}
}

// TestRepairMutantsFirst: when the first tier has done firstPauseWork
// without a patch (here 1 unit: the first site's search), the mutants
// come before its remaining sites; the pause is counted in work, so no
// bound in time is counted.
func TestRepairMutantsFirst(t *testing.T) {
	defer func(n int) { firstPauseWork = n }(firstPauseWork)
	for _, tc := range []struct {
		name  string
		pause int
		// sites are the sites searched and how, in order.
		sites, log string
	}{
		{name: "paused", pause: 1, sites: "0:synthesis 0:mutation", log: "at 1 of 2 sites; the mutants of the top conditions come before the others"},
		{name: "not paused", pause: 1 << 20, sites: "0:synthesis 1:synthesis 0:mutation"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			firstPauseWork = tc.pause
			res, progress := repairByMutant(t)
			var methods []string
			for _, s := range res.Sites {
				methods = append(methods, fmt.Sprintf("%d:%s", s.ID, s.Method))
			}
			if got := strings.Join(methods, " "); got != tc.sites {
				t.Errorf("sites searched: %s, want %s\n%s", got, tc.sites, progress.String())
			}
			paused := strings.Contains(progress.String(), "mutation: the first tier did ")
			if paused != (tc.log != "") || !strings.Contains(progress.String(), tc.log) {
				t.Errorf("progress does not say %q:\n%s", tc.log, progress.String())
			}
			if len(res.TimeBounds) != 0 {
				t.Errorf("time bounds %v: the pause is counted in work", res.TimeBounds)
			}
		})
	}
}

// repairByMutant repairs the fake program where no angelic value fits
// (TestSign is impure, not purified) and checks that a mutant of the
// mutants tier is the patch; it returns the result and the progress.
func repairByMutant(t *testing.T) (*Result, *strings.Builder) {
	t.Helper()
	f := newFake(t)
	f.tests = []fakeTest{
		{name: "TestPositive", inputs: []int64{3, 200}},
		{name: "TestSign", inputs: []int64{-1, 0, 5, 0}, impure: true},
	}
	progress := &strings.Builder{}
	res, err := repair(context.Background(), Options{Dir: f.dir, Backend: "fake", Logf: logTo(progress), NoPurify: true, Effort: -1}, f)
	if err != nil {
		t.Fatalf("repair: %v\n%s", err, progress.String())
	}
	if !res.Patched || res.Diff != wantDiff || res.Site.Method != "mutation" || res.Tier != "mutants" {
		t.Fatalf("patched=%v tier %q method %q reason %q\nprogress:\n%s", res.Patched, res.Tier, res.Site.Method, res.Reason, progress.String())
	}
	return res, progress
}

// TestRepairMoreMutants: the conditions after the first
// maxMutationSites (here none, so that the second window starts at the
// top) have their mutants validated after the first tier and the twins,
// before the guards' exits.
func TestRepairMoreMutants(t *testing.T) {
	defer func(n, m, p int) { maxMutationSites, moreMutationSites, firstPauseWork = n, m, p }(maxMutationSites, moreMutationSites, firstPauseWork)
	maxMutationSites, moreMutationSites, firstPauseWork = 0, 10, 1<<20
	_, progress := repairByMutant(t)
	if !strings.Contains(progress.String(), "trying 13 mutants of the top 2 conditions") {
		t.Errorf("progress does not announce the next conditions' mutants:\n%s", progress.String())
	}
	if strings.Contains(progress.String(), "exits: ") {
		t.Errorf("the guards' exits were searched before the next conditions' mutants:\n%s", progress.String())
	}
}

// TestRepairEffort: the later tiers (here, per-evaluation values) start
// a site only while they made fewer runs than Options.Effort times the
// first tier's (minLaterWork is 0 here); the reason says where they
// stopped.
func TestRepairEffort(t *testing.T) {
	defer func(n int) { minLaterWork = n }(minLaterWork)
	minLaterWork = 0
	tests := []struct {
		effort float64
		reason string // the reason, or its start when later is false
		later  bool   // per-evaluation runs made
	}{
		{effort: -1, reason: "no patch at the 2 most suspicious sites, nor with per-evaluation values at 2 conditions", later: true},
		{effort: 1e4, reason: "no patch at the 2 most suspicious sites, nor with per-evaluation values at 2 conditions", later: true},
		{effort: 1e-3, reason: "no patch at the 2 most suspicious sites; the later tiers stopped at the effort bound, 0 units of test runs (0.001 × the first tier's "},
	}
	for _, tc := range tests {
		t.Run(fmt.Sprint("effort=", tc.effort), func(t *testing.T) {
			f := newFake(t)
			f.tests = []fakeTest{
				{name: "TestPositive", inputs: []int64{3, 200}},
				{name: "TestSign", inputs: []int64{-1, 0, 5, 0}, impure: true},
			}
			var progress strings.Builder
			res, err := repair(context.Background(), Options{Dir: f.dir, Backend: "fake", Logf: logTo(&progress), NoPurify: true, NoMutants: true, Effort: tc.effort}, f)
			if err != nil {
				t.Fatalf("repair: %v\n%s", err, progress.String())
			}
			if res.Patched || (tc.later && res.Reason != tc.reason) || !strings.HasPrefix(res.Reason, tc.reason) {
				t.Errorf("patched=%v reason %q, want %q", res.Patched, res.Reason, tc.reason)
			}
			later := slices.ContainsFunc(f.runs, func(r collect.Run) bool { return len(r.FlipEval) > 0 || len(r.PrintEvals) > 0 })
			if later != tc.later {
				t.Errorf("per-evaluation runs made: %v, want %v", later, tc.later)
			}
			if stopped := strings.Contains(progress.String(), "effort: "); stopped == tc.later {
				t.Errorf("progress says the later tiers stopped: %v\n%s", stopped, progress.String())
			}
		})
	}
}

// TestRepairDeeperSites: the faulty condition ranks after the first
// MaxSites (a site only the failing test runs ranks above it); after
// every other tier finds nothing there, the deeper sites' tier patches
// it, and without it (MaxSites sites, no more) the reason says so.
func TestRepairDeeperSites(t *testing.T) {
	f := newFake(t)
	f.site1Skipped = map[string]bool{"TestNegative": true, "TestPositive": true}
	var progress strings.Builder
	res, err := repair(context.Background(), Options{Dir: f.dir, Backend: "fake", Logf: logTo(&progress), MaxSites: 1, NoMutants: true}, f)
	if err != nil {
		t.Fatal(err)
	}
	log := progress.String()
	if !res.Patched || res.Condition != "n < 0" || res.Site.ID != 0 || res.Tier != "deeper" {
		t.Fatalf("patched=%v %q in tier %q, want n < 0 at site 0 in the deeper tier: %s\n%s", res.Patched, res.Condition, res.Tier, res.Reason, log)
	}
	if e := res.Explanation; e.Confidence != ConfidenceLow || !slices.ContainsFunc(e.Reasons, func(s string) bool { return strings.Contains(s, "ranked after the first 1") }) {
		t.Errorf("a deeper site's patch explained with confidence %s, %q: want low, for its rank", e.Confidence, e.Reasons)
	}
	if !strings.Contains(log, "site 1/1: m.go:7") || !strings.Contains(log, "deeper: 1 site ranked after the first 1") {
		t.Errorf("site 1 not searched first, or site 0 not in the deeper tier:\n%s", log)
	}
	if !slices.Contains(f.snapSites, 0) {
		t.Errorf("snapshots built for sites %v, not the deeper site 0", f.snapSites)
	}
}

// logTo is an Options.Logf writing each line, as the CLI does, into b.
func logTo(b *strings.Builder) func(string, ...any) {
	return func(format string, args ...any) {
		fmt.Fprintf(b, "nopol: "+format+"\n", args...)
	}
}

// TestEvalLimit: a forced run may evaluate ten times what the test, or
// the heaviest test of its package, evaluated in its coverage run; a
// candidate's run as much for each test it runs.
func TestEvalLimit(t *testing.T) {
	reached := func(evals ...int) collect.Result {
		res := collect.Result{Reached: map[int][2]int{}}
		for i, n := range evals {
			res.Reached[i] = [2]int{n / 2, n - n/2}
		}
		return res
	}
	passed := func(res collect.Result) collect.Result {
		res.Passed = true
		return res
	}
	failing, heavy, other := testKey{"p", "TestFails"}, testKey{"p", "TestHeavy"}, testKey{"q", "TestOther"}
	r := &repairer{cover: map[testKey]collect.Result{
		failing: reached(400, 600),
		heavy:   passed(reached(3_000_000, 2_000_000)),
		other:   passed(reached(90_000_000)),
	}}
	r.coverMax = heaviest(r.cover)
	for _, tc := range []struct {
		k    testKey
		want int64
	}{
		{failing, evalLimitBase + 20*5_000_000},
		{heavy, evalLimitBase + 20*5_000_000},
		{other, evalLimitBase + 20*90_000_000},
	} {
		if got := r.evalLimit(tc.k); got != tc.want {
			t.Errorf("%s: limit %d, want %d", tc.k.name, got, tc.want)
		}
	}
	if got := r.cover[failing].Evaluations(); got != 1000 {
		t.Errorf("evaluations %d, want 1000", got)
	}
	// A candidate's run: one process runs the tests, so their bounds add
	// up; a failing test's is at least the heaviest of its package.
	r.failing = []testKey{failing}
	for _, tc := range []struct {
		pkg   string
		tests []string
		want  int64
	}{
		{"p", nil, evalLimitBase + 20*(5_000_000+5_000_000)},
		{"p", []string{"TestFails"}, evalLimitBase + 20*5_000_000},
		{"p", []string{"TestHeavy", "TestMissing"}, evalLimitBase + 20*5_000_000},
		{"q", nil, evalLimitBase + 20*90_000_000},
	} {
		if got := r.candidateEvalLimit(tc.pkg, tc.tests); got != tc.want {
			t.Errorf("candidate limit of %s %v: %d, want %d", tc.pkg, tc.tests, got, tc.want)
		}
	}
	// A failing test its coverage run left out still counts.
	delete(r.cover, failing)
	if got, want := r.candidateEvalLimit("p", nil), int64(evalLimitBase+20*(5_000_000+5_000_000)); got != want {
		t.Errorf("candidate limit without the failing test's coverage: %d, want %d", got, want)
	}
	// A runaway failing test: its coverage run evaluated until its time
	// limit stopped it, and that count bounds neither its own runs nor
	// the package's heaviest.
	spin := reached(400_000_000)
	spin.TimedOut = true
	r.cover[failing] = spin
	r.coverMax = heaviest(r.cover)
	if got, want := r.evalLimit(failing), int64(evalLimitBase+20*5_000_000); got != want {
		t.Errorf("limit of a runaway test: %d, want %d", got, want)
	}
	if got, want := r.candidateEvalLimit("p", nil), int64(evalLimitBase+20*(5_000_000+5_000_000)); got != want {
		t.Errorf("candidate limit with a runaway test: %d, want %d", got, want)
	}
	// A package none of whose covered tests passed (btree's seeded
	// split: every test fails early): no run shows what a test run to
	// its end evaluates, and a failing test may evaluate
	// noPassingEvaluations in a candidate's run. A forced run keeps its
	// bound.
	r.cover = map[testKey]collect.Result{failing: reached(400, 600), heavy: reached(3000)}
	r.coverMax = heaviest(r.cover)
	if got, want := r.evalLimit(failing), int64(evalLimitBase+20*3000); got != want {
		t.Errorf("limit where no test passed: %d, want %d", got, want)
	}
	if got, want := r.candidateEvalLimit("p", nil), int64(evalLimitBase+20*(noPassingEvaluations+3000)); got != want {
		t.Errorf("candidate limit where no test passed: %d, want %d", got, want)
	}
}

// TestSnapshotEvalLimit: a forced run in snapshot mode counts the
// evaluations of its site only, so its bound is the site's: the most any
// coverage run of the package made there, a runaway's aside.
func TestSnapshotEvalLimit(t *testing.T) {
	at := func(timedOut bool, counts map[int][2]int) collect.Result {
		return collect.Result{Reached: counts, TimedOut: timedOut}
	}
	failing, heavy, spin, other := testKey{"p", "TestFails"}, testKey{"p", "TestHeavy"}, testKey{"p", "TestSpin"}, testKey{"q", "TestOther"}
	r := &repairer{prog: &collect.Program{}, cover: map[testKey]collect.Result{
		failing: at(false, map[int][2]int{1: {3, 4}, 2: {1, 0}}),
		heavy:   at(false, map[int][2]int{1: {500, 500}, 2: {9_000_000, 1}}),
		spin:    at(true, map[int][2]int{1: {80_000_000, 0}}),
		other:   at(false, map[int][2]int{1: {70_000, 0}}),
	}}
	r.coverMax = heaviest(r.cover)
	for _, tc := range []struct {
		k    testKey
		site int
		want int64
	}{
		{failing, 1, snapshotLimitBase + 20*1000},
		{heavy, 1, snapshotLimitBase + 20*1000},
		{failing, 2, snapshotLimitBase + 20*9_000_001},
		{failing, 3, snapshotLimitBase},
		{other, 1, snapshotLimitBase + 20*70_000},
	} {
		if got := r.snapshotEvalLimit(tc.k, tc.site); got != tc.want {
			t.Errorf("%s at site %d: limit %d, want %d", tc.k.name, tc.site, got, tc.want)
		}
	}
	// The forced run of a guessed predicate is a snapshot run with that
	// bound; the same force without a guess keeps the all-sites bound.
	site := collect.Site{ID: 1, Kind: collect.Cond, Package: "p"}
	r.guessed = map[int]map[string]collect.Predicate{1: {"x > 0": {}}}
	run := r.forcedRun(failing, site, style{}, angelic.Force{Value: true, Guess: "x > 0"}, collect.ModeCover)
	if run.Mode != collect.ModeSnapshot || run.EvalLimit != snapshotLimitBase+20*1000 {
		t.Errorf("guessed predicate's run: mode %v, limit %d; want snapshot mode, limit %d", run.Mode, run.EvalLimit, snapshotLimitBase+20*1000)
	}
	run = r.forcedRun(failing, site, style{}, angelic.Force{Value: true}, collect.ModeCover)
	if want := r.evalLimit(failing); run.EvalLimit != want {
		t.Errorf("forced run without a guess: limit %d, want %d", run.EvalLimit, want)
	}
}

// TestMemLimit: a forced run may hold forcedMemBase and four times the
// most resident memory of a passing test of its package; a failing test's
// own coverage run (a runaway's, at the machine's limit) does not count.
func TestMemLimit(t *testing.T) {
	failing, light, heavy, other := testKey{"p", "TestFails"}, testKey{"p", "TestLight"}, testKey{"p", "TestHeavy"}, testKey{"q", "TestOther"}
	r := &repairer{prog: &collect.Program{}, cover: map[testKey]collect.Result{
		failing: {PeakRSS: 8 << 30},
		light:   {Passed: true, PeakRSS: 20 << 20},
		heavy:   {Passed: true, PeakRSS: 300 << 20},
		other:   {Passed: true, PeakRSS: 5 << 20},
	}}
	for _, tc := range []struct {
		k    testKey
		want int64
	}{
		{failing, forcedMemBase + 4*(300<<20)},
		{light, forcedMemBase + 4*(300<<20)},
		{other, forcedMemBase + 4*(5<<20)},
		{testKey{"none", "TestX"}, forcedMemBase},
	} {
		if got := r.memLimit(tc.k.pkg); got != tc.want {
			t.Errorf("%s: cap %d, want %d", tc.k.name, got, tc.want)
		}
	}
	site := collect.Site{ID: 1, Kind: collect.Cond, Package: "p"}
	if run := r.forcedRun(failing, site, style{}, angelic.Force{Value: true}, collect.ModeCover); run.MaxRSS != forcedMemBase+4*(300<<20) {
		t.Errorf("forced run's cap %d, want %d", run.MaxRSS, forcedMemBase+4*(300<<20))
	}
}

// TestRepairEffortParallel: the later tiers stop at the same place (the
// same reason, the same units of work) whether forced runs go one at a
// time or in waves of three. (The surplus of a wave, runs after the first
// that passes, is counted by angelic's TestSearchPerEvaluation.)
func TestRepairEffortParallel(t *testing.T) {
	defer func(n int) { minLaterWork = n }(minLaterWork)
	minLaterWork = 0
	var reasons []string
	for _, parallel := range []int{1, 3} {
		f := newFake(t)
		f.tests = []fakeTest{
			{name: "TestPositive", inputs: []int64{3, 200}},
			{name: "TestSign", inputs: []int64{-1, 0, 5, 0}, impure: true},
		}
		res, err := repair(context.Background(), Options{Dir: f.dir, Backend: "fake", NoPurify: true, NoMutants: true, Effort: 0.3, Parallel: parallel}, f)
		if err != nil {
			t.Fatal(err)
		}
		reasons = append(reasons, res.Reason)
	}
	if reasons[0] != reasons[1] {
		t.Errorf("one at a time: %q\nin waves of 3: %q", reasons[0], reasons[1])
	}
	if !strings.Contains(reasons[0], "effort bound") {
		t.Errorf("the later tiers did not stop at the bound: %q", reasons[0])
	}
}

// TestStrategyWantedPanics: a guard that panics is tried only when a
// failing test expects a panic; -strategies restricts it like the others.
func TestStrategyWantedPanics(t *testing.T) {
	prog := &collect.Program{PanicTests: map[string]map[string]bool{"m": {"TestPanics": true}}}
	panicking := style{name: "return", strategy: collect.StrategyPanicNew}
	zero := style{name: "return", strategy: collect.StrategyZero}
	for _, tc := range []struct {
		failing    string
		strategies []string
		want, zero bool
	}{
		{"TestPanics", nil, true, true},
		{"TestOther", nil, false, true},
		{"TestPanics", []string{collect.StrategyZero}, false, true},
	} {
		r := &repairer{prog: prog, failing: []testKey{{"m", tc.failing}}, opts: Options{Strategies: tc.strategies}}
		if got := r.strategyWanted(panicking); got != tc.want {
			t.Errorf("failing %s, -strategies %v: panic-new wanted = %v, want %v", tc.failing, tc.strategies, got, tc.want)
		}
		if got := r.strategyWanted(zero); got != tc.zero {
			t.Errorf("failing %s, -strategies %v: zero-values wanted = %v, want %v", tc.failing, tc.strategies, got, tc.zero)
		}
	}
}

// TestOnOriginalOperands checks that an operand inside another (str in
// len(str)) is kept in the spec but not required of a candidate: reading
// len(str) reads str.
func TestOnOriginalOperands(t *testing.T) {
	spec := &synth.Spec{
		Original: "len(str) > length",
		Inputs: []synth.Input{
			{Expr: "len(str)", Kind: synth.Int},
			{Expr: "str", Kind: synth.String},
			{Expr: "state", Kind: synth.Int},
			{Expr: "length", Kind: synth.Int},
		},
	}
	only, keep := onOriginalOperands(spec)
	var got []string
	for _, in := range only.Inputs {
		got = append(got, in.Expr)
	}
	if fmt.Sprint(got) != "[len(str) str length]" || fmt.Sprint(keep) != "[0 2]" {
		t.Errorf("inputs %q, keep %v; want [len(str) str length], [0 2]", got, keep)
	}
	if _, keep := onOriginalOperands(&synth.Spec{Original: "ok", Inputs: spec.Inputs}); keep != nil {
		t.Errorf("no operand observed: keep %v, want nil", keep)
	}
}

// TestChangedOnly checks that the failing tests' examples whose outcome
// is the original's are left out, and the passing tests' are kept.
func TestChangedOnly(t *testing.T) {
	spec := &synth.Spec{Original: "n > 0", Inputs: []synth.Input{{Expr: "n", Kind: synth.Int}}}
	ex := examples{nFailing: 1}
	add := func(from int, n int64, want bool) {
		v := []synth.Value{synth.IntValue(n)}
		ex.all = append(ex.all, angelic.Example{State: stateKey(v), Want: want, Origin: fmt.Sprint("run", from)})
		ex.vals = append(ex.vals, v)
		ex.from = append(ex.from, from)
		ex.ord = append(ex.ord, len(ex.all))
	}
	add(0, 3, false)  // failing, forced false where the original is true: kept
	add(0, -1, false) // failing, false as the original: left out
	add(1, -2, false) // passing: kept
	add(1, 5, true)   // passing: kept
	changed, sum, n := changedOnly(spec, ex)
	if changed == nil || n != 1 || sum.Distinct != 3 {
		t.Fatalf("changed %v, %d left out, %d distinct; want 1 left out, 3 distinct", changed, n, sum.Distinct)
	}
	for _, e := range changed.Examples {
		if e.Values[0].Int == -1 {
			t.Errorf("the unforced example n=-1 is kept")
		}
	}
	ex.all, ex.vals, ex.from, ex.ord = ex.all[:1], ex.vals[:1], ex.from[:1], ex.ord[:1]
	if changed, _, n := changedOnly(spec, ex); changed != nil || n != 0 {
		t.Errorf("every failing example changed: got a spec (%d left out), want none", n)
	}
	if changed, _, _ := changedOnly(&synth.Spec{Original: "m > 0", Inputs: spec.Inputs}, ex); changed != nil {
		t.Error("an original that reads what is not observed: got a spec, want none")
	}
}
