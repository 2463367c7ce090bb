package collect

import (
	"go/ast"
	"go/parser"
	"go/token"
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
