// Package qualify writes types as a Go file writes them: the packages it
// imports by the names it imports them under. Instrumentation that puts a
// type's name into a file (collect's observed expressions and exits,
// resilience's injected errors) needs that name to compile there.
package qualify

import (
	"go/ast"
	"go/types"
	"strconv"
	"strings"
)

// Imports maps the paths that file imports to the names it uses for them;
// blank and dot imports are left out. An import without a name is named
// as info says (the package's declared name, which is not always the last
// element of its path: gopkg.in/yaml.v3 is yaml); without info, or when
// info does not know it, by the last element of its path.
func Imports(file *ast.File, info *types.Info) map[string]string {
	names := map[string]string{}
	for _, imp := range file.Imports {
		path, err := strconv.Unquote(imp.Path.Value)
		if err != nil {
			continue
		}
		name := path[strings.LastIndex(path, "/")+1:]
		switch {
		case imp.Name != nil:
			name = imp.Name.Name
		case info != nil:
			if pn, ok := info.Implicits[imp].(*types.PkgName); ok {
				name = pn.Name()
			}
		}
		if name != "_" && name != "." {
			names[path] = name
		}
	}
	return names
}

// TypeString returns t as written in a file of the package with path pkg
// that imports imports (see Imports); ok is false when t names a package
// the file does not import.
func TypeString(t types.Type, pkg string, imports map[string]string) (s string, ok bool) {
	ok = true
	s = types.TypeString(t, func(p *types.Package) string {
		if p.Path() == pkg {
			return ""
		}
		name, found := imports[p.Path()]
		if !found {
			ok = false
			return p.Name()
		}
		return name
	})
	return s, ok
}
