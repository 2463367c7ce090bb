package nopol

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"strings"

	"github.com/nopol-go/nopol/collect"
	"github.com/nopol-go/nopol/synth"
)

// stateSuccess checks the rule state-success: a new guard that leaves
// with zero values and a nil error (collect.StrategyZero in a function
// whose last result is an error: it reports success) under a condition
// that reads what the receiver holds and none of the function's
// parameters or locals, in a method that has parameters. The method
// then succeeds, with nothing, for every argument whenever the receiver
// is in that state: pflag's GetIP(name) took `if len(f.actual) == 0 {
// return nil, nil }`, no IP and no error for any flag name until a flag
// is set (the fix was in ipConv, `sval == "" || sval == "<nil>"`), and
// its seeded durationSliceConv the same guard in GetDurationSlice; over
// every kept run no correct patch had that shape. A test of the
// receiver's own nil-ness is not looked at (a nil receiver has nothing to
// give), nor a function without parameters (color's unset, `if
// c.isNoColorSet() { return }`).
func stateSuccess(fset *token.FileSet, file *ast.File, site collect.Site, st style, c candidate) string {
	if file == nil || site.Kind != collect.Guard || st.name != "return" || st.strategy != collect.StrategyZero {
		return ""
	}
	fn := funcAt(fset, file, site.Line)
	if fn == nil || fn.Recv == nil || len(fn.Recv.List) != 1 || len(fn.Recv.List[0].Names) != 1 || fn.Body == nil {
		return ""
	}
	recv := fn.Recv.List[0].Names[0].Name
	res := fn.Type.Results
	if res == nil || len(res.List) == 0 {
		return ""
	}
	if id, ok := res.List[len(res.List)-1].Type.(*ast.Ident); !ok || id.Name != "error" {
		return ""
	}
	var params []string
	for _, f := range fn.Type.Params.List {
		for _, n := range f.Names {
			if n.Name != "_" {
				params = append(params, n.Name)
			}
		}
	}
	if len(params) == 0 {
		return ""
	}
	local := map[string]bool{}
	for _, p := range params {
		local[p] = true
	}
	ast.Inspect(fn.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			if n.Tok == token.DEFINE {
				for _, l := range n.Lhs {
					if id, ok := l.(*ast.Ident); ok {
						local[id.Name] = true
					}
				}
			}
		case *ast.ValueSpec:
			for _, id := range n.Names {
				local[id.Name] = true
			}
		case *ast.RangeStmt:
			for _, e := range []ast.Expr{n.Key, n.Value} {
				if id, ok := e.(*ast.Ident); ok {
					local[id.Name] = true
				}
			}
		}
		return true
	})
	cand, err := parser.ParseExpr(c.src)
	if err != nil {
		return ""
	}
	roots := rootNames(cand)
	if !roots[recv] || nilTestOf(cand, recv) {
		return ""
	}
	for n := range roots {
		if local[n] {
			return ""
		}
	}
	return fmt.Sprintf("state-success: `%s` makes %s succeed with nothing for every %s whenever %s: the condition reads none of its parameters, only what %s holds", st.exit, site.Func, strings.Join(params, ", "), c.src, recv)
}

// funcAt is the function declaration of file whose body holds line.
func funcAt(fset *token.FileSet, file *ast.File, line int) *ast.FuncDecl {
	for _, d := range file.Decls {
		fn, ok := d.(*ast.FuncDecl)
		if ok && fn.Body != nil && fset.Position(fn.Body.Pos()).Line <= line && line <= fset.Position(fn.Body.End()).Line {
			return fn
		}
	}
	return nil
}

// rootNames are the identifiers e reads other than as a selector's
// name, and other than nil, true, false and the builtins len and cap.
func rootNames(e ast.Expr) map[string]bool {
	out := map[string]bool{}
	ast.Inspect(e, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.SelectorExpr:
			ast.Inspect(n.X, func(m ast.Node) bool {
				if id, ok := m.(*ast.Ident); ok {
					out[id.Name] = true
				}
				return true
			})
			return false
		case *ast.Ident:
			switch n.Name {
			case "nil", "true", "false", "len", "cap":
			default:
				out[n.Name] = true
			}
		}
		return true
	})
	return out
}

// nilTestOf reports whether e compares x itself with nil somewhere.
func nilTestOf(e ast.Expr, x string) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		if b, ok := n.(*ast.BinaryExpr); ok && (b.Op == token.EQL || b.Op == token.NEQ) {
			l, r := ast.Unparen(b.X), ast.Unparen(b.Y)
			if id, ok := r.(*ast.Ident); ok && id.Name == "nil" {
				l, r = r, l
			}
			li, lok := l.(*ast.Ident)
			ri, rok := r.(*ast.Ident)
			found = found || lok && rok && li.Name == "nil" && ri.Name == x
		}
		return !found
	})
	return found
}

// errorSwallowed checks the rule error-swallowed: a new guard that
// leaves with a nil error just before `if x != nil` (x an error: its
// name says err; collect.Site.IfConds), where x is not nil in a recorded
// state in which the guard leaves, and whose condition does not read x:
// it drops the error the if would return, for a reason that is not the
// error (pflag's GetIP took `if val == nil { return nil, nil }` between
// `val, err := f.getFlagType(...)` and `if err != nil { return nil, err
// }`: every error of getFlagType became no IP and no error). A guard
// that tests x itself (errors.Is(err, io.EOF)) chooses which errors to
// drop, and is not looked at.
func errorSwallowed(site collect.Site, st style, spec *synth.Spec, c candidate) string {
	if spec == nil || site.Kind != collect.Guard || st.name != "return" || !leavesWithoutError(st.exit) {
		return ""
	}
	cand, err := parser.ParseExpr(c.src)
	if err != nil {
		return ""
	}
	roots := rootNames(cand)
	for _, cond := range site.IfConds {
		x, ok := errorTested(cond)
		if !ok || roots[x] {
			continue
		}
		t, err := synth.ParseTerm(spec, cond)
		if err != nil {
			continue
		}
		for i := range spec.Examples {
			ex := &spec.Examples[i]
			if !ex.Want {
				continue
			}
			if v, err := t.Eval(spec, ex); err == nil && !v.Missing && v.Kind == synth.Bool && v.Bool {
				return fmt.Sprintf("error-swallowed: %s leaves with `%s` where %s, in a recorded state of %s: the error the next if returns is dropped for a reason that is not the error", c.src, st.exit, cond, ex.Origin)
			}
		}
	}
	return ""
}

// errorTested returns x for cond `x != nil` where x's name says it is an
// error (err, perr, readErr, error).
func errorTested(cond string) (string, bool) {
	e, err := parser.ParseExpr(cond)
	if err != nil {
		return "", false
	}
	b, ok := e.(*ast.BinaryExpr)
	if !ok || b.Op != token.NEQ {
		return "", false
	}
	x, ok := ast.Unparen(b.X).(*ast.Ident)
	y, ok2 := ast.Unparen(b.Y).(*ast.Ident)
	if !ok || !ok2 || y.Name != "nil" {
		return "", false
	}
	name := strings.ToLower(x.Name)
	return x.Name, strings.HasSuffix(name, "err") || strings.HasSuffix(name, "error")
}
