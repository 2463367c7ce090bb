package collect

import (
	"context"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/nopol-go/nopol/internal/gotest"
)

// defaultSchemaTimeout bounds one test binary run of RunSuite.
const defaultSchemaTimeout = 2 * time.Minute

// BuildSchema compiles the package of site with candidates: Go sources of
// boolean expressions valid at the site; for a Guard, style says the shape.
//
// Candidates are type-checked in the site's scope first; those that do not
// type-check are left out of the binary and recorded in Dropped. If the
// schema still does not compile, the candidates are bisected with
// `go build` until the ones to blame are found. The test binaries of the
// site's package and of the module's packages that link it are compiled
// once; RunSuite selects a candidate with an environment variable.
func BuildSchema(ctx context.Context, prog *Program, site Site, style GuardStyle, candidates []string) (_ *Schema, err error) {
	start := time.Now()
	if site.ID < 0 || site.ID >= len(prog.Sites) || prog.Sites[site.ID].File != site.File || prog.Sites[site.ID].Line != site.Line {
		return nil, fmt.Errorf("building a schema: site %d is not a site of the program", site.ID)
	}
	site = prog.Sites[site.ID]
	if site.Kind == Guard {
		if k, exit := style.Exit(); exit && k >= len(site.Exits) {
			return nil, fmt.Errorf("building a schema for %s:%d: the site has %d exits, not %d", site.File, site.Line, len(site.Exits), k+1)
		}
		if style == GuardWrap && !site.CanWrap {
			return nil, fmt.Errorf("building a schema for %s:%d: the statement cannot be wrapped", site.File, site.Line)
		}
	}
	dir, err := gotest.TempDir("nopol-schema-")
	if err != nil {
		return nil, fmt.Errorf("building a schema: %w", err)
	}
	s := &Schema{
		Site:       site,
		Candidates: candidates,
		Dropped:    map[int]string{},
		Binaries:   map[string]string{},
		prog:       prog,
		dir:        dir,
		runner:     prog.goRunner(),
	}
	defer func() {
		if err != nil {
			s.Close()
		}
	}()

	syn := &prog.syn[site.ID]
	var valid []int
	for k, c := range candidates {
		if why := checkCandidate(syn, c); why != "" && !skipTypeCheck {
			s.Dropped[k] = why
			continue
		}
		valid = append(valid, k)
	}
	if len(valid) == 0 {
		s.BuildTime = time.Since(start)
		return s, nil
	}
	// The test binaries are built with every valid candidate first: one
	// compile of the package in the common case. Only when that fails is
	// the schema checked with `go build` and bisected to the candidates
	// that break it (a test build's errors do not say which).
	build := func(ks []int) (map[string]string, error) {
		ov, err := s.overlay(style, ks)
		if err != nil {
			return nil, err
		}
		binDir, err := os.MkdirTemp(dir, "bin")
		if err != nil {
			return nil, err
		}
		return buildTests(ctx, s.runner, prog, prog.dependents(site.Package), ov, binDir)
	}
	bins, err := build(valid)
	var exit *gotest.ExitError
	if err != nil && errors.As(err, &exit) && ctx.Err() == nil {
		if valid, err = s.bisect(ctx, style, valid); err != nil {
			return nil, fmt.Errorf("building a schema for %s:%d: %w", site.File, site.Line, err)
		}
		bins, err = build(valid)
	}
	if err != nil {
		return nil, fmt.Errorf("building a schema for %s:%d: %w", site.File, site.Line, err)
	}
	s.Binaries = bins
	s.BuildTime = time.Since(start)
	return s, nil
}

// bisect returns the candidates of valid with which the site's package
// compiles (`go build`), recording the others in Dropped with the
// compiler's message.
func (s *Schema) bisect(ctx context.Context, style GuardStyle, valid []int) ([]int, error) {
	prog, site := s.prog, s.Site
	compiles := func(ks []int) (bool, string, error) {
		ov, err := s.overlay(style, ks)
		if err != nil {
			return false, "", err
		}
		_, err = s.runner.Go(ctx, prog.Dir, 0, "build", "-overlay="+ov, "-o", os.DevNull, site.Package)
		var exit *gotest.ExitError
		if errors.As(err, &exit) {
			return false, exit.Stderr, nil
		}
		return err == nil, "", err
	}
	ok, out, err := compiles(valid)
	if err != nil || ok {
		// A test file that does not compile with the schema is no
		// candidate's fault: the test build's error stands.
		return valid, err
	}
	if ok0, out0, err := compiles(nil); err != nil || !ok0 {
		return nil, fmt.Errorf("the schema does not compile even without candidates; this is a nopol bug:\n%s%v", out0, err)
	}
	var split func(ks []int, out string) ([]int, error)
	split = func(ks []int, out string) ([]int, error) {
		if len(ks) == 1 {
			s.Dropped[ks[0]] = "does not compile: " + strings.TrimSpace(out)
			return nil, nil
		}
		var keep []int
		for _, half := range [][]int{ks[:len(ks)/2], ks[len(ks)/2:]} {
			ok, out, err := compiles(half)
			if err != nil {
				return nil, err
			}
			if ok {
				keep = append(keep, half...)
				continue
			}
			more, err := split(half, out)
			if err != nil {
				return nil, err
			}
			keep = append(keep, more...)
		}
		return keep, nil
	}
	return split(valid, out)
}

// skipTypeCheck, set by tests only, leaves dropping candidates to the
// bisection.
var skipTypeCheck = false

// checkCandidate type-checks the candidate expression src in the site's
// scope and returns why it cannot be used, "" if it can.
func checkCandidate(syn *siteSyntax, src string) string {
	if strings.ContainsAny(src, "\n\r") {
		return "the candidate spans several lines"
	}
	e, err := parser.ParseExpr(src)
	if err != nil {
		return "does not parse: " + err.Error()
	}
	if containsFuncLit(e) {
		return "function literals are not allowed in candidates"
	}
	d := syn.pkg
	tpkg, _, err := d.typesOf()
	if err != nil {
		return err.Error()
	}
	info := &types.Info{Types: map[ast.Expr]types.TypeAndValue{}}
	if err := types.CheckExpr(token.NewFileSet(), tpkg, syn.pos, e, info); err != nil {
		return "does not type-check: " + err.Error()
	}
	tv := info.Types[e]
	if b, ok := tv.Type.Underlying().(*types.Basic); !ok || b.Info()&types.IsBoolean == 0 {
		return "not a boolean expression: " + tv.Type.String()
	}
	return ""
}

func containsFuncLit(e ast.Expr) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		if _, ok := n.(*ast.FuncLit); ok {
			found = true
		}
		return !found
	})
	return found
}

// overlay writes the schema's source with candidates ks and returns the
// overlay file.
func (s *Schema) overlay(style GuardStyle, ks []int) (string, error) {
	prog := s.prog
	syn := &prog.syn[s.Site.ID]
	src, err := prog.fileSource(syn.file)
	if err != nil {
		return "", err
	}
	var sw strings.Builder
	sw.WriteString("switch NopolCand {")
	for _, k := range ks {
		sw.WriteString(" case " + strconv.Itoa(k) + ": return bool(" + s.Candidates[k] + ");")
	}
	sw.WriteString(" }; ")
	var w wrap
	switch {
	case s.Site.Kind == Cond:
		w = wrap{syn.start, syn.end, "func() bool { " + sw.String() + "return bool(", ") }()"}
	case style != GuardWrap:
		k, _ := style.Exit()
		w = wrap{syn.start, syn.start, "if func() bool { " + sw.String() + "return false }() { " + s.Site.Exits[k].Body + " }; ", ""}
	default:
		w = wrap{syn.start, syn.end, "if func() bool { " + sw.String() + "return true }() { ", " }"}
	}
	dir, err := os.MkdirTemp(s.dir, "ov")
	if err != nil {
		return "", err
	}
	ov := newOverlay(dir)
	if err := ov.add(syn.file, splice(src, []wrap{w})); err != nil {
		return "", err
	}
	if err := ov.add(hookPath(syn.pkg.dir), schemaHookFile(syn.pkg.name)); err != nil {
		return "", err
	}
	return ov.write()
}

// RunSuite runs every test of the affected package(s) with candidate k
// (index into the candidates given to BuildSchema). A candidate that does not
// type-check is reported as not passing, not as an error.
//
// The affected packages are the site's package and the module's packages
// whose tests link it; failed tests of the latter are in FailedElsewhere,
// qualified by import path ("example.com/m/api.TestX"), those of the
// site's package in Failed, by bare name.
func (s *Schema) RunSuite(ctx context.Context, k int) (SuiteResult, error) {
	if k < 0 || k >= len(s.Candidates) {
		return SuiteResult{}, fmt.Errorf("running candidate %d: there are %d candidates", k, len(s.Candidates))
	}
	if why, ok := s.Dropped[k]; ok {
		return SuiteResult{BuildFailed: true, Output: why}, nil
	}
	if s.dir == "" {
		return SuiteResult{}, errors.New("running candidate " + strconv.Itoa(k) + ": the schema is closed")
	}
	res := SuiteResult{Passed: true}
	start := time.Now()
	prog := s.prog
	for _, path := range s.prog.dependents(s.Site.Package) {
		bin := s.Binaries[path]
		if bin == "" {
			continue
		}
		timeout := s.Timeout
		if timeout <= 0 {
			timeout = defaultSchemaTimeout
			if d, ok := s.prog.suiteTime[path]; ok {
				timeout = min(10*d+10*time.Second, defaultSchemaTimeout)
			}
		}
		br, err := prog.binarySuite(ctx, s.runner, path, bin, candidateEnv(k), timeout)
		if err != nil {
			return res, fmt.Errorf("running candidate %d: %w", k, err)
		}
		res.TimedOut = res.TimedOut || br.timedOut
		if !br.passed {
			res.Passed = false
			res.Output += br.output
		}
		for _, name := range br.order {
			if br.tests[name].Action != "fail" {
				continue
			}
			if path != s.Site.Package {
				res.FailedElsewhere = append(res.FailedElsewhere, path+"."+name)
			} else {
				res.Failed = append(res.Failed, name)
			}
		}
		if res.TimedOut {
			break
		}
	}
	res.Duration = time.Since(start)
	return res, nil
}

// RunTests runs candidate k on the tests names of the site's package only,
// within timeout: a quick rejection before the whole suite (a candidate
// that still fails a failing test, or hangs, costs a few of its tests).
func (s *Schema) RunTests(ctx context.Context, k int, names []string, timeout time.Duration) (SuiteResult, error) {
	if k < 0 || k >= len(s.Candidates) {
		return SuiteResult{}, fmt.Errorf("running candidate %d: there are %d candidates", k, len(s.Candidates))
	}
	if why, ok := s.Dropped[k]; ok {
		return SuiteResult{BuildFailed: true, Output: why}, nil
	}
	bin := s.Binaries[s.Site.Package]
	if s.dir == "" || bin == "" {
		return SuiteResult{}, errors.New("running candidate " + strconv.Itoa(k) + ": the schema is closed or has no binary for " + s.Site.Package)
	}
	start := time.Now()
	br, err := s.prog.binaryTests(ctx, s.runner, s.Site.Package, bin, candidateEnv(k), timeout, names)
	if err != nil {
		return SuiteResult{}, fmt.Errorf("running candidate %d: %w", k, err)
	}
	res := SuiteResult{Passed: br.passed, TimedOut: br.timedOut, Duration: time.Since(start)}
	if !br.passed {
		res.Output = br.output
	}
	for _, name := range br.order {
		if br.tests[name].Action == "fail" {
			res.Failed = append(res.Failed, name)
		}
	}
	return res, nil
}

// candidateEnv is the environment of a run of candidate k: nothing
// recorded, nothing forced.
func candidateEnv(k int) []string {
	return []string{"NOPOL_CAND=" + strconv.Itoa(k), "NOPOL_MODE=", "NOPOL_OUT=", "NOPOL_FORCE="}
}

// Close removes the schema's temp dir.
func (s *Schema) Close() error {
	if s == nil || s.dir == "" {
		return nil
	}
	err := os.RemoveAll(s.dir)
	s.dir = ""
	return err
}
