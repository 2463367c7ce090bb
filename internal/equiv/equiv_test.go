//go:build cgo && !noz3

package equiv

import (
	"context"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"strings"
	"testing"
)

// src is the package the conditions are written in; they are checked at
// the position of the statement marked "here".
const src = `package p

type local struct{ Second int }

type fval struct{ Second float64 }

type node struct{ x int }

func isDigit(b byte) bool { return '0' <= b && b <= '9' }

func f(t local, g fval, i, j int, line []byte, s string, p *node, ok bool, u uint, counts map[string]int, key string, fn func() bool) {
	_ = 0 // here
}
`

// checked type-checks src and returns the position of its marker.
func checked(t *testing.T) (*token.FileSet, *types.Package, token.Pos) {
	t.Helper()
	fset := token.NewFileSet()
	file, err := parser.ParseFile(fset, "p.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	pkg, err := (&types.Config{}).Check("p", fset, []*ast.File{file}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return fset, pkg, file.FileStart + token.Pos(strings.Index(src, "_ = 0"))
}

func TestEquivalent(t *testing.T) {
	fset, pkg, pos := checked(t)
	for _, tc := range []struct {
		a, b string
		want bool
	}{
		{"t.Second >= 60", "t.Second > 59", true},
		{"g.Second >= 60", "g.Second > 59", false}, // reals
		{"!(i < 1)", "i >= 1", true},
		{"!(g.Second < 1)", "g.Second >= 1", false}, // NaN
		{"g.Second != 1", "!(g.Second == 1)", true},
		{"j == i-2 && line[j] == '&'", "j == i-2 || line[j] != '&'", false},
		{"j == i-2 || line[j] != '&'", "!(j != i-2 && line[j] == '&')", true},
		{"i+1 < len(line)", "len(line) > i+1", true},
		{"i+1 < len(line)", "len(line)-1 > i", true},
		{"2*i > 4", "i > 2", true},
		{`s != "" && s != "a"`, `!(s == "" || s == "a")`, true},
		{`s == "a" && s == "b"`, "false", true},
		{`s == "a" && s == key`, `key == "a" && s == key`, true},
		{"p == nil || p.x > 0", "!(p != nil && p.x <= 0)", true},
		{"p == nil", "p != nil", false},
		{"fn() && ok", "ok && fn()", true},
		{"ok == true", "ok", true},
		{"ok != (i > 0)", "ok == (i <= 0)", true},
		{"u >= 0", "true", true},
		{"u > 0", "u != 0", true},
		{"i > 0", "i != 0", false},
		{"len(line) != 0", "len(line) > 0", true},
		{"cap(line) >= 0 && ok", "ok", true},
		{"counts[key] < 1", "counts[key] == 0", false},
		{"isDigit(line[i]) && i > 0", "i >= 1 && isDigit(line[i])", true},
		{"isDigit(line[i])", "isDigit(line[j])", false},
		{"i > -0", "i != -1", false},
		{"i/2 > 0", "i/2 >= 1", true},
		{"i/2 > 0", "i > 1", false}, // division is not interpreted
	} {
		got, err := Equivalent(context.Background(), fset, pkg, pos, tc.a, tc.b)
		if err != nil {
			t.Errorf("Equivalent(%q, %q): %v", tc.a, tc.b, err)
			continue
		}
		if got != tc.want {
			t.Errorf("Equivalent(%q, %q) = %v, want %v", tc.a, tc.b, got, tc.want)
		}
	}
}

func TestEquivalentErrors(t *testing.T) {
	fset, pkg, pos := checked(t)
	for _, tc := range []struct{ a, b string }{
		{"i >", "i > 0"},           // does not parse
		{"undefined > 0", "i > 0"}, // not in scope
	} {
		if got, err := Equivalent(context.Background(), fset, pkg, pos, tc.a, tc.b); err == nil {
			t.Errorf("Equivalent(%q, %q) = %v, want an error", tc.a, tc.b, got)
		}
	}
}
