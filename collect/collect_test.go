package collect

import (
	"context"
	"crypto/sha256"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"golang.org/x/tools/txtar"
)

// extract writes testdata/name.txtar into a temp dir and returns it. The
// dir is removed by TestMain: fixtures outlive single tests.
func extract(t *testing.T, name string) string {
	t.Helper()
	ar, err := txtar.ParseFile(filepath.Join("testdata", name+".txtar"))
	if err != nil {
		t.Fatal(err)
	}
	dir, err := os.MkdirTemp("", "nopol-collect-test-")
	if err != nil {
		t.Fatal(err)
	}
	tempDirs = append(tempDirs, dir)
	for _, f := range ar.Files {
		p := filepath.Join(dir, f.Name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, f.Data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// treeHash hashes every file under dir, to check nothing was written.
func treeHash(t *testing.T, dir string) string {
	t.Helper()
	var lines []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		lines = append(lines, fmt.Sprintf("%s %x", p, sha256.Sum256(data)))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(lines)
	return strings.Join(lines, "\n")
}

// fixture is a loaded and instrumented test module, shared by the tests
// of one archive (building takes seconds).
type fixture struct {
	dir   string
	prog  *Program
	build *Build
	hash  string
}

var (
	fixtures = map[string]*fixture{}
	tempDirs []string
)

func load(t *testing.T, name string) *fixture {
	t.Helper()
	if f := fixtures[name]; f != nil {
		return f
	}
	dir := extract(t, name)
	hash := treeHash(t, dir)
	prog, err := Load(context.Background(), dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	f := &fixture{dir: dir, prog: prog, hash: hash}
	fixtures[name] = f
	return f
}

func instrument(t *testing.T, name string) *fixture {
	t.Helper()
	f := load(t, name)
	if f.build == nil {
		b, err := Instrument(context.Background(), f.prog)
		if err != nil {
			t.Fatal(err)
		}
		f.build = b
		t.Logf("instrumented %s in %v", name, b.BuildTime)
	}
	return f
}

// TestMain runs the tests with a private TMPDIR and fails if any temp dir
// of collect is left in it.
func TestMain(m *testing.M) {
	tmp, err := os.MkdirTemp("", "nopol-collect-tmp-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	os.Setenv("TMPDIR", tmp)
	code := m.Run()
	for _, f := range fixtures {
		if f.build != nil {
			if err := f.build.Close(); err != nil {
				fmt.Fprintln(os.Stderr, err)
				code = 1
			}
		}
	}
	for _, d := range tempDirs {
		os.RemoveAll(d)
	}
	left, _ := filepath.Glob(filepath.Join(tmp, "nopol-*"))
	if len(left) > 0 {
		fmt.Fprintf(os.Stderr, "temp dirs left behind: %v\n", left)
		code = 1
	}
	os.RemoveAll(tmp)
	os.Exit(code)
}

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

// site returns the ID of the site of kind at file:line.
func (f *fixture) site(t *testing.T, kind SiteKind, file string, line int) int {
	t.Helper()
	for _, s := range f.prog.Sites {
		if s.Kind == kind && s.Line == line && strings.HasSuffix(s.File, file) {
			return s.ID
		}
	}
	t.Fatalf("no site of kind %d at %s:%d", kind, file, line)
	return -1
}

func (f *fixture) checkUntouched(t *testing.T) {
	t.Helper()
	if h := treeHash(t, f.dir); h != f.hash {
		t.Errorf("the module's files changed:\n%s\nwant\n%s", h, f.hash)
	}
}

func TestLoadSites(t *testing.T) {
	f := load(t, "basic")
	var got []string
	for _, s := range f.prog.Sites {
		kind := map[SiteKind]string{Cond: "cond", Guard: "guard"}[s.Kind]
		got = append(got, fmt.Sprintf("%d %s:%d %s %s %s ret=%v %q", s.ID, filepath.Base(s.File), s.Line, kind, s.Func, s.Original, s.CanReturn, s.Return))
	}
	want := []string{
		`0 calc.go:12 guard Abs Calls++ ret=true "return 0"`,
		`1 calc.go:13 cond Abs x > 0 ret=false ""`,
		`2 calc.go:27 cond Withdraw n == 0 ret=false ""`,
		`3 calc.go:29 cond Withdraw a != nil && a.Balance >= n ret=false ""`,
		`4 calc.go:30 guard Withdraw a.Balance -= n ret=true "return false"`,
		`5 calc.go:40 cond Count c >= n ret=false ""`,
		`6 calc.go:43 guard Count c++ ret=false "return 0"`,
		`7 calc.go:50 guard Clamp x = min(x, Limit) ret=true "return 0"`,
		`8 calc.go:56 cond Name len(a.Name) > 0 ret=false ""`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("sites:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if f.prog.Module != "example.com/basic" || f.prog.Dir != f.dir {
		t.Errorf("module %q dir %q", f.prog.Module, f.prog.Dir)
	}
	if g := strings.Join(f.prog.Packages, ","); g != "example.com/basic/calc" {
		t.Errorf("packages = %s", g)
	}
	if g := strings.Join(f.prog.Tests["example.com/basic/calc"], ","); g != "TestAbs,TestAbsNegative,TestWithdraw,TestCount,TestCountMany,TestClamp,TestExternal,ExampleClamp" {
		t.Errorf("tests = %s", g)
	}
}

func TestObserved(t *testing.T) {
	f := load(t, "basic")
	render := func(id int) (string, string) {
		s := f.prog.Sites[id]
		var obs, cons []string
		for _, o := range s.Observed {
			e := fmt.Sprintf("%s:%d", o.Expr, o.Kind)
			if o.NilGuard != "" {
				e += "?" + o.NilGuard
			}
			obs = append(obs, e)
		}
		for _, c := range s.Constants {
			cons = append(cons, fmt.Sprintf("%s=%v", c.Expr, c.Value))
		}
		return strings.Join(obs, " "), strings.Join(cons, " ")
	}
	tests := []struct {
		file     string
		line     int
		kind     SiteKind
		obs, con string
	}{
		{"calc.go", 13, Cond, "x:2 Calls:2", "0={2 false 0 0  false} Limit={2 false 100 0  false}"},
		{"calc.go", 29, Cond, "a != nil:1 a.Balance >= n:1 a.Balance:2?a n:2 a == nil:1 a.Name:4?a Calls:2",
			"0={2 false 0 0  false} Limit={2 false 100 0  false}"},
		{"calc.go", 56, Cond, "len(a.Name):2 a.Name:4?a a == nil:1 a.Balance:2?a Calls:2", "0={2 false 0 0  false} \"\"={4 false 0 0  false} Limit={2 false 100 0  false}"},
		{"calc.go", 43, Guard, "c:2 n:2 Calls:2", "0={2 false 0 0  false} Limit={2 false 100 0  false}"},
	}
	for _, tt := range tests {
		obs, con := render(f.site(t, tt.kind, tt.file, tt.line))
		if obs != tt.obs {
			t.Errorf("%s:%d observed = %s\nwant %s", tt.file, tt.line, obs, tt.obs)
		}
		if con != tt.con {
			t.Errorf("%s:%d constants = %s\nwant %s", tt.file, tt.line, con, tt.con)
		}
	}
}

func TestLoadError(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module m\n\ngo 1.22\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "a.go"), []byte("package m\n\nfunc F() int { return undefined }\n"), 0o644)
	_, err := Load(context.Background(), dir, nil)
	le, ok := err.(*LoadError)
	if !ok {
		t.Fatalf("err = %v, want *LoadError", err)
	}
	if !strings.Contains(le.Msg, "a.go:3:") || !strings.Contains(le.Msg, "undefined") {
		t.Errorf("message lacks file:line: %s", le.Msg)
	}
}

func TestBaseline(t *testing.T) {
	f := load(t, "basic")
	res, err := Baseline(context.Background(), f.prog, time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range res {
		got = append(got, fmt.Sprintf("%s:%v", r.Test, r.Passed))
	}
	want := "TestAbs:false TestAbsNegative:false TestWithdraw:true TestCount:true TestCountMany:true TestClamp:true TestExternal:true ExampleClamp:true"
	if strings.Join(got, " ") != want {
		t.Errorf("baseline = %s\nwant %s", strings.Join(got, " "), want)
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
			want := []Value{{Kind: KindInt, Int: -5}, {Kind: KindInt, Int: 1}}
			if fmt.Sprint(res.Evals[0].Values) != fmt.Sprint(want) {
				t.Errorf("values = %v, want %v", res.Evals[0].Values, want)
			}
		}},
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
		{"guard skip", Run{Test: "TestWithdraw", Force: map[int]bool{balance: false}}, false, false, func(t *testing.T, res Result) {
			if res.Reached[balance] != [2]int{1, 0} {
				t.Errorf("reached = %v", res.Reached[balance])
			}
		}},
		{"guard return", Run{Test: "TestClamp", Force: map[int]bool{clamp: false}, ForceReturn: map[int]bool{clamp: true}}, false, false, nil},
		{"example", Run{Test: "ExampleClamp"}, true, false, nil},
		{"example guard return", Run{Test: "ExampleClamp", Force: map[int]bool{clamp: false}, ForceReturn: map[int]bool{clamp: true}}, false, false, nil},
		{"external", Run{Test: "TestExternal"}, true, false, nil},
		{"endless loop", Run{Test: "TestCount", Force: map[int]bool{count: false}, Timeout: 2 * time.Second}, false, true, func(t *testing.T, res Result) {
			if res.Duration > 10*time.Second {
				t.Errorf("took %v", res.Duration)
			}
		}},
		{"subtest", Run{Test: "TestAbs", Subtest: "TestAbs/#02"}, true, false, nil},
		{"snapshot cap", Run{Test: "TestCountMany", Mode: ModeSnapshot, Sites: []int{count}}, true, false, func(t *testing.T, res Result) {
			if len(res.Evals) != 200 {
				t.Errorf("%d evals, want the cap of 200", len(res.Evals))
			}
			if r := res.Reached[count]; r[1] != 1 || r[0] < 500 || r[0] > 1000 {
				t.Errorf("reached = %v, want about [1000 1]", r)
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
			if r := res.Reached[count]; r[1] != 1 || r[0] < 500 {
				t.Errorf("reached = %v", r)
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
	var got []string
	for _, r := range base {
		got = append(got, fmt.Sprintf("%s:%v", r.Test, r.Passed))
	}
	if g := strings.Join(got, " "); g != "TestA:true TestPanics:false TestB:true TestNameNil:false" {
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
		{"basic", Guard, "calc.go", 50, GuardReturn,
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
				got := "pass"
				switch {
				case res.BuildFailed:
					got = "drop"
				case !res.Passed:
					got = strings.Join(res.Failed, " ")
				}
				if got != want {
					t.Errorf("candidate %q: %s, want %s\n%s", tt.candidates[k], got, want, res.Output)
				}
			}
			f.checkUntouched(t)
		})
	}
}

// TestSchemaBisect checks that candidates the compiler rejects are found
// by bisection when type-checking lets them through.
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

// TestSchemaTimeout checks that a candidate that makes a loop endless is
// killed and reported as timed out, with the running test failed.
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
	if res.Passed || !res.TimedOut || !contains(res.Failed, "TestCount") || res.Duration > 20*time.Second {
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
	f := load(t, "basic")
	file := filepath.Join(f.dir, "calc", "calc.go")
	orig, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		src  []byte
		want string
	}{
		{"fix", []byte(strings.Replace(string(orig), "if x > 0 {", "if x < 0 {", 1)), "pass"},
		{"unchanged", orig, "TestAbs TestAbsNegative"},
		{"broken", []byte(strings.Replace(string(orig), "if x > 0 {", "if x > zz {", 1)), "build failed"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := VerifyPatch(context.Background(), f.prog, file, tt.src, time.Minute)
			if err != nil {
				t.Fatal(err)
			}
			got := "pass"
			switch {
			case res.BuildFailed:
				got = "build failed"
			case !res.Passed:
				got = strings.Join(res.Failed, " ")
			}
			if got != tt.want {
				t.Errorf("got %s, want %s\n%s", got, tt.want, res.Output)
			}
		})
	}
	f.checkUntouched(t)
}

// TestTricky checks that unusual syntax instruments into a binary that
// behaves like the original.
func TestTricky(t *testing.T) {
	f := instrument(t, "tricky")
	base, err := Baseline(context.Background(), f.prog, time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	if len(base) != 4 {
		t.Errorf("baseline has %d results, want 4: %+v", len(base), base)
	}
	reached := map[int]bool{}
	for _, b := range base {
		if !b.Passed {
			t.Errorf("%s fails in the baseline:\n%s", b.Test, b.Output)
		}
		res, err := f.build.Run(context.Background(), Run{Package: b.Package, Test: b.Test, Mode: ModeCover, ForceSegment: -1})
		if err != nil {
			t.Fatal(err)
		}
		if res.Passed != b.Passed {
			t.Errorf("%s: instrumented passed=%v\n%s", b.Test, res.Passed, res.Output)
		}
		for id := range res.Reached {
			reached[id] = true
		}
	}
	// Sites in util (no tests of its own) are reached from api's tests,
	// including the one evaluated while package variables initialise.
	build := f.site(t, Cond, "util.go", 17)
	if !reached[build] {
		t.Errorf("the site run during package initialisation was not recorded")
	}
	for _, s := range f.prog.Sites {
		if strings.HasPrefix(s.Original, "defer") || strings.HasPrefix(s.Original, "go ") {
			t.Errorf("%s:%d: %s is a site", s.File, s.Line, s.Original)
		}
		if s.Line == 0 || s.Original == "" {
			t.Errorf("bad site %+v", s)
		}
	}
	// The test constituent marked in api's test file is seen by the hook
	// copy of util, and values are recorded there.
	check := f.site(t, Cond, "util.go", 35)
	res, err := f.build.Run(context.Background(), Run{Package: "example.com/tricky/api", Test: "TestUtil", Mode: ModeSnapshot, Sites: []int{check}, ForceSegment: -1})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Evals) != 2 || res.Evals[0].Segment != 0 || res.Evals[1].Segment != 1 || res.Evals[0].Values[0].Int != -1 {
		t.Errorf("evals of util.Check = %+v", res.Evals)
	}
	// The line directive does not move the site.
	if id := f.site(t, Cond, "line.go", 8); f.prog.Sites[id].Original != "x > 3" {
		t.Errorf("line.go:8 = %q", f.prog.Sites[id].Original)
	}
	// Check's early return is written with explicit zeros: err is
	// shadowed there.
	for _, s := range f.prog.Sites {
		if s.Func == "Check" && s.Kind == Guard && s.Original == "n = x" && s.Return != "return" {
			t.Errorf("Check: return %q", s.Return)
		}
	}
	f.checkUntouched(t)
}

// TestRunConcurrent checks that concurrent runs of one build do not mix
// their records.
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
	}{{true, 2}, {false, 2}, {true, 200}, {false, 3}}
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

func TestLoadPatterns(t *testing.T) {
	f := load(t, "tricky")
	tests := []struct {
		dir      string
		patterns []string
		want     string
	}{
		{"api", []string{"."}, "example.com/tricky/api"},
		{"", []string{"./util", "./api"}, "example.com/tricky/api"},
		{"", nil, "example.com/tricky/api example.com/tricky/onlytests"},
	}
	for _, tt := range tests {
		prog, err := Load(context.Background(), filepath.Join(f.dir, tt.dir), tt.patterns)
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Join(prog.Packages, " "); got != tt.want || prog.Dir != f.dir {
			t.Errorf("Load(%s, %v): packages %q in %s, want %q", tt.dir, tt.patterns, got, prog.Dir, tt.want)
		}
	}
	if _, err := Load(context.Background(), t.TempDir(), nil); err == nil {
		t.Error("Load outside a module succeeded")
	}
}
