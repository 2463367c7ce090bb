package collect

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strconv"
	"strings"
	"unicode"
)

// Guard strategies: how a guard leaves before its statement (the body of
// `if COND { body }`), after NpeFix (Cornu's thesis, ch. 6) rendered for
// Go. Site.Exits lists those that compile at a site, in this order, which
// is the order the repair tries them:
//
//   - StrategyTwin: a guard the file writes after the statement that
//     precedes the site, elsewhere, or first in a loop with the same
//     header as the site's or over values of the same type, or before
//     the same statement, string literals aside, when its exit repeats
//     the statement's literals, with its condition (twin.go).
//   - StrategyContinue: `continue`, in a loop (NpeFix's "skip the
//     iteration").
//   - StrategyReuse: a return statement of the same function, as written,
//     when every name in it means the same thing at the guard (the
//     commonest real fix: `return nil, io.EOF`, `return v`): the first
//     maxReused, and the first that passes on the error its if tests
//     (`if err != nil { return nil, err }`) when none of those does.
//   - StrategySibling: a guarded return of a sibling function (one name
//     word away, same file and receiver), its string literals saying the
//     function's word (sibling.go); its guard's condition comes with it.
//   - StrategyZero: the zero values of the results (NpeFix s4a for one
//     result; a bare `return` for named results).
//   - StrategyErrSentinel: zero values and a sentinel error the function
//     already uses (`return nil, ErrTooLong`).
//   - StrategyErrNew: zero values and a new error naming the function
//     (`fmt.Errorf` or `errors.New`, when the file imports them): a panic
//     becomes an error, which NpeFix could not do in Java.
//   - StrategyDelegate: the result of another function of the package
//     with the same result types, called with in-scope variables of its
//     parameters' types (a method of the same receiver first):
//     `return e.isMarshalerArrayOfTables(v)` in isArrayOfTables, `return
//     e.encodeMarshalerRoot(rv)` in encodeRoot, rv a local. Its name has
//     every word of the function's, or the function's every word of its
//     (a variant of the same operation); the one sharing the most is tried.
//   - StrategyVar: an in-scope variable of the single result's type
//     (NpeFix s4c), or `true` for a bool result.
//   - StrategyBreak: `break`, when the innermost loop is what it leaves
//     and has a condition (a `for {}` may be what ends its function).
//   - StrategyPanic, StrategyPanicNew: the function's own panic, or a new
//     one, where the package's tests expect a panic (panics.go).
//
// Skipping the statement (wrapping it, `if COND { stmt }`) is the
// GuardWrap style, not an exit.
const (
	StrategyTwin        = "twin-guard"
	StrategyContinue    = "continue"
	StrategyReuse       = "reuse-return"
	StrategySibling     = "sibling-return"
	StrategyZero        = "zero-values"
	StrategyErrSentinel = "error-sentinel"
	StrategyErrNew      = "error-new"
	StrategyDelegate    = "delegate"
	StrategyVar         = "in-scope-value"
	StrategyBreak       = "break"
)

// Strategies are the guard strategies in the order the repair tries them
// at a site: StrategySkip, the wrapping style, then the exits; then
// NpeFix's replacements of a nil operand (see nilfix.go), which are not
// exits and are tried where a failing test dereferenced nil.
var Strategies = []string{StrategySkip, StrategyTwin, StrategyContinue, StrategyReuse, StrategySibling, StrategyZero, StrategyErrSentinel, StrategyErrNew, StrategyDelegate, StrategyVar, StrategyBreak,
	StrategyPanic, StrategyPanicNew, StrategyNilVar, StrategyNilNew}

// StrategySkip names the wrapping style (GuardWrap): the statement runs
// only when the guard holds.
const StrategySkip = "skip"

// Exit is one way a guard leaves before its statement.
type Exit struct {
	// Body is the Go statement, on one line ("return nil, io.EOF").
	Body string `json:"body"`
	// Strategy is one of the Strategy constants.
	Strategy string `json:"strategy"`
	// Guard is, for a reused return that is the last statement of an
	// if's block, that if's condition as written (`!isCanonicalVersion(vi.Low)`
	// for `return &InvalidVersionError{Version: vi.Low, ...}`): a new
	// guard that tests another operand the same way returns the same
	// with that operand (see the root package's analogous). For one that
	// ends the final else of an if-else chain, the chain's conditions,
	// each negated, joined by && (`!containsOnly(s, numbers) &&
	// !containsOnly(s, alphanum)`).
	//
	// For a sibling's return, Guard is the sibling's guard, adapted as
	// the return is, and From the sibling's name.
	Guard string `json:"guard,omitempty"`
	From  string `json:"from,omitempty"`
	// Params says, for a sibling's return, which of the sibling's
	// parameters (or fields of them) this function's parameters stand for
	// ("vi.High as vers"), when their names differ (see paramsCarryOver).
	Params string `json:"params,omitempty"`
	// NewNil marks zero values (StrategyZero) that return nil for a
	// pointer or interface result (not an error) that no return of the
	// function gives as nil or from a call: its callers never had to
	// handle nil there (color's Set returns its receiver on every path,
	// for chained calls; `return nil` there would make them dereference
	// nil). The repair searches such an exit with the later exits, after
	// the function's own returns, not in its first tier.
	NewNil bool `json:"new_nil,omitempty"`
	// Err is, when the function's last result is an error and the exit
	// returns a variable there (`return nil, err`), that variable's name:
	// the guard that leaves with it is most often a test of it (see the
	// root package's errorTestedFirst).
	Err string `json:"err,omitempty"`
}

// Bounds on the exits of one site.
const (
	maxExits  = 7
	maxReused = 3
)

// exits returns the exits that compile before stmt, in strategy order.
// fn is the innermost function around it; stack the nodes above stmt.
func (o *observer) exits(fn ast.Node, stmt ast.Stmt, stack []ast.Node, src []byte, tf *token.File, fnName string) []Exit {
	var out []Exit
	seen := map[string]bool{}
	sig := o.signature(fn)
	add := func(e Exit) {
		// Twins with the same body and other conditions are exits of
		// their own (if e.skip { continue }, if e.size < 10 { continue }).
		key := e.Body + "\x00" + e.Guard
		if e.Body == "" || seen[key] || e.Guard == "" && seen[e.Body] || len(out) >= maxExits {
			return
		}
		seen[key], seen[e.Body] = true, true
		if e.Err == "" {
			if name := returnedError(sig, e.Body); name != "" && o.pkg.Scope().Lookup(name) == nil {
				e.Err = name // a local or parameter, not a sentinel
			}
		}
		out = append(out, e)
	}
	// The statement itself is no exit: `if c { return x }; return x`.
	if _, ok := stmt.(*ast.ReturnStmt); ok {
		seen[oneLineSource(src, tf, stmt)] = true
	}
	inLoop, breakable := loopAround(stack)
	for _, e := range o.twinGuards(stmt, stack, sig, src, tf, inLoop, breakable) {
		add(e) // first: the plain exit of the same body is searched as the twin's
	}
	for _, e := range o.orphanTwins(fn, stmt, stack, sig, src, tf, inLoop, breakable) {
		add(e)
	}
	if inLoop && !o.soleLoopStep(stmt, stack) {
		add(Exit{Body: "continue", Strategy: StrategyContinue})
	}
	if sig != nil {
		rets := o.returnsOf(fn)
		n := 0
		propagates := false
		reuse := func(ret aReturn) bool {
			if len(ret.stmt.Results) == 0 && !o.namedResultsVisible(sig) {
				return false // a bare return where a result is shadowed
			}
			body := oneLineSource(src, tf, ret.stmt)
			if body == "" || seen[body] || !o.sameMeaning(ret.stmt) {
				return false
			}
			e := Exit{Body: body, Strategy: StrategyReuse}
			if ret.guard != nil {
				e.Guard = oneLineSource(src, tf, ret.guard)
			} else if len(ret.elseOf) > 0 {
				e.Guard = elseGuard(src, tf, ret.elseOf)
			}
			add(e)
			propagates = propagates || errorPropagation(ret)
			return true
		}
		for _, ret := range rets {
			if n >= maxReused {
				break
			}
			if reuse(ret) {
				n++
			}
		}
		// The function's own `if err != nil { return ..., err }`, when
		// the first returns are others: the commonest missing guard in
		// Go (semver's Parse has a dozen returns, its error messages
		// first).
		if !propagates {
			for _, ret := range rets {
				if errorPropagation(ret) && reuse(ret) {
					break
				}
			}
		}
		for _, e := range o.siblingReturns(fn, sig, src, tf) {
			add(e)
		}
		zero, ok := o.returnStmt(sig)
		if ok {
			add(Exit{Body: zero, Strategy: StrategyZero, NewNil: newNil(rets, sig)})
		}
		res := sig.Results()
		if ok && res.Len() > 0 && types.Identical(res.At(res.Len()-1).Type(), errorType) {
			zeros := o.zeroValues(res, res.Len()-1)
			if zeros != nil {
				if s := o.usedSentinel(fn); s != "" {
					add(Exit{Body: "return " + strings.Join(append(zeros, s), ", "), Strategy: StrategyErrSentinel})
				}
				if e := o.newError(fnName, sig); e != "" {
					add(Exit{Body: "return " + strings.Join(append(zeros, e), ", "), Strategy: StrategyErrNew})
				}
			}
		}
		if ok && res.Len() > 0 {
			if call := o.delegate(sig, fnName); call != "" {
				add(Exit{Body: "return " + call, Strategy: StrategyDelegate})
			}
		}
		if res.Len() == 1 {
			t := res.At(0).Type()
			if b, ok := t.Underlying().(*types.Basic); ok {
				if b.Info()&types.IsBoolean != 0 {
					add(Exit{Body: "return true", Strategy: StrategyVar})
				}
				// An in-scope number or string would be a value
				// invented for one test; NpeFix's s4c is for objects.
			} else if v := o.varOfType(t, sig); v != "" {
				add(Exit{Body: "return " + v, Strategy: StrategyVar})
			}
		}
	}
	if breakable {
		add(Exit{Body: "break", Strategy: StrategyBreak})
	}
	// Past maxExits: offered only where a test expects a panic.
	if body, strategy := o.panicExit(fn, src, tf, fnName); body != "" && !seen[body] {
		out = append(out, Exit{Body: body, Strategy: strategy})
	}
	return out
}

// loopAround reports whether the innermost function around a statement
// runs it in a loop, and whether a plain break leaves that loop (no
// switch or select in between).
func loopAround(stack []ast.Node) (inLoop, breakable bool) {
	breakable = true
	for i := len(stack) - 1; i >= 0; i-- {
		switch stack[i].(type) {
		case *ast.FuncLit, *ast.FuncDecl:
			return false, false
		case *ast.ForStmt:
			// A break would end a `for {}` that ends its function:
			// "missing return".
			return true, breakable && stack[i].(*ast.ForStmt).Cond != nil
		case *ast.RangeStmt:
			return true, breakable
		case *ast.SwitchStmt, *ast.TypeSwitchStmt, *ast.SelectStmt:
			breakable = false
		}
	}
	return false, false
}

// soleLoopStep reports whether stmt is the one statement of the body of
// a for loop without a post statement, and writes what the loop's
// condition reads, the condition calling pure functions only: skipped
// (or a continue before it), the loop tests the same state again and
// spins (`for i < len(data) && isspace(data[i]) { i++ }`). A forced run
// that skips it hangs until its time limit, as the loop evaluates no
// site, and no guard can wrap it: the state where the guard skips it
// comes back at once.
func (o *observer) soleLoopStep(stmt ast.Stmt, stack []ast.Node) bool {
	if len(stack) < 2 {
		return false
	}
	body, _ := stack[len(stack)-1].(*ast.BlockStmt)
	loop, _ := stack[len(stack)-2].(*ast.ForStmt)
	if body == nil || loop == nil || loop.Body != body || len(body.List) != 1 || body.List[0] != stmt || loop.Cond == nil || loop.Post != nil {
		return false
	}
	var written []string
	switch st := stmt.(type) {
	case *ast.IncDecStmt:
		written = append(written, types.ExprString(st.X))
	case *ast.AssignStmt:
		if st.Tok == token.DEFINE {
			return false
		}
		for _, l := range st.Lhs {
			written = append(written, types.ExprString(l))
		}
	default:
		return false
	}
	reads, pure := false, true
	ast.Inspect(loop.Cond, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.CallExpr:
			if o.pure == nil || !o.pure.pureCall(n, o.info, 0) {
				pure = false
			}
		case *ast.Ident, *ast.SelectorExpr:
			if slices.Contains(written, types.ExprString(n.(ast.Expr))) {
				reads = true
			}
		}
		return pure
	})
	return reads && pure
}

func (o *observer) signature(fn ast.Node) *types.Signature {
	switch fn := fn.(type) {
	case *ast.FuncDecl:
		if obj, ok := o.info.Defs[fn.Name].(*types.Func); ok {
			return obj.Signature()
		}
	case *ast.FuncLit:
		sig, _ := o.info.Types[fn].Type.(*types.Signature)
		return sig
	}
	return nil
}

// aReturn is a return statement of a function with, when it ends the
// block of an if (its then-branch), that if's condition; when it ends
// the final else of an if-else chain, the chain's conditions (elseOf):
// it leaves where none holds.
type aReturn struct {
	stmt   *ast.ReturnStmt
	guard  ast.Expr
	elseOf []ast.Expr
}

// returnsOf lists the return statements of fn's own body (not of the
// function literals in it), in source order, with their guards.
func (o *observer) returnsOf(fn ast.Node) []aReturn {
	body := bodyOf(fn)
	if body == nil {
		return nil
	}
	var out []aReturn
	guards := map[*ast.ReturnStmt]ast.Expr{}
	elses := map[*ast.ReturnStmt][]ast.Expr{}
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.IfStmt:
			// Visited before its blocks: the guard is known at the return.
			if k := len(n.Body.List); k > 0 {
				if ret, ok := n.Body.List[k-1].(*ast.ReturnStmt); ok {
					guards[ret] = n.Cond
				}
			}
			// The chain's head comes before its else ifs: the first to
			// name the final else's return names all the conditions.
			var conds []ast.Expr
			for cur := n; cur != nil; {
				conds = append(conds, cur.Cond)
				switch e := cur.Else.(type) {
				case *ast.IfStmt:
					cur = e
					continue
				case *ast.BlockStmt:
					if k := len(e.List); k > 0 {
						if ret, ok := e.List[k-1].(*ast.ReturnStmt); ok && elses[ret] == nil {
							elses[ret] = conds
						}
					}
				}
				cur = nil
			}
		case *ast.ReturnStmt:
			out = append(out, aReturn{stmt: n, guard: guards[n], elseOf: elses[n]})
		}
		return true
	})
	return out
}

// elseGuard is the condition under which a return that ends the final
// else of a chain of conds leaves, from their source: each negated, joined
// by && (`!containsOnly(s, numbers) && !containsOnly(s, alphanum)`); ""
// when a condition has no one-line source.
func elseGuard(src []byte, tf *token.File, conds []ast.Expr) string {
	var parts []string
	for _, c := range conds {
		text := oneLineSource(src, tf, c)
		if text == "" {
			return ""
		}
		switch ast.Unparen(c).(type) {
		case *ast.Ident, *ast.CallExpr, *ast.SelectorExpr, *ast.IndexExpr:
			parts = append(parts, "!"+text)
		default:
			parts = append(parts, "!("+text+")")
		}
	}
	return strings.Join(parts, " && ")
}

// errorPropagation reports whether ret is the return of an
// `if x != nil { ...; return ..., x }`: it passes on the error x it
// tested.
func errorPropagation(ret aReturn) bool {
	b, ok := ret.guard.(*ast.BinaryExpr)
	if !ok || b.Op != token.NEQ || len(ret.stmt.Results) == 0 {
		return false
	}
	x, okX := b.X.(*ast.Ident)
	y, okY := b.Y.(*ast.Ident)
	last, okL := ret.stmt.Results[len(ret.stmt.Results)-1].(*ast.Ident)
	return okX && okY && okL && y.Name == "nil" && x.Name != "nil" && last.Name == x.Name
}

// returnedError returns the identifier body, a return statement on one
// line, gives as sig's last result when that is an error (`err` in
// `return nil, err`, ErrShort in `return 0, ErrShort`), or "".
func returnedError(sig *types.Signature, body string) string {
	if sig == nil || sig.Results().Len() == 0 || !types.Identical(sig.Results().At(sig.Results().Len()-1).Type(), errorType) {
		return ""
	}
	rest, ok := strings.CutPrefix(body, "return ")
	if !ok {
		return ""
	}
	if i := strings.LastIndex(rest, ","); i >= 0 {
		rest = rest[i+1:]
	}
	rest = strings.TrimSpace(rest)
	if !token.IsIdentifier(rest) || rest == "nil" {
		return ""
	}
	return rest
}

// newNil reports whether the zero values of sig's results put nil in a
// position of pointer or interface type (not error) where none of rets,
// the function's returns, has nil or a call (whose result may be nil).
// See Exit.NewNil.
func newNil(rets []aReturn, sig *types.Signature) bool {
	res := sig.Results()
	for i := range res.Len() {
		t := res.At(i).Type()
		if types.Identical(t, errorType) {
			continue
		}
		switch t.Underlying().(type) {
		case *types.Pointer, *types.Interface:
		default:
			continue
		}
		mayBeNil := false
		for _, r := range rets {
			if len(r.stmt.Results) != res.Len() {
				mayBeNil = true // a bare return of named results, or a call's results
				break
			}
			switch e := ast.Unparen(r.stmt.Results[i]).(type) {
			case *ast.Ident:
				mayBeNil = e.Name == "nil"
			case *ast.CallExpr, *ast.TypeAssertExpr, *ast.IndexExpr:
				mayBeNil = true
			}
			if mayBeNil {
				break
			}
		}
		if !mayBeNil {
			return true
		}
	}
	return false
}

// sameMeaning reports whether every name used in n denotes the same
// object at the site as where n is, and n declares nothing (no function
// literal).
func (o *observer) sameMeaning(n ast.Node) bool {
	inner := o.pkg.Scope().Innermost(o.pos)
	if inner == nil {
		return false
	}
	return o.namesIn(n, func(id *ast.Ident, obj types.Object) bool {
		if v, isVar := obj.(*types.Var); isVar && v.IsField() {
			return true
		}
		_, got := inner.LookupParent(id.Name, o.pos)
		return got == obj
	})
}

// namesIn calls use with each name n uses and what it denotes, but the
// names after a dot (a field, a method or a package's member: its
// operand says what it is), and reports whether every call returned true,
// and n declares nothing and has no function literal.
func (o *observer) namesIn(n ast.Node, use func(id *ast.Ident, obj types.Object) bool) bool {
	ok := true
	after := map[*ast.Ident]bool{}
	ast.Inspect(n, func(n ast.Node) bool {
		if !ok {
			return false
		}
		switch n := n.(type) {
		case *ast.FuncLit:
			ok = false
		case *ast.SelectorExpr:
			after[n.Sel] = true
		case *ast.Ident:
			if after[n] || n.Name == "_" {
				return true
			}
			if o.info.Defs[n] != nil {
				ok = false
			} else if obj := o.info.Uses[n]; obj != nil {
				ok = use(n, obj)
			}
		}
		return ok
	})
	return ok
}

// namedResultsVisible reports whether the named results of sig are all in
// scope at the site (a bare return compiles there).
func (o *observer) namedResultsVisible(sig *types.Signature) bool {
	inner := o.pkg.Scope().Innermost(o.pos)
	if inner == nil {
		return false
	}
	for v := range sig.Results().Variables() {
		if v.Name() == "_" || v.Name() == "" {
			continue
		}
		if _, obj := inner.LookupParent(v.Name(), o.pos); obj != v {
			return false
		}
	}
	return true
}

// oneLineSource is the source of n on one line, "" when that cannot be
// done safely (a comment or a raw string spanning lines inside).
func oneLineSource(src []byte, tf *token.File, n ast.Node) string {
	start, end := tf.Offset(n.Pos()), tf.Offset(n.End())
	if start < 0 || end > len(src) || start >= end {
		return ""
	}
	return joinLines(string(src[start:end]))
}

// OneLine is Go source text (an expression) on one line, its lines
// trimmed and joined by a space, the spaces inside a line kept (a string
// literal's); text itself, lines and all, when that cannot be done
// safely (a comment or a raw string inside): the text stays valid Go
// either way, which strings.Fields's join is not (it collapses the
// spaces of `s == "a  b"` and joins the rest of a line to a comment).
func OneLine(text string) string {
	if j := joinLines(text); j != "" {
		return j
	}
	return text
}

// joinLines is text on one line, its lines trimmed and joined by a space;
// "" when that cannot be done safely (a comment or a raw string spanning
// lines inside).
func joinLines(text string) string {
	if !strings.Contains(text, "\n") {
		return text
	}
	if strings.Contains(text, "//") || strings.Contains(text, "/*") || strings.Contains(text, "`") {
		return ""
	}
	lines := strings.Split(text, "\n")
	for i := range lines {
		lines[i] = strings.TrimSpace(lines[i])
	}
	return strings.Join(lines, " ")
}

// zeroValues are the zero values of the first n results (non-nil for
// n = 0); nil when one cannot be written at the site.
func (o *observer) zeroValues(res *types.Tuple, n int) []string {
	zeros := []string{}
	for i := range n {
		z, ok := o.zero(res.At(i).Type())
		if !ok {
			return nil
		}
		zeros = append(zeros, z)
	}
	return zeros
}

// usedSentinel is the first package-level error variable the function
// uses (of its own package or another), "" if none.
func (o *observer) usedSentinel(fn ast.Node) string {
	found := ""
	ast.Inspect(fn, func(n ast.Node) bool {
		if found != "" {
			return false
		}
		var expr ast.Expr
		switch n := n.(type) {
		case *ast.Ident, *ast.SelectorExpr:
			expr = n.(ast.Expr)
		default:
			return true
		}
		v, ok := errorVar(expr, o.info)
		if !ok {
			return true
		}
		if v.Pkg() == o.pkg {
			if id, isID := n.(*ast.Ident); isID {
				found = id.Name
			}
			return false
		}
		if _, isSel := n.(*ast.SelectorExpr); isSel {
			found = types.ExprString(expr)
		}
		return false
	})
	if found != "" && o.checkExpr(found) != nil {
		return ""
	}
	return found
}

// newError is a new error naming the function and its first parameter of
// a basic type, written with fmt or errors as the file imports them; ""
// when it imports neither.
func (o *observer) newError(fnName string, sig *types.Signature) string {
	imports := o.importNames()
	msg := fnName
	if fnName == "" || fnName == "func" {
		msg = o.pkg.Name()
	}
	if f := imports["fmt"]; f != "" {
		for v := range sig.Params().Variables() {
			if b, ok := v.Type().Underlying().(*types.Basic); ok && v.Name() != "" && v.Name() != "_" && b.Info()&(types.IsString|types.IsNumeric) != 0 {
				verb := "%v"
				if b.Info()&types.IsString != 0 {
					verb = "%q"
				}
				e := f + ".Errorf(" + strconv.Quote(msg+": invalid "+v.Name()+" "+verb) + ", " + v.Name() + ")"
				if o.checkExpr(e) == nil {
					return e
				}
			}
		}
		e := f + ".Errorf(" + strconv.Quote(msg+": invalid input") + ")"
		if o.checkExpr(e) == nil {
			return e
		}
	}
	if e := imports["errors"]; e != "" {
		e += ".New(" + strconv.Quote(msg+": invalid input") + ")"
		if o.checkExpr(e) == nil {
			return e
		}
	}
	return ""
}

// varOfType is an in-scope variable of type t, parameters first (NpeFix
// s4c: return a value the function has), "" if none.
func (o *observer) varOfType(t types.Type, sig *types.Signature) string {
	inner := o.pkg.Scope().Innermost(o.pos)
	if inner == nil {
		return ""
	}
	for v := range sig.Params().Variables() {
		if types.Identical(v.Type(), t) && o.visible(inner, v) {
			return v.Name()
		}
	}
	if r := sig.Recv(); r != nil && types.Identical(r.Type(), t) && o.visible(inner, r) {
		return r.Name()
	}
	for _, v := range o.scopeVars(inner) {
		if types.Identical(v.Type(), t) {
			return v.Name()
		}
	}
	return ""
}

// delegate is a call of the function of the package with the same
// result types (a method of the same receiver, or a package-level
// function) whose name has every camel-case word of fnName or the reverse
// and shares the most words with it, its arguments in-scope variables of
// their types (see argsFor); "" when there is none or the call does not
// type-check at the site.
func (o *observer) delegate(sig *types.Signature, fnName string) string {
	inner := o.pkg.Scope().Innermost(o.pos)
	if inner == nil || o.fn == nil {
		return ""
	}
	vars := o.scopeVars(inner)
	type callee struct {
		call          string
		shared, extra int
		method        bool
	}
	// better orders callees: more words shared, a method of the same
	// receiver, fewer other words, then by name.
	better := func(a, b callee) bool {
		if a.shared != b.shared {
			return a.shared > b.shared
		}
		if a.method != b.method {
			return a.method
		}
		if a.extra != b.extra {
			return a.extra < b.extra
		}
		return a.call < b.call
	}
	var best callee
	consider := func(f *types.Func, recv string) {
		fs := f.Signature()
		if f == o.fn || f.Pkg() != o.pkg || !types.Identical(fs.Results(), sig.Results()) || fs.Variadic() {
			return
		}
		// A variant of the same operation: one name has every word of
		// the other (isArrayOfTables, isMarshalerArrayOfTables). One
		// word in common is not enough: typeEqual is no typeIsTable.
		shared, extra := sharedWords(fnName, f.Name())
		if shared == 0 || extra > 0 && shared < len(camelWords(fnName)) {
			return
		}
		args, ok := argsFor(fs, sig, vars)
		if !ok {
			return
		}
		c := callee{f.Name() + "(" + strings.Join(args, ", ") + ")", shared, extra, recv != ""}
		if recv != "" {
			c.call = recv + "." + c.call
		}
		if (best.call == "" || better(c, best)) && o.checkExpr(c.call) == nil {
			best = c
		}
	}
	if r := sig.Recv(); r != nil && o.visible(inner, r) {
		ms := o.msets.MethodSet(r.Type())
		for i := range ms.Len() {
			if f, ok := ms.At(i).Obj().(*types.Func); ok {
				consider(f, r.Name())
			}
		}
	}
	scope := o.pkg.Scope()
	for _, name := range o.scopeNames(scope) {
		if f, ok := scope.Lookup(name).(*types.Func); ok {
			if _, obj := inner.LookupParent(name, o.pos); obj == f {
				consider(f, "")
			}
		}
	}
	return best.call
}

// argsFor fills the parameters of callee, the signature of a function to
// delegate to, from vars, the variables in scope at the site: a parameter
// takes the variable of its type and name, else the parameter of sig at
// its place when their types are the same, else the only variable of its
// type. ok is false when a parameter has none of them.
func argsFor(callee, sig *types.Signature, vars []*types.Var) (args []string, ok bool) {
	params := callee.Params()
	for i := range params.Len() {
		p := params.At(i)
		var byName, only *types.Var
		n := 0
		for _, v := range vars {
			if !types.Identical(v.Type(), p.Type()) {
				continue
			}
			n++
			only = v
			if v.Name() == p.Name() {
				byName = v
			}
		}
		switch {
		case byName != nil:
			args = append(args, byName.Name())
		case i < sig.Params().Len() && types.Identical(sig.Params().At(i).Type(), p.Type()) && slices.Contains(vars, sig.Params().At(i)):
			args = append(args, sig.Params().At(i).Name())
		case n == 1:
			args = append(args, only.Name())
		default:
			return nil, false
		}
	}
	return args, true
}

// scopeVars are the variables visible at the site in the scopes of its
// function (parameters, results and receiver included), innermost scope
// first, by name within a scope; the file scope above them has none.
func (o *observer) scopeVars(inner *types.Scope) []*types.Var {
	var out []*types.Var
	for s := inner; s != nil && s != o.pkg.Scope(); s = s.Parent() {
		for _, name := range o.scopeNames(s) {
			if v, ok := s.Lookup(name).(*types.Var); ok && o.visible(inner, v) {
				out = append(out, v)
			}
		}
	}
	return out
}

// sharedWords counts the camel-case words (case folded) of b that a has,
// and those it has not: isArrayOfTables and isMarshalerArrayOfTables share
// 4 and differ by 1.
func sharedWords(a, b string) (shared, extra int) {
	have := map[string]bool{}
	for _, w := range camelWords(a) {
		have[w] = true
	}
	for _, w := range camelWords(b) {
		if have[w] {
			shared++
		} else {
			extra++
		}
	}
	return shared, extra
}

// camelWords splits a Go name into its words, lower case: "unmarshalHTTPBody"
// gives unmarshal, http, body.
func camelWords(name string) []string {
	if i := strings.LastIndexByte(name, '.'); i >= 0 {
		name = name[i+1:] // "decoder.unmarshalInteger"
	}
	var words []string
	rs := []rune(name)
	start := 0
	for i := 1; i <= len(rs); i++ {
		boundary := i == len(rs) || rs[i] == '_' ||
			unicode.IsUpper(rs[i]) && (unicode.IsLower(rs[i-1]) || i+1 < len(rs) && unicode.IsLower(rs[i+1]) && unicode.IsUpper(rs[i-1]))
		if !boundary {
			continue
		}
		if w := strings.Trim(string(rs[start:i]), "_"); w != "" {
			words = append(words, strings.ToLower(w))
		}
		start = i
	}
	return words
}
