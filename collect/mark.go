package collect

import (
	"bytes"
	"go/ast"
	"go/types"
	"strconv"
	"strings"

	"github.com/dave/dst"
	"github.com/dave/dst/decorator"
	"github.com/nopol-go/nopol/internal/constituent"
)

// markTests inserts the constituent markers of internal/constituent into
// the test files of d (in-package and external) and adds them to ov. The
// constituents are kept in prog.constituents.
func markTests(prog *Program, d *pkgData, ov *overlay) error {
	done := map[string]bool{}
	for _, tp := range d.tests {
		for _, f := range tp.Syntax {
			tf := prog.fset.File(f.Pos())
			if tf == nil {
				continue
			}
			name := tf.Name()
			if done[name] || !strings.HasSuffix(name, "_test.go") || ast.IsGenerated(f) {
				continue
			}
			done[name] = true
			qualifier := ""
			if f.Name.Name != d.name {
				var ok bool
				if qualifier, ok = importName(f, d.path, d.name); !ok {
					continue // the external test file does not import the package
				}
			}
			// Markers are a refinement: a file they cannot be put into
			// runs unmarked (constituent -1), its recover() calls
			// rewritten in its text (see recoverWraps).
			src, cons, ok := markFile(prog, f, tp.TypesInfo, qualifier)
			if !ok || len(cons) == 0 {
				ws := recoverWraps(f, tf, tp.TypesInfo, qualifier)
				if len(ws) == 0 {
					continue
				}
				orig, err := prog.fileSource(name)
				if err != nil || len(orig) != tf.Size() {
					continue
				}
				if err := ov.add(name, splice(orig, ws)); err != nil {
					return err
				}
				continue
			}
			if err := ov.add(name, src); err != nil {
				return err
			}
			if prog.constituents == nil {
				prog.constituents = map[string][]constituent.Constituent{}
			}
			prog.constituents[d.path] = append(prog.constituents[d.path], cons...)
		}
	}
	return nil
}

// markFile returns the source of f with markers, and its constituents; ok
// is false if the file could not be marked.
func markFile(prog *Program, f *ast.File, info *types.Info, qualifier string) (src []byte, cons []constituent.Constituent, ok bool) {
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	dec := decorator.NewDecorator(prog.fset)
	df, err := dec.DecorateFile(f)
	if err != nil {
		return nil, nil, false
	}
	cons = constituent.Mark(dec, df, qualifier, func(x dst.Expr) string {
		a, ok := dec.Ast.Nodes[x].(ast.Expr)
		if !ok || info == nil {
			return ""
		}
		return sortableKey(info.TypeOf(a))
	})
	if len(cons) == 0 {
		return nil, nil, true
	}
	hookRecover(dec, df, info, qualifier)
	var buf bytes.Buffer
	if err := decorator.NewRestorer().Fprint(&buf, df); err != nil {
		return nil, nil, false
	}
	return buf.Bytes(), cons, true
}

// hookRecover writes each recover() call of df, a marked test file, as
// qualifier.NopolRecovered(recover()) (see recoverWraps, which does the
// same in a file's text).
func hookRecover(dec *decorator.Decorator, df *dst.File, info *types.Info, qualifier string) {
	dst.Inspect(df, func(n dst.Node) bool {
		call, ok := n.(*dst.CallExpr)
		if !ok {
			return true
		}
		a, ok := dec.Ast.Nodes[call].(*ast.CallExpr)
		if !ok || !isRecover(a, info) {
			return true
		}
		var fun dst.Expr = dst.NewIdent("NopolRecovered")
		if qualifier != "" {
			fun = &dst.SelectorExpr{X: dst.NewIdent(qualifier), Sel: dst.NewIdent("NopolRecovered")}
		}
		call.Args = []dst.Expr{&dst.CallExpr{Fun: call.Fun}}
		call.Fun = fun
		return false
	})
}

// sortableKey returns the key type of map type t when it is a predeclared
// ordered type (string, an integer or a float type), "" otherwise.
func sortableKey(t types.Type) string {
	if t == nil {
		return ""
	}
	m, ok := t.Underlying().(*types.Map)
	if !ok {
		return ""
	}
	if b, ok := m.Key().(*types.Basic); ok && b.Info()&types.IsOrdered != 0 {
		return b.Name()
	}
	return ""
}

// importName returns the name under which f imports path.
func importName(f *ast.File, path, name string) (string, bool) {
	for _, imp := range f.Imports {
		p, _ := strconv.Unquote(imp.Path.Value)
		if p != path {
			continue
		}
		if imp.Name == nil {
			return name, true
		}
		if imp.Name.Name == "_" || imp.Name.Name == "." {
			return "", false
		}
		return imp.Name.Name, true
	}
	return "", false
}

// Constituents returns the test constituents of package path found when
// the program was instrumented (see internal/constituent), in file and source
// order.
func (b *Build) Constituents(path string) []constituent.Constituent {
	return b.Program.constituents[path]
}
