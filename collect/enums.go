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
// that uses iota (prXX = 0; prAny = iota; prPrepend; … in uniseg).
// Their order is the order they are declared in, not a magnitude.
// Computed once.
func (d *pkgData) enumConsts() map[*types.Const]bool {
	if d.enums != nil {
		return d.enums
	}
	d.enums = map[*types.Const]bool{}
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
					d.enums[c] = true
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

// enumNames returns the names in cond of constants of an enumeration of
// the package (enumConsts), each once, in the order they appear.
func (d *pkgData) enumNames(cond ast.Expr, info *types.Info) []string {
	enums := d.enumConsts()
	var out []string
	ast.Inspect(cond, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok {
			if c, ok := info.Uses[id].(*types.Const); ok && enums[c] && !slices.Contains(out, id.Name) {
				out = append(out, id.Name)
			}
		}
		return true
	})
	return out
}
