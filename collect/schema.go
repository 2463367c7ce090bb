package collect

import (
	"context"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"maps"
	"os"
	"slices"
	"sort"
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
func BuildSchema(ctx context.Context, prog *Program, site Site, style GuardStyle, candidates []string) (*Schema, error) {
	return BuildSchemas(ctx, prog, []SchemaPart{{Site: site, Style: style, Candidates: candidates}})
}

// SchemaPart is one site of a schema with its candidates.
type SchemaPart struct {
	Site       Site
	Style      GuardStyle
	Candidates []string
}

// schemaPart is a SchemaPart in a schema: its candidates are the
// schema's first to first+n-1.
type schemaPart struct {
	site     Site
	style    GuardStyle
	first, n int
}

// BuildSchemas is BuildSchema for several sites at once (the mutants of
// the most suspicious conditions): one build instead of one per site.
// The schema's candidates are the parts' in order; a candidate replaces
// its own site's condition, every other site keeps its original. The
// sites' sources must not overlap.
func BuildSchemas(ctx context.Context, prog *Program, parts []SchemaPart) (_ *Schema, err error) {
	start := time.Now()
	if len(parts) == 0 {
		return nil, errors.New("building a schema: no site")
	}
	var ps []schemaPart
	var candidates []string
	for _, p := range parts {
		site := p.Site
		if site.ID < 0 || site.ID >= len(prog.Sites) || prog.Sites[site.ID].File != site.File || prog.Sites[site.ID].Line != site.Line {
			return nil, fmt.Errorf("building a schema: site %d is not a site of the program", site.ID)
		}
		site = prog.Sites[site.ID]
		if site.Kind == Guard {
			if k, exit := p.Style.Exit(); exit && k >= len(site.Exits) {
				return nil, fmt.Errorf("building a schema for %s:%d: the site has %d exits, not %d", site.File, site.Line, len(site.Exits), k+1)
			}
			if p.Style == GuardWrap && !site.CanWrap {
				return nil, fmt.Errorf("building a schema for %s:%d: the statement cannot be wrapped", site.File, site.Line)
			}
		}
		for _, q := range ps {
			a, b := &prog.syn[q.site.ID], &prog.syn[site.ID]
			if a.file == b.file && a.start < b.end && b.start < a.end {
				return nil, fmt.Errorf("building a schema: the sources of sites %s:%d and %s:%d overlap", site.File, site.Line, q.site.File, q.site.Line)
			}
		}
		ps = append(ps, schemaPart{site: site, style: p.Style, first: len(candidates), n: len(p.Candidates)})
		candidates = append(candidates, p.Candidates...)
	}
	dir, err := gotest.TempDir("nopol-schema-")
	if err != nil {
		return nil, fmt.Errorf("building a schema: %w", err)
	}
	s := &Schema{
		Site:       ps[0].site,
		Candidates: candidates,
		Dropped:    map[int]string{},
		Binaries:   map[string]string{},
		parts:      ps,
		prog:       prog,
		dir:        dir,
		runner:     prog.goRunner(),
	}
	defer func() {
		if err != nil {
			s.Close()
		}
	}()
	where := fmt.Sprintf("%s:%d", ps[0].site.File, ps[0].site.Line)
	if len(ps) > 1 {
		where += fmt.Sprintf(" and %d more sites", len(ps)-1)
	}

	var valid []int
	for k, c := range candidates {
		if why := checkCandidate(&prog.syn[s.part(k).site.ID], c); why != "" && !skipTypeCheck {
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
	// compile of the packages in the common case. Only when that fails
	// is the schema checked with `go build` and bisected to the
	// candidates that break it (a test build's errors do not say which).
	build := func(ks []int) (map[string]string, error) {
		ov, err := s.overlay(ks)
		if err != nil {
			return nil, err
		}
		binDir, err := os.MkdirTemp(dir, "bin")
		if err != nil {
			return nil, err
		}
		return buildTests(ctx, s.runner, prog, s.dependents(), ov, binDir)
	}
	bins, err := build(valid)
	var exit *gotest.ExitError
	if err != nil && errors.As(err, &exit) && ctx.Err() == nil {
		if valid, err = s.bisect(ctx, valid); err != nil {
			return nil, fmt.Errorf("building a schema for %s: %w", where, err)
		}
		bins, err = build(valid)
	}
	if err != nil {
		return nil, fmt.Errorf("building a schema for %s: %w", where, err)
	}
	s.Binaries = bins
	s.BuildTime = time.Since(start)
	return s, nil
}

// bisect returns the candidates of valid with which the site's package
// compiles (`go build`), recording the others in Dropped with the
// compiler's message.
func (s *Schema) bisect(ctx context.Context, valid []int) ([]int, error) {
	prog := s.prog
	compiles := func(ks []int) (bool, string, error) {
		ov, err := s.overlay(ks)
		if err != nil {
			return false, "", err
		}
		args := append([]string{"build", "-overlay=" + ov, "-o", os.DevNull}, s.packages()...)
		_, err = s.runner.Go(ctx, prog.Dir, 0, args...)
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

// containsFuncLit reports whether e has a function literal.
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

// overlay writes the schema's sources with candidates ks (indexes into
// Candidates) and returns the overlay file.
func (s *Schema) overlay(ks []int) (string, error) {
	prog := s.prog
	byFile := map[string][]wrap{}
	var files []string
	hooks := map[string]string{} // package dir -> package name
	for _, p := range s.parts {
		syn := &prog.syn[p.site.ID]
		var sw strings.Builder
		sw.WriteString("switch NopolCandAt() {")
		for _, k := range ks {
			if k >= p.first && k < p.first+p.n {
				sw.WriteString(" case " + strconv.Itoa(k) + ": return bool(" + s.Candidates[k] + ");")
			}
		}
		sw.WriteString(" }; ")
		var w wrap
		switch {
		case p.site.Kind == Cond:
			w = wrap{syn.start, syn.end, "func() bool { " + sw.String() + "return bool(", ") }()"}
		case p.style != GuardWrap:
			k, _ := p.style.Exit()
			w = wrap{syn.start, syn.start, "if func() bool { " + sw.String() + "return false }() { " + p.site.Exits[k].Body + " }; ", ""}
		default:
			w = wrap{syn.start, syn.end, "if func() bool { " + sw.String() + "return true }() { ", " }"}
		}
		if byFile[syn.file] == nil {
			files = append(files, syn.file)
		}
		byFile[syn.file] = append(byFile[syn.file], w)
		hooks[syn.pkg.dir] = syn.pkg.name
	}
	dir, err := os.MkdirTemp(s.dir, "ov")
	if err != nil {
		return "", err
	}
	ov := newOverlay(dir)
	for _, f := range files {
		src, err := prog.fileSource(f)
		if err != nil {
			return "", err
		}
		ws := byFile[f]
		sort.Slice(ws, func(i, j int) bool { return ws[i].start < ws[j].start })
		if err := ov.add(f, splice(src, ws)); err != nil {
			return "", err
		}
	}
	for _, d := range slices.Sorted(maps.Keys(hooks)) {
		if err := ov.add(hookPath(d), schemaHookFile(hooks[d])); err != nil {
			return "", err
		}
	}
	return ov.write()
}

// part is the part candidate k belongs to.
func (s *Schema) part(k int) *schemaPart {
	for i := range s.parts {
		if p := &s.parts[i]; k >= p.first && k < p.first+p.n {
			return p
		}
	}
	return &s.parts[0]
}

// packages are the import paths of the parts' sites, in order.
func (s *Schema) packages() []string {
	var out []string
	for _, p := range s.parts {
		if !slices.Contains(out, p.site.Package) {
			out = append(out, p.site.Package)
		}
	}
	return out
}

// dependents are the packages whose tests link a part's site.
func (s *Schema) dependents() []string {
	var out []string
	for _, pkg := range s.packages() {
		for _, d := range s.prog.dependents(pkg) {
			if !slices.Contains(out, d) {
				out = append(out, d)
			}
		}
	}
	return out
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
	site := s.part(k).site
	for _, path := range s.prog.dependents(site.Package) {
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
		br, err := prog.binarySuite(ctx, s.runner, path, bin, s.candidateEnv(k, path, nil), timeout)
		if err != nil {
			return res, fmt.Errorf("running candidate %d: %w", k, err)
		}
		res.TimedOut = res.TimedOut || br.timedOut
		res.Hung = res.Hung || br.hung
		if !br.passed {
			res.Passed = false
			res.Output += br.output
		}
		for _, name := range br.order {
			if br.tests[name].Action != "fail" {
				continue
			}
			if path != site.Package {
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
// within timeout, until the first of them fails: a quick rejection before
// the whole suite (a candidate that still fails a failing test, or hangs,
// costs a few of its tests, up to its first failing subtest). Failed holds
// that first failing test, and the examples and parallel tests that failed
// beside it (binaryTests).
// maxRSS, when > 0, caps the process's resident memory as Run.MaxRSS
// caps a forced run's: past it the run ends as hung (TimedOut, Hung), a
// candidate that makes the tests allocate without end rejected there.
func (s *Schema) RunTests(ctx context.Context, k int, names []string, timeout time.Duration, maxRSS int64) (SuiteResult, error) {
	if k < 0 || k >= len(s.Candidates) {
		return SuiteResult{}, fmt.Errorf("running candidate %d: there are %d candidates", k, len(s.Candidates))
	}
	if why, ok := s.Dropped[k]; ok {
		return SuiteResult{BuildFailed: true, Output: why}, nil
	}
	pkg := s.part(k).site.Package
	bin := s.Binaries[pkg]
	if s.dir == "" || bin == "" {
		return SuiteResult{}, errors.New("running candidate " + strconv.Itoa(k) + ": the schema is closed or has no binary for " + pkg)
	}
	start := time.Now()
	br, err := s.prog.binaryTests(ctx, s.runner, pkg, bin, s.candidateEnv(k, pkg, names), timeout, maxRSS, names, true)
	if err != nil {
		return SuiteResult{}, fmt.Errorf("running candidate %d: %w", k, err)
	}
	res := SuiteResult{Passed: br.passed, TimedOut: br.timedOut, Hung: br.hung, OverMemory: br.overMemory, Duration: time.Since(start)}
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
// recorded, nothing forced, the schema's EvalLimit for the tests of pkg
// (nil: all).
func (s *Schema) candidateEnv(k int, pkg string, tests []string) []string {
	var limit int64
	if s.EvalLimit != nil {
		limit = s.EvalLimit(pkg, tests)
	}
	return []string{"NOPOL_CAND=" + strconv.Itoa(k), "NOPOL_MODE=", "NOPOL_OUT=", "NOPOL_FORCE=", "NOPOL_CAND_LIMIT=" + strconv.FormatInt(limit, 10)}
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
