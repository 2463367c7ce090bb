package collect

import (
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"testing"
)

// TestIsChar checks that byte and rune are characters as written: an
// int32 or a uint8 (identical types to go/types) is not one.
func TestIsChar(t *testing.T) {
	src := `package p

type N struct {
	child int32
	r     rune
	b     byte
	u     uint8
}

type Letter rune

var s string
var x = s[0]
var bs []byte
var y = bs[0]
var l Letter

func f() {
	for _, c := range s {
		_ = c
	}
}
`
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	info := &types.Info{Defs: map[*ast.Ident]types.Object{}}
	if _, err := new(types.Config).Check("p", fset, []*ast.File{f}, info); err != nil {
		t.Fatal(err)
	}
	got := map[string]bool{}
	for id, o := range info.Defs {
		if v, ok := o.(*types.Var); ok {
			got[id.Name] = isChar(v.Type())
		}
	}
	for name, want := range map[string]bool{"child": false, "r": true, "b": true, "u": false, "x": true, "y": true, "c": true, "l": false, "s": false} {
		if g, ok := got[name]; !ok || g != want {
			t.Errorf("isChar(type of %s) = %v (found %v), want %v", name, g, ok, want)
		}
	}
}
