package collect

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strconv"
	"strings"
)

// Branch describes the then-branch of a Cond site's if statement: what a
// candidate condition must not take away (see the root package's
// anti-patterns).
type Branch struct {
	// Panics reports a branch that ends in a panic; ReturnsError one that
	// returns a non-nil error (a result that is not nil and whose type
	// implements error: error itself or a concrete error type).
	Panics, ReturnsError bool `json:",omitempty"`
	// Exits reports a branch that ends by leaving: return, break,
	// continue, goto or panic.
	Exits bool `json:",omitempty"`
	// Errors are the error values the branch returns, as written, when
	// they are variables or fields (err in return nil, err).
	Errors []string `json:",omitempty"`
	// Derefs are the expressions the branch dereferences, as written:
	// x in x.f, x.m(), *x, x[i] (pointers, maps, slices, interfaces).
	Derefs []string `json:",omitempty"`
	// Reports are the values the branch's exit reads, as written, when it
	// returns an error or panics: vi.Low in `return
	// &InvalidVersionError{Version: vi.Low, ...}` (at most maxReports).
	Reports []string `json:",omitempty"`
	// DerefsAfter are, for a branch that leaves of an if with no else,
	// the variables of pointer or interface type that the statements
	// after the if dereference whatever their values (not in a nested
	// body, a function literal or the right operand of && or ||), before
	// any assignment to them, as written: c2 in `for _, a := range
	// c2.params` after `if c == nil || c2 == nil { return false }`. A
	// condition that lets x == nil through reaches that dereference
	// (at most maxDerefsAfter).
	DerefsAfter []string `json:",omitempty"`
	// IndexedAfter are, for a branch that leaves of an if with no else,
	// the slices and strings that the statements after the if index or
	// slice with integer literals (as DerefsAfter, before any assignment
	// to them), with the least length those need: s and 2 for `s =
	// s[2:]` after `if len(s) < 2 { return ErrSyntax }` (at most
	// maxIndexedAfter).
	IndexedAfter []IndexAfter `json:",omitempty"`
	// IndexVarsAfter are, for a branch that leaves of an if with no else,
	// the integer variables that the statements after the if use as an
	// index of a slice, a string or an array (as DerefsAfter, before any
	// assignment to them), as written: i in `return f.args[i]` after `if
	// i < 0 || i >= len(f.args) { return "" }` (at most maxIndexVarsAfter).
	IndexVarsAfter []string `json:",omitempty"`
	// BoundedAfter are, for a branch that leaves of an if with no else,
	// the pairs of a slice or string X and an integer variable I that the
	// statements after the if index X with, in a way that needs I <
	// len(X) (as DerefsAfter, before any assignment to either): X[I],
	// X[I+1], X[I+1:]. goldmark's footnote parser, line and pos for
	// `line[pos+1 : ...]` after `if pos > len(line)-1 || line[pos] != '^'
	// { return nil, parser.NoChildren }` (at most maxIndexVarsAfter).
	BoundedAfter []IndexVar `json:",omitempty"`
	// NilUsed are the values the if's condition tests against nil that
	// the branch reads, as written (not in a function literal): x in
	// `if x != nil && ok { use(x) }`, passed on, dereferenced or not.
	NilUsed []string `json:",omitempty"`
	// Decremented are the values the if's condition compares with an
	// integer literal that the branch decrements (x-- or x -= 1, not in a
	// function literal), as written: counter.Single in `if ok &&
	// counter.Single > 0 { ...; counter.Single-- }`.
	Decremented []string `json:",omitempty"`
	// Messages are the string literals of the branch that read as
	// messages (10 letters or more once their format verbs are taken
	// out), as their values, at most 4; not those of a nested if or a
	// function literal (see branchMessages): a failing test that printed
	// one took the branch.
	Messages []string `json:",omitempty"`
}

// maxIndexVarsAfter bounds Branch.IndexVarsAfter.
const maxIndexVarsAfter = 4

// indexVarsAfter returns Branch.IndexVarsAfter of ifs, the top of stack.
func indexVarsAfter(stack []ast.Node, info *types.Info) []string {
	var out []string
	walkAfter(stack, info, func(node ast.Node, assigned map[types.Object]bool) {
		x, ok := node.(*ast.IndexExpr)
		if !ok || len(out) >= maxIndexVarsAfter {
			return
		}
		id, ok := ast.Unparen(x.Index).(*ast.Ident)
		if !ok {
			return
		}
		if !slices.Contains(out, id.Name) && indexesWithVar(x.X, id, info, assigned) {
			out = append(out, id.Name)
		}
	})
	return out
}

// indexesWithVar reports whether id, indexing x, is an integer variable
// not assigned since the if, and x a slice, a string or an array: not a
// map, whose key may be negative or past any length.
func indexesWithVar(x ast.Expr, id *ast.Ident, info *types.Info, assigned map[types.Object]bool) bool {
	obj, ok := info.Uses[id].(*types.Var)
	if !ok || assigned[obj] || !isIntegerVar(obj) {
		return false
	}
	tv, ok := info.Types[x]
	if !ok || tv.Type == nil || !indexable(tv.Type) {
		return false
	}
	_, isMap := tv.Type.Underlying().(*types.Map)
	return !isMap
}

// IndexVar is a slice or string X and an integer variable I, as written,
// where the code after an if needs I < len(X) (Branch.BoundedAfter).
type IndexVar struct {
	X, I string
}

// boundedAfter returns Branch.BoundedAfter of ifs, the top of stack.
func boundedAfter(stack []ast.Node, info *types.Info) []IndexVar {
	var out []IndexVar
	add := func(x, i ast.Expr, least int64, assigned map[types.Object]bool) {
		id, ok := ast.Unparen(i).(*ast.Ident)
		if !ok {
			// I + k, k an integer literal of at least least.
			b, isSum := ast.Unparen(i).(*ast.BinaryExpr)
			if !isSum || b.Op != token.ADD {
				return
			}
			k, isLit := intLit(b.Y)
			if id, ok = ast.Unparen(b.X).(*ast.Ident); !ok || !isLit || k < least {
				return
			}
		} else if least > 0 {
			return
		}
		if xid, ok := ast.Unparen(x).(*ast.Ident); ok && assigned[info.ObjectOf(xid)] {
			return
		}
		if !indexesWithVar(x, id, info, assigned) {
			return
		}
		iv := IndexVar{X: types.ExprString(x), I: id.Name}
		if len(out) < maxIndexVarsAfter && !slices.Contains(out, iv) {
			out = append(out, iv)
		}
	}
	walkAfter(stack, info, func(node ast.Node, assigned map[types.Object]bool) {
		switch n := node.(type) {
		case *ast.IndexExpr:
			add(n.X, n.Index, 0, assigned) // X[I], X[I+k]
		case *ast.SliceExpr:
			if n.Low != nil {
				add(n.X, n.Low, 1, assigned) // X[I+k:], k >= 1
			}
		}
	})
	return out
}

// IndexAfter is a slice or string X, as written, and the least length the
// code indexing it needs.
type IndexAfter struct {
	X   string
	Len int64
}

// elseAfter returns Site.ElseAfter of the if at the top of stack.
func elseAfter(stack []ast.Node) []string {
	var out []string
	cur := stack[len(stack)-1]
	for i := len(stack) - 2; i >= 0; i-- {
		p, ok := stack[i].(*ast.IfStmt)
		if !ok || p.Else != cur {
			break
		}
		out = append(out, types.ExprString(p.Cond))
		cur = p
	}
	return out
}

// elseIfs returns Site.ElseIfs of ifs: the conditions of the else ifs
// after it in its chain, nearest first.
func elseIfs(ifs *ast.IfStmt) []string {
	var out []string
	for next, ok := ifs.Else.(*ast.IfStmt); ok; next, ok = next.Else.(*ast.IfStmt) {
		if next.Init != nil {
			break // its condition reads what its own init declares
		}
		out = append(out, types.ExprString(next.Cond))
	}
	return out
}

// maxDerefsAfter bounds Branch.DerefsAfter.
const maxDerefsAfter = 4

// derefsAfter returns Branch.DerefsAfter of ifs, the top of stack.
func derefsAfter(stack []ast.Node, info *types.Info) []string {
	var out []string
	deref := func(x ast.Expr, assigned map[types.Object]bool) {
		id, ok := ast.Unparen(x).(*ast.Ident)
		if !ok || len(out) >= maxDerefsAfter {
			return
		}
		obj, ok := info.Uses[id].(*types.Var)
		if !ok || assigned[obj] || slices.Contains(out, id.Name) {
			return
		}
		switch obj.Type().Underlying().(type) {
		case *types.Pointer, *types.Interface:
			out = append(out, id.Name)
		}
	}
	walkAfter(stack, info, func(node ast.Node, assigned map[types.Object]bool) {
		switch x := node.(type) {
		case *ast.SelectorExpr:
			if sel, ok := info.Selections[x]; ok && (sel.Indirect() && sel.Kind() == types.FieldVal || isInterface(info, x.X)) {
				deref(x.X, assigned)
			}
		case *ast.StarExpr:
			deref(x.X, assigned)
		}
	})
	return out
}

// maxIndexedAfter bounds Branch.IndexedAfter.
const maxIndexedAfter = 4

// indexedAfter returns Branch.IndexedAfter of ifs, the top of stack.
func indexedAfter(stack []ast.Node, info *types.Info) []IndexAfter {
	var out []IndexAfter
	index := func(x ast.Expr, need int64, assigned map[types.Object]bool) {
		id, ok := ast.Unparen(x).(*ast.Ident)
		if !ok || need <= 0 {
			return
		}
		obj, ok := info.Uses[id].(*types.Var)
		if !ok || assigned[obj] {
			return
		}
		switch t := obj.Type().Underlying().(type) {
		case *types.Slice:
		case *types.Basic:
			if t.Info()&types.IsString == 0 {
				return
			}
		default:
			return
		}
		if i := slices.IndexFunc(out, func(a IndexAfter) bool { return a.X == id.Name }); i >= 0 {
			out[i].Len = max(out[i].Len, need)
		} else if len(out) < maxIndexedAfter {
			out = append(out, IndexAfter{X: id.Name, Len: need})
		}
	}
	walkAfter(stack, info, func(node ast.Node, assigned map[types.Object]bool) {
		switch x := node.(type) {
		case *ast.IndexExpr:
			if k, ok := intLit(x.Index); ok {
				index(x.X, k+1, assigned)
			}
		case *ast.SliceExpr:
			need := int64(0)
			for _, b := range []ast.Expr{x.Low, x.High, x.Max} {
				if k, ok := intLit(b); ok {
					need = max(need, k)
				}
			}
			index(x.X, need, assigned)
		}
	})
	return out
}

// intLit is the value of e when it is an integer literal.
func intLit(e ast.Expr) (int64, bool) {
	lit, ok := ast.Unparen(e).(*ast.BasicLit)
	if !ok || lit.Kind != token.INT {
		return 0, false
	}
	k, err := strconv.ParseInt(lit.Value, 0, 64)
	return k, err == nil
}

// walkAfter calls visit with every node of the expressions that the
// statements after ifs, the top of stack, evaluate whatever their values:
// not in a nested body, a function literal or the right operand of && or
// ||, up to the first statement of another kind (a label, a block, go,
// defer, select). assigned holds the variables assigned by then.
func walkAfter(stack []ast.Node, info *types.Info, visit func(node ast.Node, assigned map[types.Object]bool)) {
	n := len(stack)
	if n < 2 {
		return
	}
	ifs, ok := stack[n-1].(*ast.IfStmt)
	if !ok || ifs.Else != nil {
		return
	}
	list := stmtList(stack[n-2])
	i := slices.Index(list, ast.Stmt(ifs))
	if i < 0 {
		return
	}
	assigned := map[types.Object]bool{}
	var walk func(e ast.Node)
	walk = func(e ast.Node) {
		if e == nil {
			return
		}
		ast.Inspect(e, func(node ast.Node) bool {
			switch x := node.(type) {
			case *ast.FuncLit:
				return false
			case *ast.BinaryExpr:
				if x.Op == token.LAND || x.Op == token.LOR {
					walk(x.X) // the right operand may not run
					return false
				}
			}
			if node != nil {
				visit(node, assigned)
			}
			return true
		})
	}
	for _, s := range list[i+1:] {
		switch s := s.(type) {
		case *ast.ExprStmt, *ast.ReturnStmt, *ast.IncDecStmt, *ast.SendStmt, *ast.DeclStmt:
			walk(s)
		case *ast.AssignStmt:
			for _, e := range s.Rhs {
				walk(e)
			}
			for _, e := range s.Lhs {
				if id, ok := e.(*ast.Ident); ok {
					if obj := info.ObjectOf(id); obj != nil {
						assigned[obj] = true
					}
					continue
				}
				walk(e)
			}
		case *ast.IfStmt:
			walk(s.Init)
			walk(s.Cond)
		case *ast.SwitchStmt:
			walk(s.Init)
			walk(s.Tag)
		case *ast.ForStmt:
			walk(s.Init)
		case *ast.RangeStmt:
			walk(s.X)
		default:
			return // a label, a block, go, defer, select: stop here
		}
	}
}

// maxReports bounds Branch.Reports.
const maxReports = 20

// thenBranch describes the body of n.
func thenBranch(n *ast.IfStmt, info *types.Info) *Branch {
	b := &Branch{}
	if k := len(n.Body.List); k > 0 {
		switch last := n.Body.List[k-1].(type) {
		case *ast.ReturnStmt:
			b.Exits = true
			// An error is a result whose type implements error: the
			// interface itself, or a concrete &InvalidVersionError{...}.
			for _, r := range last.Results {
				tv, ok := info.Types[r]
				if ok && !tv.IsNil() && implementsError(tv.Type) {
					b.ReturnsError = true
					switch ast.Unparen(r).(type) {
					case *ast.Ident, *ast.SelectorExpr:
						b.Errors = append(b.Errors, types.ExprString(r))
					}
				}
			}
		case *ast.BranchStmt:
			b.Exits = last.Tok != token.FALLTHROUGH
		case *ast.ExprStmt:
			if isPanic(last.X, info) {
				b.Exits, b.Panics = true, true
			}
		}
	}
	if k := len(n.Body.List); k > 0 && (b.ReturnsError || b.Panics) {
		b.Reports = valuesRead(n.Body.List[k-1], info)
	}
	seen := map[string]bool{}
	deref := func(x ast.Expr) {
		x = ast.Unparen(x)
		tv, ok := info.Types[x]
		if !ok || !nilable(tv.Type) {
			return
		}
		if s := types.ExprString(x); !seen[s] {
			seen[s] = true
			b.Derefs = append(b.Derefs, s)
		}
	}
	ast.Inspect(n.Body, func(node ast.Node) bool {
		switch e := node.(type) {
		case *ast.SelectorExpr:
			if sel, ok := info.Selections[e]; ok && sel.Indirect() || isInterface(info, e.X) {
				deref(e.X)
			}
		case *ast.StarExpr:
			deref(e.X)
		case *ast.IndexExpr:
			deref(e.X)
		case *ast.FuncLit:
			return false // runs later, if at all
		}
		return true
	})
	b.NilUsed = nilUsed(n)
	b.Decremented = decremented(n)
	return b
}

// decremented returns Branch.Decremented of n.
func decremented(n *ast.IfStmt) []string {
	compared := map[string]bool{}
	ast.Inspect(n.Cond, func(node ast.Node) bool {
		if b, ok := node.(*ast.BinaryExpr); ok && b.Op != token.LAND && b.Op != token.LOR {
			for _, pair := range [][2]ast.Expr{{b.X, b.Y}, {b.Y, b.X}} {
				if lit, ok := ast.Unparen(pair[1]).(*ast.BasicLit); ok && lit.Kind == token.INT {
					compared[types.ExprString(ast.Unparen(pair[0]))] = true
				}
			}
		}
		return true
	})
	if len(compared) == 0 {
		return nil // most conditions: no walk of the body
	}
	var out []string
	add := func(x ast.Expr) {
		if s := types.ExprString(ast.Unparen(x)); compared[s] {
			out = append(out, s)
			delete(compared, s)
		}
	}
	ast.Inspect(n.Body, func(node ast.Node) bool {
		switch st := node.(type) {
		case *ast.FuncLit:
			return false
		case *ast.IncDecStmt:
			if st.Tok == token.DEC {
				add(st.X)
			}
		case *ast.AssignStmt:
			if lit, ok := ast.Unparen(st.Rhs[0]).(*ast.BasicLit); ok && st.Tok == token.SUB_ASSIGN && len(st.Lhs) == 1 && lit.Kind == token.INT && lit.Value == "1" {
				add(st.Lhs[0])
			}
		}
		return len(compared) > 0
	})
	return out
}

// nilUsed returns Branch.NilUsed of n.
func nilUsed(n *ast.IfStmt) []string {
	tested := map[string]bool{}
	ast.Inspect(n.Cond, func(node ast.Node) bool {
		if b, ok := node.(*ast.BinaryExpr); ok && (b.Op == token.EQL || b.Op == token.NEQ) {
			for _, pair := range [][2]ast.Expr{{b.X, b.Y}, {b.Y, b.X}} {
				if id, ok := ast.Unparen(pair[1]).(*ast.Ident); ok && id.Name == "nil" {
					tested[types.ExprString(ast.Unparen(pair[0]))] = true
				}
			}
		}
		return true
	})
	if len(tested) == 0 {
		return nil // most conditions: no walk of the body
	}
	var out []string
	ast.Inspect(n.Body, func(node ast.Node) bool {
		if _, ok := node.(*ast.FuncLit); ok || len(tested) == 0 {
			return false
		}
		if e, ok := node.(ast.Expr); ok {
			if s := types.ExprString(e); tested[s] {
				out = append(out, s)
				delete(tested, s)
			}
		}
		return true
	})
	return out
}

func isInterface(info *types.Info, x ast.Expr) bool {
	tv, ok := info.Types[x]
	return ok && tv.IsValue() && types.IsInterface(tv.Type)
}

// nilable reports whether a value of type t can be nil and is dereferenced
// (or indexed) through it.
func nilable(t types.Type) bool {
	switch t.Underlying().(type) {
	case *types.Pointer, *types.Map, *types.Slice, *types.Interface:
		return true
	}
	return false
}

// loopVars are the names of the integer loop counters in scope at the top
// of stack: the variables declared by the init statement of an enclosing
// for loop, and the key of a range over a slice, array, string or integer.
func loopVars(stack []ast.Node, info *types.Info) []string {
	var out []string
	add := func(x ast.Expr) {
		id, ok := x.(*ast.Ident)
		if !ok || id.Name == "_" {
			return
		}
		if obj := info.Defs[id]; obj != nil {
			if b, ok := obj.Type().Underlying().(*types.Basic); ok && b.Info()&types.IsInteger != 0 {
				out = append(out, id.Name)
			}
		}
	}
	for _, n := range stack {
		switch n := n.(type) {
		case *ast.ForStmt:
			if as, ok := n.Init.(*ast.AssignStmt); ok && as.Tok == token.DEFINE {
				for _, l := range as.Lhs {
					add(l)
				}
			}
		case *ast.RangeStmt:
			if n.Tok == token.DEFINE && n.Key != nil && countsUp(info, n.X) {
				add(n.Key)
			}
		case *ast.FuncLit, *ast.FuncDecl:
			out = out[:0] // a closure's loops are its own
		}
	}
	return out
}

// countsUp reports whether ranging over x gives integer indexes as keys.
func countsUp(info *types.Info, x ast.Expr) bool {
	tv, ok := info.Types[x]
	if !ok {
		return false
	}
	t := tv.Type.Underlying()
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem().Underlying()
	}
	switch t := t.(type) {
	case *types.Slice, *types.Array:
		return true
	case *types.Basic:
		return t.Info()&(types.IsString|types.IsInteger) != 0
	}
	return false
}

// heldConditions returns the conditions known to hold at stmt, the
// statement of a Guard site: the conjuncts (operands of a top-level &&)
// of the ifs whose then-branch encloses it, innermost first, up to its
// function, as types.ExprString prints them. A conjunct that reads a
// variable assigned before stmt within that branch is left out (err !=
// nil no longer holds after err = f()).
func heldConditions(stmt ast.Stmt, stack []ast.Node) []string {
	var out []string
	inner := ast.Node(stmt)
	var assigned []string // variables assigned before stmt in the branches walked
	for i := len(stack) - 1; i >= 1; i-- {
		switch n := stack[i].(type) {
		case *ast.FuncLit, *ast.FuncDecl:
			return out
		case *ast.CaseClause:
			assigned = append(assigned, assignedBefore(n.Body, inner)...)
		case *ast.BlockStmt:
			assigned = append(assigned, assignedBefore(n.List, inner)...)
			if ifs, ok := stack[i-1].(*ast.IfStmt); ok && ifs.Body == n {
				for _, c := range conjuncts(ifs.Cond) {
					if !readsAny(c, assigned) {
						out = append(out, types.ExprString(c))
					}
				}
			}
		}
		inner = stack[i]
	}
	return out
}

// maxSkipped bounds Site.SkippedChecks.
const maxSkipped = 3

// skippedChecks returns, when stmt ends the then-branch of an if that
// rejects its input (the branch returns a non-nil error) without testing
// an error against nil (a check of the input, not an operation's
// failure), the conditions of the checks after that if in the function:
// the ifs whose branch returns an error or panics, at most maxSkipped. A
// guard before stmt that leaves without an error accepts what the if
// rejected, and skips those checks for it too.
func skippedChecks(stmt ast.Stmt, stack []ast.Node, info *types.Info) []string {
	n := len(stack)
	if n < 2 {
		return nil
	}
	body, ok := stack[n-1].(*ast.BlockStmt)
	if !ok || len(body.List) == 0 || body.List[len(body.List)-1] != stmt {
		return nil
	}
	ifs, ok := stack[n-2].(*ast.IfStmt)
	if !ok || ifs.Body != body || !thenBranch(ifs, info).ReturnsError || testsErrorNil(ifs.Cond, info) {
		return nil
	}
	var out []string
	inner := ast.Node(ifs)
	for i := n - 3; i >= 0 && len(out) < maxSkipped; i-- {
		switch stack[i].(type) {
		case *ast.FuncLit, *ast.FuncDecl:
			return out
		}
		list := stmtList(stack[i])
		after := false
		for _, s := range list {
			if after {
				ast.Inspect(s, func(x ast.Node) bool {
					switch x := x.(type) {
					case *ast.FuncLit:
						return false
					case *ast.IfStmt:
						if b := thenBranch(x, info); (b.ReturnsError || b.Panics) && len(out) < maxSkipped {
							out = append(out, types.ExprString(x.Cond))
						}
					}
					return true
				})
			}
			after = after || s == inner
		}
		inner = stack[i]
	}
	return out
}

// deadAfter lists the statements after ifs in the block on top of
// stack, each by its first line, at most maxSkipped, when ifs has no else
// and its branch leaves (Site.DeadAfter); nil otherwise.
func deadAfter(ifs *ast.IfStmt, stack []ast.Node, info *types.Info, src []byte, tf *token.File) []string {
	if ifs.Else != nil || !thenBranch(ifs, info).Exits || len(stack) == 0 {
		return nil
	}
	list := stmtList(stack[len(stack)-1])
	i := slices.Index(list, ast.Stmt(ifs))
	if i < 0 {
		return nil
	}
	var out []string
	for _, st := range list[i+1:] {
		if _, empty := st.(*ast.EmptyStmt); empty {
			continue
		}
		if len(out) == maxSkipped {
			break
		}
		out = append(out, firstLine(string(src[tf.Offset(st.Pos()):tf.Offset(st.End())])))
	}
	return out
}

// firstLine names a statement by its source: its first line, trimmed and
// followed by " …", when it spans several; as written otherwise.
func firstLine(text string) string {
	if first, _, multi := strings.Cut(text, "\n"); multi {
		return strings.TrimSpace(first) + " …"
	}
	return text
}

// testsErrorNil reports whether cond compares an error with nil.
func testsErrorNil(cond ast.Expr, info *types.Info) bool {
	errNil := func(x, y ast.Expr) bool {
		return info.Types[x].IsNil() && implementsError(info.Types[y].Type)
	}
	found := false
	ast.Inspect(cond, func(n ast.Node) bool {
		if b, ok := n.(*ast.BinaryExpr); ok && (b.Op == token.EQL || b.Op == token.NEQ) {
			found = found || errNil(b.X, b.Y) || errNil(b.Y, b.X)
		}
		return !found
	})
	return found
}

// errorInterface is the predeclared error's interface.
var errorInterface = types.Universe.Lookup("error").Type().Underlying().(*types.Interface)

// implementsError reports whether t (nil when unknown) implements error:
// the interface itself, or a concrete &InvalidVersionError{...}.
func implementsError(t types.Type) bool {
	return t != nil && types.Implements(t, errorInterface)
}

// assignedBefore lists the variables the statements of list before inner
// assign (see assignedNames).
func assignedBefore(list []ast.Stmt, inner ast.Node) []string {
	var out []string
	for _, s := range list {
		if s == inner {
			break
		}
		out = append(out, assignedNames(s)...)
	}
	return out
}

// conjuncts are the operands of e's top-level &&, e itself when it has
// none.
func conjuncts(e ast.Expr) []ast.Expr {
	if b, ok := ast.Unparen(e).(*ast.BinaryExpr); ok && b.Op == token.LAND {
		return append(conjuncts(b.X), conjuncts(b.Y)...)
	}
	return []ast.Expr{ast.Unparen(e)}
}

// assignedNames lists the root variables s assigns or declares anywhere
// in it (x in x = 1, x.f = 1, x[i]++, var x int).
func assignedNames(s ast.Stmt) []string {
	var out []string
	root := func(e ast.Expr) {
		for {
			switch x := ast.Unparen(e).(type) {
			case *ast.SelectorExpr:
				e = x.X
				continue
			case *ast.IndexExpr:
				e = x.X
				continue
			case *ast.StarExpr:
				e = x.X
				continue
			case *ast.Ident:
				out = append(out, x.Name)
			}
			return
		}
	}
	ast.Inspect(s, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			for _, l := range n.Lhs {
				root(l)
			}
		case *ast.IncDecStmt:
			root(n.X)
		case *ast.ValueSpec:
			for _, id := range n.Names {
				out = append(out, id.Name)
			}
		case *ast.UnaryExpr:
			if n.Op == token.AND {
				root(n.X) // its address is taken: it may be assigned through it
			}
		}
		return true
	})
	return out
}

// readsAny reports whether e reads an identifier named in names.
func readsAny(e ast.Expr, names []string) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && slices.Contains(names, id.Name) {
			found = true
		}
		return !found
	})
	return found
}

// valuesRead are the variables and field paths (vi.Low) n reads, as
// written, in source order, at most maxReports: not the functions it
// calls, nor package names, types or constants.
func valuesRead(n ast.Node, info *types.Info) []string {
	var out []string
	add := func(e ast.Expr) {
		if s := types.ExprString(e); !slices.Contains(out, s) && len(out) < maxReports {
			out = append(out, s)
		}
	}
	isVar := func(id *ast.Ident) bool {
		v, ok := info.Uses[id].(*types.Var)
		return ok && !v.IsField() // not a composite literal's key
	}
	ast.Inspect(n, func(node ast.Node) bool {
		switch e := node.(type) {
		case *ast.FuncLit:
			return false
		case *ast.SelectorExpr:
			if sel, ok := info.Selections[e]; ok && sel.Kind() == types.FieldVal {
				if root, _ := fieldPath(e, info); root != nil && isVar(root) {
					add(e)
					return false
				}
			}
		case *ast.Ident:
			if isVar(e) {
				add(e)
			}
		}
		return true
	})
	return out
}

// ifsAround returns the positions (line, column) of the conditions of the
// ifs whose then- or else-branch holds node, innermost first, up to its
// function (Site.Inside).
func ifsAround(node ast.Node, stack []ast.Node, fset *token.FileSet) [][2]int {
	var out [][2]int
	for i := len(stack) - 1; i >= 0; i-- {
		switch n := stack[i].(type) {
		case *ast.FuncLit, *ast.FuncDecl:
			return out
		case *ast.IfStmt:
			if node.Pos() >= n.Body.Pos() && node.End() <= n.End() {
				p := fset.PositionFor(n.Cond.Pos(), false)
				out = append(out, [2]int{p.Line, p.Column})
			}
		}
	}
	return out
}
