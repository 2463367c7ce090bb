package qualify

import (
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"testing"
)

const src = `package p

import (
	"bytes"
	str "strings"
	_ "embed"
	. "errors"
	"go/ast"
)

var (
	B  *bytes.Buffer
	R  []str.Reader
	N  ast.Node
	M  map[string]*T
	E  = New("x")
)

type T struct{}
`

func TestTypeString(t *testing.T) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	info := &types.Info{Implicits: map[ast.Node]types.Object{}, Defs: map[*ast.Ident]types.Object{}}
	pkg, err := (&types.Config{Importer: importer.Default()}).Check("example.com/p", fset, []*ast.File{f}, info)
	if err != nil {
		t.Fatal(err)
	}
	imports := Imports(f, info)
	want := map[string]string{"bytes": "bytes", "strings": "str", "go/ast": "ast"}
	if len(imports) != len(want) {
		t.Errorf("Imports = %v, want %v (blank and dot imports left out)", imports, want)
	}
	for path, name := range want {
		if imports[path] != name {
			t.Errorf("Imports[%q] = %q, want %q", path, imports[path], name)
		}
	}
	for _, tc := range []struct {
		v    string
		want string
		ok   bool
	}{
		{"B", "*bytes.Buffer", true},
		{"R", "[]str.Reader", true},
		{"N", "ast.Node", true},
		{"M", "map[string]*T", true},
		{"E", "error", true},
	} {
		got, ok := TypeString(pkg.Scope().Lookup(tc.v).Type(), pkg.Path(), imports)
		if got != tc.want || ok != tc.ok {
			t.Errorf("%s: TypeString = %q, %v; want %q, %v", tc.v, got, ok, tc.want, tc.ok)
		}
	}
	// A type of a package the file does not import (errors is dot-imported).
	errs, err := importer.Default().Import("io/fs")
	if err != nil {
		t.Fatal(err)
	}
	if got, ok := TypeString(errs.Scope().Lookup("PathError").Type(), pkg.Path(), imports); ok {
		t.Errorf("TypeString of fs.PathError = %q, ok; want not ok (io/fs is not imported)", got)
	}
}
