package collect

import (
	"go/ast"
	"go/token"
	"slices"

	"github.com/nopol-go/nopol/internal/tokens"
)

// maxSameBody bounds Site.SameBody.
const maxSameBody = 3

// sameBodyConds are the conditions, as written and on one line, of the
// other ifs of fn whose then-block is written as ifs' is, token for
// token, when that block has two statements or more and does some work (a
// statement that does not leave: `if err != nil { return err }` says
// nothing of a copy, nor does `if a { n++ }`), in source order, at most
// maxSameBody, the site's own condition left out, and those that cannot
// be put on one line (oneLineSource: a comment inside) too. A block
// copied and its condition not kept in step is a bug of its own: go-cmp
// v0.5.0 limited an array's length under `if opts.PrintAddresses`, where
// the slices and maps beside it test `if opts.LimitVerbosity`.
func sameBodyConds(ifs *ast.IfStmt, fn ast.Node, src []byte, tf *token.File) []string {
	if fn == nil || len(ifs.Body.List) < 2 || !doesWork(ifs.Body) {
		return nil
	}
	scan := func(b *ast.BlockStmt) ([]tokens.Token, bool) {
		return tokens.Scan(string(src[tf.Offset(b.Pos()):tf.Offset(b.End())]))
	}
	body, ok := scan(ifs.Body)
	if !ok {
		return nil
	}
	own := oneLineSource(src, tf, ifs.Cond)
	var out []string
	ast.Inspect(fn, func(n ast.Node) bool {
		other, isIf := n.(*ast.IfStmt)
		if !isIf || other == ifs || len(out) == maxSameBody {
			return len(out) < maxSameBody
		}
		// Blocks written alike have as many statements: most blocks
		// are not scanned.
		if len(other.Body.List) != len(ifs.Body.List) {
			return true
		}
		cond := oneLineSource(src, tf, other.Cond)
		if cond == "" || cond == own || slices.Contains(out, cond) {
			return true
		}
		toks, ok := scan(other.Body)
		if ok && slices.EqualFunc(toks, body, func(a, b tokens.Token) bool { return a.Tok == b.Tok && a.Text == b.Text }) {
			out = append(out, cond)
		}
		return true
	})
	return out
}

// doesWork reports whether block has a statement other than a return, a
// branch (break, continue, goto) or a panic.
func doesWork(block *ast.BlockStmt) bool {
	return slices.ContainsFunc(block.List, func(s ast.Stmt) bool {
		switch s := s.(type) {
		case *ast.ReturnStmt, *ast.BranchStmt, *ast.EmptyStmt:
			return false
		case *ast.ExprStmt:
			call, ok := s.X.(*ast.CallExpr)
			if !ok {
				return true
			}
			id, ok := call.Fun.(*ast.Ident)
			return !ok || id.Name != "panic"
		}
		return true
	})
}
