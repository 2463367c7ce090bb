package collect

import (
	"context"
	"errors"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"

	"golang.org/x/tools/go/packages"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/nopol-go/nopol/internal/gotest"
)

// pkgData is what collect keeps about one loaded package.
type pkgData struct {
	path, name, dir string
	// pkg is the package without tests; tests are the test variants
	// ("p [p.test]" and "p_test [p.test]").
	pkg   *packages.Package
	tests []*packages.Package
	// deps are the import paths this package's test binary links,
	// test imports included.
	deps map[string]bool
	// graph is the initialization graph, built on first use.
	graph *initGraph
	// facts are what the sites of each file look up in the whole file
	// (fileatoms.go), found on first use.
	facts map[*ast.File]*fileFacts
	msets typeutil.MethodSetCache
	// panics are found on first use (panicTests, panicsWithErrorsNew).
	panics *pkgPanics
	// compared are the error variables the package's code compares with
	// == or != (comparedErrors), found on first use.
	compared *[]string
	// enums are the constants declared in an enumeration, each with its
	// enumeration (enumConsts), found on first use.
	enums map[*types.Const]string
	// fnGroups are comparedGroups' results by function.
	fnGroups map[ast.Node]map[string][]string
	// foreignEnums counts, for another package's defined integer type,
	// the constants of that type its package declares (foreignEnum).
	foreignEnums map[*types.Named]int
	// names are the sorted names of each scope the sites looked in
	// (scopeNames).
	names map[*types.Scope][]string
	// orphanObjs are the package's orphans (orphans.go), found on first
	// use.
	orphanObjs orphanSet
	// rewrites are the one-exit ifs written with those (rewrite), by
	// if, found on first use.
	rewrites map[*ast.IfStmt]*orphanRewrite
}

// loadMode is what Load asks go/packages for. Without NeedDeps, only the
// module's packages are parsed and type-checked from source; dependencies
// come from export data, which is many times faster.
const loadMode = packages.NeedName | packages.NeedFiles | packages.NeedCompiledGoFiles |
	packages.NeedImports | packages.NeedTypes | packages.NeedSyntax |
	packages.NeedTypesInfo | packages.NeedModule | packages.NeedForTest

// Load loads the packages matching patterns in the module at dir, with tests,
// and finds their sites; tags are build tags, used by every later build
// and run too. Compile errors give a *LoadError.
func Load(ctx context.Context, dir string, patterns []string, tags ...string) (*Program, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("loading %s: %w", dir, err)
	}
	root, err := moduleRoot(abs)
	if err != nil {
		return nil, err
	}
	if len(patterns) == 0 {
		patterns = []string{"./..."}
	}
	rel, _ := filepath.Rel(root, abs)
	var pats []string
	for _, p := range patterns {
		if rel != "." && (p == "." || strings.HasPrefix(p, "./") || strings.HasPrefix(p, "../")) {
			p = "./" + filepath.ToSlash(filepath.Join(rel, p))
		}
		pats = append(pats, p)
	}
	what := strings.Join(patterns, " ")
	fset := token.NewFileSet()
	cfg := &packages.Config{
		Context: ctx,
		Mode:    loadMode,
		Dir:     root,
		Tests:   true,
		Fset:    fset,
	}
	if len(tags) > 0 {
		cfg.BuildFlags = []string{"-tags=" + strings.Join(tags, ",")}
	}
	pkgs, err := packages.Load(cfg, pats...)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, &LoadError{Msg: fmt.Sprintf("loading %s: %v\ncheck the package patterns, the module's go.mod, and the go.work file if the module is in a workspace", what, err)}
	}
	switch msgs, kind := packageErrors(pkgs, root); kind {
	case "compile":
		return nil, &LoadError{Msg: fmt.Sprintf("loading %s: the module does not compile; fix these errors first:\n%s", what, strings.Join(msgs, "\n"))}
	case "pattern":
		return nil, &LoadError{Msg: fmt.Sprintf("loading %s: %s\ncheck the package patterns, and the go.work file if the module is in a workspace", what, strings.Join(msgs, "\n"))}
	case "env":
		return nil, &LoadError{Env: true, Msg: fmt.Sprintf("loading %s: the go command cannot work here: %s", what, strings.Join(msgs, "\n"))}
	}

	prog := &Program{Dir: root, Tests: map[string][]string{}, testLocs: map[string]map[string]token.Position{}, fset: fset, pkgs: map[string]*pkgData{},
		tags: tags, runner: gotest.Default.WithTags(tags)}
	for _, p := range pkgs {
		if prog.Module == "" && p.Module != nil {
			prog.Module = p.Module.Path
		}
		if strings.HasSuffix(p.ID, ".test") && !strings.Contains(p.ID, " ") {
			continue // the generated test main package
		}
		d := prog.pkgs[p.PkgPath]
		if strings.HasSuffix(p.PkgPath, "_test") && p.ForTest != "" {
			d = prog.pkgs[p.ForTest]
			if d == nil {
				d = &pkgData{path: p.ForTest}
				prog.pkgs[p.ForTest] = d
			}
		} else if d == nil {
			d = &pkgData{path: p.PkgPath}
			prog.pkgs[p.PkgPath] = d
		}
		if p.ForTest == "" {
			d.pkg = p
			d.name = p.Name
		} else {
			d.tests = append(d.tests, p)
		}
		if len(p.GoFiles) > 0 && d.dir == "" {
			d.dir = filepath.Dir(p.GoFiles[0])
		}
	}
	byID := map[string]*packages.Package{}
	for _, p := range pkgs {
		byID[p.ID] = p
	}
	var paths []string
	for path, d := range prog.pkgs {
		if d.pkg == nil && len(d.tests) == 0 {
			continue
		}
		paths = append(paths, path)
		sort.Slice(d.tests, func(i, j int) bool { return d.tests[i].ID < d.tests[j].ID })
		d.deps = map[string]bool{}
		for _, t := range append([]*packages.Package{d.pkg}, d.tests...) {
			if t != nil {
				collectDeps(t, byID, d.deps)
			}
		}
	}
	sort.Strings(paths)
	if len(paths) == 0 {
		return nil, &LoadError{Msg: fmt.Sprintf("loading %s: no Go packages match; check the patterns", what)}
	}
	for _, path := range paths {
		if tests := prog.pkgs[path].panicTests(); len(tests) > 0 {
			if prog.PanicTests == nil {
				prog.PanicTests = map[string]map[string]bool{}
			}
			prog.PanicTests[path] = tests
		}
	}
	for _, path := range paths {
		d := prog.pkgs[path]
		locs := map[string]token.Position{}
		tests := testNames(fset, d.tests, locs)
		prog.testLocs[path] = locs
		if len(tests) > 0 {
			prog.Packages = append(prog.Packages, path)
			prog.Tests[path] = tests
		}
		if d.pkg != nil {
			prog.findSites(ctx, d)
		}
	}
	for i := range prog.Sites {
		prog.Sites[i].ID = i
	}
	return prog, nil
}

// moduleRoot finds the directory of the go.mod governing dir.
func moduleRoot(dir string) (string, error) {
	for d := dir; ; {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			return d, nil
		}
		parent := filepath.Dir(d)
		if parent == d {
			return "", &LoadError{Msg: fmt.Sprintf("loading %s: no go.mod found in it or any parent; run nopol inside a Go module", dir)}
		}
		d = parent
	}
}

// packageErrors lists the errors of pkgs and their dependencies, once each,
// as "file:line:col: message" with file relative to root. When the parser
// or the type checker reports errors, the go command's report of the same
// errors is left out; kind says what the errors are: "compile", "pattern"
// (a pattern, module or workspace problem) or "env" (the go command could
// not work: its temp dir, its cache).
func packageErrors(pkgs []*packages.Package, root string) (msgs []string, kind string) {
	seen := map[string]bool{}
	var list, compile []string
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		for _, e := range p.Errors {
			msg := e.Msg
			if e.Pos != "" && e.Pos != "-" {
				pos := e.Pos
				if rel, err := filepath.Rel(root, pos); err == nil && !strings.HasPrefix(rel, "..") {
					pos = rel
				}
				msg = pos + ": " + e.Msg
			}
			if seen[msg] {
				continue
			}
			seen[msg] = true
			if e.Kind == packages.ListError {
				list = append(list, msg)
			} else {
				compile = append(compile, msg)
			}
		}
	})
	sort.Strings(list)
	sort.Strings(compile)
	switch {
	case len(compile) > 0:
		// The go command's errors (a missing go.sum entry, an import it
		// cannot resolve) are the cause of the type errors they bring
		// (undefined names of a package that was not loaded): first.
		return append(causes(list, compile), compile...), "compile"
	case len(list) == 0:
		return nil, ""
	}
	kind = "pattern"
	for _, m := range list {
		switch {
		case strings.Contains(m, "creating work dir"), strings.Contains(m, "GOCACHE"), strings.Contains(m, "build cache"):
			return list, "env"
		case strings.HasPrefix(m, "# "), strings.Contains(m, ".go:"):
			kind = "compile" // compile errors the go command found (cgo, embed)
		}
	}
	return list, kind
}

// goPos matches a position in a Go file in an error message.
var goPos = regexp.MustCompile(`([\w./-]+\.go):(\d+):(\d+)`)

// causes are the go command's errors of list that say something the type
// errors compile do not: none of their positions is one of compile's (a
// syntax error both report, "./broken.go:4:30" and "broken.go:4:30", is
// said once).
func causes(list, compile []string) []string {
	seen := map[string]bool{}
	for _, m := range compile {
		for _, p := range goPos.FindAllString(m, -1) {
			seen[strings.TrimPrefix(p, "./")] = true
		}
	}
	var out []string
	for _, m := range list {
		if !slices.ContainsFunc(goPos.FindAllString(m, -1), func(p string) bool { return seen[strings.TrimPrefix(p, "./")] }) {
			out = append(out, m)
		}
	}
	return out
}

// collectDeps adds the import paths p links to into, following imports
// through the loaded packages (without NeedDeps, Imports holds only IDs).
func collectDeps(p *packages.Package, byID map[string]*packages.Package, into map[string]bool) {
	for path, imp := range p.Imports {
		if into[path] {
			continue
		}
		into[path] = true
		if full := byID[imp.ID]; full != nil {
			collectDeps(full, byID, into)
		}
	}
}

// testNames lists the top-level tests of the test variants, in the order
// `go test` runs them: tests, then examples with output, by file and
// position; it records where each is declared in locs.
func testNames(fset *token.FileSet, variants []*packages.Package, locs map[string]token.Position) []string {
	type fileFuncs struct {
		name           string
		tests, example []string
	}
	var files []fileFuncs
	seen := map[string]bool{}
	for _, p := range variants {
		for _, f := range p.Syntax {
			name := fset.File(f.Pos()).Name()
			if !strings.HasSuffix(name, "_test.go") || seen[name] {
				continue
			}
			seen[name] = true
			ff := fileFuncs{name: name}
			for _, decl := range f.Decls {
				fd, ok := decl.(*ast.FuncDecl)
				if !ok || fd.Recv != nil || fd.Body == nil {
					continue
				}
				n := fd.Name.Name
				switch {
				case isRunTest(fd):
					// go test runs a fuzz test's seed corpus.
					ff.tests = append(ff.tests, n)
				case gotest.IsTestName(n, "Example") && hasOutput(f, fd):
					ff.example = append(ff.example, n)
				default:
					continue
				}
				if _, dup := locs[n]; !dup {
					locs[n] = fset.PositionFor(fd.Pos(), false)
				}
			}
			files = append(files, ff)
		}
	}
	// In-package test files come before external ones; go test orders
	// by TestGoFiles then XTestGoFiles, each sorted by name.
	var tests, examples []string
	for _, ff := range files {
		tests = append(tests, ff.tests...)
		examples = append(examples, ff.example...)
	}
	return append(tests, examples...)
}

// isRunTest reports whether go test runs fd as a test or a fuzz test
// (TestX(t *testing.T), FuzzX(f *testing.F); not TestMain).
func isRunTest(fd *ast.FuncDecl) bool {
	n := fd.Name.Name
	return gotest.IsTestName(n, "Test") && n != "TestMain" && isTestFunc(fd, "T") ||
		gotest.IsTestName(n, "Fuzz") && isTestFunc(fd, "F")
}

// isTestFunc reports whether fd takes one *testing.<typ> (T or F).
func isTestFunc(fd *ast.FuncDecl, typ string) bool {
	params := fd.Type.Params.List
	if len(params) != 1 || fd.Type.TypeParams != nil {
		return false
	}
	star, ok := params[0].Type.(*ast.StarExpr)
	if !ok {
		return false
	}
	sel, ok := star.X.(*ast.SelectorExpr)
	return ok && sel.Sel.Name == typ
}

// hasOutput reports whether an example function has an output comment, so
// that `go test` runs it.
func hasOutput(f *ast.File, fd *ast.FuncDecl) bool {
	for _, cg := range f.Comments {
		if cg.Pos() < fd.Body.Lbrace || cg.End() > fd.Body.Rbrace {
			continue
		}
		text := strings.TrimSpace(cg.Text())
		if strings.HasPrefix(text, "Output:") || strings.HasPrefix(text, "Unordered output:") {
			return true
		}
	}
	return false
}

// typesOf returns the type-checked package and info of a non-test package.
func (d *pkgData) typesOf() (*types.Package, *types.Info, error) {
	if d.pkg == nil || d.pkg.Types == nil {
		return nil, nil, errors.New("package " + d.path + " has no type information")
	}
	return d.pkg.Types, d.pkg.TypesInfo, nil
}

// modulePackages returns the import paths of the loaded packages, sorted.
func (prog *Program) modulePackages() []string {
	paths := make([]string, 0, len(prog.pkgs))
	for p := range prog.pkgs {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	return paths
}
