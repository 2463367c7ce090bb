package astname

import (
	"go/ast"
	"go/parser"
	"go/token"
	"testing"
)

func TestFunc(t *testing.T) {
	src := `package p
func F() {}
func (s S) Value() {}
func (s *S) Ptr() {}
func (s (*S)) Paren() {}
func (s *Set[T]) Add() {}
func (m Map[K, V]) Get() {}
`
	f, err := parser.ParseFile(token.NewFileSet(), "p.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"F", "S.Value", "S.Ptr", "S.Paren", "Set.Add", "Map.Get"}
	for i, d := range f.Decls {
		if got := Func(d.(*ast.FuncDecl)); got != want[i] {
			t.Errorf("decl %d: Func = %q, want %q", i, got, want[i])
		}
	}
}
