package nopol

import (
	"go/ast"
	"go/parser"
	"go/token"
	"slices"

	"github.com/nopol-go/nopol/collect"
)

// Error tests first, a ranking: a new guard that leaves returning an
// error variable (`return err`, `return nil, err`; collect.Exit.Err) is
// Go's `if err != nil { return err }`, and its condition tests that
// error. Among the candidates that fit, those whose every clause reads
// the returned variable come before those with a clause over other
// values, stably. In gorilla/mux's Router.walk, before `if err ==
// SkipRouter { continue }`, both `err != nil && t.handler == nil` (the
// failing test's route has no handler, the skipped ones have) and `err
// != SkipRouter && err != nil` fit and passed the suite; the first
// returns SkipRouter for a route with no handler, which walk must skip.

// errorTestedFirst returns cands with those whose every clause reads
// the error st's exit returns first, each group in its order; cands
// itself when the exit returns no error variable.
func errorTestedFirst(site collect.Site, st style, cands []candidate) []candidate {
	name := returnedErrorOf(site, st)
	if name == "" || len(cands) < 2 {
		return cands
	}
	var first, rest []candidate
	for _, c := range cands {
		if everyClauseReads(c.src, name) {
			first = append(first, c)
		} else {
			rest = append(rest, c)
		}
	}
	if len(first) == 0 || len(rest) == 0 {
		return cands
	}
	return append(first, rest...)
}

// returnedErrorOf returns the error variable the exit of st returns
// (collect.Exit.Err), or "".
func returnedErrorOf(site collect.Site, st style) string {
	if st.name != "return" {
		return ""
	}
	e, _ := exitOf(site, st.guard)
	return e.Err
}

// everyClauseReads reports whether each operand of src's && and ||
// (recursively, through parentheses and !) reads the identifier name
// (namesOf: not a field or method selected from another value).
func everyClauseReads(src, name string) bool {
	e, err := parser.ParseExpr(src)
	if err != nil {
		return false
	}
	var each func(e ast.Expr) bool
	each = func(e ast.Expr) bool {
		e = ast.Unparen(e)
		if b, ok := e.(*ast.BinaryExpr); ok && (b.Op == token.LAND || b.Op == token.LOR) {
			return each(b.X) && each(b.Y)
		}
		if u, ok := e.(*ast.UnaryExpr); ok && u.Op == token.NOT {
			return each(u.X)
		}
		return slices.Contains(namesOf(e), name)
	}
	return each(e)
}
