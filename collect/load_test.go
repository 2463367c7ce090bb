package collect

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestLoadSites(t *testing.T) {
	f := load(t, "basic")
	var got []string
	for _, s := range f.prog.Sites {
		kind := map[SiteKind]string{Cond: "cond", Guard: "guard"}[s.Kind]
		var exits []string
		for _, e := range s.Exits {
			exits = append(exits, e.Strategy+":"+e.Body)
		}
		got = append(got, fmt.Sprintf("%d %s:%d %s %s %s wrap=%v %q", s.ID, filepath.Base(s.File), s.Line, kind, s.Func, s.Original, s.CanWrap, exits))
	}
	want := []string{
		`0 calc.go:12 guard Abs Calls++ wrap=true ["reuse-return:return -x" "reuse-return:return x" "zero-values:return 0"]`,
		`1 calc.go:13 guard Abs if x > 0 { // comment kept … wrap=false ["reuse-return:return -x" "reuse-return:return x" "zero-values:return 0"]`,
		`2 calc.go:13 cond Abs x > 0 wrap=false []`,
		`3 calc.go:14 guard Abs return -x wrap=false ["reuse-return:return x" "zero-values:return 0"]`,
		`4 calc.go:16 guard Abs return x wrap=false ["reuse-return:return -x" "zero-values:return 0"]`,
		`5 calc.go:27 guard Withdraw if n == 0 { … wrap=false ["reuse-return:return true" "reuse-return:return false"]`,
		`6 calc.go:27 cond Withdraw n == 0 wrap=false []`,
		`7 calc.go:28 guard Withdraw return true wrap=false ["reuse-return:return false"]`,
		`8 calc.go:29 cond Withdraw a != nil && a.Balance >= n wrap=false []`,
		`9 calc.go:30 guard Withdraw a.Balance -= n wrap=true ["reuse-return:return true" "reuse-return:return false"]`,
		`10 calc.go:31 guard Withdraw return true wrap=false ["reuse-return:return false"]`,
		`11 calc.go:33 guard Withdraw return false wrap=false ["reuse-return:return true"]`,
		`12 calc.go:38 guard Count c := 0 wrap=false ["zero-values:return 0"]`,
		`13 calc.go:39 guard Count for { … wrap=false ["reuse-return:return c" "zero-values:return 0"]`,
		`14 calc.go:40 guard Count if c >= n { … wrap=false ["continue:continue" "reuse-return:return c" "zero-values:return 0"]`,
		`15 calc.go:40 cond Count c >= n wrap=false []`,
		`16 calc.go:43 guard Count c++ wrap=true ["continue:continue" "reuse-return:return c" "zero-values:return 0"]`,
		`17 calc.go:45 guard Count return c wrap=false ["zero-values:return 0"]`,
		`18 calc.go:50 guard Clamp x = min(x, Limit) wrap=true ["reuse-return:return x" "zero-values:return 0"]`,
		`19 calc.go:51 guard Clamp return x wrap=false ["zero-values:return 0"]`,
		`20 calc.go:56 guard Name if len(a.Name) > 0 { … wrap=false ["reuse-return:return a.Name" "reuse-return:return \"\""]`,
		`21 calc.go:56 cond Name len(a.Name) > 0 wrap=false []`,
		`22 calc.go:57 guard Name return a.Name wrap=false ["reuse-return:return \"\""]`,
		`23 calc.go:59 guard Name return "" wrap=false ["reuse-return:return a.Name"]`,
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
		// Pure functions of the package over in-scope values are
		// observed too (Count loops, but only up to x), never the
		// site's own function; and the atoms of the file's conditions
		// over the same parameters (n == 0, a != nil).
		{"calc.go", 13, Cond, "x:2 Calls:2 Clamp(x):2 Count(x):2 generated(x):2", "0={2 false 0 0  false} \"\"={4 false 0 0  false} Limit={2 false 100 0  false}"},
		{"calc.go", 29, Cond, "a != nil:1 a.Balance >= n:1 a.Balance:2?a n:2 a == nil:1 a.Name:4?a len(a.Name):2?a Calls:2 Name(a):4 Clamp(a.Balance):2 Clamp(n):2 Count(a.Balance):2 Count(n):2 generated(a.Balance):2 generated(n):2 n == 0:1 len(a.Name) > 0:1",
			"0={2 false 0 0  false} \"\"={4 false 0 0  false} Limit={2 false 100 0  false}"},
		{"calc.go", 56, Cond, "len(a.Name):2?a a.Name:4?a a == nil:1 a.Balance:2?a Calls:2 Clamp(a.Balance):2 Count(a.Balance):2 generated(a.Balance):2 a != nil:1", "0={2 false 0 0  false} \"\"={4 false 0 0  false} Limit={2 false 100 0  false}"},
		{"calc.go", 43, Guard, "c:2 n:2 Calls:2 Clamp(c):2 Clamp(n):2 generated(c):2 generated(n):2 n == 0:1", "0={2 false 0 0  false} \"\"={4 false 0 0  false} Limit={2 false 100 0  false}"},
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

func TestTricky(t *testing.T) {
	f := instrument(t, "tricky")
	base, err := Baseline(context.Background(), f.prog, time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	if len(base) != 5 {
		t.Errorf("baseline has %d results, want 5: %+v", len(base), base)
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
		if (strings.HasPrefix(s.Original, "defer") || strings.HasPrefix(s.Original, "go ")) && s.CanWrap {
			t.Errorf("%s:%d: %s is a site that can be wrapped", s.File, s.Line, s.Original)
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
		if s.Func == "Check" && s.Kind == Guard && s.Original == "n = x" {
			for _, e := range s.Exits {
				if e.Strategy == StrategyZero && e.Body == "return" {
					t.Errorf("Check: exit %q", e.Body)
				}
			}
		}
	}
	f.checkUntouched(t)
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
		{"", nil, "example.com/tricky/api example.com/tricky/onlytests example.com/tricky/other/util"},
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

// TestInitCycle checks that observing package variables creates no
// initialization cycle, also when the references added at two sites
// close one together, and that a function no initializer reaches still
// observes the package variables.
func TestInitCycle(t *testing.T) {
	f := instrument(t, "initcycle")
	res, err := f.build.Run(context.Background(), Run{Package: "example.com/initcycle/color", Test: "TestInit", Mode: ModeCover, ForceSegment: -1})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Passed {
		t.Errorf("TestInit fails instrumented:\n%s", res.Output)
	}
	for _, s := range f.prog.Sites {
		var obs []string
		for _, o := range s.Observed {
			obs = append(obs, o.Expr)
		}
		got := " " + strings.Join(obs, " ") + " "
		switch s.Func {
		case "stdoutIsTerminal", "stdOut":
			for _, v := range []string{" NoColor ", " Output == nil ", " Level "} {
				if strings.Contains(got, v) {
					t.Errorf("%s:%d observes%sin a function package variables reach", s.Func, s.Line, v)
				}
			}
		case "Report":
			for _, v := range []string{" NoColor ", " Output == nil ", " Level ", " len(names) "} {
				if !strings.Contains(got, v) {
					t.Errorf("%s:%d does not observe%s: %s", s.Func, s.Line, v, got)
				}
			}
		}
	}
	f.checkUntouched(t)
}

// TestObservedFields checks the len and nil-ness of fields and package
// variables, their values at run time (missing behind a nil pointer), and
// the bound on the number of observed expressions.
func TestObservedFields(t *testing.T) {
	f := instrument(t, "fields")
	visit := f.prog.Sites[f.site(t, Cond, "shape.go", 30)]
	var obs []string
	for _, o := range visit.Observed {
		e := fmt.Sprintf("%s:%d", o.Expr, o.Kind)
		if o.NilGuard != "" {
			e += "?" + o.NilGuard
		}
		obs = append(obs, e)
	}
	// The nil-ness of what the branch reads (n.Kids, b.Items) comes
	// right after the condition's operands.
	want := "limit:2 n.Kids == nil:1?n b.Items == nil:1 n == nil:1 b.Label:4 n.Name:4?n n.Weight:3?n n.hidden:2?n " +
		"len(b.Items):2 len(b.Label):2 n.Attrs[b.Label]:4 n.Attrs[n.Name]:4 len(n.Name):2?n len(n.Kids):2?n " +
		"n.Attrs == nil:1?n len(n.Attrs):2?n n.Next == nil:1?n n.Done == nil:1?n len(n.Done):2?n n.Fn == nil:1?n n.Any == nil:1?n " +
		"title:4 len(title):2 order == nil:1 len(order):2 registry == nil:1 len(registry):2"
	if got := strings.Join(obs, " "); got != want {
		t.Errorf("observed at Visit:\n%s\nwant\n%s", got, want)
	}

	res, err := f.build.Run(context.Background(), Run{Package: "example.com/fields/shape", Test: "TestVisit", Mode: ModeSnapshot, Sites: []int{visit.ID}, ForceSegment: -1})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Passed || len(res.Evals) != 2 {
		t.Fatalf("passed=%v evals=%+v\n%s", res.Passed, res.Evals, res.Output)
	}
	value := func(e Eval, expr string) string {
		for i, o := range visit.Observed {
			if o.Expr == expr {
				v := e.Values[i]
				switch {
				case v.Missing:
					return "missing"
				case v.Kind == KindBool:
					return fmt.Sprint(v.Bool)
				default:
					return fmt.Sprint(v.Int)
				}
			}
		}
		return "not observed"
	}
	for _, tt := range []struct {
		eval       int
		expr, want string
	}{
		{0, "len(n.Kids)", "2"}, {0, "n.Attrs == nil", "false"}, {0, "len(n.Attrs)", "1"}, {0, "n.Next == nil", "true"},
		{0, "len(b.Items)", "1"}, {0, "b.Items == nil", "false"}, {0, "len(registry)", "1"}, {0, "len(order)", "0"},
		{1, "n == nil", "true"}, {1, "len(n.Kids)", "missing"}, {1, "n.Next == nil", "missing"},
		{1, "b.Items == nil", "true"}, {1, "len(b.Label)", "0"},
	} {
		if got := value(res.Evals[tt.eval], tt.expr); got != tt.want {
			t.Errorf("evaluation %d: %s = %s, want %s", tt.eval, tt.expr, got, tt.want)
		}
	}

	// Indexes: a map's and a slice's, this one missing out of range.
	pos := f.prog.Sites[f.site(t, Cond, "shape.go", 90)]
	res, err = f.build.Run(context.Background(), Run{Package: "example.com/fields/shape", Test: "TestPositive", Mode: ModeSnapshot, Sites: []int{pos.ID}, ForceSegment: -1})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Passed || len(res.Evals) != 2 {
		t.Fatalf("passed=%v evals=%+v\n%s", res.Passed, res.Evals, res.Output)
	}
	visit = pos
	for _, tt := range []struct {
		eval       int
		expr, want string
	}{
		{0, "xs[i]", "1"}, {0, "seen[k]", "false"}, {1, "xs[i]", "missing"}, {1, "seen[k]", "true"}, {1, "len(xs)", "1"},
	} {
		if got := value(res.Evals[tt.eval], tt.expr); got != tt.want {
			t.Errorf("Positive, evaluation %d: %s = %s, want %s", tt.eval, tt.expr, got, tt.want)
		}
	}

	big := f.prog.Sites[f.site(t, Cond, "shape.go", 82)]
	if len(big.Observed) != maxObserved {
		t.Errorf("%d expressions observed at Big, want the bound %d", len(big.Observed), maxObserved)
	}
	var first []string
	for _, o := range big.Observed[:3] {
		first = append(first, o.Expr)
	}
	if got := strings.Join(first, " "); got != "k w.F0 w == nil" {
		t.Errorf("Big observes first %s, want the condition's operands, then the locals", got)
	}
	f.checkUntouched(t)
}

// TestThenBranch checks what a Cond site records of its branch and of the
// loop counters in scope.
func TestThenBranch(t *testing.T) {
	f := load(t, "branch")
	var got []string
	for _, s := range f.prog.Sites {
		if s.Kind != Cond {
			continue
		}
		got = append(got, fmt.Sprintf("%s: %+v else=%q loops=%q ifs=%q nonneg=%q", s.Original, *s.Then, s.ElseAfter, s.LoopVars, s.ElseIfs, s.NonNegative))
	}
	want := []string{
		`n == nil: {Panics:false ReturnsError:true Exits:true Errors:[errEmpty] Derefs:[] Reports:[errEmpty] DerefsAfter:[n] IndexedAfter:[] IndexVarsAfter:[] BoundedAfter:[] NilUsed:[] Decremented:[] Messages:[]} else=[] loops=[] ifs=[] nonneg=[]`,
		`n.v < 0: {Panics:true ReturnsError:false Exits:true Errors:[] Derefs:[] Reports:[] DerefsAfter:[] IndexedAfter:[] IndexVarsAfter:[] BoundedAfter:[] NilUsed:[] Decremented:[] Messages:[]} else=[] loops=[] ifs=[] nonneg=[]`,
		`n.next != nil && xs[i] > 0: {Panics:false ReturnsError:false Exits:false Errors:[] Derefs:[n.next n] Reports:[] DerefsAfter:[] IndexedAfter:[] IndexVarsAfter:[] BoundedAfter:[] NilUsed:[n.next] Decremented:[] Messages:[]} else=[] loops=["i"] ifs=[] nonneg=["i"]`,
		`k > 2: {Panics:false ReturnsError:false Exits:true Errors:[] Derefs:[] Reports:[] DerefsAfter:[] IndexedAfter:[] IndexVarsAfter:[] BoundedAfter:[] NilUsed:[] Decremented:[] Messages:[]} else=[] loops=[] ifs=[] nonneg=[]`,
		`x == j: {Panics:false ReturnsError:false Exits:true Errors:[] Derefs:[] Reports:[] DerefsAfter:[] IndexedAfter:[] IndexVarsAfter:[] BoundedAfter:[] NilUsed:[] Decremented:[] Messages:[]} else=[] loops=["j"] ifs=[] nonneg=["j"]`,
		`v > 9: {Panics:false ReturnsError:true Exits:true Errors:[] Derefs:[] Reports:[v] DerefsAfter:[] IndexedAfter:[] IndexVarsAfter:[] BoundedAfter:[] NilUsed:[] Decremented:[] Messages:[]} else=[] loops=[] ifs=[] nonneg=[]`,
		// b.v and b.next are right operands of &&; a is assigned before
		// its second dereference.
		`a == nil || b != nil: {Panics:false ReturnsError:false Exits:true Errors:[] Derefs:[] Reports:[] DerefsAfter:[a s] IndexedAfter:[] IndexVarsAfter:[] BoundedAfter:[] NilUsed:[] Decremented:[] Messages:[]} else=[] loops=[] ifs=[] nonneg=[]`,
		`v > 0 && b.v > 0: {Panics:false ReturnsError:false Exits:true Errors:[] Derefs:[] Reports:[] DerefsAfter:[s] IndexedAfter:[] IndexVarsAfter:[] BoundedAfter:[] NilUsed:[] Decremented:[] Messages:[]} else=[] loops=[] ifs=[] nonneg=[]`,
		`n > 90: {Panics:false ReturnsError:false Exits:true Errors:[] Derefs:[] Reports:[] DerefsAfter:[] IndexedAfter:[] IndexVarsAfter:[] BoundedAfter:[] NilUsed:[] Decremented:[] Messages:[]} else=[] loops=[] ifs=["n > 80" "n > 95"] nonneg=[]`,
		`n > 80: {Panics:false ReturnsError:false Exits:true Errors:[] Derefs:[] Reports:[] DerefsAfter:[] IndexedAfter:[] IndexVarsAfter:[] BoundedAfter:[] NilUsed:[] Decremented:[] Messages:[]} else=["n > 90"] loops=[] ifs=["n > 95"] nonneg=[]`,
		`n > 95: {Panics:false ReturnsError:false Exits:true Errors:[] Derefs:[] Reports:[] DerefsAfter:[] IndexedAfter:[] IndexVarsAfter:[] BoundedAfter:[] NilUsed:[] Decremented:[] Messages:[]} else=["n > 80" "n > 90"] loops=[] ifs=[] nonneg=[]`,
		// s[5:] comes after s is assigned; arr is an array.
		`len(s) < 2 || len(b) == 0: {Panics:false ReturnsError:false Exits:true Errors:[] Derefs:[] Reports:[] DerefsAfter:[] IndexedAfter:[{X:s Len:2} {X:b Len:1}] IndexVarsAfter:[] BoundedAfter:[] NilUsed:[] Decremented:[] Messages:[]} else=[] loops=[] ifs=[] nonneg=[]`,
		// n is a length; d is decremented.
		`n > 0: {Panics:false ReturnsError:false Exits:true Errors:[] Derefs:[p] Reports:[] DerefsAfter:[] IndexedAfter:[] IndexVarsAfter:[] BoundedAfter:[] NilUsed:[] Decremented:[] Messages:[]} else=[] loops=[] ifs=[] nonneg=["n"]`,
		`i > 0 && d > 0: {Panics:false ReturnsError:false Exits:false Errors:[] Derefs:[] Reports:[] DerefsAfter:[] IndexedAfter:[] IndexVarsAfter:[] BoundedAfter:[] NilUsed:[] Decremented:[d] Messages:[]} else=[] loops=[] ifs=[] nonneg=["i"]`,
		`i < 0 || i >= len(args): {Panics:false ReturnsError:false Exits:true Errors:[] Derefs:[] Reports:[] DerefsAfter:[] IndexedAfter:[] IndexVarsAfter:[i] BoundedAfter:[{X:args I:i}] NilUsed:[] Decremented:[] Messages:[]} else=[] loops=[] ifs=[] nonneg=[]`,
		// line[pos+1:] needs pos < len(line); line[pos] comes after pos
		// is assigned.
		`pos > len(line)-1 || line[pos] != '^': {Panics:false ReturnsError:false Exits:true Errors:[] Derefs:[] Reports:[] DerefsAfter:[] IndexedAfter:[] IndexVarsAfter:[] BoundedAfter:[{X:line I:pos}] NilUsed:[] Decremented:[] Messages:[]} else=[] loops=[] ifs=[] nonneg=[]`,
		`c > 0 && n > 0: {Panics:false ReturnsError:false Exits:true Errors:[] Derefs:[] Reports:[] DerefsAfter:[] IndexedAfter:[] IndexVarsAfter:[] BoundedAfter:[] NilUsed:[] Decremented:[] Messages:[]} else=[] loops=[] ifs=[] nonneg=[]`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("branches:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// A defined integer type is an enum; byte is not.
	last := f.prog.Sites[len(f.prog.Sites)-1]
	enums := map[string]bool{}
	for _, o := range last.Observed {
		enums[o.Expr] = o.Enum
	}
	if !enums["c"] || enums["n"] {
		t.Errorf("enums at `%s`: %v", last.Original, enums)
	}
}

func TestCauses(t *testing.T) {
	compile := []string{"broken.go:4:30: expected operand, found '}'", "m_test.go:6:4: could not import example.com/dep"}
	list := []string{
		"# example.com/broken\n./broken.go:4:30: syntax error: unexpected }", // said by the type errors too
		"m_test.go:6:2: missing go.sum entry for module providing package example.com/dep",
		"no position",
	}
	got := causes(list, compile)
	want := list[1:]
	if !slices.Equal(got, want) {
		t.Errorf("causes = %q, want %q", got, want)
	}
}
