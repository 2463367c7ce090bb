package constituent

import (
	"go/ast"
	"go/token"
	"path"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/dave/dst"
	"github.com/dave/dst/decorator"
)

// Hook function names called by the markers Mark inserts. The instrumented
// package provides them (see package collect): NopolSegment(k) records that
// top-level statement k of the running test starts and resets the iteration
// to 0; NopolIteration() increments the iteration (the first iteration of a
// table loop is 1).
const (
	SegmentHook   = "NopolSegment"
	IterationHook = "NopolIteration"
	// SortedKeysHook(m) returns the keys of map m in increasing order, as
	// a []interface{} (see Mark).
	SortedKeysHook = "NopolSortedKeys"
	// sortedKey is the variable a sorted table loop over a map ranges with.
	sortedKey = "nopolKey"
)

// KeyType returns, for the range expression x of a table loop, the key
// type of the map it ranges over when the keys can be sorted and the type
// can be written in the test file (a predeclared type: string, int, ...),
// and "" otherwise.
type KeyType func(x dst.Expr) string

// Constituent is one top-level statement of a test function: the unit a
// test is split into.
type Constituent struct {
	// Test is the test function's name; Segment the index of the
	// statement in its body, from 0.
	Test    string
	Segment int
	// Loop reports a table loop (a top-level range over a table): its
	// iterations are constituents of their own at run time, numbered from
	// 1 by the NopolIteration marker.
	Loop bool
	// SortedMap reports a table loop over a map that Mark made run in
	// key order: in the plain test its order is random, so a case that
	// fails there may not be the one that fails in the marked test.
	SortedMap bool
	// File, StartLine and EndLine are the statement's position in the
	// original source (zero without a decorator).
	File               string
	StartLine, EndLine int
}

// Mark inserts the purification markers into the test functions of f and
// returns their constituents in source order.
//
// Before every top-level statement k of every test function
// (func TestX(t *testing.T)) it inserts <qualifier>.NopolSegment(k), or
// NopolSegment(k) when qualifier is "". As the first statement of the body of
// a top-level table loop (a range over a composite literal or a variable) it
// inserts <qualifier>.NopolIteration(). Function literals, subtests (t.Run)
// included, are not descended into. A labeled loop, switch or select gets
// its marker before the label (break and continue need the label on the
// statement); another labeled statement, a goto target, gets it after the
// label, so that a jump back runs the marker again.
//
// dec is the decorator f was decorated with; it gives the original
// positions. When dec is not nil, Mark also puts a /*line*/ directive before
// every statement that follows a marker, so that positions in the compiled
// file (failure messages, stack traces) stay those of the original source.
// With a nil dec, the constituents carry no positions and no directive is
// written.
//
// The caller makes the qualifier resolve: for an external test package
// (package foo_test) it is the name under which the file imports the package
// under test.
//
// A table loop over a map runs its iterations in a random order, so that
// iteration k is another table entry in every run, and so is the k-th
// evaluation of a site. When keyType gives the map's key type, Mark
// makes such a loop run in the order of its keys:
//
//	for name, tc := range tests {
//
// becomes
//
//	for _, nopolKey := range NopolSortedKeys(tests) {
//		name, tc := nopolKey.(string), tests[nopolKey.(string)]
//
// (any order is one the test may see). keyType may be nil.
func Mark(dec *decorator.Decorator, f *dst.File, qualifier string, keyType KeyType) []Constituent {
	var cons []Constituent
	testing := TestingName(f)
	for _, d := range f.Decls {
		fn, ok := d.(*dst.FuncDecl)
		if !ok || !IsTestFunc(fn, testing) {
			continue
		}
		var list []dst.Stmt
		for k, s := range fn.Body.List {
			c := Constituent{Test: fn.Name.Name, Segment: k}
			if p, ok := position(dec, s); ok {
				c.File, c.StartLine, c.EndLine = p.file, p.start, p.end
			}
			m := call(qualifier, SegmentHook, strconv.Itoa(k))
			// Comments and spacing before the statement move before the
			// marker.
			m.Decs.Before = s.Decorations().Before
			m.Decs.Start = s.Decorations().Start
			s.Decorations().Before = dst.NewLine
			s.Decorations().Start = nil
			lineDirective(dec, s)
			if loop := TableLoop(s); loop != nil {
				c.Loop = true
				key := ""
				if keyType != nil {
					key = keyType(loop.X)
				}
				body := loop.Body.List
				if len(body) > 0 {
					first := body[0]
					im := call(qualifier, IterationHook, "")
					im.Decs.Before = first.Decorations().Before
					im.Decs.Start = first.Decorations().Start
					first.Decorations().Before = dst.NewLine
					first.Decorations().Start = nil
					lineDirective(dec, first)
					loop.Body.List = append([]dst.Stmt{im}, body...)
				} else {
					loop.Body.List = []dst.Stmt{call(qualifier, IterationHook, "")}
				}
				c.SortedMap = sortMapLoop(loop, qualifier, key)
			}
			if l, ok := s.(*dst.LabeledStmt); ok && !breakTarget(l.Stmt) {
				// A goto target: the label moves to the marker, so that a
				// jump back runs the marker again.
				inner := l.Stmt
				l.Stmt = m
				l.Decs.Before, l.Decs.Start = m.Decs.Before, m.Decs.Start
				m.Decs.Before, m.Decs.Start = dst.None, nil
				inner.Decorations().Before = dst.NewLine
				if p, ok := position(dec, inner); ok {
					inner.Decorations().Start.Append(directive(p))
				}
				list = append(list, l, inner)
			} else {
				list = append(list, m, s)
			}
			cons = append(cons, c)
		}
		fn.Body.List = list
	}
	return cons
}

// IsTestFunc reports whether fn is a top-level test function
// func TestX(t *testing.T) as go test runs it; testing is the name the file
// imports package testing under.
func IsTestFunc(fn *dst.FuncDecl, testing string) bool {
	if fn.Recv != nil || fn.Body == nil || !isTestName(fn.Name.Name) {
		return false
	}
	if fn.Type.TypeParams != nil && len(fn.Type.TypeParams.List) > 0 {
		return false
	}
	ps := fn.Type.Params.List
	if len(ps) != 1 || len(ps[0].Names) > 1 {
		return false
	}
	if fn.Type.Results != nil && len(fn.Type.Results.List) > 0 {
		return false
	}
	star, ok := ps[0].Type.(*dst.StarExpr)
	if !ok {
		return false
	}
	switch x := star.X.(type) {
	case *dst.SelectorExpr:
		id, ok := x.X.(*dst.Ident)
		return ok && id.Name == testing && x.Sel.Name == "T"
	case *dst.Ident:
		// A resolved identifier (decorator with a resolver) or a dot import.
		return x.Name == "T" && (x.Path == "testing" || testing == ".")
	}
	return false
}

// isTestName reports whether name is Test or TestX with X not a lower-case
// letter, as go test requires.
func isTestName(name string) bool {
	if !strings.HasPrefix(name, "Test") {
		return false
	}
	if len(name) == 4 {
		return true
	}
	r, _ := utf8.DecodeRuneInString(name[4:])
	return !unicode.IsLower(r)
}

// TestingName is the name under which f imports package testing ("testing"
// when it does not import it, so that no function matches by accident only
// if it is named testing).
func TestingName(f *dst.File) string {
	for _, im := range f.Imports {
		p, err := strconv.Unquote(im.Path.Value)
		if err != nil || p != "testing" {
			continue
		}
		if im.Name != nil {
			return im.Name.Name
		}
		return path.Base(p)
	}
	return "testing"
}

// TableLoop returns the range loop of a top-level table loop statement s
// (possibly labeled): a range over a composite literal or a variable.
func TableLoop(s dst.Stmt) *dst.RangeStmt {
	for {
		l, ok := s.(*dst.LabeledStmt)
		if !ok {
			break
		}
		s = l.Stmt
	}
	r, ok := s.(*dst.RangeStmt)
	if !ok || r.Body == nil {
		return nil
	}
	x := r.X
	for {
		p, ok := x.(*dst.ParenExpr)
		if !ok {
			break
		}
		x = p.X
	}
	switch x := x.(type) {
	case *dst.CompositeLit:
		return r
	case *dst.Ident:
		if x.Name == "true" || x.Name == "false" || x.Name == "nil" {
			return nil
		}
		return r
	case *dst.SelectorExpr:
		// pkg.Table or s.cases: a variable too.
		return r
	}
	return nil
}

// sortMapLoop rewrites a marked table loop over a map with keys of type
// key so that it runs in key order (see Mark); it does nothing when key is
// "" or the loop declares no variable, and reports whether it rewrote it.
func sortMapLoop(loop *dst.RangeStmt, qualifier, key string) bool {
	named := func(e dst.Expr) bool {
		id, ok := e.(*dst.Ident)
		return ok && id.Name != "_"
	}
	if key == "" || (!named(loop.Key) && !named(loop.Value)) {
		return false
	}
	typed := func() dst.Expr {
		return &dst.TypeAssertExpr{X: dst.NewIdent(sortedKey), Type: dst.NewIdent(key)}
	}
	var lhs, rhs []dst.Expr
	if named(loop.Key) {
		lhs, rhs = append(lhs, dst.Clone(loop.Key).(dst.Expr)), append(rhs, typed())
	}
	if named(loop.Value) {
		lhs = append(lhs, dst.Clone(loop.Value).(dst.Expr))
		rhs = append(rhs, &dst.IndexExpr{X: dst.Clone(loop.X).(dst.Expr), Index: typed()})
	}
	assign := &dst.AssignStmt{Lhs: lhs, Tok: loop.Tok, Rhs: rhs}
	assign.Decs.Before, assign.Decs.After = dst.NewLine, dst.NewLine
	if loop.Tok != token.DEFINE {
		assign.Tok = token.ASSIGN
	}
	var fun dst.Expr = dst.NewIdent(SortedKeysHook)
	if qualifier != "" {
		fun = &dst.SelectorExpr{X: dst.NewIdent(qualifier), Sel: dst.NewIdent(SortedKeysHook)}
	}
	loop.Key, loop.Value, loop.Tok = dst.NewIdent("_"), dst.NewIdent(sortedKey), token.DEFINE
	loop.X = &dst.CallExpr{Fun: fun, Args: []dst.Expr{loop.X}}
	// After the iteration marker, before the first statement (and its
	// line directive).
	loop.Body.List = append(loop.Body.List[:1], append([]dst.Stmt{assign}, loop.Body.List[1:]...)...)
	return true
}

// call builds the statement qualifier.name(arg).
func call(qualifier, name, arg string) *dst.ExprStmt {
	var fun dst.Expr = dst.NewIdent(name)
	if qualifier != "" {
		fun = &dst.SelectorExpr{X: dst.NewIdent(qualifier), Sel: dst.NewIdent(name)}
	}
	c := &dst.CallExpr{Fun: fun}
	if arg != "" {
		c.Args = []dst.Expr{&dst.BasicLit{Kind: token.INT, Value: arg}}
	}
	s := &dst.ExprStmt{X: c}
	s.Decs.Before = dst.NewLine
	s.Decs.After = dst.NewLine
	return s
}

type span struct {
	file       string
	start, end int
	col        int
}

// position returns the original position of the dst node n.
func position(dec *decorator.Decorator, n dst.Node) (span, bool) {
	if dec == nil || dec.Fset == nil {
		return span{}, false
	}
	a, ok := dec.Ast.Nodes[n]
	if !ok || a == nil || !a.Pos().IsValid() {
		return span{}, false
	}
	start := a.Pos()
	if l, ok := a.(*ast.LabeledStmt); ok {
		start = l.Label.Pos()
	}
	p, e := dec.Fset.Position(start), dec.Fset.Position(a.End())
	return span{file: p.Filename, start: p.Line, end: e.Line, col: p.Column}, true
}

// lineDirective puts a /*line file:line:col*/ directive right before s so
// that s keeps its original position after a marker was inserted above it.
func lineDirective(dec *decorator.Decorator, s dst.Stmt) {
	p, ok := position(dec, s)
	if !ok || p.file == "" {
		return
	}
	s.Decorations().Start.Append(directive(p))
}

// directive returns the /*line*/ directive giving the statement at p its
// position. The printer puts a space between the comment and the
// statement: the directive gives the position of that space.
func directive(p span) string {
	col := max(p.col-1, 1)
	return "/*line " + p.file + ":" + strconv.Itoa(p.start) + ":" + strconv.Itoa(col) + "*/"
}

// breakTarget reports whether a label on s can be the target of break or
// continue: then the label must stay on s.
func breakTarget(s dst.Stmt) bool {
	switch s.(type) {
	case *dst.ForStmt, *dst.RangeStmt, *dst.SwitchStmt, *dst.TypeSwitchStmt, *dst.SelectStmt:
		return true
	}
	return false
}
