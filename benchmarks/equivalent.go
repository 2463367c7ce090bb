package benchmarks

import (
	"context"
	"go/ast"
	"go/token"
	"os"
	"path/filepath"

	"github.com/nopol-go/nopol/internal/equiv"
	"golang.org/x/tools/go/packages"
)

// equivalentToFix reports whether the condition of the patch res, in the
// patched tree dir, equals the developer's (developerCondition) for every
// value of its operands: Z3 proves it (package equiv), with both
// conditions type-checked where the patch's if statement is. For a
// condition bug that statement must be the bug's, at b.Line; a guard's is
// the if statement of b.File with the patch's condition nearest b.Line.
func equivalentToFix(ctx context.Context, r *Runner, dir string, b *Bug, res *Result) bool {
	want, ok := developerCondition(b, res)
	if !ok {
		return false
	}
	fset := token.NewFileSet()
	cfg := &packages.Config{
		Context: ctx,
		Mode:    packages.NeedName | packages.NeedFiles | packages.NeedSyntax | packages.NeedTypes | packages.NeedTypesInfo,
		Dir:     dir,
		Env:     append(append(os.Environ(), goEnv...), r.Env...),
		Fset:    fset,
	}
	pkgs, err := packages.Load(cfg, "./"+filepath.ToSlash(b.Package))
	if err != nil || len(pkgs) != 1 || len(pkgs[0].Errors) > 0 || pkgs[0].Types == nil {
		return false
	}
	path := filepath.Join(dir, filepath.FromSlash(b.File))
	var site *ast.IfStmt
	for _, f := range pkgs[0].Syntax {
		if !sameFile(fset.Position(f.Pos()).Filename, path) {
			continue
		}
		ast.Inspect(f, func(n ast.Node) bool {
			s, ok := n.(*ast.IfStmt)
			if !ok || NormalizeCond(nodeString(fset, s.Cond)) != NormalizeCond(res.Condition) {
				return true
			}
			line := fset.Position(s.Pos()).Line
			if b.Fault == FaultCondition && line != b.Line {
				return true
			}
			if site == nil || abs(line-b.Line) < abs(fset.Position(site.Pos()).Line-b.Line) {
				site = s
			}
			return true
		})
	}
	if site == nil {
		return false
	}
	same, err := equiv.Equivalent(ctx, fset, pkgs[0].Types, site.Cond.Pos(), res.Condition, want)
	return err == nil && same
}

// sameFile reports whether two paths name one file (the loader may
// resolve symbolic links in the temporary directory's path).
func sameFile(a, b string) bool {
	if a == b {
		return true
	}
	fa, err1 := os.Stat(a)
	fb, err2 := os.Stat(b)
	return err1 == nil && err2 == nil && os.SameFile(fa, fb)
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
