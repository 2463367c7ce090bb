package collect

import (
	"bytes"
	"go/ast"
	"strconv"
	"strings"

	"github.com/dave/dst/decorator"
	"github.com/nopol-go/nopol/internal/purify"
)

func init() { markTests = markWithPurify }

// markWithPurify inserts the constituent markers of internal/purify into
// the test files of d (in-package and external) and adds them to ov. The
// constituents are kept in prog.constituents.
func markWithPurify(prog *Program, d *pkgData, ov *overlay) error {
	done := map[string]bool{}
	for _, tp := range d.tests {
		for _, f := range tp.Syntax {
			tf := prog.fset.File(f.Pos())
			if tf == nil {
				continue
			}
			name := tf.Name()
			if done[name] || !strings.HasSuffix(name, "_test.go") || ast.IsGenerated(f) {
				continue
			}
			done[name] = true
			qualifier := ""
			if f.Name.Name != d.name {
				var ok bool
				if qualifier, ok = importName(f, d.path, d.name); !ok {
					continue // the external test file does not import the package
				}
			}
			dec := decorator.NewDecorator(prog.fset)
			df, err := dec.DecorateFile(f)
			if err != nil {
				return err
			}
			cons := purify.Mark(dec, df, qualifier)
			if len(cons) == 0 {
				continue
			}
			var buf bytes.Buffer
			if err := decorator.NewRestorer().Fprint(&buf, df); err != nil {
				return err
			}
			if err := ov.add(name, buf.Bytes()); err != nil {
				return err
			}
			if prog.constituents == nil {
				prog.constituents = map[string][]purify.Constituent{}
			}
			prog.constituents[d.path] = append(prog.constituents[d.path], cons...)
		}
	}
	return nil
}

// importName returns the name under which f imports path.
func importName(f *ast.File, path, name string) (string, bool) {
	for _, imp := range f.Imports {
		p, _ := strconv.Unquote(imp.Path.Value)
		if p != path {
			continue
		}
		if imp.Name == nil {
			return name, true
		}
		if imp.Name.Name == "_" || imp.Name.Name == "." {
			return "", false
		}
		return imp.Name.Name, true
	}
	return "", false
}

// Constituents returns the test constituents of package path found when
// the program was instrumented (see internal/purify), in file and source
// order.
func (b *Build) Constituents(path string) []purify.Constituent {
	return b.Program.constituents[path]
}
