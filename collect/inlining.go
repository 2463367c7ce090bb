package collect

import (
	"bufio"
	"context"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"

	"golang.org/x/tools/go/packages"

	"github.com/nopol-go/nopol/internal/astname"
	"github.com/nopol-go/nopol/internal/gotest"
)

// Inlining. The hooks make small functions too costly for the compiler to
// inline, and a value such a function returns by address then escapes to
// the heap: xxhash's NewWithSeed returns &d, so `d := New()` allocates
// instrumented and not plain, and a test that counts allocations
// (testing.AllocsPerRun) fails instrumented only. When the module's tests
// call testing.AllocsPerRun, Instrument asks the compiler which of the
// module's functions it inlines plain (`go build -gcflags=-m`), and
// compiles the instrumented binaries with a profile, in the compiler's
// serialized PGO format, that marks hot every static call of those
// functions (and the calls they inline in turn, up to inlineDepth deep):
// the compiler inlines a hot call up to a much larger budget, so it
// inlines them at those sites as it did plain. Only the module's packages
// get the profile (-gcflags=path=...): the standard library is compiled
// as always, and its build cache stays valid.

// inlineDepth bounds the chains of calls inlined into one another that
// the profile marks (New inlines NewWithSeed, which inlines
// ResetWithSeed).
const inlineDepth = 4

// inliningFlags returns the go command flags that give the module's
// packages the profile, written in dir, or nil when the tests count no
// allocations or the module has no function the compiler inlines.
func (prog *Program) inliningFlags(ctx context.Context, dir string) ([]string, error) {
	if !prog.countsAllocations() {
		return nil, nil
	}
	paths := prog.modulePackages()
	args := []string{"build", "-o", os.DevNull}
	var built []string // the packages with files outside tests
	for _, p := range paths {
		if d := prog.pkgs[p]; d.pkg != nil && len(d.pkg.CompiledGoFiles) > 0 {
			args = append(args, "-gcflags="+p+"=-m")
			built = append(built, p)
		}
	}
	out, err := prog.goRunner().Run(ctx, &gotest.Invocation{Path: "go", Args: append(args, built...), Dir: prog.Dir, MaxOutput: -1})
	if err != nil && ctx.Err() != nil {
		return nil, err
	}
	// A package that does not build plain (a command that needs a tag)
	// costs its own functions only: the others are in the output.
	edges := prog.inlineEdges(canInline(prog.Dir, string(out.Stdout)+string(out.Stderr)))
	if len(edges) == 0 {
		return nil, nil
	}
	var b strings.Builder
	b.WriteString("GO PREPROFILE V1\n")
	for _, e := range edges {
		fmt.Fprintf(&b, "%s\n%s\n%d 1\n", e.caller, e.callee, e.offset)
	}
	name := filepath.Join(dir, "inline.pgo")
	if err := os.WriteFile(name, []byte(b.String()), 0o644); err != nil {
		return nil, err
	}
	// Every edge is hot: the threshold is the whole weight.
	compiler := "-pgoprofile=" + quoteFlag(name) + " -d=pgoinlinecdfthreshold=100"
	flags := make([]string, len(paths))
	for i, p := range paths {
		flags[i] = "-gcflags=" + p + "=" + compiler
	}
	return flags, nil
}

// quoteFlag quotes s for the go command's flag lists when it has a space.
func quoteFlag(s string) string {
	if strings.ContainsAny(s, " \t'\"") {
		return "'" + s + "'"
	}
	return s
}

// countsAllocations reports whether a test file of the module calls
// testing.AllocsPerRun.
func (prog *Program) countsAllocations() bool {
	for _, d := range prog.pkgs {
		for _, t := range d.tests {
			for _, f := range t.Syntax {
				if !strings.HasSuffix(prog.fset.File(f.Pos()).Name(), "_test.go") {
					continue
				}
				found := false
				ast.Inspect(f, func(n ast.Node) bool {
					if call, ok := n.(*ast.CallExpr); ok && !found {
						if fn, ok := calleeFunc(call, t.TypesInfo); ok && fn.Pkg() != nil && fn.Pkg().Path() == "testing" && fn.Name() == "AllocsPerRun" {
							found = true
						}
					}
					return !found
				})
				if found {
					return true
				}
			}
		}
	}
	return false
}

// lineKey is a file and line: where the compiler reports a function and
// where go/types declares it agree on these.
type lineKey struct {
	file string
	line int
}

var canInlineLine = regexp.MustCompile(`^(.+?\.go):(\d+):\d+: can inline `)

// canInline returns where the functions are declared that the compiler's
// -m output out says it can inline; relative file names are from dir.
func canInline(dir, out string) map[lineKey]bool {
	lines := map[lineKey]bool{}
	sc := bufio.NewScanner(strings.NewReader(out))
	sc.Buffer(make([]byte, 0, 64*1024), 1024*1024)
	for sc.Scan() {
		m := canInlineLine.FindStringSubmatch(sc.Text())
		if m == nil {
			continue
		}
		file := m[1]
		if !filepath.IsAbs(file) {
			file = filepath.Join(dir, file)
		}
		n, _ := strconv.Atoi(m[2])
		lines[lineKey{filepath.Clean(file), n}] = true
	}
	return lines
}

// inlineEdge is one call marked hot: the caller's and the callee's
// symbol names, and the call's line relative to the caller's first line.
type inlineEdge struct {
	caller, callee string
	offset         int
}

// funcBody is a function declaration and the types of its package.
type funcBody struct {
	decl *ast.FuncDecl
	info *types.Info
}

// inlineEdges returns the calls, in every function and function literal
// of the loaded packages and their tests, of functions the compiler
// inlines plain (declared at a line of inlinable), and of the calls those
// inline in turn, sorted.
func (prog *Program) inlineEdges(inlinable map[lineKey]bool) []inlineEdge {
	if len(inlinable) == 0 {
		return nil
	}
	bodies := map[lineKey]funcBody{}
	type file struct {
		f    *ast.File
		info *types.Info
	}
	var files []file
	for _, path := range prog.modulePackages() {
		d := prog.pkgs[path]
		// The internal test variant has the package's own files too:
		// it is walked instead of the package, not beside it.
		variants := d.tests
		if !slices.ContainsFunc(d.tests, func(t *packages.Package) bool { return t.PkgPath == path }) {
			variants = append([]*packages.Package{d.pkg}, d.tests...)
		}
		for _, p := range variants {
			if p == nil || p.TypesInfo == nil {
				continue
			}
			for _, f := range p.Syntax {
				files = append(files, file{f, p.TypesInfo})
				for _, decl := range f.Decls {
					if fd, ok := decl.(*ast.FuncDecl); ok && fd.Body != nil {
						bodies[prog.lineOf(fd.Name.Pos())] = funcBody{fd, p.TypesInfo}
					}
				}
			}
		}
	}
	seen := map[inlineEdge]bool{}
	var edges []inlineEdge
	add := func(e inlineEdge) {
		if !seen[e] {
			seen[e] = true
			edges = append(edges, e)
		}
	}
	// chain marks the calls in body (inlined into caller, which starts
	// at line start) of inlinable functions, and theirs, depth deep.
	var chain func(caller string, start int, body ast.Node, info *types.Info, depth int)
	chain = func(caller string, start int, body ast.Node, info *types.Info, depth int) {
		ast.Inspect(body, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FuncLit:
				return false // a function of its own
			case *ast.CallExpr:
				fn, ok := calleeFunc(n, info)
				if !ok {
					return true
				}
				key := prog.lineOf(fn.Pos())
				name := symbolName(fn)
				if !inlinable[key] || name == "" {
					return true
				}
				add(inlineEdge{caller, name, prog.lineOf(n.Pos()).line - start})
				if callee, ok := bodies[key]; ok && depth > 1 {
					chain(caller, start, callee.decl.Body, callee.info, depth-1)
				}
			}
			return true
		})
	}
	// walk names the functions and function literals of a file as the
	// compiler does (F, F.func1, F.func1.1) and marks their calls.
	var walk func(name string, start int, body ast.Node, info *types.Info, top bool)
	walk = func(name string, start int, body ast.Node, info *types.Info, top bool) {
		chain(name, start, body, info, inlineDepth)
		k := 0
		ast.Inspect(body, func(n ast.Node) bool {
			lit, ok := n.(*ast.FuncLit)
			if !ok {
				return true
			}
			k++
			sub := name + "." + strconv.Itoa(k)
			if top {
				sub = name + ".func" + strconv.Itoa(k)
			}
			walk(sub, prog.lineOf(lit.Pos()).line, lit.Body, info, false)
			return false
		})
	}
	for _, f := range files {
		for _, decl := range f.f.Decls {
			fd, ok := decl.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			fn, ok := f.info.Defs[fd.Name].(*types.Func)
			if !ok {
				continue
			}
			if name := symbolName(fn); name != "" {
				walk(name, prog.lineOf(fd.Name.Pos()).line, fd.Body, f.info, true)
			}
		}
	}
	sort.Slice(edges, func(i, j int) bool {
		a, b := edges[i], edges[j]
		if a.caller != b.caller {
			return a.caller < b.caller
		}
		if a.callee != b.callee {
			return a.callee < b.callee
		}
		return a.offset < b.offset
	})
	return edges
}

// lineOf returns the file and line of pos.
func (prog *Program) lineOf(pos token.Pos) lineKey {
	p := prog.fset.PositionFor(pos, false)
	return lineKey{filepath.Clean(p.Filename), p.Line}
}

// calleeFunc returns the function or method a call calls statically.
func calleeFunc(call *ast.CallExpr, info *types.Info) (*types.Func, bool) {
	id := astname.Callee(call)
	if id == nil {
		return nil, false
	}
	fn, ok := info.Uses[id].(*types.Func)
	return fn, ok
}

// symbolName returns the compiler's name of fn (path.F, path.T.M,
// path.(*T).M; main.F in a command), or "" for a generic function or
// method, whose symbols are instantiated.
func symbolName(fn *types.Func) string {
	if fn.Pkg() == nil {
		return ""
	}
	path := fn.Pkg().Path()
	if fn.Pkg().Name() == "main" {
		path = "main"
	}
	sig, ok := fn.Type().(*types.Signature)
	if !ok || sig.TypeParams().Len() > 0 {
		return ""
	}
	recv := sig.Recv()
	if recv == nil {
		return path + "." + fn.Name()
	}
	t := recv.Type()
	ptr := false
	if p, ok := t.(*types.Pointer); ok {
		t, ptr = p.Elem(), true
	}
	named, ok := t.(*types.Named)
	if !ok || named.TypeParams().Len() > 0 {
		return ""
	}
	if ptr {
		return path + ".(*" + named.Obj().Name() + ")." + fn.Name()
	}
	return path + "." + named.Obj().Name() + "." + fn.Name()
}
