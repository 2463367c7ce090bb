package benchmarks

import (
	"bufio"
	"context"
	"fmt"
	"go/ast"
	"io"
	"math"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"
)

// MutationOptions configures MutationRepair.
type MutationOptions struct {
	// Dir is the module root; Package the package directory relative to
	// it (a leading ./ is allowed).
	Dir, Package string
	// MaxSites bounds the conditions mutated, most suspicious first.
	MaxSites int
	Runner   *Runner
	Progress io.Writer
}

// MutationResult is printed as JSON by 'nopol bench mutrepair'; it has the
// fields of 'nopol fix -json' the harness reads.
type MutationResult struct {
	Patched    bool             `json:"patched"`
	Reason     string           `json:"reason,omitempty"`
	Style      string           `json:"style,omitempty"`
	Condition  string           `json:"condition,omitempty"`
	File       string           `json:"file,omitempty"`
	Diff       string           `json:"diff,omitempty"`
	Candidates []MutationReport `json:"candidates"`
	Runs       int              `json:"runs"`
	Phases     []PhaseReport    `json:"phases"`
}

// MutationReport is one mutant tried.
type MutationReport struct {
	File      string  `json:"file"`
	Line      int     `json:"line"`
	Op        string  `json:"op"`
	Condition string  `json:"condition"`
	Score     float64 `json:"score"`
	Outcome   string  `json:"outcome"` // build, failing, suite, passed
}

// PhaseReport is the time spent in one phase.
type PhaseReport struct {
	Name string  `json:"name"`
	MS   float64 `json:"ms"`
}

// mutSite is a condition reached by a failing test.
type mutSite struct {
	file  *srcFile
	ifs   *ast.IfStmt
	score float64
}

// MutationRepair is the jMutRepair-style baseline: the conditions of the
// package reached by the failing tests are ranked by Ochiai over
// statement coverage (each failing test alone, the passing tests
// together), and the mutants of the most suspicious ones (relational and
// logical operators, negation, dropped clause, constants ±1) are tried in
// order: first against the failing tests, then against the whole package
// suite. The first mutant passing the suite is the patch.
func MutationRepair(ctx context.Context, opts MutationOptions) (*MutationResult, error) {
	res := &MutationResult{Candidates: []MutationReport{}}
	pkg := path.Clean(strings.TrimPrefix(filepath.ToSlash(opts.Package), "./"))
	phase := func(name string, start time.Time) {
		res.Phases = append(res.Phases, PhaseReport{Name: name, MS: float64(time.Since(start).Microseconds()) / 1000})
	}
	start := time.Now()
	base, err := GoTest(ctx, opts.Runner, opts.Dir, pkg, "", testTimeout)
	res.Runs++
	if err != nil {
		return nil, err
	}
	if base.BuildFailed {
		return nil, fmt.Errorf("testing ./%s: does not build: %s", pkg, base.Output)
	}
	if len(base.Failed) == 0 {
		res.Reason = "no failing test"
		return res, nil
	}
	phase("baseline", start)

	start = time.Now()
	files, err := parseModule(opts.Dir)
	if err != nil {
		return nil, err
	}
	var pkgFiles []*srcFile
	for _, f := range files {
		if path.Dir(f.Rel) == pkg {
			pkgFiles = append(pkgFiles, f)
		}
	}
	modPath := modulePath(opts.Dir)
	cover := func(tests []string) (map[string][]coverBlock, error) {
		prof := filepath.Join(opts.Dir, ".nopol-cover")
		defer os.Remove(prof)
		tr, err := GoTest(ctx, opts.Runner, opts.Dir, pkg, runPattern(tests), testTimeout, "-covermode=set", "-coverprofile="+prof)
		res.Runs++
		if err != nil {
			return nil, err
		}
		blocks, err := readCoverProfile(prof, modPath)
		if err == nil && len(blocks) == 0 {
			// A panicking test writes no profile: take the functions
			// of the package on its stack instead.
			blocks = stackFunctions(tr.Stdout, opts.Dir, pkgFiles)
		}
		return blocks, err
	}
	// Each failing test alone (at most maxCovered of them), the passing
	// tests together.
	const maxCovered = 5
	failing := base.Failed
	if len(failing) > maxCovered {
		failing = failing[:maxCovered]
	}
	failCov := make([]map[string][]coverBlock, len(failing))
	for i, t := range failing {
		if failCov[i], err = cover([]string{t}); err != nil {
			return nil, err
		}
	}
	var passCov map[string][]coverBlock
	if len(base.Passed) > 0 {
		if passCov, err = cover(base.Passed); err != nil {
			return nil, err
		}
	}
	var sites []mutSite
	for _, f := range pkgFiles {
		for _, d := range f.AST.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			for _, s := range ifStmts(fd.Body) {
				p := f.Fset.Position(s.Cond.Pos())
				ef := 0
				for _, fc := range failCov {
					if covered(fc, f.Rel, p.Line, p.Column) {
						ef++
					}
				}
				if ef == 0 {
					continue
				}
				ep := 0
				if covered(passCov, f.Rel, p.Line, p.Column) {
					ep = 1
				}
				score := float64(ef) / math.Sqrt(float64(len(failing)*(ef+ep)))
				sites = append(sites, mutSite{file: f, ifs: s, score: score})
			}
		}
	}
	sort.SliceStable(sites, func(i, j int) bool { return sites[i].score > sites[j].score })
	if opts.MaxSites > 0 && len(sites) > opts.MaxSites {
		sites = sites[:opts.MaxSites]
	}
	phase("localize", start)

	start = time.Now()
	defer func() { phase("validate", start) }()
	for _, s := range sites {
		cs, ce := s.file.Fset.Position(s.ifs.Cond.Pos()).Offset, s.file.Fset.Position(s.ifs.Cond.End()).Offset
		line := s.file.Fset.Position(s.ifs.Pos()).Line
		for _, m := range condMutations(s.file.Fset, s.file.Src, s.ifs.Cond, true) {
			if ctx.Err() != nil {
				return res, ctx.Err()
			}
			mutant := m.apply(s.file.Src)
			rep := MutationReport{File: s.file.Rel, Line: line, Op: m.Op, Condition: mutatedCond(s.file.Src, cs, ce, m), Score: s.score}
			outcome, err := tryMutant(ctx, opts, pkg, s.file, mutant, base.Failed)
			res.Runs += 2
			if err != nil {
				return res, err
			}
			rep.Outcome = outcome
			res.Candidates = append(res.Candidates, rep)
			if opts.Progress != nil {
				fmt.Fprintf(opts.Progress, "%s:%d %s %s: %s\n", s.file.Rel, line, m.Op, rep.Condition, outcome)
			}
			if outcome == "passed" {
				res.Patched, res.Style, res.Condition, res.File = true, "cond", rep.Condition, s.file.Rel
				res.Diff = MakePatch(s.file.Rel, s.file.Src, mutant)
				return res, nil
			}
		}
	}
	res.Reason = fmt.Sprintf("no mutant of %d conditions passes the suite", len(sites))
	return res, nil
}

// tryMutant writes the mutant, runs the failing tests then the suite, and
// restores the file.
func tryMutant(ctx context.Context, opts MutationOptions, pkg string, f *srcFile, mutant []byte, failing []string) (string, error) {
	p := filepath.Join(opts.Dir, filepath.FromSlash(f.Rel))
	if err := os.WriteFile(p, mutant, 0o644); err != nil {
		return "", err
	}
	defer os.WriteFile(p, f.Src, 0o644)
	tr, err := GoTest(ctx, opts.Runner, opts.Dir, pkg, runPattern(failing), testTimeout)
	switch {
	case err != nil:
		return "", err
	case tr.BuildFailed:
		return "build", nil
	case !tr.OK():
		return "failing", nil
	}
	tr, err = GoTest(ctx, opts.Runner, opts.Dir, pkg, "", testTimeout)
	switch {
	case err != nil:
		return "", err
	case !tr.OK():
		return "suite", nil
	}
	return "passed", nil
}

// coverBlock is one block of a cover profile with a non-zero count.
type coverBlock struct{ l0, c0, l1, c1 int }

// readCoverProfile reads the covered blocks by file (relative to the
// module root).
func readCoverProfile(file, modPath string) (map[string][]coverBlock, error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	out := map[string][]coverBlock{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		colon := strings.LastIndex(line, ":")
		if strings.HasPrefix(line, "mode:") || colon < 0 {
			continue
		}
		name := strings.TrimPrefix(strings.TrimPrefix(line[:colon], modPath), "/")
		var b coverBlock
		var stmts, count int
		if _, err := fmt.Sscanf(line[colon+1:], "%d.%d,%d.%d %d %d", &b.l0, &b.c0, &b.l1, &b.c1, &stmts, &count); err != nil || count == 0 {
			continue
		}
		out[name] = append(out[name], b)
	}
	return out, sc.Err()
}

// covered reports whether a covered block contains line:col.
func covered(prof map[string][]coverBlock, file string, line, col int) bool {
	for _, b := range prof[file] {
		after := line > b.l0 || (line == b.l0 && col >= b.c0)
		before := line < b.l1 || (line == b.l1 && col <= b.c1)
		if after && before {
			return true
		}
	}
	return false
}

// modulePath reads the module path from dir/go.mod.
func modulePath(dir string) string {
	data, err := os.ReadFile(filepath.Join(dir, "go.mod"))
	if err != nil {
		return ""
	}
	for _, l := range strings.Split(string(data), "\n") {
		if f := strings.Fields(l); len(f) >= 2 && f[0] == "module" {
			if s, err := strconv.Unquote(f[1]); err == nil {
				return s
			}
			return f[1]
		}
	}
	return ""
}

var frameRE = regexp.MustCompile(`([^\s"]+\.go):(\d+)`)

// stackFunctions returns, as cover blocks, the whole functions of files
// that appear as file:line in out (a panic's stack, an error position).
func stackFunctions(out []byte, dir string, files []*srcFile) map[string][]coverBlock {
	blocks := map[string][]coverBlock{}
	for _, m := range frameRE.FindAllSubmatch(out, -1) {
		name := filepath.ToSlash(string(m[1]))
		line, _ := strconv.Atoi(string(m[2]))
		for _, f := range files {
			if !strings.HasSuffix(name, "/"+f.Rel) && name != f.Rel {
				continue
			}
			for _, d := range f.AST.Decls {
				fd, ok := d.(*ast.FuncDecl)
				if !ok || fd.Body == nil {
					continue
				}
				p0, p1 := f.Fset.Position(fd.Pos()), f.Fset.Position(fd.End())
				if p0.Line <= line && line <= p1.Line {
					blocks[f.Rel] = append(blocks[f.Rel], coverBlock{p0.Line, p0.Column, p1.Line, p1.Column})
				}
			}
		}
	}
	return blocks
}
