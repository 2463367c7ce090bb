package nopol

import (
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"github.com/nopol-go/nopol/collect"
	"github.com/nopol-go/nopol/internal/astname"
	"github.com/nopol-go/nopol/internal/constituent"
	"github.com/nopol-go/nopol/synth"
)

// A condition a failing test's panic interrupted with an index or a
// slice out of range (interruptedConds) most often lacks the bounds
// check the runtime made: go-toml's `cleaned[start] == '0' &&
// isDigit(cleaned[start+1])` became `cleaned[start] == '0' &&
// len(cleaned) > start+1 && isDigit(cleaned[start+1])`. The bounds
// candidates of such a site are its condition with that check put before
// one of its indexes; they are validated before the synthesized
// candidates and the mutants (method "bounds"). Before them come the
// mutants in which a length test the condition already has protects the
// index (reusedBounds, method "bounds" too).

// A statement of an if's then-branch that panicked out of range most
// often lacks the bounds check in the if's condition: ini's seeded
// MustFloat64, `if err != nil { k.value = ... defaultVal[0] ... }`, where
// the fix was `len(defaultVal) > 0 && err != nil`. The bounds candidates
// of that condition are then each check of the statement's indexes
// conjoined before it (branchBoundsOf).

// outOfRange reports whether a test's output holds the runtime's panic
// for an index or a slice expression out of range.
func outOfRange(output string) bool {
	return strings.Contains(output, "runtime error: index out of range") ||
		strings.Contains(output, "runtime error: slice bounds out of range")
}

// boundsCandidates are the bounds candidates of site (see boundsClauses)
// when a failing test's panic interrupted it out of range, without those
// that break an anti-pattern; nil otherwise.
func (r *repairer) boundsCandidates(site collect.Site, st style, spec *synth.Spec) []candidate {
	if site.Kind != collect.Cond || st.name != "cond" || !r.outOfRange[site.ID] && len(r.branchBounds[site.ID]) == 0 {
		return nil
	}
	var out []candidate
	reused := reusedBounds(site.Original)
	for _, src := range slices.Concat(reused, boundsClauses(site.Original), r.branchBoundsClauses(site)) {
		c := candidate{src: src, method: "bounds"}
		if spec != nil {
			if t, err := synth.ParseTerm(spec, src); err == nil {
				c.term = t
			}
		}
		if why := r.antiPatternOf(site, st, spec, c); why != "" {
			r.logf("rejected the bounds check `%s`: %s", src, why)
			continue
		}
		out = append(out, c)
	}
	return out
}

// reusedBounds are the mutants of cond in which a length test cond
// already has makes an index in range that it did not (guardedIndexes),
// with every index of cond kept and none weakly tested: the code's own
// check put in front of the index, before a new one is written. pflag's
// seeded `len(shorthands) > 2 || shorthands[1] == '='` panicked on "-";
// the bounds candidate `len(shorthands) > 2 || len(shorthands) > 1 &&
// shorthands[1] == '='` passed the suite, where the fix was the && of
// the original.
func reusedBounds(cond string) []string {
	e, err := parser.ParseExpr(cond)
	if err != nil {
		return nil
	}
	before, _ := guardedIndexes(e)
	n := len(literalIndexes(e))
	var out []string
	for _, src := range mutants(cond) {
		m, err := parser.ParseExpr(src)
		if err != nil || len(literalIndexes(m)) != n {
			continue
		}
		after, weak := guardedIndexes(m)
		if !weak && slices.ContainsFunc(after, func(ix string) bool { return !slices.Contains(before, ix) }) {
			out = append(out, src)
		}
	}
	return out
}

// boundsClauses returns cond with a bounds check conjoined before one of
// its operands of && and || that indexes or slices: `len(x) > i &&` before
// the operand that reads x[i], `len(x) >= j &&` before one that slices
// x[i:j] (or x[i:]: len(x) >= i). Within a chain of &&, the check is one
// more clause of the chain (`a && len(x) > i && f(x[i])`). One condition
// per index, in the order of the source; indexes whose operand or index
// calls a function (evaluated twice then) are left out, as are those in
// function literals.
func boundsClauses(cond string) []string {
	fset, orig, base, ok := parseCond(cond)
	if !ok {
		return nil
	}
	seen := map[string]bool{base: true}
	var out []string
	// Each check goes into a copy of the condition, found there by the
	// positions of its operand (i) and index (j) in the original.
	for i, in := range boolOperands(&orig) {
		for j := range len(bounds(*in.at)) {
			root := clone(orig)
			op := boolOperands(&root)[i]
			check := bounds(*op.at)[j]
			if p := op.parent; p != nil && p.Op == token.LAND && op.right {
				p.X = &ast.BinaryExpr{X: p.X, Op: token.LAND, Y: check}
			} else {
				*op.at = &ast.BinaryExpr{X: check, Op: token.LAND, Y: *op.at}
			}
			src := render(fset, parenthesize(unparen(root), token.LowestPrec))
			if src != "" && !seen[src] {
				seen[src] = true
				out = append(out, src)
			}
		}
	}
	return out
}

// boolOperand is an operand of && or || in a condition (the condition
// itself when it has neither): where it is, and the operator it is the
// left or right operand of (nil for the condition itself).
type boolOperand struct {
	at     *ast.Expr
	parent *ast.BinaryExpr
	right  bool
}

// boolOperands lists the operands of the && and || of *root, left to
// right; parentheses around them are looked through.
func boolOperands(root *ast.Expr) []boolOperand {
	var out []boolOperand
	var walk func(at *ast.Expr, parent *ast.BinaryExpr, right bool)
	walk = func(at *ast.Expr, parent *ast.BinaryExpr, right bool) {
		for {
			p, ok := (*at).(*ast.ParenExpr)
			if !ok {
				break
			}
			at = &p.X
		}
		if b, ok := (*at).(*ast.BinaryExpr); ok && (b.Op == token.LAND || b.Op == token.LOR) {
			walk(&b.X, b, false)
			walk(&b.Y, b, true)
			return
		}
		out = append(out, boolOperand{at: at, parent: parent, right: right})
	}
	walk(root, nil, false)
	return out
}

// bounds are the checks that make the indexes and slices of e in range,
// in the order of the source: len(x) > i for x[i], len(x) >= j for
// x[i:j] and x[i:].
func bounds(e ast.Node) []ast.Expr {
	var out []ast.Expr
	check := func(x ast.Expr, op token.Token, i ast.Expr) {
		if i == nil || astname.HasCall(x) || astname.HasCall(i) {
			return
		}
		lenX := &ast.CallExpr{Fun: ast.NewIdent("len"), Args: []ast.Expr{x}}
		out = append(out, &ast.BinaryExpr{X: lenX, Op: op, Y: i})
	}
	ast.Inspect(e, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.IndexExpr:
			check(n.X, token.GTR, n.Index)
		case *ast.SliceExpr:
			if n.High != nil {
				check(n.X, token.GEQ, n.High)
			} else {
				check(n.X, token.GEQ, n.Low)
			}
		}
		return true
	})
	return out
}

// branchBoundsOf finds, for a failing test's panic out of range (stack,
// panicStack) in a statement that is no condition, the condition site of
// the innermost if whose then-branch holds the statement (its conjuncts
// are the statement's held conditions, collect.Site.Holds; the nearest
// before it in the function), and the bounds checks of the statement's
// indexes (bounds); checks is nil when there is none.
func (r *repairer) branchBoundsOf(stack []constituent.Location) (id int, checks []string) {
	if len(stack) == 0 {
		return 0, nil
	}
	top := stack[0]
	var guard *collect.Site
	for i, s := range r.prog.Sites {
		if s.Kind == collect.Guard && s.File == top.File && s.Line == top.Line && len(s.Holds) > 0 {
			guard = &r.prog.Sites[i]
			break
		}
	}
	if guard == nil {
		return 0, nil
	}
	id = -1
	for i, s := range r.prog.Sites {
		if s.Kind != collect.Cond || s.File != guard.File || s.Func != guard.Func || s.Line >= guard.Line || id >= 0 && s.Line <= r.prog.Sites[id].Line {
			continue
		}
		e, err := parser.ParseExpr(s.Original)
		if err != nil {
			continue
		}
		if slices.ContainsFunc(operandsOf(e, token.LAND), func(c ast.Expr) bool { return !slices.Contains(guard.Holds, types.ExprString(ast.Unparen(c))) }) {
			continue
		}
		id = i
	}
	if id < 0 {
		return 0, nil
	}
	block := parseStmts(guard.Original)
	if block == nil {
		return 0, nil
	}
	// Only constant indexes: a variable may be declared in the branch,
	// out of the condition's scope (a loop's counter).
	for _, check := range bounds(block) {
		if _, lit := check.(*ast.BinaryExpr).Y.(*ast.BasicLit); lit {
			checks = append(checks, types.ExprString(check))
		}
	}
	return id, checks
}

// branchBoundsClauses are site's condition with each of its branch's
// bounds checks (repairer.branchBounds) conjoined before it.
func (r *repairer) branchBoundsClauses(site collect.Site) []string {
	var out []string
	for _, check := range r.branchBounds[site.ID] {
		if src := conjoinFirst(check, site.Original); src != "" {
			out = append(out, src)
		}
	}
	return out
}

// conjoinFirst is the Go condition cond with check as its first
// conjunct, on one line; "" when cond does not parse.
func conjoinFirst(check, cond string) string {
	e, err := parser.ParseExpr(cond)
	if err != nil {
		return ""
	}
	src := types.ExprString(e)
	if b, ok := ast.Unparen(e).(*ast.BinaryExpr); ok && b.Op == token.LOR {
		src = "(" + src + ")"
	}
	return check + " && " + src
}
