package nopol

import (
	"context"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/nopol-go/nopol/collect"
)

// gocheckImports are the import paths of gocheck, whose TestingT(t) runs
// a whole suite of tests inside one Go test.
var gocheckImports = map[string]bool{"gopkg.in/check.v1": true, "github.com/go-check/check": true}

// runsGocheck reports whether the test function declared at line of file
// src (a Go source file; the line as collect records it, ignoring //line
// directives) runs a gocheck suite: it calls TestingT of a
// gocheck package the file imports. go test, and so nopol, sees all of
// that suite's tests as one.
func runsGocheck(src []byte, line int) bool {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "", src, parser.SkipObjectResolution)
	if err != nil {
		return false
	}
	names := map[string]bool{} // the names the gocheck import goes by; "." for a dot import
	for _, imp := range f.Imports {
		path, err := strconv.Unquote(imp.Path.Value)
		if err != nil || !gocheckImports[path] {
			continue
		}
		name := "check"
		if imp.Name != nil {
			name = imp.Name.Name
		}
		names[name] = true
	}
	if len(names) == 0 {
		return false
	}
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Body == nil || fset.PositionFor(fd.Pos(), false).Line != line {
			continue
		}
		found := false
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok || found {
				return !found
			}
			switch fun := call.Fun.(type) {
			case *ast.Ident:
				found = fun.Name == "TestingT" && names["."]
			case *ast.SelectorExpr:
				x, ok := fun.X.(*ast.Ident)
				found = ok && fun.Sel.Name == "TestingT" && names[x.Name]
			}
			return !found
		})
		return found
	}
	return false
}

// warnGocheck warns when the failing test k runs a gocheck suite: every
// site its tests reach looks as suspicious as the next, and every run of
// it runs them all.
func (r *repairer) warnGocheck(k testKey) {
	file, line, ok := r.prog.TestLocation(k.pkg, k.name)
	if !ok {
		return
	}
	src, err := os.ReadFile(file)
	if err != nil || !runsGocheck(src, line) {
		return
	}
	r.gocheck = true
	if names := r.checks[k]; len(names) > 0 {
		r.logf("warning: %s runs a gocheck suite: go test sees all of its tests as one, so the localization cannot tell the passing ones' sites apart; the search runs only its %s (-check.f)", k.name, plural(len(names), "failing gocheck test"))
		return
	}
	r.logf("warning: %s runs a gocheck suite: go test sees all of its tests as one, so the localization cannot tell their sites apart and each run of it runs them all; the repair will be slow and may find nothing. A failing gocheck test rewritten as a Go test of its own (func TestX(t *testing.T)) can be repaired", k.name)
}

// gocheckTest is the name of a gocheck test: its suite's type, a dot,
// its method ("S.TestEncoder").
const gocheckTest = `[A-Za-z_]\w*\.Test\w*`

// gocheckFailure matches the line gocheck prints for a failed or panicked
// test: "FAIL: encode_test.go:510: S.TestEncoderSingleDocument".
var gocheckFailure = regexp.MustCompile(`^(?:FAIL|PANIC): \S+:\d+: (` + gocheckTest + `)$`)

// gocheckName matches the name of a gocheck test, as -check.list prints it.
var gocheckName = regexp.MustCompile(`^` + gocheckTest + `$`)

// gocheckSummary matches gocheck's last line when some tests failed:
// "OOPS: 32 passed, 14 FAILED" (and ", 1 PANICKED", ", 2 MISSED", ...).
var gocheckSummary = regexp.MustCompile(`^OOPS: (\d+) passed((?:, \d+ [A-Z-]+)*)$`)

// failedGocheck returns the gocheck tests ("S.TestX") that failed or
// panicked in output, the output of a test that runs a gocheck suite,
// when some of its tests passed and every failure is listed: none
// skipped or missed for a fixture, as many names as the summary counts.
// It returns nil otherwise.
func failedGocheck(output string) []string {
	var names []string
	passed, failed, complete := 0, 0, false
	for _, line := range strings.Split(output, "\n") {
		line = strings.TrimRight(line, "\r")
		if m := gocheckFailure.FindStringSubmatch(line); m != nil {
			if !slices.Contains(names, m[1]) {
				names = append(names, m[1])
			}
			continue
		}
		m := gocheckSummary.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		passed, _ = strconv.Atoi(m[1])
		failed, complete = 0, true
		for _, part := range strings.Split(strings.TrimPrefix(m[2], ", "), ", ") {
			n, what, _ := strings.Cut(part, " ")
			k, _ := strconv.Atoi(n)
			switch what {
			case "FAILED", "PANICKED":
				failed += k
			case "":
			default:
				complete = false // a fixture failed, tests were missed or skipped
			}
		}
	}
	if !complete || passed == 0 || failed == 0 || failed != len(names) {
		return nil
	}
	return names
}

// maxCaseRuns bounds the failing gocheck tests of one test that coverCases
// runs apart.
const maxCaseRuns = 16

// coverCases runs, in coverage, each failing gocheck test of a failing
// test narrowed to two or more of them (up to maxCaseRuns), alone. When
// each fails alone, their spectra stand for the test's in localization:
// a site every failing gocheck test reaches is more suspicious than one
// a single one reaches, where the test's one spectrum made every site any
// of them reaches tie at the top (yaml.v3's seeded
// yaml_parser_decrease_flow_level: 13 failing gocheck tests, 2952 sites
// at score 1, the faulty one not among the first 50).
func (r *repairer) coverCases(ctx context.Context) error {
	r.caseCover = map[testKey][]collect.Result{}
	for _, k := range r.failing {
		cases := r.checks[k]
		if len(cases) < 2 || len(cases) > maxCaseRuns {
			continue
		}
		var groups [][]string
		for _, c := range cases {
			groups = append(groups, []string{c})
		}
		r.logf("coverage: running the %d failing gocheck tests of %s one at a time", len(cases), k.name)
		results, err := r.gocheckApart(ctx, k, groups, false)
		if err != nil {
			return err
		}
		if results == nil {
			r.logf("coverage: a failing gocheck test of %s passes alone (or timed out); the test's spectrum stays whole", k.name)
			continue
		}
		r.caseCover[k] = results
	}
	return nil
}

// maxRestGroups bounds the coverage runs coverRestCases makes for the
// passing gocheck tests of one failing test: more tests than that are run
// in that many groups.
const maxRestGroups = 48

// restCase is the coverage run of some passing gocheck tests of a
// failing test, without the others.
type restCase struct {
	names []string
	res   collect.Result
}

// coverRestCases runs, in coverage, the passing gocheck tests of each
// failing test that its rest run stands for (coverRest), each alone, or
// in up to maxRestGroups groups. When each passes, their spectra stand
// for the rest run's in localization: a site only some passing gocheck
// tests reach is less suspicious than one none reaches, where the rest
// run's one spectrum made every site a passing test reaches count once
// (yaml.v3's seeded yaml_emitter_select_scalar_style: 2386 sites at the
// same score, the emitter's first and the faulty one far below). The
// snapshots keep the rest run: one passing run per suite.
func (r *repairer) coverRestCases(ctx context.Context) error {
	r.restCases = map[testKey][]restCase{}
	for _, k := range r.failing {
		rest := restKey(k)
		names := r.checkRest[k]
		if len(names) < 2 || !slices.Contains(r.restKeys, rest) {
			continue
		}
		groups := inGroups(names, maxRestGroups)
		r.logf("coverage: running the %s of %s in %s", plural(len(names), "passing gocheck test"), k.name, plural(len(groups), "run"))
		results, err := r.gocheckApart(ctx, rest, groups, true)
		if err != nil {
			return err
		}
		if results == nil {
			r.logf("coverage: a passing gocheck test of %s fails alone (or timed out); the passing spectrum stays whole", k.name)
			continue
		}
		for i, res := range results {
			r.restCases[rest] = append(r.restCases[rest], restCase{groups[i], res})
		}
	}
	return nil
}

// gocheckApart runs test k (a failing test narrowed to its gocheck tests,
// or a restKey) in coverage once per group of its gocheck tests, and
// returns the results when each run passed (pass) or failed (not pass)
// without timing out; nil otherwise.
func (r *repairer) gocheckApart(ctx context.Context, k testKey, groups [][]string, pass bool) ([]collect.Result, error) {
	runs := make([]collect.Run, len(groups))
	for i, g := range groups {
		runs[i] = r.testRun(k, collect.ModeCover)
		runs[i].Gocheck = g
	}
	results, err := r.runAll(ctx, runs)
	if err != nil {
		return nil, fmt.Errorf("running the instrumented tests: %w", err)
	}
	ok := true
	for _, res := range results {
		r.ran(testWork(res.TimedOut))
		ok = ok && res.Passed == pass && !res.TimedOut
	}
	if !ok {
		return nil, nil
	}
	return results, nil
}

// narrowRest narrows run, a run of restKey k, to the passing gocheck
// tests whose coverage runs (coverRestCases) reached site: the others
// cannot tell anything about it, and a suite's recorded states or
// negated evaluations then cost the runs of those tests only. Every run of
// k at site is narrowed alike, so an evaluation's order is the same in
// all of them.
func (r *repairer) narrowRest(run *collect.Run, k testKey, site int) {
	cases := r.restCases[k]
	if len(cases) == 0 {
		return
	}
	var names []string
	for _, c := range cases {
		if n := c.res.Reached[site]; n[0]+n[1] > 0 {
			names = append(names, c.names...)
		}
	}
	if len(names) > 0 {
		run.Gocheck = names
	}
}

// inGroups splits names into at most n groups of consecutive names, as
// even as can be: one name each when there are n or fewer.
func inGroups(names []string, n int) [][]string {
	k := min(len(names), n)
	out := make([][]string, 0, k)
	for i := range k {
		out = append(out, names[i*len(names)/k:(i+1)*len(names)/k])
	}
	return out
}
