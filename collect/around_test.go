package collect

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"strings"
	"testing"
)

// TestIfsAround checks the conditions around a statement or a condition:
// the ifs whose then- or else-branch holds it, innermost first, not the
// if whose condition it is, nothing across a function literal.
func TestIfsAround(t *testing.T) {
	const src = `package p

func f(a, b, c bool) {
	if a {
		if b {
			println() // 1
		} else if c {
			println() // 2
		}
	} else {
		println() // 3
	}
	if a {
		go func() {
			println() // 4
		}()
	}
	println() // 5
}
`
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(src, "\n")
	want := map[string]string{
		"1":   "5:6 4:5",
		"2":   "7:13 5:6 4:5",
		"3":   "4:5",
		"4":   "",
		"5":   "",
		"b":   "4:5", // the condition of the inner if: inside the outer only
		"c":   "5:6 4:5",
		"a@4": "",
	}
	got := map[string]string{}
	around := func(n ast.Node, stack []ast.Node) string {
		var parts []string
		for _, p := range ifsAround(n, stack, fset) {
			parts = append(parts, fmt.Sprintf("%d:%d", p[0], p[1]))
		}
		return strings.Join(parts, " ")
	}
	ast.PreorderStack(f, nil, func(n ast.Node, stack []ast.Node) bool {
		switch n := n.(type) {
		case *ast.ExprStmt:
			text := lines[fset.Position(n.Pos()).Line-1]
			if _, after, ok := strings.Cut(text, "// "); ok {
				got[after] = around(n, stack)
			}
		case *ast.IfStmt:
			// As collect adds a condition: its if on top of the stack.
			key := types.ExprString(n.Cond)
			if key == "a" {
				key = fmt.Sprintf("a@%d", fset.Position(n.Pos()).Line)
			}
			got[key] = around(n.Cond, append(stack, n))
		}
		return true
	})
	for k, w := range want {
		if got[k] != w {
			t.Errorf("%s: ifsAround = %q, want %q", k, got[k], w)
		}
	}
}
