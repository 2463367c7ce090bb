package benchmarks

import (
	"context"
	"fmt"
	"go/ast"
	"io"
	"math/rand/v2"
	"path"
	"strings"
	"time"

	"github.com/nopol-go/nopol/internal/astname"
)

// SeedOptions configures Seed.
type SeedOptions struct {
	// Modules to seed (RealModules when empty); each at its latest
	// release unless Version is set.
	Modules []string
	Version string
	// PerModule is the number of bugs kept per module.
	PerModule int
	// MaxTries bounds the mutants tried per module (0: no bound).
	MaxTries int
	// Budget bounds the time spent on one module (0: none).
	Budget time.Duration
	// Seed makes the choice of mutants reproducible.
	Seed uint64
	// MinFail and MaxFail bound the failing tests of a kept bug.
	MinFail, MaxFail int
	Runner           *Runner
	Found            func(*Bug) error
	Seen             func(id string) bool
	Progress         io.Writer
}

// seedSite is one mutant of a module file.
type seedSite struct {
	file  *srcFile
	fn    string
	ifOff int
	cond  string // the original condition
	cs    int    // offset of the condition
	ce    int
	m     Mutation
}

// Seed keeps single mutations of conditions that make between MinFail and
// MaxFail tests of their package fail.
func Seed(ctx context.Context, opts SeedOptions) ([]*Bug, error) {
	mods := opts.Modules
	if len(mods) == 0 {
		mods = RealModules
	}
	if opts.MinFail == 0 {
		opts.MinFail, opts.MaxFail = 1, 5
	}
	return eachModule(ctx, mods, opts.Budget, opts.Progress, "seed", func(ctx context.Context, mod string) ([]*Bug, error) {
		return seedModule(ctx, opts, mod)
	})
}

func seedModule(ctx context.Context, opts SeedOptions, mod string) ([]*Bug, error) {
	version := opts.Version
	if version == "" {
		vs, err := Versions(ctx, opts.Runner, mod)
		if err != nil {
			return nil, err
		}
		if len(vs) == 0 {
			return nil, fmt.Errorf("no release")
		}
		version = vs[len(vs)-1]
	}
	t, err := openTree(ctx, opts.Runner, mod, version)
	if err != nil {
		return nil, err
	}
	defer t.close()
	files, err := parseModule(t.Dir)
	if err != nil {
		return nil, err
	}
	var sites []seedSite
	for _, f := range files {
		if !hasTests(t.Dir, f.Rel) {
			continue
		}
		sites = append(sites, seedSites(f)...)
	}
	r := rand.New(rand.NewPCG(opts.Seed, uint64(len(mod))))
	r.Shuffle(len(sites), func(i, j int) { sites[i], sites[j] = sites[j], sites[i] })
	fmt.Fprintf(opts.Progress, "seed %s@%s: %d mutants\n", mod, version, len(sites))
	var bugs []*Bug
	usedFunc := map[string]bool{}
	tries := 0
	for _, s := range sites {
		if ctx.Err() != nil || (opts.PerModule > 0 && len(bugs) >= opts.PerModule) || (opts.MaxTries > 0 && tries >= opts.MaxTries) {
			break
		}
		key := s.file.Rel + ":" + s.fn
		if usedFunc[key] {
			continue
		}
		id := fmt.Sprintf("%s-seed-%s-%s-l%d", slug(mod), strings.ToLower(strings.ReplaceAll(s.fn, ".", "-")), s.m.Op, lineOf(s.file.Src, s.ifOff))
		id = strings.ReplaceAll(strings.ReplaceAll(id, "+", "p"), "--", "-")
		if opts.Seen != nil && opts.Seen(id) {
			usedFunc[key] = true
			continue
		}
		pkg := path.Dir(s.file.Rel)
		base, err := t.baseline(ctx, pkg)
		if err != nil || !base.OK() {
			if !t.skipped[pkg] {
				t.skipped[pkg] = true
				fmt.Fprintf(opts.Progress, "  ./%s: suite does not pass on %s, skipped: %v %s\n", pkg, t.Version, err, base.Summary())
			}
			continue
		}
		buggy := s.m.apply(s.file.Src)
		if !parses(buggy) {
			continue
		}
		tries++
		tr, err := t.try(ctx, s.file.Rel, buggy)
		if err != nil || tr.BuildFailed || tr.TimedOut || len(tr.Failed) < opts.MinFail || len(tr.Failed) > opts.MaxFail {
			continue
		}
		usedFunc[key] = true
		line := lineOf(buggy, s.ifOff)
		if s.m.Op == "remove-guard" {
			line = lineOf(buggy, s.m.Start)
		}
		b := &Bug{
			ID: id, Kind: KindSeeded, Fault: FaultCondition, Mutation: s.m.Op,
			Module: mod, Version: version,
			Package: pkg, File: s.file.Rel, Line: line, Func: s.fn,
			FixedCondition: s.cond,
			Patch:          MakePatch(s.file.Rel, s.file.Src, buggy),
			FailingTests:   tr.Failed, Tests: len(base.Passed),
		}
		if s.m.Op == "remove-guard" {
			b.Fault = FaultGuard
		} else {
			b.BuggyCondition = mutatedCond(s.file.Src, s.cs, s.ce, s.m)
		}
		fmt.Fprintf(opts.Progress, "  %s: kept, %d of %d tests fail\n", id, len(tr.Failed), len(base.Passed))
		if opts.Found != nil {
			if err := opts.Found(b); err != nil {
				return bugs, err
			}
		}
		bugs = append(bugs, b)
	}
	return bugs, nil
}

// seedSites lists the mutants of the conditions of f's functions.
func seedSites(f *srcFile) []seedSite {
	var sites []seedSite
	for _, d := range f.AST.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Body == nil {
			continue
		}
		for _, s := range ifStmts(fd.Body) {
			cs, ce := f.Fset.Position(s.Cond.Pos()).Offset, f.Fset.Position(s.Cond.End()).Offset
			ifOff := f.Fset.Position(s.Pos()).Offset
			base := seedSite{file: f, fn: astname.Func(fd), ifOff: ifOff, cond: nodeString(f.Fset, s.Cond), cs: cs, ce: ce}
			for _, m := range condMutations(f.Fset, f.Src, s.Cond, false) {
				site := base
				site.m = m
				sites = append(sites, site)
			}
			if s.Else == nil && s.Init == nil && len(s.Body.List) > 0 && exits(s.Body.List[len(s.Body.List)-1]) {
				if c, ok := guardCandidate(f, fd, s, nil, nil); ok {
					site := base
					site.m = Mutation{Op: "remove-guard", Start: c.Start, End: c.End, Text: c.Text}
					sites = append(sites, site)
				}
			}
		}
	}
	return sites
}
