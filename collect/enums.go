package collect

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"
)

// minEnumNames is how many names a const group needs to be an
// enumeration (see enumConsts).
const minEnumNames = 3

// enumConsts returns the constants of the package declared in an
// enumeration: a const group of at least minEnumNames names with a value
// that uses iota (prXX = 0; prAny = iota; prPrepend; … in uniseg), each
// with its enumeration, the group's first name (prXX). Their order is
// the order they are declared in, not a magnitude. Computed once.
func (d *pkgData) enumConsts() map[*types.Const]string {
	if d.enums != nil {
		return d.enums
	}
	d.enums = map[*types.Const]string{}
	if d.pkg == nil {
		return d.enums
	}
	for _, f := range d.pkg.Syntax {
		for _, decl := range f.Decls {
			g, ok := decl.(*ast.GenDecl)
			if !ok || g.Tok != token.CONST || len(g.Specs) == 0 {
				continue
			}
			var names []*ast.Ident
			iota := false
			for _, s := range g.Specs {
				vs := s.(*ast.ValueSpec)
				names = append(names, vs.Names...)
				iota = iota || slices.ContainsFunc(vs.Values, usesIota)
			}
			if !iota || len(names) < minEnumNames {
				continue
			}
			for _, n := range names {
				if c, ok := d.pkg.TypesInfo.Defs[n].(*types.Const); ok {
					d.enums[c] = names[0].Name
				}
			}
		}
	}
	return d.enums
}

// usesIota reports whether e mentions iota.
func usesIota(e ast.Expr) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && id.Name == "iota" {
			found = true
		}
		return !found
	})
	return found
}

// enumNames returns the names in cond of constants of an enumeration:
// of the package (enumConsts), or of another package's defined integer
// type that it names at least minEnumNames constants of (reflect.Kind,
// time.Month: foreignEnum). Each is written as cond writes it
// (prMidLetter, reflect.String), once, in the order they appear.
func (d *pkgData) enumNames(cond ast.Expr, info *types.Info) []string {
	enums := d.enumConsts()
	var out []string
	ast.Inspect(cond, func(n ast.Node) bool {
		e, isExpr := n.(ast.Expr)
		if _, paren := n.(*ast.ParenExpr); !isExpr || paren {
			return true
		}
		c, ok := namedObject(e, info).(*types.Const)
		if !ok || enums[c] == "" && !d.foreignEnum(c) {
			return true
		}
		if name := types.ExprString(e); !slices.Contains(out, name) {
			out = append(out, name)
		}
		return false
	})
	return out
}

// foreignEnum reports whether c is a constant of another package whose
// type is a defined integer type that package declares at least
// minEnumNames constants of: reflect.String of reflect.Kind.
func (d *pkgData) foreignEnum(c *types.Const) bool {
	named, ok := c.Type().(*types.Named)
	if !ok || c.Pkg() == nil || d.pkg != nil && c.Pkg() == d.pkg.Types {
		return false
	}
	if b, ok := named.Underlying().(*types.Basic); !ok || b.Info()&types.IsInteger == 0 {
		return false
	}
	if n, ok := d.foreignEnums[named]; ok {
		return n >= minEnumNames
	}
	n := 0
	scope := c.Pkg().Scope()
	for _, name := range scope.Names() {
		if o, ok := scope.Lookup(name).(*types.Const); ok && types.Identical(o.Type(), named) {
			n++
		}
	}
	if d.foreignEnums == nil {
		d.foreignEnums = map[*types.Named]int{}
	}
	d.foreignEnums[named] = n
	return n >= minEnumNames
}

// groupOf returns the enumeration of the package that e, a name or a
// selector, names a constant of (its group's first name: prXX for
// prMid), "" for another expression.
func (d *pkgData) groupOf(e ast.Expr, info *types.Info) string {
	c, ok := namedObject(e, info).(*types.Const)
	if !ok {
		return ""
	}
	return d.enumConsts()[c]
}

// comparedGroups returns, for each expression fn compares with a name of
// an enumeration of the package (x == prMid, x < prAny, switch x { case
// prMid: }), the enumerations it compares it with (groupOf), each once.
// Computed once per function.
func (d *pkgData) comparedGroups(fn ast.Node, info *types.Info) map[string][]string {
	out := map[string][]string{}
	add := func(x ast.Expr, g string) {
		if g == "" {
			return
		}
		k := types.ExprString(ast.Unparen(x))
		if !slices.Contains(out[k], g) {
			out[k] = append(out[k], g)
		}
	}
	if fn == nil {
		return out
	}
	if got, ok := d.fnGroups[fn]; ok {
		return got
	}
	if d.fnGroups == nil {
		d.fnGroups = map[ast.Node]map[string][]string{}
	}
	d.fnGroups[fn] = out
	ast.Inspect(fn, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.BinaryExpr:
			switch n.Op {
			case token.EQL, token.NEQ, token.LSS, token.LEQ, token.GTR, token.GEQ:
				add(n.X, d.groupOf(n.Y, info))
				add(n.Y, d.groupOf(n.X, info))
			}
		case *ast.SwitchStmt:
			if n.Tag == nil {
				return true
			}
			for _, st := range n.Body.List {
				if cc, ok := st.(*ast.CaseClause); ok {
					for _, e := range cc.List {
						add(n.Tag, d.groupOf(e, info))
					}
				}
			}
		}
		return true
	})
	return out
}
