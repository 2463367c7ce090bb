package purify

import (
	"github.com/nopol-go/nopol/internal/constituent"
	"go/token"
	"strconv"

	"github.com/dave/dst"
)

// iterationVar counts the iterations of a loop kept to one iteration.
const iterationVar = "nopolIteration"

// tableSize returns the number of iterations of the table loop body[k] when
// it can be split per iteration, 0 otherwise: the table is a slice or array
// literal without index keys, given in the range clause or held by a
// variable declared by an earlier statement (or the file) and not changed
// since, and the loop body cannot leave the loop early.
func tableSize(s dst.Stmt, k int, body []dst.Stmt, infos []stmtInfo, pkgTables map[string]dst.Expr) int {
	r := constituent.TableLoop(s)
	if r == nil || leavesLoop(r.Body) {
		return 0
	}
	x := unparen(r.X)
	if id, ok := x.(*dst.Ident); ok {
		x = nil
		decl := -1
		for j := 0; j < k; j++ {
			if infos[j].declared[id.Name] {
				decl = j
			}
		}
		for j := decl + 1; j <= k; j++ {
			if infos[j].mutates[id.Name] {
				return 0
			}
		}
		if decl < 0 {
			x = pkgTables[id.Name]
		} else {
			x = declaredValue(body[decl], id.Name)
		}
	}
	lit, ok := unparen(x).(*dst.CompositeLit)
	if !ok {
		return 0
	}
	if _, ok := lit.Type.(*dst.ArrayType); !ok {
		return 0
	}
	for _, e := range lit.Elts {
		if _, ok := e.(*dst.KeyValueExpr); ok {
			return 0
		}
	}
	return len(lit.Elts)
}

// declaredValue returns the value s gives name when s is `name := v` or
// `var name = v`, nil otherwise.
func declaredValue(s dst.Stmt, name string) dst.Expr {
	switch s := s.(type) {
	case *dst.AssignStmt:
		if len(s.Lhs) == 1 && len(s.Rhs) == 1 {
			if id, ok := s.Lhs[0].(*dst.Ident); ok && id.Name == name {
				return s.Rhs[0]
			}
		}
	case *dst.DeclStmt:
		g, ok := s.Decl.(*dst.GenDecl)
		if !ok || g.Tok != token.VAR || len(g.Specs) != 1 {
			return nil
		}
		vs := g.Specs[0].(*dst.ValueSpec)
		if len(vs.Names) == 1 && vs.Names[0].Name == name && len(vs.Values) == 1 {
			return vs.Values[0]
		}
	}
	return nil
}

func unparen(e dst.Expr) dst.Expr {
	for {
		p, ok := e.(*dst.ParenExpr)
		if !ok {
			return e
		}
		e = p.X
	}
}

// leavesLoop reports whether the loop body b may end the loop before its
// last iteration: a return, a labeled break, or a break not inside a
// nested loop, switch or select. Function literals are not looked into.
func leavesLoop(b *dst.BlockStmt) bool {
	found := false
	var walk func(n dst.Node, nested bool)
	walk = func(n dst.Node, nested bool) {
		dst.Inspect(n, func(m dst.Node) bool {
			if found {
				return false
			}
			switch m := m.(type) {
			case *dst.FuncLit:
				return false
			case *dst.ReturnStmt:
				found = true
			case *dst.BranchStmt:
				if m.Tok == token.BREAK && (m.Label != nil || !nested) {
					found = true
				}
				if m.Tok == token.GOTO {
					found = true
				}
			case *dst.ForStmt, *dst.RangeStmt, *dst.SwitchStmt, *dst.TypeSwitchStmt, *dst.SelectStmt:
				if m != n {
					walk(m, true)
					return false
				}
			}
			return true
		})
	}
	walk(b, false)
	return found
}

// keepIteration rewrites the table loop s to run the body of iteration iter
// only and returns the statements replacing s.
func keepIteration(s dst.Stmt, iter int) []dst.Stmt {
	r := constituent.TableLoop(s)
	decl := &dst.AssignStmt{
		Lhs: []dst.Expr{dst.NewIdent(iterationVar)},
		Tok: token.DEFINE,
		Rhs: []dst.Expr{&dst.BasicLit{Kind: token.INT, Value: "0"}},
	}
	decl.Decs.Before = s.Decorations().Before
	decl.Decs.Start = s.Decorations().Start
	s.Decorations().Before = dst.NewLine
	s.Decorations().Start = nil
	inc := &dst.IncDecStmt{X: dst.NewIdent(iterationVar), Tok: token.INC}
	skip := &dst.IfStmt{
		Cond: &dst.BinaryExpr{
			X:  dst.NewIdent(iterationVar),
			Op: token.NEQ,
			Y:  &dst.BasicLit{Kind: token.INT, Value: strconv.Itoa(iter)},
		},
		Body: &dst.BlockStmt{List: []dst.Stmt{&dst.BranchStmt{Tok: token.CONTINUE}}},
	}
	inc.Decs.Before = dst.NewLine
	skip.Decs.Before = dst.NewLine
	if len(r.Body.List) > 0 {
		r.Body.List[0].Decorations().Before = dst.NewLine
	}
	r.Body.List = append([]dst.Stmt{inc, skip}, r.Body.List...)
	return []dst.Stmt{decl, s}
}

// useVars inserts `_ = v` after the statement of list declaring v when no
// later statement of list reads v, so that the fragment compiles.
func useVars(list []dst.Stmt) []dst.Stmt {
	var out []dst.Stmt
	for i, s := range list {
		out = append(out, s)
		for _, v := range analyzeStmt(s, "").vars {
			if v == iterationVar || readsVar(list[i+1:], v) {
				continue
			}
			use := &dst.AssignStmt{
				Lhs: []dst.Expr{dst.NewIdent("_")},
				Tok: token.ASSIGN,
				Rhs: []dst.Expr{dst.NewIdent(v)},
			}
			use.Decs.Before = dst.NewLine
			out = append(out, use)
		}
	}
	return out
}

// readsVar reports whether v is surely read in stmts: mentioned other than
// as the direct left-hand side of an assignment or inc/dec, a field name or
// a composite literal key, and not in a block or a statement whose header
// declares v (where it may be another v). When unsure it says no: an extra
// `_ = v` is harmless, a missing one does not compile.
func readsVar(stmts []dst.Stmt, v string) bool {
	found := false
	skip := map[dst.Node]bool{}
	for _, s := range stmts {
		dst.Inspect(s, func(n dst.Node) bool {
			if found {
				return false
			}
			switch n := n.(type) {
			case *dst.BlockStmt, *dst.FuncLit, *dst.CaseClause, *dst.CommClause:
				return false
			case *dst.IfStmt:
				return !declares(n.Init, v)
			case *dst.ForStmt:
				return !declares(n.Init, v)
			case *dst.SwitchStmt:
				return !declares(n.Init, v)
			case *dst.TypeSwitchStmt:
				return !declares(n.Init, v)
			case *dst.RangeStmt:
				// Only the range expression is outside the loop's scope.
				dst.Inspect(n.X, func(m dst.Node) bool {
					if id, ok := m.(*dst.Ident); ok && id.Name == v {
						found = true
					}
					return !found
				})
				return false
			case *dst.AssignStmt:
				for _, e := range n.Lhs {
					skip[e] = true
				}
			case *dst.IncDecStmt:
				skip[n.X] = true
			case *dst.KeyValueExpr:
				skip[n.Key] = true
			case *dst.SelectorExpr:
				skip[n.Sel] = true
			case *dst.Ident:
				if n.Name == v && !skip[n] {
					found = true
				}
			}
			return true
		})
	}
	return found
}

// declares reports whether the statement s (an if, for or switch header)
// declares v.
func declares(s dst.Stmt, v string) bool {
	a, ok := s.(*dst.AssignStmt)
	if !ok || a.Tok != token.DEFINE {
		return false
	}
	for _, e := range a.Lhs {
		if id, ok := e.(*dst.Ident); ok && id.Name == v {
			return true
		}
	}
	return false
}
