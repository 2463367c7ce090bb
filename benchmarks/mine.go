package benchmarks

import (
	"context"
	"fmt"
	"go/ast"
	"io"
	"path"
	"strings"
	"time"

	"github.com/nopol-go/nopol/internal/astname"
)

// RealModules are the modules real bugs are mined from.
var RealModules = []string{
	"github.com/blang/semver/v4",
	"github.com/pelletier/go-toml/v2",
	"github.com/BurntSushi/toml",
	"gopkg.in/yaml.v3",
	"github.com/gorilla/mux",
	"github.com/spf13/pflag",
	"golang.org/x/mod",
	"github.com/bmatcuk/doublestar/v4",
	"github.com/go-ini/ini",
	"github.com/yuin/goldmark",
	"github.com/google/go-cmp",
	"github.com/rivo/uniseg",
	"github.com/agnivade/levenshtein",
	"github.com/fatih/color",
	"github.com/russross/blackfriday/v2",
	"github.com/hashicorp/hcl",
}

// MineOptions configures Mine.
type MineOptions struct {
	// Modules to mine (RealModules when empty).
	Modules []string
	// Pairs bounds the consecutive release pairs per module, newest
	// first (0: all).
	Pairs int
	// Budget bounds the time spent on one module (0: none).
	Budget time.Duration
	// MaxPerModule stops a module after that many bugs (0: no limit).
	MaxPerModule int
	// Runner runs the go commands.
	Runner *Runner
	// Found is called with each bug kept (e.g. to save it at once).
	Found func(*Bug) error
	// Seen reports ids already in the dataset; they are not retried.
	Seen func(id string) bool
	// Progress receives one line per step.
	Progress io.Writer
}

// candidate is one reverted change tried as a bug.
type candidate struct {
	File, Func   string
	Fault        string
	Buggy, Fixed string // conditions
	Start, End   int    // byte range in the fixed file replaced by Text
	Text         string
	IfOff        int // offset of the if statement in the fixed file
}

// Mine finds real bugs between consecutive releases of the modules.
func Mine(ctx context.Context, opts MineOptions) ([]*Bug, error) {
	mods := opts.Modules
	if len(mods) == 0 {
		mods = RealModules
	}
	return eachModule(ctx, mods, opts.Budget, opts.Progress, "mine", func(ctx context.Context, mod string) ([]*Bug, error) {
		return mineModule(ctx, opts, mod)
	})
}

// eachModule calls find for each module, each within budget (0: none),
// reports a module's error on progress and goes on with the next, and
// returns all bugs found, stopping when ctx is done.
func eachModule(ctx context.Context, mods []string, budget time.Duration, progress io.Writer, verb string, find func(context.Context, string) ([]*Bug, error)) ([]*Bug, error) {
	var all []*Bug
	for _, mod := range mods {
		mctx, cancel := ctx, context.CancelFunc(func() {})
		if budget > 0 {
			mctx, cancel = context.WithTimeout(ctx, budget)
		}
		bugs, err := find(mctx, mod)
		cancel()
		if err != nil {
			fmt.Fprintf(progress, "%s %s: %v\n", verb, mod, err)
		}
		all = append(all, bugs...)
		if ctx.Err() != nil {
			return all, ctx.Err()
		}
	}
	return all, nil
}

func mineModule(ctx context.Context, opts MineOptions, mod string) ([]*Bug, error) {
	vs, err := Versions(ctx, opts.Runner, mod)
	if err != nil {
		return nil, err
	}
	var bugs []*Bug
	pairs := 0
	for i := len(vs) - 1; i > 0; i-- {
		if opts.Pairs > 0 && pairs >= opts.Pairs {
			break
		}
		pairs++
		found, err := minePair(ctx, opts, mod, vs[i-1], vs[i])
		if err != nil {
			fmt.Fprintf(opts.Progress, "mine %s %s..%s: %v\n", mod, vs[i-1], vs[i], err)
		}
		bugs = append(bugs, found...)
		if ctx.Err() != nil || (opts.MaxPerModule > 0 && len(bugs) >= opts.MaxPerModule) {
			break
		}
	}
	return bugs, nil
}

// minePair tries every candidate change between old and new.
func minePair(ctx context.Context, opts MineOptions, mod, oldV, newV string) ([]*Bug, error) {
	oldDir, err := Download(ctx, opts.Runner, mod, oldV)
	if err != nil {
		return nil, err
	}
	newDir, err := Download(ctx, opts.Runner, mod, newV)
	if err != nil {
		return nil, err
	}
	oldFiles, err := parseModule(oldDir)
	if err != nil {
		return nil, err
	}
	newFiles, err := parseModule(newDir)
	if err != nil {
		return nil, err
	}
	oldByRel := map[string]*srcFile{}
	for _, f := range oldFiles {
		oldByRel[f.Rel] = f
	}
	var cands []candidate
	for _, nf := range newFiles {
		of, ok := oldByRel[nf.Rel]
		if !ok || !hasTests(newDir, nf.Rel) {
			continue
		}
		cands = append(cands, diffFile(of, nf)...)
	}
	fmt.Fprintf(opts.Progress, "mine %s %s..%s: %d candidates\n", mod, oldV, newV, len(cands))
	if len(cands) == 0 {
		return nil, nil
	}
	t, err := openTree(ctx, opts.Runner, mod, newV)
	if err != nil {
		return nil, err
	}
	defer t.close()
	newByRel := map[string]*srcFile{}
	for _, f := range newFiles {
		newByRel[f.Rel] = f
	}
	var bugs []*Bug
	n := map[string]int{}
	for _, c := range cands {
		if ctx.Err() != nil {
			break
		}
		id := fmt.Sprintf("%s-%s-%s", slug(mod), newV, strings.ToLower(strings.ReplaceAll(c.Func, ".", "-")))
		n[id]++
		if n[id] > 1 {
			id = fmt.Sprintf("%s-%d", id, n[id])
		}
		if opts.Seen != nil && opts.Seen(id) {
			continue
		}
		nf := newByRel[c.File]
		pkg := path.Dir(c.File)
		base, err := t.baseline(ctx, pkg)
		if err != nil || !base.OK() {
			if !t.skipped[pkg] {
				t.skipped[pkg] = true
				fmt.Fprintf(opts.Progress, "  ./%s: suite does not pass on %s, skipped: %v %s\n", pkg, t.Version, err, base.Summary())
			}
			continue
		}
		buggy := []byte(string(nf.Src[:c.Start]) + c.Text + string(nf.Src[c.End:]))
		if !parses(buggy) {
			continue
		}
		tr, err := t.try(ctx, c.File, buggy)
		if err != nil || tr.BuildFailed || tr.TimedOut || len(tr.Failed) == 0 {
			status := "no failing test"
			switch {
			case err != nil:
				status = err.Error()
			case tr.BuildFailed:
				status = "does not build"
			case tr.TimedOut:
				status = "timed out"
			}
			fmt.Fprintf(opts.Progress, "  %s: %s\n", id, status)
			continue
		}
		line := lineOf(buggy, c.IfOff)
		if c.Fault == FaultGuard {
			line = lineOf(buggy, c.Start)
		}
		b := &Bug{
			ID: id, Kind: KindReal, Fault: c.Fault,
			Module: mod, Version: newV, BuggyVersion: oldV,
			Package: pkg, File: c.File, Line: line, Func: c.Func,
			BuggyCondition: c.Buggy, FixedCondition: c.Fixed,
			Patch:        MakePatch(c.File, nf.Src, buggy),
			FailingTests: tr.Failed, Tests: len(base.Passed),
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

// diffFile finds the candidate changes of the functions of nf that exist
// in of under the same name.
func diffFile(of, nf *srcFile) []candidate {
	oldFuncs := map[string]*ast.FuncDecl{}
	for _, d := range of.AST.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil {
			oldFuncs[astname.Func(fd)] = fd
		}
	}
	var cands []candidate
	for _, d := range nf.AST.Decls {
		nfd, ok := d.(*ast.FuncDecl)
		if !ok || nfd.Body == nil {
			continue
		}
		ofd, ok := oldFuncs[astname.Func(nfd)]
		if !ok || nodeString(of.Fset, ofd.Body) == nodeString(nf.Fset, nfd.Body) {
			continue
		}
		cands = append(cands, diffFunc(of, nf, ofd, nfd)...)
	}
	return cands
}

// diffFunc aligns the if statements of two versions of a function by
// their conditions (longest common subsequence) and turns the gaps into
// candidates: n changed conditions against n, or guards only in the new
// version.
func diffFunc(of, nf *srcFile, ofd, nfd *ast.FuncDecl) []candidate {
	oi, ni := ifStmts(ofd.Body), ifStmts(nfd.Body)
	oc := make([]string, len(oi))
	for i, s := range oi {
		oc[i] = nodeString(of.Fset, s.Cond)
	}
	nc := make([]string, len(ni))
	for i, s := range ni {
		nc[i] = nodeString(nf.Fset, s.Cond)
	}
	// LCS table.
	L := make([][]int, len(oc)+1)
	for i := range L {
		L[i] = make([]int, len(nc)+1)
	}
	for i := len(oc) - 1; i >= 0; i-- {
		for j := len(nc) - 1; j >= 0; j-- {
			if oc[i] == nc[j] {
				L[i][j] = L[i+1][j+1] + 1
			} else {
				L[i][j] = max(L[i+1][j], L[i][j+1])
			}
		}
	}
	var cands []candidate
	off := func(p ast.Node) (int, int) {
		return nf.Fset.Position(p.Pos()).Offset, nf.Fset.Position(p.End()).Offset
	}
	gap := func(i0, i1, j0, j1 int) {
		switch {
		case i1-i0 == j1-j0:
			for k := 0; k < i1-i0; k++ {
				s := ni[j0+k]
				start, end := off(s.Cond)
				ifOff, _ := off(s)
				cands = append(cands, candidate{File: nf.Rel, Func: astname.Func(nfd), Fault: FaultCondition,
					Buggy: oc[i0+k], Fixed: nc[j0+k], Start: start, End: end, Text: oc[i0+k], IfOff: ifOff})
			}
		case i1 == i0:
			for k := j0; k < j1; k++ {
				if c, ok := guardCandidate(nf, nfd, ni[k], ofd, of); ok {
					cands = append(cands, c)
				}
			}
		}
	}
	i, j, i0, j0 := 0, 0, 0, 0
	for i < len(oc) && j < len(nc) {
		switch {
		case oc[i] == nc[j]:
			gap(i0, i, j0, j)
			i++
			j++
			i0, j0 = i, j
		case L[i+1][j] >= L[i][j+1]:
			i++
		default:
			j++
		}
	}
	gap(i0, len(oc), j0, len(nc))
	return cands
}

// guardCandidate turns an if statement that exists only in the new
// version into a missing-guard candidate: a guard ending in return,
// break, continue or panic is deleted; a guard around statements that the
// old version has unguarded is replaced by those statements.
func guardCandidate(nf *srcFile, nfd *ast.FuncDecl, s *ast.IfStmt, ofd *ast.FuncDecl, of *srcFile) (candidate, bool) {
	if s.Else != nil || s.Init != nil || len(s.Body.List) == 0 {
		return candidate{}, false
	}
	// Only statements of a block (not else-if chains).
	inBlock := false
	ast.Inspect(nfd.Body, func(n ast.Node) bool {
		if b, ok := n.(*ast.BlockStmt); ok {
			for _, st := range b.List {
				if st == s {
					inBlock = true
				}
			}
		}
		return !inBlock
	})
	if !inBlock {
		return candidate{}, false
	}
	start := nf.Fset.Position(s.Pos()).Offset
	end := nf.Fset.Position(s.End()).Offset
	c := candidate{File: nf.Rel, Func: astname.Func(nfd), Fault: FaultGuard, Fixed: nodeString(nf.Fset, s.Cond), IfOff: start}
	last := s.Body.List[len(s.Body.List)-1]
	if exits(last) {
		// Delete the whole lines of the statement.
		ls := start
		for ls > 0 && (nf.Src[ls-1] == ' ' || nf.Src[ls-1] == '\t') {
			ls--
		}
		le := end
		if le < len(nf.Src) && nf.Src[le] == '\n' && (ls == 0 || nf.Src[ls-1] == '\n') {
			le++
			start = ls
		}
		c.Start, c.End, c.Text = start, le, ""
		return c, true
	}
	// A wrapping guard: the old body must contain the wrapped statements.
	oldBody := nodeString(of.Fset, ofd.Body)
	for _, st := range s.Body.List {
		if !strings.Contains(oldBody, nodeString(nf.Fset, st)) {
			return candidate{}, false
		}
	}
	c.Start, c.End = start, end
	c.Text = string(nf.Src[nf.Fset.Position(s.Body.List[0].Pos()).Offset:nf.Fset.Position(last.End()).Offset])
	return c, true
}

// exits reports whether st leaves the enclosing block.
func exits(st ast.Stmt) bool {
	switch x := st.(type) {
	case *ast.ReturnStmt, *ast.BranchStmt:
		return true
	case *ast.ExprStmt:
		if call, ok := x.X.(*ast.CallExpr); ok {
			if id, ok := call.Fun.(*ast.Ident); ok && id.Name == "panic" {
				return true
			}
		}
	}
	return false
}
