package collect

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"
)

func TestSchema(t *testing.T) {
	tests := []struct {
		archive    string
		kind       SiteKind
		file       string
		line       int
		style      GuardStyle
		candidates []string
		// want per candidate: "pass", "drop", or the failed tests (in
		// basic, TestAbs and TestAbsNegative fail before any change).
		want []string
	}{
		{"crash", Cond, "p.go", 6, 0,
			[]string{"i >= len(xs)", "i > len(xs)", "i >= len(xz)", "i", "len(xs) <= i && i >= 0"},
			[]string{"TestNameNil", "TestPanics TestNameNil", "drop", "drop", "TestNameNil"}},
		{"basic", Cond, "calc.go", 13, 0,
			[]string{"x < 0", "x > 0", "c < 0"},
			[]string{"pass", "TestAbs TestAbsNegative", "drop"}},
		{"basic", Guard, "calc.go", 30, GuardWrap,
			[]string{"n > 0", "false"},
			[]string{"TestAbs TestAbsNegative", "TestAbs TestAbsNegative TestWithdraw"}},
		// util has no tests: api's tests are run, and their failures
		// are qualified, apart from the site package's.
		{"tricky", Cond, "util.go", 46, 0,
			[]string{"r > 10", "r > 100"},
			[]string{"pass", " elsewhere example.com/tricky/api.TestUtil"}},
		// Clamp's exits: `return x` (reused), `return 0` (zero values).
		{"basic", Guard, "calc.go", 50, GuardExit(1),
			[]string{"x > 1000", "true"},
			[]string{"TestAbs TestAbsNegative", "TestAbs TestAbsNegative TestClamp ExampleClamp"}},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%s:%d", tt.file, tt.line), func(t *testing.T) {
			f := load(t, tt.archive)
			site := f.prog.Sites[f.site(t, tt.kind, tt.file, tt.line)]
			s, err := BuildSchema(context.Background(), f.prog, site, tt.style, tt.candidates)
			if err != nil {
				t.Fatal(err)
			}
			defer func() {
				dir := s.dir
				if err := s.Close(); err != nil {
					t.Error(err)
				}
				if _, err := os.Stat(dir); !os.IsNotExist(err) {
					t.Errorf("schema dir %s left behind", dir)
				}
			}()
			t.Logf("schema built in %v", s.BuildTime)
			for k, want := range tt.want {
				res, err := s.RunSuite(context.Background(), k)
				if err != nil {
					t.Fatal(err)
				}
				got := suiteOutcome(res, "drop")
				if got != want {
					t.Errorf("candidate %q: %s, want %s\n%s", tt.candidates[k], got, want, res.Output)
				}
			}
			f.checkUntouched(t)
		})
	}
}

func TestSchemaBisect(t *testing.T) {
	skipTypeCheck = true
	defer func() { skipTypeCheck = false }()
	f := load(t, "crash")
	site := f.prog.Sites[f.site(t, Cond, "p.go", 6)]
	cands := []string{"i >= len(xs)", "i >= len(xz)", "i > len(xs)", "i", "true"}
	s, err := BuildSchema(context.Background(), f.prog, site, 0, cands)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var dropped []int
	for k := range s.Dropped {
		dropped = append(dropped, k)
	}
	sort.Ints(dropped)
	if fmt.Sprint(dropped) != "[1 3]" {
		t.Errorf("dropped = %v (%v)", dropped, s.Dropped)
	}
	if res, err := s.RunSuite(context.Background(), 0); err != nil || strings.Join(res.Failed, " ") != "TestNameNil" {
		t.Errorf("candidate 0: %+v, %v", res, err)
	}
}

func TestSchemaTimeout(t *testing.T) {
	f := load(t, "basic")
	site := f.prog.Sites[f.site(t, Cond, "calc.go", 40)]
	s, err := BuildSchema(context.Background(), f.prog, site, 0, []string{"false", "c >= n"})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	s.Timeout = 3 * time.Second
	res, err := s.RunSuite(context.Background(), 0)
	if err != nil {
		t.Fatal(err)
	}
	if res.Passed || !res.TimedOut || res.Hung || !slices.Contains(res.Failed, "TestCount") || res.Duration > 20*time.Second {
		t.Errorf("endless candidate: %+v", res)
	}
	res, err = s.RunSuite(context.Background(), 1)
	if err != nil {
		t.Fatal(err)
	}
	if res.TimedOut || strings.Join(res.Failed, " ") != "TestAbs TestAbsNegative" {
		t.Errorf("original candidate: %+v", res)
	}
}

func TestVerifyPatch(t *testing.T) {
	basic, tricky := load(t, "basic"), load(t, "tricky")
	calcFile := filepath.Join(basic.dir, "calc", "calc.go")
	utilFile := filepath.Join(tricky.dir, "util", "util.go")
	calc, err := os.ReadFile(calcFile)
	if err != nil {
		t.Fatal(err)
	}
	util, err := os.ReadFile(utilFile)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		f    *fixture
		file string
		src  []byte
		want string
	}{
		{"fix", basic, calcFile, []byte(strings.Replace(string(calc), "if x > 0 {", "if x < 0 {", 1)), "pass"},
		{"unchanged", basic, calcFile, calc, "TestAbs TestAbsNegative"},
		{"broken", basic, calcFile, []byte(strings.Replace(string(calc), "if x > 0 {", "if x > zz {", 1)), "build failed"},
		// util has no tests; api's failing test is qualified and apart.
		{"dependent", tricky, utilFile, []byte(strings.Replace(string(util), "if r > 10 {", "if r > 100 {", 1)), " elsewhere example.com/tricky/api.TestUtil"},
		{"dependent unchanged", tricky, utilFile, util, "pass"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := VerifyPatch(context.Background(), tt.f.prog, tt.file, tt.src, time.Minute)
			if err != nil {
				t.Fatal(err)
			}
			got := suiteOutcome(res, "build failed")
			if got != tt.want {
				t.Errorf("got %s, want %s\n%s", got, tt.want, res.Output)
			}
		})
	}
	basic.checkUntouched(t)
	tricky.checkUntouched(t)
}

// suiteOutcome renders res for comparison with a want string: "pass",
// buildFailed when the candidate did not build, or the failing tests
// followed by "elsewhere" and the other packages' failing tests.
func suiteOutcome(res SuiteResult, buildFailed string) string {
	switch {
	case res.BuildFailed:
		return buildFailed
	case !res.Passed:
		got := strings.Join(res.Failed, " ")
		if len(res.FailedElsewhere) > 0 {
			got += " elsewhere " + strings.Join(res.FailedElsewhere, " ")
		}
		return got
	}
	return "pass"
}

// TestBuildSchemas builds the candidates of two sites into one schema:
// each candidate replaces its own site only.
func TestBuildSchemas(t *testing.T) {
	f := load(t, "basic")
	abs := f.prog.Sites[f.site(t, Cond, "calc.go", 13)]
	withdraw := f.prog.Sites[f.site(t, Cond, "calc.go", 29)]
	s, err := BuildSchemas(context.Background(), f.prog, []SchemaPart{
		{Site: abs, Candidates: []string{"x > 1", "x < 0"}},
		{Site: withdraw, Candidates: []string{"n != 0", "undefinedName"}},
	})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, ok := s.Dropped[3]; !ok || len(s.Dropped) != 1 {
		t.Errorf("Dropped = %v, want candidate 3 only", s.Dropped)
	}
	for k, want := range []string{"TestAbs TestAbsNegative", "", "TestAbs TestAbsNegative TestWithdraw"} {
		res, err := s.RunSuite(context.Background(), k)
		if err != nil {
			t.Fatal(err)
		}
		slices.Sort(res.Failed)
		if got := strings.Join(res.Failed, " "); got != want || res.Passed != (want == "") {
			t.Errorf("candidate %d (%s): failed %q passed %v, want %q", k, s.Candidates[k], got, res.Passed, want)
		}
	}
	// Overlapping sources are refused.
	if s2, err := BuildSchemas(context.Background(), f.prog, []SchemaPart{{Site: abs, Candidates: []string{"true"}}, {Site: abs, Candidates: []string{"false"}}}); err == nil {
		s2.Close()
		t.Error("a schema of one site twice was built")
	}
}

// TestSchemaEvalLimit: a candidate that makes Count's loop spin ends as
// timed out by the evaluation limit, long before the run's timeout; the
// original stays under the limit.
func TestSchemaEvalLimit(t *testing.T) {
	f := load(t, "basic")
	site := f.prog.Sites[f.site(t, Cond, "calc.go", 40)]
	s, err := BuildSchema(context.Background(), f.prog, site, 0, []string{"false", "c >= n"})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	s.Timeout, s.EvalLimit = 10*time.Minute, func(string, []string) int64 { return 100_000 }
	res, err := s.RunTests(context.Background(), 0, []string{"TestCount", "TestClamp"}, 10*time.Minute, 0)
	if err != nil {
		t.Fatal(err)
	}
	if res.Passed || !res.TimedOut || !res.Hung {
		t.Errorf("endless candidate under the limit: passed=%v timed out=%v hung=%v", res.Passed, res.TimedOut, res.Hung)
	}
	res, err = s.RunSuite(context.Background(), 1)
	if err != nil {
		t.Fatal(err)
	}
	if res.TimedOut || strings.Join(res.Failed, " ") != "TestAbs TestAbsNegative" {
		t.Errorf("original candidate: %+v", res)
	}
}

// TestSchemaRunTestsFirstFailure: RunTests ends at the first failing
// test (a quick rejection needs no more), where the whole suite's run
// reports both failing tests.
func TestSchemaRunTestsFirstFailure(t *testing.T) {
	f := load(t, "basic")
	site := f.prog.Sites[f.site(t, Cond, "calc.go", 40)]
	s, err := BuildSchema(context.Background(), f.prog, site, 0, []string{"c >= n"})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	res, err := s.RunTests(context.Background(), 0, []string{"TestAbs", "TestAbsNegative", "TestCount"}, time.Minute, 0)
	if err != nil {
		t.Fatal(err)
	}
	if res.Passed || strings.Join(res.Failed, " ") != "TestAbs" {
		t.Errorf("RunTests: passed=%v failed=%q, want it to stop at TestAbs", res.Passed, res.Failed)
	}
	res, err = s.RunSuite(context.Background(), 0)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(res.Failed, " ") != "TestAbs TestAbsNegative" {
		t.Errorf("RunSuite: failed=%q, want TestAbs TestAbsNegative", res.Failed)
	}
}

// TestSchemaMemCap: a candidate that makes a loop append without end ends
// at RunTests's memory cap, as hung and over memory, long before the
// run's timeout; the original passes under the same cap.
func TestSchemaMemCap(t *testing.T) {
	f := load(t, "hog")
	site := f.prog.Sites[f.site(t, Cond, "hog.go", 8)]
	s, err := BuildSchema(context.Background(), f.prog, site, 0, []string{"false", "len(s) >= n"})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for _, tc := range []struct {
		k    int
		hung bool
	}{{0, true}, {1, false}} {
		res, err := s.RunTests(context.Background(), tc.k, []string{"TestGrow"}, time.Minute, 256<<20)
		if err != nil {
			t.Fatal(err)
		}
		if res.Passed == tc.hung || res.Hung != tc.hung || res.OverMemory != tc.hung || res.TimedOut != tc.hung {
			t.Errorf("candidate %q: passed=%v hung=%v over memory=%v timed out=%v, want hung %v", s.Candidates[tc.k], res.Passed, res.Hung, res.OverMemory, res.TimedOut, tc.hung)
		}
		if res.Duration > 30*time.Second {
			t.Errorf("candidate %q: ended after %v, not at the cap", s.Candidates[tc.k], res.Duration)
		}
	}
}

// BenchmarkSchemaMutants compares the schemas of the mutation fallback:
// the candidates of three conditions in one schema (BuildSchemas) against
// one schema per condition, as before.
func BenchmarkSchemaMutants(b *testing.B) {
	f := load(b, "basic")
	var parts []SchemaPart
	for _, line := range []int{13, 29, 40} {
		for _, s := range f.prog.Sites {
			if s.Kind == Cond && s.Line == line && strings.HasSuffix(s.File, "calc.go") {
				parts = append(parts, SchemaPart{Site: s, Candidates: []string{"true", "false"}})
			}
		}
	}
	if len(parts) != 3 {
		b.Fatalf("%d sites", len(parts))
	}
	b.Run("one schema", func(b *testing.B) {
		for b.Loop() {
			s, err := BuildSchemas(context.Background(), f.prog, parts)
			if err != nil {
				b.Fatal(err)
			}
			s.Close()
		}
	})
	b.Run("a schema per site", func(b *testing.B) {
		for b.Loop() {
			for _, p := range parts {
				s, err := BuildSchema(context.Background(), f.prog, p.Site, p.Style, p.Candidates)
				if err != nil {
					b.Fatal(err)
				}
				s.Close()
			}
		}
	})
}
