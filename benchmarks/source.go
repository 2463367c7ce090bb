package benchmarks

import (
	"bytes"
	"go/ast"
	"go/parser"
	"go/printer"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/nopol-go/nopol/internal/astname"
)

// srcFile is one parsed non-test Go file of a module tree.
type srcFile struct {
	Rel  string // path relative to the module root, slash-separated
	Src  []byte
	Fset *token.FileSet
	AST  *ast.File
}

// parseModule parses the non-test, non-generated Go files of the module
// rooted at dir, skipping testdata, vendor, hidden and nested modules.
func parseModule(dir string) ([]*srcFile, error) {
	var files []*srcFile
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if path != dir {
				if name == "testdata" || name == "vendor" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") {
					return filepath.SkipDir
				}
				if _, err := os.Stat(filepath.Join(path, "go.mod")); err == nil {
					return filepath.SkipDir
				}
			}
			return nil
		}
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if bytes.Contains(src, []byte("Code generated")) && bytes.Contains(src, []byte("DO NOT EDIT")) {
			return nil
		}
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, path, src, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			return nil // e.g. a file for a newer Go; not a bug site
		}
		rel, _ := filepath.Rel(dir, path)
		files = append(files, &srcFile{Rel: filepath.ToSlash(rel), Src: src, Fset: fset, AST: f})
		return nil
	})
	sort.Slice(files, func(i, j int) bool { return files[i].Rel < files[j].Rel })
	return files, err
}

// hasTests reports whether the package directory of rel has _test.go files.
func hasTests(root, rel string) bool {
	m, _ := filepath.Glob(filepath.Join(root, filepath.Dir(filepath.FromSlash(rel)), "*_test.go"))
	return len(m) > 0
}

// nodeString prints n with go/printer (one normal form of the source).
func nodeString(fset *token.FileSet, n ast.Node) string {
	var buf bytes.Buffer
	printer.Fprint(&buf, fset, n)
	return buf.String()
}

// ifStmts lists the if statements of body in source order.
func ifStmts(body ast.Node) []*ast.IfStmt { return astname.All[*ast.IfStmt](body) }

// lineOf is the 1-based line of byte offset off in src.
func lineOf(src []byte, off int) int {
	return bytes.Count(src[:off], []byte("\n")) + 1
}

// parses reports whether src is a syntactically valid Go file.
func parses(src []byte) bool {
	_, err := parser.ParseFile(token.NewFileSet(), "x.go", src, parser.SkipObjectResolution)
	return err == nil
}
