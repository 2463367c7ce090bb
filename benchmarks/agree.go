package benchmarks

import (
	"bytes"
	"context"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
)

// agreeHelper is added to the bug's package to compare two conditions at
// run time: the tool's value is used, the developer's is computed beside
// it, and every evaluation is appended to $NOPOL_AGREE_FILE ("=" when
// they agree, "!" when not or when the developer's condition panics).
const agreeHelper = `package %s

import "os"

func nopolBenchAgree(tool bool, dev func() bool) bool {
	mark := "!"
	func() {
		defer func() { recover() }()
		if dev() == tool {
			mark = "="
		}
	}()
	if f, err := os.OpenFile(os.Getenv("NOPOL_AGREE_FILE"), os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644); err == nil {
		f.WriteString(mark)
		f.Close()
	}
	return tool
}
`

// agreeOnStates reports whether the tool's condition cond, which must be
// the condition of the bug's if statement in the patched tree dir (a patch
// elsewhere that keeps the buggy condition from mattering is not the
// fix), and the developer's condition have the same value at every
// evaluation while the package suite runs, and the statement is evaluated
// at least once. The tree is modified.
func agreeOnStates(ctx context.Context, r *Runner, dir string, b *Bug, cond string) bool {
	path := filepath.Join(dir, filepath.FromSlash(b.File))
	src, err := os.ReadFile(path)
	if err != nil {
		return false
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, src, parser.SkipObjectResolution)
	if err != nil {
		return false
	}
	var site *ast.IfStmt
	ast.Inspect(f, func(n ast.Node) bool {
		if s, ok := n.(*ast.IfStmt); ok && site == nil && fset.Position(s.Pos()).Line == b.Line {
			site = s
		}
		return site == nil
	})
	if site == nil {
		return false
	}
	cs, ce := fset.Position(site.Cond.Pos()).Offset, fset.Position(site.Cond.End()).Offset
	if cond == "" || NormalizeCond(string(src[cs:ce])) != NormalizeCond(cond) {
		return false
	}
	wrapped := fmt.Sprintf("nopolBenchAgree(%s, func() bool { return %s })", src[cs:ce], b.FixedCondition)
	var buf bytes.Buffer
	buf.Write(src[:cs])
	buf.WriteString(wrapped)
	buf.Write(src[ce:])
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		return false
	}
	helper := filepath.Join(filepath.Dir(path), "zz_nopol_bench_agree.go")
	if err := os.WriteFile(helper, fmt.Appendf(nil, agreeHelper, f.Name.Name), 0o644); err != nil {
		return false
	}
	log := filepath.Join(dir, ".nopol-agree")
	rr := *r
	rr.Env = append(append([]string{}, r.Env...), "NOPOL_AGREE_FILE="+log)
	tr, err := GoTest(ctx, &rr, dir, b.Package, "", testTimeout)
	if err != nil || !tr.OK() {
		return false
	}
	marks, err := os.ReadFile(log)
	return err == nil && len(marks) > 0 && !strings.Contains(string(marks), "!")
}
