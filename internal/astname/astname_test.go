package astname

import (
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"strings"
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

func TestBoolAtoms(t *testing.T) {
	for _, tc := range []struct{ expr, want string }{
		{"a && !(b || c)", "a | b | c"},
		{"(x > 0) || f(y && z)", "x > 0 | f(y && z)"},
		{"!ok", "ok"},
		{"n == 3", "n == 3"},
	} {
		e, err := parser.ParseExpr(tc.expr)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		BoolAtoms(e, func(x ast.Expr) { got = append(got, types.ExprString(x)) })
		if strings.Join(got, " | ") != tc.want {
			t.Errorf("BoolAtoms(%s) = %q, want %s", tc.expr, got, tc.want)
		}
	}
}

func TestHasCall(t *testing.T) {
	for _, tt := range []struct {
		src  string
		want bool
	}{
		{"a && b.c", false},
		{"!f(x) || v.IsNil()", true},
		{"len(s) > 0", true},
		{"x[i] == 'a'", false},
	} {
		e, err := parser.ParseExpr(tt.src)
		if err != nil {
			t.Fatal(err)
		}
		if got := HasCall(e); got != tt.want {
			t.Errorf("HasCall(%s) = %v, want %v", tt.src, got, tt.want)
		}
	}
}
