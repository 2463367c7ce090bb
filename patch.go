package nopol

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"strings"

	"github.com/nopol-go/nopol/collect"
)

// exitBody is the body of the guard exit style at site for the guard
// cond: the exit as found, with a reused return's operand replaced as
// cond replaces it in the return's own guard (analogous); "" when the
// site has no such exit.
func exitBody(site collect.Site, style collect.GuardStyle, cond string) string {
	e, ok := exitOf(site, style)
	if !ok {
		return ""
	}
	return analogous(e.Body, e.Guard, cond)
}

// exitOf is the exit of guard style g at site (GuardReturn's first exit
// for a style without one); ok is false when the site has no such exit.
func exitOf(site collect.Site, g collect.GuardStyle) (e collect.Exit, ok bool) {
	k, _ := g.Exit()
	if k >= len(site.Exits) {
		return collect.Exit{}, false
	}
	return site.Exits[k], true
}

// patchSource returns src with site repaired by cond: the condition
// replaced (Cond; in the original's layout where it spans lines,
// inLayout), or the statement guarded (Guard, in style). The rest of
// the file is kept byte for byte; when src was gofmt-clean, so is the
// result.
func patchSource(src []byte, site collect.Site, style collect.GuardStyle, cond string) ([]byte, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, site.File, src, parser.SkipObjectResolution)
	if err != nil {
		return nil, fmt.Errorf("parsing %s: %v", site.File, err)
	}
	tf := fset.File(f.Pos())
	if site.Line < 1 || site.Line > tf.LineCount() {
		return nil, fmt.Errorf("patching %s: line %d out of range", site.File, site.Line)
	}
	at := tf.LineStart(site.Line) + token.Pos(site.Col-1)
	off := func(p token.Pos) int { return tf.Offset(p) }

	var out []byte
	switch site.Kind {
	case collect.Cond:
		ifs := findIf(f, at)
		if ifs == nil {
			return nil, fmt.Errorf("patching %s:%d:%d: no if condition there", site.File, site.Line, site.Col)
		}
		start, end := off(ifs.Cond.Pos()), off(ifs.Cond.End())
		out = splice(src, start, end, inLayout(string(src[start:end]), cond))
	case collect.Guard:
		stmt, fn := findStmt(f, at)
		if stmt == nil {
			return nil, fmt.Errorf("patching %s:%d:%d: no statement there", site.File, site.Line, site.Col)
		}
		start, end := off(stmt.Pos()), off(stmt.End())
		indent := lineIndent(src, start)
		if style == collect.GuardWrap {
			body := string(src[start:end])
			if !strings.Contains(body, "`") {
				body = strings.ReplaceAll(body, "\n", "\n\t")
			}
			out = splice(src, start, end, "if "+cond+" {\n"+indent+"\t"+body+"\n"+indent+"}")
		} else {
			// The schema that validated the candidate used this exit;
			// the zero values from the syntax are the fallback.
			ret := exitBody(site, style, cond)
			if ret == "" {
				ret = "return"
				if zeros := zeroValues(f, fn, src, tf); zeros != "" {
					ret += " " + zeros
				}
			}
			guard := "if " + cond + " {\n" + indent + "\t" + ret + "\n" + indent + "}\n" + indent
			out = splice(src, start, start, guard)
		}
	default:
		return nil, fmt.Errorf("patching %s: unknown site kind %d", site.File, site.Kind)
	}
	if _, err := parser.ParseFile(token.NewFileSet(), site.File, out, parser.SkipObjectResolution); err != nil {
		return nil, fmt.Errorf("patching %s: the patched file does not parse: %v", site.File, err)
	}
	if formatted, err := format.Source(src); err == nil && bytes.Equal(formatted, src) {
		if f2, err := format.Source(out); err == nil {
			out = f2
		}
	}
	return out, nil
}

func splice(src []byte, start, end int, s string) []byte {
	out := make([]byte, 0, len(src)+len(s))
	out = append(out, src[:start]...)
	out = append(out, s...)
	return append(out, src[end:]...)
}

// lineIndent is the leading white space of the line holding offset.
func lineIndent(src []byte, offset int) string {
	ls := bytes.LastIndexByte(src[:offset], '\n') + 1
	i := ls
	for i < offset && (src[i] == '\t' || src[i] == ' ') {
		i++
	}
	return string(src[ls:i])
}

// findIf finds the if statement whose condition (or if keyword) is at pos.
func findIf(f *ast.File, pos token.Pos) *ast.IfStmt {
	var found *ast.IfStmt
	ast.Inspect(f, func(n ast.Node) bool {
		if found != nil {
			return false
		}
		if s, ok := n.(*ast.IfStmt); ok && (s.Cond.Pos() == pos || s.If == pos) {
			found = s
		}
		return true
	})
	return found
}

// findStmt finds the statement of a block or case body that starts at pos,
// and its enclosing function's type.
func findStmt(f *ast.File, pos token.Pos) (ast.Stmt, *ast.FuncType) {
	var (
		found ast.Stmt
		fn    *ast.FuncType
		funcs []*ast.FuncType
	)
	var visit func(n ast.Node) bool
	check := func(list []ast.Stmt) {
		for _, s := range list {
			if found == nil && s.Pos() == pos {
				found, fn = s, funcs[len(funcs)-1]
			}
		}
	}
	visit = func(n ast.Node) bool {
		if found != nil || n == nil {
			return false
		}
		switch n := n.(type) {
		case *ast.FuncDecl:
			if n.Body == nil {
				return false
			}
			funcs = append(funcs, n.Type)
			ast.Inspect(n.Body, visit)
			funcs = funcs[:len(funcs)-1]
			return false
		case *ast.FuncLit:
			funcs = append(funcs, n.Type)
			ast.Inspect(n.Body, visit)
			funcs = funcs[:len(funcs)-1]
			return false
		case *ast.BlockStmt:
			if len(funcs) > 0 {
				check(n.List)
			}
		case *ast.CaseClause:
			check(n.Body)
		case *ast.CommClause:
			check(n.Body)
		}
		return true
	}
	ast.Inspect(f, visit)
	return found, fn
}

// zeroValues renders the zero values of fn's results, comma-separated.
func zeroValues(f *ast.File, fn *ast.FuncType, src []byte, tf *token.File) string {
	if fn == nil || fn.Results == nil {
		return ""
	}
	var zs []string
	for _, field := range fn.Results.List {
		z := zeroValue(f, field.Type, src, tf)
		n := max(1, len(field.Names))
		for range n {
			zs = append(zs, z)
		}
	}
	return strings.Join(zs, ", ")
}

func zeroValue(f *ast.File, t ast.Expr, src []byte, tf *token.File) string {
	text := string(src[tf.Offset(t.Pos()):tf.Offset(t.End())])
	switch t := t.(type) {
	case *ast.StarExpr, *ast.MapType, *ast.ChanType, *ast.FuncType, *ast.InterfaceType:
		return "nil"
	case *ast.ArrayType:
		if t.Len == nil {
			return "nil"
		}
		return text + "{}"
	case *ast.StructType:
		return text + "{}"
	case *ast.ParenExpr:
		return zeroValue(f, t.X, src, tf)
	case *ast.Ident:
		switch t.Name {
		case "bool":
			return "false"
		case "string":
			return `""`
		case "error", "any":
			return "nil"
		case "int", "int8", "int16", "int32", "int64", "uint", "uint8", "uint16", "uint32",
			"uint64", "uintptr", "byte", "rune", "float32", "float64", "complex64", "complex128":
			return "0"
		}
		if spec := localType(f, t.Name); spec != nil && spec.TypeParams == nil {
			if spec.Assign.IsValid() {
				return zeroValue(f, spec.Type, src, tf)
			}
			switch u := spec.Type.(type) {
			case *ast.StructType, *ast.ArrayType:
				if a, ok := u.(*ast.ArrayType); ok && a.Len == nil {
					return "nil"
				}
				return t.Name + "{}"
			case *ast.Ident:
				if z := zeroValue(f, u, src, tf); z != "*new("+u.Name+")" {
					return z
				}
			default:
				return zeroValue(f, u, src, tf)
			}
		}
	}
	return "*new(" + text + ")"
}

// localType finds the declaration of type name in f.
func localType(f *ast.File, name string) *ast.TypeSpec {
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.TYPE {
			continue
		}
		for _, s := range g.Specs {
			if ts := s.(*ast.TypeSpec); ts.Name.Name == name {
				return ts
			}
		}
	}
	return nil
}
