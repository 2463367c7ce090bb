package collect

import (
	"go/ast"
	"go/token"
	"go/types"
)

// initGraph holds the references between a package's top-level functions,
// methods and variables, as Go's initialization order sees them. Observing
// a package variable v inside function F adds a reference F → v; if v's
// initializer reaches F, that reference is an initialization cycle, which
// the compiler rejects.
//
// Checking each reference alone is not enough: two references that are
// harmless one by one can close a cycle together (fatih/color v1.19:
// NoColor → stdoutIsTerminal and Output → stdOut; observing Output in
// stdoutIsTerminal and NoColor in stdOut makes NoColor → stdoutIsTerminal
// → Output → stdOut → NoColor). mayObserve therefore allows only
// references that cannot take part in any cycle, whatever else is added:
// from a function no package variable's initializer reaches, or to a
// variable the function reaches already (the reachability of the graph
// does not change).
type initGraph struct {
	refs  map[types.Object][]types.Object
	reach map[types.Object]map[types.Object]bool
	// fromVars is the set of objects some package variable's initializer
	// reaches.
	fromVars map[types.Object]bool
}

// initGraphOf builds the graph of d's non-test package.
func (d *pkgData) initGraph() *initGraph {
	if d.graph != nil {
		return d.graph
	}
	g := &initGraph{refs: map[types.Object][]types.Object{}, reach: map[types.Object]map[types.Object]bool{}}
	d.graph = g
	tpkg, info := d.pkg.Types, d.pkg.TypesInfo
	if tpkg == nil || info == nil {
		return g
	}
	collect := func(root ast.Node) []types.Object {
		var out []types.Object
		ast.Inspect(root, func(n ast.Node) bool {
			id, ok := n.(*ast.Ident)
			if !ok {
				return true
			}
			if obj := topLevel(tpkg, info.Uses[id]); obj != nil {
				out = append(out, obj)
			}
			return true
		})
		return out
	}
	for _, f := range d.pkg.Syntax {
		for _, decl := range f.Decls {
			switch decl := decl.(type) {
			case *ast.FuncDecl:
				if obj := info.Defs[decl.Name]; obj != nil && decl.Body != nil {
					g.refs[obj] = collect(decl.Body)
				}
			case *ast.GenDecl:
				if decl.Tok != token.VAR {
					continue
				}
				for _, spec := range decl.Specs {
					vs := spec.(*ast.ValueSpec)
					var refs []types.Object
					for _, v := range vs.Values {
						refs = append(refs, collect(v)...)
					}
					for _, name := range vs.Names {
						if obj := info.Defs[name]; obj != nil {
							g.refs[obj] = refs
						}
					}
				}
			}
		}
	}
	return g
}

// topLevel returns the package-level function, method or variable obj
// stands for, nil for anything else.
func topLevel(pkg *types.Package, obj types.Object) types.Object {
	switch o := obj.(type) {
	case *types.Func:
		o = o.Origin()
		if o.Pkg() == pkg {
			return o
		}
	case *types.Var:
		o = o.Origin()
		if o.Pkg() == pkg && o.Parent() == pkg.Scope() {
			return o
		}
	}
	return nil
}

// mayObserve reports whether a reference from fn to the package variable v
// can be added without any risk of an initialization cycle, whatever other
// references mayObserve allows. fn nil (a site outside any declared
// function) allows none.
func (g *initGraph) mayObserve(fn, v types.Object) bool {
	if fn == nil || g == nil {
		return false
	}
	if g.fromVars == nil {
		// One traversal from all package variables at once.
		g.fromVars = map[types.Object]bool{}
		var stack []types.Object
		for o := range g.refs {
			if _, ok := o.(*types.Var); ok {
				stack = append(stack, o)
			}
		}
		for len(stack) > 0 {
			o := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			for _, n := range g.refs[o] {
				if !g.fromVars[n] {
					g.fromVars[n] = true
					stack = append(stack, n)
				}
			}
		}
	}
	return !g.fromVars[fn] || g.reaches(fn, v)
}

// mayCall reports whether a call from fn to the function or method f of
// the package can be added without any risk of an initialization cycle:
// as mayObserve, fn must not be reached from a package variable's
// initialization, or reach f already.
func (g *initGraph) mayCall(fn, f types.Object) bool {
	return g.mayObserve(fn, f)
}

// reaches reports whether from's initialization reaches to.
func (g *initGraph) reaches(from, to types.Object) bool {
	return g.reachable(from)[to]
}

// reachable returns the set of objects from's initialization (or body)
// reaches.
func (g *initGraph) reachable(from types.Object) map[types.Object]bool {
	r, ok := g.reach[from]
	if !ok {
		r = map[types.Object]bool{}
		var walk func(o types.Object)
		walk = func(o types.Object) {
			for _, n := range g.refs[o] {
				if !r[n] {
					r[n] = true
					walk(n)
				}
			}
		}
		walk(from)
		g.reach[from] = r
	}
	return r
}
