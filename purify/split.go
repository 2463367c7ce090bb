package purify

import (
	"fmt"
	"github.com/nopol-go/nopol/internal/constituent"
	"go/token"
	"sort"
	"strconv"

	"github.com/dave/dst"
)

// Fragment is a test function Split made from one constituent of a test.
type Fragment struct {
	// Test is the original test; Name the new test function.
	Test, Name string
	// Segment is the index of the statement the fragment runs last;
	// Iteration the one table iteration it keeps (from 1), 0 for all.
	Segment, Iteration int
	// Setup lists the earlier statements it runs first, by index.
	Setup []int
}

// Unsplit is a test Split was asked to split but left as it is.
type Unsplit struct {
	Test, Reason string
}

// Split replaces each test function of f for which split returns true by
// one test function per constituent, in place. Fragment k runs statement k
// of the test after the earlier statements it depends on (its setup):
// those that declare or change a variable it uses (transitively; a
// variable declared from another, such as sub := r.Sub(), is taken to share
// its state), and
// those with effects outside the test's variables (t.Setenv, t.Parallel,
// an assignment to a package variable, a call that mentions no local
// variable). Checks (an if statement that changes no variable, a
// t.Error/t.Run call, a helper called with t) are setup only when they
// change a variable the fragment uses (through a method whose name does not
// say it only reads, see readMethod). A statement that is setup of a later fragment gets no
// fragment of its own. A top-level loop over a slice or array literal (or
// a variable holding one) is split per iteration: fragment TestX_iterN runs
// iteration N only, skipping the others with a counter, so that keys and
// iteration numbers (those of NopolIteration) stay those of the original.
//
// Fragments are named TestX_N for statement N counted from 1 (segment N-1)
// and TestX_iterN (TestX_S_iterN when the test has several split loops).
// Variables declared and no longer used in a fragment get a `_ = v`.
//
// mode, called once per test function, says how it is split; Keep leaves
// it as it is.
func Split(f *dst.File, mode func(test string) Mode) ([]Fragment, []Unsplit) {
	testing := constituent.TestingName(f)
	names := map[string]bool{}
	pkgTables := map[string]dst.Expr{}
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *dst.FuncDecl:
			if d.Recv == nil {
				names[d.Name.Name] = true
			}
		case *dst.GenDecl:
			if d.Tok != token.VAR {
				continue
			}
			for _, sp := range d.Specs {
				vs := sp.(*dst.ValueSpec)
				if len(vs.Names) == 1 && len(vs.Values) == 1 {
					pkgTables[vs.Names[0].Name] = vs.Values[0]
				}
			}
		}
	}
	var frags []Fragment
	var unsplit []Unsplit
	var decls []dst.Decl
	for _, d := range f.Decls {
		fn, ok := d.(*dst.FuncDecl)
		if !ok || !constituent.IsTestFunc(fn, testing) {
			decls = append(decls, d)
			continue
		}
		m := mode(fn.Name.Name)
		if m == Keep {
			decls = append(decls, d)
			continue
		}
		fns, fs, reason := splitFunc(fn, names, pkgTables, m == Prefix)
		if reason != "" {
			unsplit = append(unsplit, Unsplit{Test: fn.Name.Name, Reason: reason})
			decls = append(decls, d)
			continue
		}
		decls = append(decls, fns...)
		frags = append(frags, fs...)
	}
	f.Decls = decls
	return frags, unsplit
}

// Mode says how Split splits a test.
type Mode uint8

const (
	// Keep leaves the test as it is.
	Keep Mode = iota
	// Minimal gives each fragment the earlier statements it depends on.
	Minimal
	// Prefix gives each fragment every earlier statement but those that
	// only check and report (t.Errorf, an if statement calling nothing but
	// t's reporting methods and fmt, strings, bytes, errors, strconv,
	// reflect or math): for tests whose Minimal fragments do not behave as
	// the test did, because of state the analysis does not see.
	Prefix
)

// splitFunc returns the test functions replacing fn and their fragments,
// or the reason fn is left whole. prefix chooses Prefix mode.
func splitFunc(fn *dst.FuncDecl, names map[string]bool, pkgTables map[string]dst.Expr, prefix bool) ([]dst.Decl, []Fragment, string) {
	body := fn.Body.List
	if len(body) < 2 && !(len(body) == 1 && constituent.TableLoop(body[0]) != nil) {
		return nil, nil, "fewer than two statements"
	}
	if hasGoto(fn.Body) {
		return nil, nil, "uses goto"
	}
	tname := ""
	if ns := fn.Type.Params.List[0].Names; len(ns) == 1 {
		tname = ns[0].Name
	}
	infos := make([]stmtInfo, len(body))
	for i, s := range body {
		infos[i] = analyzeStmt(s, tname)
	}
	// localBefore reports whether name is declared by a statement before i.
	localBefore := func(name string, i int) bool {
		for j := 0; j < i; j++ {
			if infos[j].declared[name] {
				return true
			}
		}
		return false
	}
	for j := range infos {
		in := &infos[j]
		for c := range in.calls {
			if localBefore(c, j) {
				// reset(): a closure changing what it captured.
				in.mutates[c] = true
				if in.kind == kindCheck {
					if _, ok := body[j].(*dst.IfStmt); ok {
						in.kind = kindOther
					}
				}
			}
		}
	}
	// Variables declared from other locals may share state with them
	// (sub := router.Subrouter()): a change to one may change the other.
	// alias maps each local to a representative of its group.
	alias := map[string]string{}
	find := func(n string) string {
		for alias[n] != "" && alias[n] != n {
			n = alias[n]
		}
		return n
	}
	for j, in := range infos {
		// Declared variables, and changed ones (r.Handle(sub) makes r
		// hold sub), are grouped with the locals the statement mentions.
		group := append([]string(nil), in.vars...)
		for m := range in.mutates {
			if localBefore(m, j) {
				group = append(group, m)
			}
		}
		sort.Strings(group)
		for _, v := range group {
			for u := range in.uses {
				if u != v && localBefore(u, j) {
					if a, b := find(v), find(u); a != b {
						alias[a] = b
					}
				}
			}
		}
	}
	// changes reports whether a statement changing mutates may change a
	// variable of needed.
	changes := func(mutates, needed map[string]bool) bool {
		groups := map[string]bool{}
		for n := range needed {
			groups[find(n)] = true
		}
		for n := range mutates {
			if groups[find(n)] {
				return true
			}
		}
		return false
	}
	// take reports whether statement j is setup for a fragment using
	// needed.
	take := func(j int, needed map[string]bool) bool {
		in := infos[j]
		if prefix {
			return !reportsOnly(body[j], tname) || changes(in.mutates, needed)
		}
		switch in.kind {
		case kindCheck:
			// A check is setup only when it changes what the fragment
			// uses: assert.NoError(t, f.Add(x)).
			return changes(in.mutates, needed)
		case kindEnv:
			return true
		}
		if intersects(in.declared, needed) || changes(in.mutates, needed) {
			return true
		}
		for n := range in.assigned {
			if !localBefore(n, j) {
				return true // Output = buf: a package variable set for what follows
			}
		}
		if !in.simple || len(in.declared) > 0 {
			return false
		}
		for n := range in.uses {
			if localBefore(n, j) {
				return false
			}
		}
		return true // a call with effects outside the test: reset()
	}
	setup := func(k int) []int {
		needed := map[string]bool{}
		for n := range infos[k].uses {
			if localBefore(n, k) {
				needed[n] = true
			}
		}
		included := make([]bool, k)
		for changed := true; changed; {
			// Until a fixed point: a statement taken may make an earlier
			// examined one needed.
			changed = false
			for j := k - 1; j >= 0; j-- {
				if included[j] {
					continue
				}
				if take(j, needed) {
					included[j], changed = true, true
					for n := range infos[j].uses {
						if localBefore(n, j) {
							needed[n] = true
						}
					}
				}
			}
		}
		var incl []int
		for j, ok := range included {
			if ok {
				incl = append(incl, j)
			}
		}
		return incl
	}
	setups := make([][]int, len(body))
	isSetup := make([]bool, len(body))
	for k := range body {
		setups[k] = setup(k)
		for _, j := range setups[k] {
			isSetup[j] = true
		}
	}
	// Table loops that can be split per iteration, and their sizes.
	iters := make([]int, len(body))
	loops := 0
	for k, s := range body {
		if isSetup[k] {
			continue
		}
		if n := tableSize(s, k, body, infos, pkgTables); n > 0 {
			iters[k] = n
			loops++
		}
	}
	test := fn.Name.Name
	var decls []dst.Decl
	var frags []Fragment
	add := func(k, iter int, name string) {
		for names[name] {
			name += "_"
		}
		names[name] = true
		var list []dst.Stmt
		for _, j := range setups[k] {
			list = append(list, dst.Clone(body[j]).(dst.Stmt))
		}
		last := dst.Clone(body[k]).(dst.Stmt)
		if iter > 0 {
			list = append(list, keepIteration(last, iter)...)
		} else {
			list = append(list, last)
		}
		list = useVars(list)
		for i, s := range list {
			if i == 0 {
				s.Decorations().Before = dst.NewLine
			}
		}
		nf := &dst.FuncDecl{
			Name: dst.NewIdent(name),
			Type: dst.Clone(fn.Type).(*dst.FuncType),
			Body: &dst.BlockStmt{List: list},
		}
		what := fmt.Sprintf("statement %d", k+1)
		if iter > 0 {
			what += fmt.Sprintf(", iteration %d,", iter)
		}
		nf.Decs.Before = dst.EmptyLine
		nf.Decs.Start.Append(fmt.Sprintf("// %s runs %s of %s (segment %d); split by nopol purify.", name, what, test, k))
		decls = append(decls, nf)
		frags = append(frags, Fragment{Test: test, Name: name, Segment: k, Iteration: iter, Setup: setups[k]})
	}
	for k := range body {
		if isSetup[k] {
			continue
		}
		if iters[k] == 0 {
			add(k, 0, test+"_"+strconv.Itoa(k+1))
			continue
		}
		for it := 1; it <= iters[k]; it++ {
			name := fmt.Sprintf("%s_iter%d", test, it)
			if loops > 1 {
				name = fmt.Sprintf("%s_%d_iter%d", test, k+1, it)
			}
			add(k, it, name)
		}
	}
	if len(frags) < 2 {
		return nil, nil, "one constituent"
	}
	decls[0].Decorations().Before = fn.Decs.Before
	return decls, frags, ""
}
