package nopol

import (
	"go/ast"
	"go/parser"
	"go/token"
	"strings"

	"github.com/nopol-go/nopol/internal/astname"
	"github.com/nopol-go/nopol/synth"
)

// Index results. strings.Index, bytes.IndexByte and their kin return -1
// when nothing is found: code tests the result with `< 0` (not found),
// `>= 0` (found), `== -1` or `!= -1`. `i <= 0` lumps "not found" with
// "found at the start", which code almost never means. Among mutants
// that pass the same suite, one that writes an index result so comes
// after the others (goldmark's seeded linkify parser, `IndexByte(...,
// '.') > 0` where the fix was `< 0`: the negation `<= 0` was validated
// first and printed).

// oddIndexTest reports whether e compares the result of an Index call
// (a function or method named Index, IndexByte, LastIndexAny, ...) with 0
// by `<=` (or 0 >= it): "not found or at the start".
func oddIndexTest(e ast.Expr) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		b, ok := n.(*ast.BinaryExpr)
		if !ok || found {
			return !found
		}
		call, zero := b.X, b.Y
		op := b.Op
		if isZero(call) {
			call, zero, op = b.Y, b.X, synth.Mirrored(op)
		}
		found = op == token.LEQ && isZero(zero) && isIndexCall(call)
		return !found
	})
	return found
}

// isIndexCall reports whether e calls a function or method whose name
// starts with Index or LastIndex.
func isIndexCall(e ast.Expr) bool {
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok {
		return false
	}
	name := astname.Callee(call)
	return name != nil && (strings.HasPrefix(name.Name, "Index") || strings.HasPrefix(name.Name, "LastIndex"))
}

func isZero(e ast.Expr) bool {
	l, ok := ast.Unparen(e).(*ast.BasicLit)
	return ok && l.Kind == token.INT && l.Value == "0"
}

// oddIndexLast moves the mutants of cands (method "mutation") that test
// an Index result oddly (oddIndexTest), where orig does not, after the
// other mutants; the other candidates keep their places.
func oddIndexLast(orig string, cands []candidate) []candidate {
	if e, err := parser.ParseExpr(orig); err != nil || oddIndexTest(e) {
		return cands
	}
	return mutantsFirst(cands, func(c candidate) bool {
		e, err := parser.ParseExpr(c.src)
		return err != nil || !oddIndexTest(e)
	})
}
