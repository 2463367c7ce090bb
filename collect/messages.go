package collect

import (
	"go/ast"
	"go/token"
	"go/types"
	"regexp"
	"slices"
	"strconv"
	"unicode"
)

// Messages: Go has no exceptions, and an error value has no stack trace;
// what a failing test prints of an error is its message. The messages a
// branch writes (Branch.Messages) and the functions a condition calls
// (Site.Callees) let localization find the branch whose message a failing
// test printed, and what decided it was taken.

// Message limits: a literal counts as a message when, its format verbs
// taken out, it has minMessageLetters letters or more; a branch keeps at
// most maxMessages of them, a condition at most maxCallees callees.
const (
	minMessageLetters = 10
	maxMessages       = 4
	maxCallees        = 4
)

// formatVerb matches a fmt verb of a format string: %v, %q, %-8.3f, %%.
var formatVerb = regexp.MustCompile(`%[-+# 0]*(\*|\d+)?(\.(\*|\d+))?[a-zA-Z%]`)

// branchMessages are the string literals of body, a then-branch, that
// read as messages (see minMessageLetters), as their values, in source
// order; not those of a nested if, which has its own site, or of a
// function literal, which runs later if at all.
func branchMessages(body *ast.BlockStmt) []string {
	var out []string
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.IfStmt, *ast.FuncLit:
			return false
		case *ast.BasicLit:
			if n.Kind != token.STRING || len(out) == maxMessages {
				return false
			}
			s, err := strconv.Unquote(n.Value)
			if err == nil && isMessage(s) {
				out = append(out, s)
			}
		}
		return true
	})
	return out
}

// isMessage reports whether literal s, its format verbs taken out, has
// minMessageLetters letters or more.
func isMessage(s string) bool {
	letters := 0
	for _, r := range formatVerb.ReplaceAllString(s, " ") {
		if unicode.IsLetter(r) {
			letters++
		}
	}
	return letters >= minMessageLetters
}

// MessagePattern matches, within one line, what printing message (a
// format string) with any arguments writes: each verb matches any text.
func MessagePattern(message string) *regexp.Regexp {
	var pat string
	last := 0
	for _, m := range formatVerb.FindAllStringIndex(message, -1) {
		pat += regexp.QuoteMeta(message[last:m[0]])
		if message[m[0]:m[1]] == "%%" {
			pat += "%"
		} else {
			pat += `[^\n]*?`
		}
		last = m[1]
	}
	pat += regexp.QuoteMeta(message[last:])
	return regexp.MustCompile(pat)
}

// Callee is where a function a condition calls is declared: the file and
// line of its name.
type Callee struct {
	File string
	Line int
}

// condCallees are the functions and methods of the program's packages
// that cond calls directly (at most maxCallees, each once, in source
// order), by the position of their names; not those of a function
// literal.
func condCallees(cond ast.Expr, info *types.Info, fset *token.FileSet, pkg *types.Package) []Callee {
	var out []Callee
	ast.Inspect(cond, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.CallExpr:
			fn, ok := calleeFunc(n, info)
			if !ok || fn.Pkg() != pkg || len(out) == maxCallees {
				return true
			}
			p := fset.PositionFor(fn.Origin().Pos(), false)
			if c := (Callee{p.Filename, p.Line}); !slices.Contains(out, c) {
				out = append(out, c)
			}
		}
		return true
	})
	return out
}
