package collect

import (
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"strings"
	"testing"
)

// TestHeldConditions checks what is known to hold before a statement: the
// conjuncts of the ifs whose then-branch encloses it, innermost first,
// less those assigned on the way, and nothing across a function literal
// or from an else branch.
func TestHeldConditions(t *testing.T) {
	const src = `package p

func f(err error, a, b bool, x int) error {
	if err != nil && a {
		if b {
			return err // 1
		}
		err = wrap(err)
		return err // 2
	}
	if x > 0 {
		switch {
		case a:
			x = 0
			println(x) // 3
		}
	} else {
		println(x) // 4
	}
	if err != nil {
		go func() {
			println(err) // 5
		}()
	}
	if p := &x; b {
		println(*p) // 6
	}
	return nil // 7
}
`
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	want := map[int]string{
		1: "b | err != nil | a",
		2: "a", // err is assigned before it
		3: "",  // x is assigned before it
		4: "",
		5: "",
		6: "b",
		7: "",
	}
	got := map[int]string{}
	ast.PreorderStack(f, nil, func(n ast.Node, stack []ast.Node) bool {
		st, ok := n.(ast.Stmt)
		if !ok {
			return true
		}
		line := fset.Position(st.Pos()).Line
		text := strings.Split(src, "\n")[line-1]
		var k int
		if _, after, ok := strings.Cut(text, "// "); ok {
			k = int(after[0] - '0')
		}
		if _, block := st.(*ast.BlockStmt); k == 0 || block || got[k] != "" {
			return true
		}
		got[k] = strings.Join(heldConditions(st, stack), " | ")
		return true
	})
	for k, w := range want {
		if got[k] != w {
			t.Errorf("statement %d: held %q, want %q", k, got[k], w)
		}
	}
}

// TestSkippedChecks checks the checks a guard leaving without an error
// before an input check's error return would skip: those after the if,
// at any depth, not in a function literal; none after a test of an
// error against nil or a return that is not the branch's last statement.
func TestSkippedChecks(t *testing.T) {
	const src = `package p

type bad struct{ s string }

func (b *bad) Error() string { return b.s }

func check(path string, err error) error {
	if path == "" {
		return &bad{"empty"} // 1
	}
	if err != nil {
		return err // 2
	}
	if path[0] == '-' {
		println(path)
		return &bad{"dash"} // 3
	}
	for _, r := range path {
		if r == '/' {
			panic("slash")
		}
	}
	go func() {
		if len(path) > 9 {
			panic("long")
		}
	}()
	if len(path) > 10 {
		return &bad{"long"}
	}
	if path == "x" {
		return nil // 4
	}
	if err != nil || path == "y" {
		return &bad{"y"} // 5
	}
	if len(path) > 20 {
		panic("too long")
	}
	return nil
}
`
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	info := &types.Info{Types: map[ast.Expr]types.TypeAndValue{}, Uses: map[*ast.Ident]types.Object{}, Defs: map[*ast.Ident]types.Object{}}
	if _, err := (&types.Config{}).Check("p", fset, []*ast.File{f}, info); err != nil {
		t.Fatal(err)
	}
	want := map[int]string{
		1: `err != nil | path[0] == '-' | r == '/'`,
		2: "", // an operation's failure, not a check of the input
		3: `r == '/' | len(path) > 10 | err != nil || path == "y"`,
		4: "", // the branch returns no error
		5: "", // an error tested against nil, beside another clause
	}
	got := map[int]string{}
	ast.PreorderStack(f, nil, func(n ast.Node, stack []ast.Node) bool {
		st, ok := n.(*ast.ReturnStmt)
		if !ok {
			return true
		}
		text := strings.Split(src, "\n")[fset.Position(st.Pos()).Line-1]
		if _, after, ok := strings.Cut(text, "// "); ok {
			got[int(after[0]-'0')] = strings.Join(skippedChecks(st, stack, info), " | ")
		}
		return true
	})
	for k, w := range want {
		if got[k] != w {
			t.Errorf("return %d: skipped %q, want %q", k, got[k], w)
		}
	}
}

// TestDeadAfter checks the statements an if without else whose branch
// leaves has after it in its block: each by its first line, at most
// three; none when the branch may fall through, the if has an else, or
// nothing follows.
func TestDeadAfter(t *testing.T) {
	const src = `package p

import "errors"

func conv(s string, ip []byte) ([]byte, error) {
	if ip != nil { // 1
		return ip, nil
	}
	if s == "" { // 2
		println(s)
	}
	for i := range ip {
		if ip[i] == 0 { // 3
			continue
		}
		if ip[i] == 1 { // 4
			break
		} else {
			println(i)
		}
	}
	if len(s) > 3 { // 5
		panic("long")
	}
	if len(s) > 2 {
		return nil, errors.New("two")
	}
	println(s)
	println(s)
	return nil, errors.New("bad")
}

func last(s string) int {
	if s == "" { // 6
		return 0
	}
}
`
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	info := &types.Info{Types: map[ast.Expr]types.TypeAndValue{}, Uses: map[*ast.Ident]types.Object{}, Defs: map[*ast.Ident]types.Object{}}
	// last misses its return: the types are still recorded.
	_, _ = (&types.Config{Error: func(error) {}}).Check("p", fset, []*ast.File{f}, info)
	want := map[int]string{
		1: `if s == "" { // 2 … | for i := range ip { … | if len(s) > 3 { // 5 …`,
		2: "", // the branch falls through
		3: "if ip[i] == 1 { // 4 …",
		4: "", // an else
		5: `if len(s) > 2 { … | println(s) | println(s)`,
		6: "", // nothing after
	}
	tf := fset.File(f.Pos())
	got := map[int]string{}
	ast.PreorderStack(f, nil, func(n ast.Node, stack []ast.Node) bool {
		ifs, ok := n.(*ast.IfStmt)
		if !ok {
			return true
		}
		text := strings.Split(src, "\n")[fset.Position(ifs.Pos()).Line-1]
		if _, after, ok := strings.Cut(text, "// "); ok {
			got[int(after[0]-'0')] = strings.Join(deadAfter(ifs, stack, info, []byte(src), tf), " | ")
		}
		return true
	})
	for k, w := range want {
		if got[k] != w {
			t.Errorf("if %d: dead after %q, want %q", k, got[k], w)
		}
	}
}
