package resilience

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"strings"
)

// Kind is how a catch selects the errors it handles.
type Kind int

const (
	// CatchAll handles every non-nil error: err != nil, the else of
	// err == nil, the default of a switch that has a nil case.
	CatchAll Kind = iota
	// Is handles errors.Is(err, Target).
	Is
	// Equal handles err == Target, Target not nil (a sentinel compared
	// directly, also a case of switch err).
	Equal
	// As handles errors.As(err, &v), Target the type of v.
	As
	// Type handles a case of a type switch on the error, Target its types.
	Type
	// Predicate is another condition over the error (os.IsNotExist(err),
	// err != nil && !retryable(err), err != io.EOF): Target is its text.
	Predicate
	// Recover is a deferred function that calls recover; its try is the
	// rest of the function.
	Recover
)

var kindNames = [...]string{"catch-all", "is", "equal", "as", "type", "predicate", "recover"}

// String names k as the report does.
func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return fmt.Sprintf("Kind(%d)", int(k))
}

// MarshalText renders k by name in JSON.
func (k Kind) MarshalText() ([]byte, error) { return []byte(k.String()), nil }

// Action is what a catch does with the error.
type Action int

const (
	// Recovers: the branch neither returns nor panics with the error.
	Recovers Action = iota
	// Returns: the branch returns the error, as it is or wrapped (for a
	// Recover pair: the panic is turned into a returned error).
	Returns
	// Panics: the branch panics with the error (a Recover pair panics
	// again).
	Panics
)

var actionNames = [...]string{"recovers", "returns", "panics"}

// String names a as the report does.
func (a Action) String() string {
	if int(a) < len(actionNames) {
		return actionNames[a]
	}
	return fmt.Sprintf("Action(%d)", int(a))
}

// MarshalText renders a by name in JSON.
func (a Action) MarshalText() ([]byte, error) { return []byte(a.String()), nil }

// Pos is a position in a source file, as the report shows it.
type Pos struct {
	File string `json:"file"`
	Line int    `json:"line"`
	Col  int    `json:"col"`
}

// String renders p as file:line:col.
func (p Pos) String() string { return fmt.Sprintf("%s:%d:%d", p.File, p.Line, p.Col) }

// Pair is a try-catch pair: an error-producing call and one branch of a
// handler its error reaches (see the package documentation).
type Pair struct {
	// ID numbers the pairs of an analysis; TryID their tries (the pairs
	// of one handler chain share it); Package is the import path.
	ID      int    `json:"id"`
	TryID   int    `json:"try_id"`
	Package string `json:"package"`
	// NotInjectable says why no error can be injected for the pair (a
	// target not in scope at the call, a call that does not return an
	// error last); empty when one can.
	NotInjectable string `json:"not_injectable,omitempty"`
	// Func is the enclosing function ("Type.Method", "Func", or
	// "Func.func1" for a function literal).
	Func string `json:"func"`
	// Try is the call that produces the error (for Recover, the defer
	// statement; the try is the rest of the function), TryText its source.
	Try     Pos    `json:"try"`
	TryText string `json:"try_text"`
	// Catch is the branch: the condition of an if, a case clause, or an
	// else; CatchText its condition or case ("else" for an else).
	Catch     Pos    `json:"catch"`
	CatchText string `json:"catch_text"`
	// Kind and Target say which errors the branch handles.
	Kind   Kind   `json:"kind"`
	Target string `json:"target,omitempty"`
	// Var is the error variable tested (empty for Recover).
	Var string `json:"var,omitempty"`
	// Wrapped reports that the error was wrapped between the try and the
	// catch (err = fmt.Errorf("...: %w", err)).
	Wrapped bool `json:"wrapped,omitempty"`
	// Action is what the branch does with the error.
	Action Action `json:"action"`
	// Last reports that no branch of the same handler comes after this
	// one: broadening it to every error changes no other branch.
	Last bool `json:"last,omitempty"`
	// InjectedAfter reports that the try still runs when an error is
	// injected, its results replaced after it (a generic function
	// instantiated by inference; a package before Go 1.18): its side
	// effects happen. Otherwise the call is skipped, as the thesis does.
	InjectedAfter bool `json:"injected_after,omitempty"`

	// For instrumenting: the try's call (nil for Recover) or defer
	// statement, where the catch branch starts, the target's expression
	// (Is, Equal) or type (As, Type).
	call      *ast.CallExpr
	deferStmt *ast.DeferStmt
	// recoverCall is a Recover pair's call of recover.
	recoverCall *ast.CallExpr
	// tryStmt is the statement assigning the try's call, tryInInit
	// whether it is the init of an if or switch.
	tryStmt   ast.Stmt
	tryInInit bool
	cond      ast.Expr // the if condition of the catch, when it is one
	// broadenFrom and broadenEnd delimit the source that broadenTo
	// replaces to stretch the catch to every error of its try (see
	// stretch.go); broadenTo is empty when it cannot be stretched so.
	broadenFrom, broadenEnd token.Pos
	broadenTo               string
	catchAt                 token.Pos
	targetExpr              ast.Expr
	targetType              types.Type
}

// Pairs returns the try-catch pairs of a type-checked file, in source
// order of their catches. info needs Types, Defs and Uses.
func Pairs(fset *token.FileSet, file *ast.File, info *types.Info) []Pair {
	f := &finder{fset: fset, info: info, stmtOf: map[*ast.CallExpr]ast.Stmt{}, inits: map[ast.Stmt]bool{}}
	for _, d := range file.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Body == nil {
			continue
		}
		name := fd.Name.Name
		if fd.Recv != nil && len(fd.Recv.List) == 1 {
			name = recvName(fd.Recv.List[0].Type) + "." + name
		}
		f.function(name, fd.Body)
	}
	return f.pairs
}

// recvName is the name of a receiver's type, without pointer or type
// parameters.
func recvName(e ast.Expr) string {
	switch t := e.(type) {
	case *ast.StarExpr:
		return recvName(t.X)
	case *ast.IndexExpr:
		return recvName(t.X)
	case *ast.IndexListExpr:
		return recvName(t.X)
	case *ast.Ident:
		return t.Name
	}
	return "?"
}

type finder struct {
	fset  *token.FileSet
	info  *types.Info
	pairs []Pair
	// stmtOf is the statement that assigns each try's call; inits holds
	// the statements that are the init of an if or switch.
	stmtOf map[*ast.CallExpr]ast.Stmt
	inits  map[ast.Stmt]bool
	// fn is the function being walked; lits counts its literals.
	fn   string
	lits int
}

// function finds the pairs of one function body, its literals included
// (named after it).
func (f *finder) function(name string, body *ast.BlockStmt) {
	outer, outerLits := f.fn, f.lits
	f.fn, f.lits = name, 0
	f.block(body.List)
	f.fn, f.lits = outer, outerLits
}

// block walks a statement list: each statement's handlers, with the
// statements before it to find their tries, then the statements nested
// in it.
func (f *finder) block(list []ast.Stmt) {
	for i, st := range list {
		before := list[:i]
		f.markInits(st)
		switch s := st.(type) {
		case *ast.BlockStmt:
			f.block(s.List)
			continue
		case *ast.IfStmt:
			f.ifChain(s, before)
		case *ast.SwitchStmt:
			f.switchStmt(s, before)
		case *ast.TypeSwitchStmt:
			f.typeSwitch(s, before)
		case *ast.DeferStmt:
			f.deferStmt(s)
		}
		f.nested(st)
	}
}

// markInits records the inits of st: of an if chain's links, of a
// switch.
func (f *finder) markInits(st ast.Stmt) {
	switch s := st.(type) {
	case *ast.IfStmt:
		for ; s != nil; s, _ = s.Else.(*ast.IfStmt) {
			if s.Init != nil {
				f.inits[s.Init] = true
			}
		}
	case *ast.SwitchStmt:
		if s.Init != nil {
			f.inits[s.Init] = true
		}
	case *ast.TypeSwitchStmt:
		if s.Init != nil {
			f.inits[s.Init] = true
		}
	}
}

// nested walks the statement lists and function literals inside st.
func (f *finder) nested(st ast.Stmt) {
	ast.Inspect(st, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			f.lits++
			f.function(fmt.Sprintf("%s.func%d", f.fn, f.lits), n.Body)
			return false
		case *ast.BlockStmt:
			f.block(n.List)
			return false
		case *ast.CaseClause:
			f.block(n.Body)
			return false
		case *ast.CommClause:
			f.block(n.Body)
			return false
		}
		return true
	})
}

// errVar is the error variable e denotes, or nil.
func (f *finder) errVar(e ast.Expr) *types.Var {
	id, ok := ast.Unparen(e).(*ast.Ident)
	if !ok {
		return nil
	}
	v, ok := f.info.Uses[id].(*types.Var)
	if !ok || !isError(v.Type()) {
		return nil
	}
	return v
}

var errorType = types.Universe.Lookup("error").Type().Underlying().(*types.Interface)

// isError reports whether t is an interface implementing error (the
// type of an error variable, not a concrete error type).
func isError(t types.Type) bool {
	return types.IsInterface(t) && types.Implements(t, errorType)
}

func isNil(info *types.Info, e ast.Expr) bool {
	tv, ok := info.Types[e]
	return ok && tv.IsNil()
}

// pkgFunc reports whether call calls pkg.name (a package-level function).
func (f *finder) pkgFunc(call *ast.CallExpr, pkg, name string) bool {
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != name {
		return false
	}
	fn, ok := f.info.Uses[sel.Sel].(*types.Func)
	return ok && fn.Pkg() != nil && fn.Pkg().Path() == pkg
}

// test is what a branch condition tests: its error variable, kind and
// target. A nil v means the condition tests no error; isNilTest marks
// err == nil, whose else is the catch.
type test struct {
	v          *types.Var
	kind       Kind
	target     string
	isNilTest  bool
	targetExpr ast.Expr
	targetType types.Type
}

// classify reads a branch condition.
func (f *finder) classify(cond ast.Expr) test {
	cond = ast.Unparen(cond)
	switch c := cond.(type) {
	case *ast.BinaryExpr:
		if c.Op == token.EQL || c.Op == token.NEQ {
			v, other := f.errVar(c.X), c.Y
			if v == nil {
				v, other = f.errVar(c.Y), c.X
			}
			if v != nil {
				switch {
				case isNil(f.info, other) && c.Op == token.NEQ:
					return test{v: v, kind: CatchAll}
				case isNil(f.info, other):
					return test{v: v, kind: CatchAll, isNilTest: true}
				case c.Op == token.EQL:
					return test{v: v, kind: Equal, target: f.text(other), targetExpr: other}
				}
			}
		}
	case *ast.CallExpr:
		if len(c.Args) == 2 && f.pkgFunc(c, "errors", "Is") {
			if v := f.errVar(c.Args[0]); v != nil {
				return test{v: v, kind: Is, target: f.text(c.Args[1]), targetExpr: c.Args[1]}
			}
		}
		if len(c.Args) == 2 && f.pkgFunc(c, "errors", "As") {
			if v := f.errVar(c.Args[0]); v != nil {
				t := test{v: v, kind: As, target: f.text(c.Args[1])}
				if tv, ok := f.info.Types[c.Args[1]]; ok {
					if p, ok := tv.Type.(*types.Pointer); ok {
						t.target = types.TypeString(p.Elem(), qualifier(v.Pkg()))
						t.targetType = p.Elem()
					}
				}
				return t
			}
		}
	}
	// Any other condition over an error variable.
	var v *types.Var
	ast.Inspect(cond, func(n ast.Node) bool {
		if e, ok := n.(ast.Expr); ok && v == nil {
			v = f.errVar(e)
		}
		return v == nil
	})
	if v != nil {
		return test{v: v, kind: Predicate, target: f.text(cond)}
	}
	return test{}
}

// ifChain finds the pairs of an if/else-if chain: a branch per link that
// tests an error, the else of err == nil.
func (f *finder) ifChain(head *ast.IfStmt, before []ast.Stmt) {
	// A link's catch is pos (its condition, or the else block), and
	// starts inside its body's braces.
	type link struct {
		t    test
		pos  ast.Node
		text string
		body *ast.BlockStmt
		init ast.Stmt
	}
	var links []link
	for s := head; s != nil; {
		t := f.classify(s.Cond)
		if t.v != nil && t.isNilTest {
			// The catch is the else block, when there is one.
			if els, ok := s.Else.(*ast.BlockStmt); ok {
				links = append(links, link{t: test{v: t.v, kind: CatchAll}, pos: els, text: "else", body: els, init: s.Init})
			}
			break
		}
		links = append(links, link{t: t, pos: s.Cond, text: f.text(s.Cond), body: s.Body, init: s.Init})
		next, ok := s.Else.(*ast.IfStmt)
		if !ok {
			break
		}
		s = next
	}
	var inits []ast.Stmt
	for i, l := range links {
		if l.init != nil {
			inits = append(inits, l.init)
		}
		if l.t.v == nil {
			continue
		}
		call, wrapped := f.try(l.t.v, append(append([]ast.Stmt(nil), before...), inits...))
		if call == nil {
			continue
		}
		last := true
		for _, later := range links[i+1:] {
			if later.t.v == l.t.v {
				last = false
			}
		}
		f.add(call, wrapped, l.pos, l.text, l.t, l.body.List, l.body.Lbrace+1, last)
	}
}

// switchStmt finds the pairs of `switch err { case X: }` and of a
// tagless switch whose cases test an error.
func (f *finder) switchStmt(s *ast.SwitchStmt, before []ast.Stmt) {
	if s.Init != nil {
		before = append(append([]ast.Stmt(nil), before...), s.Init)
	}
	clauses := caseClauses(s.Body)
	if s.Tag != nil {
		v := f.errVar(s.Tag)
		if v == nil {
			return
		}
		call, wrapped := f.try(v, before)
		if call == nil {
			return
		}
		f.cases(v, Equal, call, wrapped, clauses)
		return
	}
	for i, cc := range clauses {
		if len(cc.List) == 0 {
			continue
		}
		t := f.classify(cc.List[0])
		if t.v == nil || t.isNilTest {
			continue
		}
		call, wrapped := f.try(t.v, before)
		if call == nil {
			continue
		}
		f.add(call, wrapped, cc, caseText(f, cc), t, cc.Body, cc.Colon+1, i == len(clauses)-1)
		if len(cc.List) == 1 {
			// A case of a tagless switch is a condition.
			f.broaden(cc.List[0].Pos(), cc.List[0].End(), t.v.Name()+" != nil")
		}
	}
}

// broaden sets how the pair added last is stretched (Pair.broadenTo).
func (f *finder) broaden(from, end token.Pos, to string) {
	p := &f.pairs[len(f.pairs)-1]
	p.broadenFrom, p.broadenEnd, p.broadenTo = from, end, to
}

// typeSwitch finds the pairs of `switch err.(type)`: a case per list of
// types, the default when a nil case exists.
func (f *finder) typeSwitch(s *ast.TypeSwitchStmt, before []ast.Stmt) {
	var x ast.Expr
	switch a := s.Assign.(type) {
	case *ast.AssignStmt:
		x = a.Rhs[0]
	case *ast.ExprStmt:
		x = a.X
	}
	ta, ok := ast.Unparen(x).(*ast.TypeAssertExpr)
	if !ok {
		return
	}
	v := f.errVar(ta.X)
	if v == nil {
		return
	}
	if s.Init != nil {
		before = append(append([]ast.Stmt(nil), before...), s.Init)
	}
	call, wrapped := f.try(v, before)
	if call == nil {
		return
	}
	f.cases(v, Type, call, wrapped, caseClauses(s.Body))
}

// cases adds a pair per clause of a switch on the error v (kind Equal for
// switch v, Type for switch v.(type)): a case of nil is no catch, and the
// default is a catch-all only when a case of nil exists (otherwise it
// also runs without an error).
func (f *finder) cases(v *types.Var, kind Kind, call *ast.CallExpr, wrapped bool, clauses []*ast.CaseClause) {
	hasNil, hasDefault := false, false
	for _, cc := range clauses {
		for _, e := range cc.List {
			hasNil = hasNil || isNil(f.info, e)
		}
		hasDefault = hasDefault || cc.List == nil
	}
	for i, cc := range clauses {
		t := test{v: v, kind: kind}
		switch {
		case cc.List == nil && !hasNil:
			continue
		case cc.List == nil:
			t.kind = CatchAll
		case len(cc.List) == 1 && isNil(f.info, cc.List[0]):
			continue
		case kind == Type:
			t.target = f.exprs(cc.List)
			if tv, ok := f.info.Types[cc.List[0]]; ok {
				t.targetType = tv.Type
			}
		default:
			t.target, t.targetExpr = f.exprs(cc.List), cc.List[0]
		}
		f.add(call, wrapped, cc, caseText(f, cc), t, cc.Body, cc.Colon+1, i == len(clauses)-1)
		switch {
		case kind == Type && len(cc.List) == 1 && !f.usesImplicit(cc):
			// case *fs.PathError: -> case error: (every non-nil
			// error), when the clause does not use the typed value.
			f.broaden(cc.List[0].Pos(), cc.List[0].End(), "error")
		case kind == Equal && hasNil && !hasDefault:
			// case ErrX: -> default:, nil having its own case.
			f.broaden(cc.Case, cc.Colon, "default")
		}
	}
}

// usesImplicit reports whether the body of a type switch's clause uses
// the value the switch binds (e in switch e := err.(type)).
func (f *finder) usesImplicit(cc *ast.CaseClause) bool {
	obj := f.info.Implicits[cc]
	if obj == nil {
		return false
	}
	used := false
	ast.Inspect(cc, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && f.info.Uses[id] == obj {
			used = true
		}
		return !used
	})
	return used
}

// qualifier names the packages other than pkg by their names, as the
// source does.
func qualifier(pkg *types.Package) types.Qualifier {
	return func(p *types.Package) string {
		if p == pkg {
			return ""
		}
		return p.Name()
	}
}

func caseClauses(body *ast.BlockStmt) []*ast.CaseClause {
	var out []*ast.CaseClause
	for _, st := range body.List {
		if cc, ok := st.(*ast.CaseClause); ok {
			out = append(out, cc)
		}
	}
	return out
}

func caseText(f *finder, cc *ast.CaseClause) string {
	if cc.List == nil {
		return "default"
	}
	return "case " + f.exprs(cc.List)
}

func (f *finder) exprs(list []ast.Expr) string {
	var parts []string
	for _, e := range list {
		parts = append(parts, f.text(e))
	}
	return strings.Join(parts, ", ")
}

// try finds the call whose error v holds when the statements before have
// run: the last assignment to v among them, followed back through
// wrapping calls. A v assigned something other than a call has no try.
func (f *finder) try(v *types.Var, before []ast.Stmt) (call *ast.CallExpr, wrapped bool) {
	for i := len(before) - 1; i >= 0; i-- {
		rhs, ok := f.assigned(v, before[i])
		if !ok {
			continue
		}
		c, ok := ast.Unparen(rhs).(*ast.CallExpr)
		if !ok {
			return nil, false
		}
		if f.wraps(c, v) {
			wrapped = true
			continue
		}
		f.stmtOf[c] = before[i]
		return c, wrapped
	}
	return nil, false
}

// assigned is the expression st assigns to v (the call of a
// multi-value assignment), if st assigns v.
func (f *finder) assigned(v *types.Var, st ast.Stmt) (ast.Expr, bool) {
	var lhs, rhs []ast.Expr
	switch s := st.(type) {
	case *ast.AssignStmt:
		lhs, rhs = s.Lhs, s.Rhs
	case *ast.DeclStmt:
		gd, ok := s.Decl.(*ast.GenDecl)
		if !ok || gd.Tok != token.VAR {
			return nil, false
		}
		for _, sp := range gd.Specs {
			vs := sp.(*ast.ValueSpec)
			for _, n := range vs.Names {
				lhs = append(lhs, n)
			}
			rhs = append(rhs, vs.Values...)
		}
	default:
		return nil, false
	}
	for i, l := range lhs {
		id, ok := l.(*ast.Ident)
		if !ok {
			continue
		}
		obj := f.info.Defs[id]
		if obj == nil {
			obj = f.info.Uses[id]
		}
		if obj != v {
			continue
		}
		switch {
		case len(rhs) == len(lhs):
			return rhs[i], true
		case len(rhs) == 1:
			return rhs[0], true
		}
		return nil, true
	}
	return nil, false
}

// wraps reports whether call wraps the error v: fmt.Errorf with %w and v
// among its arguments, or errors.Join of v.
func (f *finder) wraps(call *ast.CallExpr, v *types.Var) bool {
	usesV := false
	for _, a := range call.Args {
		usesV = usesV || f.errVar(a) == v
	}
	if !usesV {
		return false
	}
	if f.pkgFunc(call, "errors", "Join") {
		return true
	}
	if !f.pkgFunc(call, "fmt", "Errorf") || len(call.Args) == 0 {
		return false
	}
	tv, ok := f.info.Types[call.Args[0]]
	return ok && tv.Value != nil && tv.Value.Kind() == constant.String && strings.Contains(constant.StringVal(tv.Value), "%w")
}

// action is what a branch body does with the error v: a top-level return
// of v (or of a wrapping of it), a panic with it.
func (f *finder) action(v *types.Var, body []ast.Stmt) Action {
	carries := func(e ast.Expr) bool {
		if f.errVar(e) == v {
			return true
		}
		c, ok := ast.Unparen(e).(*ast.CallExpr)
		return ok && f.wraps(c, v)
	}
	for _, st := range body {
		switch s := st.(type) {
		case *ast.ReturnStmt:
			for _, r := range s.Results {
				if carries(r) {
					return Returns
				}
			}
		case *ast.ExprStmt:
			if c, ok := s.X.(*ast.CallExpr); ok && f.builtin(c, "panic") && len(c.Args) == 1 && carries(c.Args[0]) {
				return Panics
			}
		}
	}
	return Recovers
}

// builtin reports whether call calls the builtin name.
func (f *finder) builtin(call *ast.CallExpr, name string) bool {
	id, ok := ast.Unparen(call.Fun).(*ast.Ident)
	if !ok {
		return false
	}
	b, ok := f.info.Uses[id].(*types.Builtin)
	return ok && b.Name() == name
}

// deferStmt finds a Recover pair: a deferred function literal that calls
// recover in its own body.
func (f *finder) deferStmt(s *ast.DeferStmt) {
	lit, ok := s.Call.Fun.(*ast.FuncLit)
	if !ok {
		return
	}
	var rec *ast.CallExpr
	action := Recovers
	ast.Inspect(lit.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.CallExpr:
			switch {
			case f.builtin(n, "recover"):
				if rec == nil {
					rec = n
				}
			case f.builtin(n, "panic"):
				action = Panics
			}
		case *ast.AssignStmt:
			// A named error result set from the panic.
			for _, l := range n.Lhs {
				if v := f.errVar(l); v != nil && action == Recovers && v.Pos() < lit.Pos() {
					action = Returns
				}
			}
		}
		return true
	})
	if rec == nil {
		return
	}
	f.pairs = append(f.pairs, Pair{Func: f.fn, Try: f.pos(s), TryText: f.text(s), Catch: f.pos(rec), CatchText: f.text(rec),
		Kind: Recover, Action: action, Last: true, deferStmt: s, recoverCall: rec})
}

// add records a pair.
//
// A catch that is an expression is an if condition (Pair.cond); a case
// clause or an else block is not.
func (f *finder) add(call *ast.CallExpr, wrapped bool, catch ast.Node, catchText string, t test, body []ast.Stmt, catchAt token.Pos, last bool) {
	cond, _ := catch.(ast.Expr)
	f.pairs = append(f.pairs, Pair{Func: f.fn, Try: f.pos(call), TryText: f.text(call), Catch: f.pos(catch), CatchText: catchText,
		Kind: t.kind, Target: t.target, Var: t.v.Name(), Wrapped: wrapped, Action: f.action(t.v, body), Last: last,
		call: call, catchAt: catchAt, targetExpr: t.targetExpr, targetType: t.targetType,
		tryStmt: f.stmtOf[call], tryInInit: f.inits[f.stmtOf[call]], cond: cond})
	if cond != nil {
		f.broaden(cond.Pos(), cond.End(), t.v.Name()+" != nil")
	}
}

func (f *finder) pos(n ast.Node) Pos {
	p := f.fset.Position(n.Pos())
	return Pos{File: p.Filename, Line: p.Line, Col: p.Column}
}

// text is n's source, on one line.
func (f *finder) text(n ast.Node) string {
	return strings.Join(strings.Fields(types.ExprString(exprOf(n))), " ")
}

// exprOf is n as an expression where it is one; other nodes render by
// their kind.
func exprOf(n ast.Node) ast.Expr {
	switch n := n.(type) {
	case ast.Expr:
		return n
	case *ast.DeferStmt:
		if _, ok := n.Call.Fun.(*ast.FuncLit); ok {
			return &ast.Ident{Name: "defer func() {…}()"}
		}
		return &ast.Ident{Name: "defer " + types.ExprString(n.Call)}
	}
	return &ast.Ident{Name: fmt.Sprintf("%T", n)}
}
