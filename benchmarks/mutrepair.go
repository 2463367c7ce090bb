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
	if dir, err := filepath.Abs(opts.Dir); err == nil {
		opts.Dir = dir
	}
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
	// All mutants go into one schema build; when it does not compile,
	// one build per site, skipping the sites that do not compile.
	runTimeout := min(max(10*time.Second, 5*base.Duration), 60*time.Second)
	try := func(mutants []*mutant) (bool, error) {
		bin, err := buildSchema(ctx, opts, pkg, mutants)
		res.Runs++
		if err != nil {
			if opts.Progress != nil {
				fmt.Fprintf(opts.Progress, "%v\n", err)
			}
			return false, err
		}
		for _, m := range mutants {
			outcome, err := runMutant(ctx, opts, pkg, bin, m.id, base.Failed, runTimeout)
			res.Runs += 2
			if err != nil {
				return false, fmt.Errorf("running mutant %d: %v", m.id, err)
			}
			rep := m.report
			rep.Outcome = outcome
			res.Candidates = append(res.Candidates, rep)
			if opts.Progress != nil {
				fmt.Fprintf(opts.Progress, "%s:%d %s %s: %s\n", rep.File, rep.Line, rep.Op, rep.Condition, outcome)
			}
			if outcome == "passed" {
				res.Patched, res.Style, res.Condition, res.File = true, "cond", rep.Condition, rep.File
				res.Diff = MakePatch(rep.File, m.site.file.Src, m.m.apply(m.site.file.Src))
				return true, nil
			}
		}
		return false, nil
	}
	ids := 0
	var all []*mutant
	for _, st := range sites {
		all = append(all, siteMutants(st, &ids)...)
	}
	found, err := try(all)
	if err != nil && ctx.Err() == nil && len(res.Candidates) == 0 {
		for _, st := range sites {
			if found, _ = try(siteMutants(st, &ids)); found || ctx.Err() != nil {
				break
			}
		}
	}
	if ctx.Err() != nil {
		return res, ctx.Err()
	}
	if found {
		return res, nil
	}
	res.Reason = fmt.Sprintf("no mutant of %d conditions passes the suite", len(sites))
	return res, nil
}

// mutant is one mutation of a ranked site, with its id in the schema.
type mutant struct {
	id     int
	site   mutSite
	m      Mutation
	report MutationReport
}

// siteMutants lists the mutants of a site, numbered from *ids+1.
func siteMutants(st mutSite, ids *int) []*mutant {
	f := st.file
	cs, ce := f.Fset.Position(st.ifs.Cond.Pos()).Offset, f.Fset.Position(st.ifs.Cond.End()).Offset
	line := f.Fset.Position(st.ifs.Pos()).Line
	var out []*mutant
	for _, m := range condMutations(f.Fset, f.Src, st.ifs.Cond, true) {
		*ids++
		out = append(out, &mutant{id: *ids, site: st, m: m, report: MutationReport{
			File: f.Rel, Line: line, Op: m.Op, Condition: mutatedCond(f.Src, cs, ce, m), Score: st.score}})
	}
	return out
}

// schemaHelper selects the mutant from $NOPOL_BENCH_MUT in the schema.
const schemaHelper = `package %s

import (
	"os"
	"strconv"
)

var nopolBenchMutID, _ = strconv.Atoi(os.Getenv("NOPOL_BENCH_MUT"))

func nopolBenchMut() int { return nopolBenchMutID }
`

// buildSchema writes every mutant into its condition as a case of a
// switch on $NOPOL_BENCH_MUT (the original condition otherwise), builds
// the package's test binary once, restores the sources, and returns the
// binary's path.
func buildSchema(ctx context.Context, opts MutationOptions, pkg string, mutants []*mutant) (string, error) {
	byFile := map[*srcFile]map[*ast.IfStmt][]*mutant{}
	for _, m := range mutants {
		f := m.site.file
		if byFile[f] == nil {
			byFile[f] = map[*ast.IfStmt][]*mutant{}
		}
		byFile[f][m.site.ifs] = append(byFile[f][m.site.ifs], m)
	}
	pkgName := ""
	for f, sites := range byFile {
		pkgName = f.AST.Name.Name
		type edit struct {
			start, end int
			text       string
		}
		var edits []edit
		for s, ms := range sites {
			cs, ce := f.Fset.Position(s.Cond.Pos()).Offset, f.Fset.Position(s.Cond.End()).Offset
			var b strings.Builder
			b.WriteString("func() bool { switch nopolBenchMut() {")
			for _, m := range ms {
				fmt.Fprintf(&b, " case %d: return (%s);", m.id, string(f.Src[cs:m.m.Start])+m.m.Text+string(f.Src[m.m.End:ce]))
			}
			fmt.Fprintf(&b, " }; return (%s) }()", f.Src[cs:ce])
			edits = append(edits, edit{cs, ce, b.String()})
		}
		// Apply from the end; conditions of different if statements do
		// not overlap unless one contains a function literal: such
		// inner edits are dropped.
		sort.Slice(edits, func(i, j int) bool { return edits[i].start > edits[j].start })
		src := append([]byte(nil), f.Src...)
		last := len(src) + 1
		for _, e := range edits {
			if e.end > last {
				continue
			}
			src = append(src[:e.start:e.start], append([]byte(e.text), src[e.end:]...)...)
			last = e.start
		}
		p := filepath.Join(opts.Dir, filepath.FromSlash(f.Rel))
		if err := os.WriteFile(p, src, 0o644); err != nil {
			return "", err
		}
		defer os.WriteFile(p, f.Src, 0o644)
	}
	if pkgName == "" {
		return "", fmt.Errorf("no mutant")
	}
	helper := filepath.Join(opts.Dir, filepath.FromSlash(pkg), "zz_nopol_bench_mut.go")
	if err := os.WriteFile(helper, fmt.Appendf(nil, schemaHelper, pkgName), 0o644); err != nil {
		return "", err
	}
	defer os.Remove(helper)
	bin := filepath.Join(opts.Dir, ".nopol-mut.test")
	out, err := opts.Runner.Run(ctx, opts.Dir, "go", "test", "-c", "-vet=off", "-o", bin, "./"+pkg)
	if err != nil {
		return "", err
	}
	if out.ExitCode != 0 {
		return "", fmt.Errorf("building the mutant schema: %s", tail(out.Stderr, 1000))
	}
	return bin, nil
}

// runMutant runs the failing tests, then the whole suite, with mutant id
// selected in the schema binary (in the package directory, as go test
// does).
func runMutant(ctx context.Context, opts MutationOptions, pkg, bin string, id int, failing []string, timeout time.Duration) (string, error) {
	limit := "-test.timeout=" + timeout.String()
	r := *opts.Runner
	r.Env = append(append([]string{}, r.Env...), "NOPOL_BENCH_MUT="+strconv.Itoa(id))
	dir := filepath.Join(opts.Dir, filepath.FromSlash(pkg))
	out, err := r.Run(ctx, dir, bin, "-test.run", runPattern(failing), "-test.count=1", limit)
	if err != nil {
		return "", err
	}
	if out.ExitCode != 0 {
		return "failing", nil
	}
	out, err = r.Run(ctx, dir, bin, "-test.count=1", limit)
	if err != nil {
		return "", err
	}
	if out.ExitCode != 0 {
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
