package nopol

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/nopol-go/nopol/angelic"
	"github.com/nopol-go/nopol/collect"
)

// Sibling conditions: code written by copy keeps its copies' conditions
// in step. Within a function, an if whose block is written as other ifs'
// blocks are (and does some work), where those all test one condition
// and the site another, gets theirs (collect.Site.SameBody): go-cmp
// v0.5.0 shortened arrays under `opts.PrintAddresses` where the structs
// and maps beside them test `opts.LimitVerbosity`, and the mutants'
// `!opts.PrintAddresses` passed the suite first. Where the condition of an if differs from the condition at the
// same place in the sibling functions (same file and receiver, names one
// word apart: RangeInt beside RangeInt64 and RangeFloat64, the k-th if of
// each counted in source order, when both have as many), and every one of
// them writes it the same way, that condition is validated as it is
// (a copy: as many lines, conditions and statements)
// (tier "siblings", method "sibling"), after the smells, before any site
// is searched. ini's seeded RangeInt, `val < min` where its siblings test
// `val < min || val > max`, was "repaired" by `val != min`, a mutant
// that fit the one failing check.

// maxSiblingSites bounds the sites whose sibling condition the tier
// validates.
const maxSiblingSites = 3

// siblingCond is the condition that site's sibling functions write at
// its place, when they all write the same one and it differs from
// site's; "" otherwise. sites are the program's.
func siblingCond(sites []collect.Site, site collect.Site) string {
	recv, name := splitFunc(site.Func)
	k, n := condOrdinal(sites, site)
	shape := funcShape(sites, site)
	found := ""
	for _, s := range sites {
		r2, n2 := splitFunc(s.Func)
		if s.Kind != collect.Cond || s.File != site.File || r2 != recv || n2 == name || !collect.OneWordAway(n2, name) {
			continue
		}
		if k2, c2 := condOrdinal(sites, s); k2 != k || c2 != n || funcShape(sites, s) != shape {
			continue
		}
		switch {
		case normalExpr(s.Original) == normalExpr(site.Original):
			return "" // a sibling agrees with the site
		case found == "":
			found = s.Original
		case normalExpr(found) != normalExpr(s.Original):
			return "" // the siblings disagree among themselves
		}
	}
	// On one line, whole: oneLine would cut a long condition short.
	return collect.OneLine(found)
}

// splitFunc splits a collect.Site.Func, "Recv.Method" or "Func".
func splitFunc(f string) (recv, name string) {
	if i := strings.LastIndexByte(f, '.'); i >= 0 {
		return f[:i], f[i+1:]
	}
	return "", f
}

// funcShape is what a copy of site's function keeps: its length in
// lines and how many sites of each kind it has (MustInt, one word from
// RangeInt, is no copy of it).
func funcShape(sites []collect.Site, site collect.Site) [3]int {
	shape := [3]int{site.FuncLines[1] - site.FuncLines[0]}
	for _, s := range sites {
		if s.File == site.File && s.Func == site.Func {
			shape[1+b2i(s.Kind == collect.Guard)]++
		}
	}
	return shape
}

// condOrdinal is the place of site among the Cond sites of its function
// (in source order) and how many there are.
func condOrdinal(sites []collect.Site, site collect.Site) (k, n int) {
	var lines [][2]int
	for _, s := range sites {
		if s.Kind == collect.Cond && s.File == site.File && s.Func == site.Func {
			lines = append(lines, [2]int{s.Line, s.Col})
		}
	}
	slices.SortFunc(lines, func(a, b [2]int) int { return slices.Compare(a[:], b[:]) })
	return slices.Index(lines, [2]int{site.Line, site.Col}), len(lines)
}

// siblings validates the sibling conditions of the top Cond sites the
// failing tests reach (2 × Options.MaxSites of them, at most
// maxSiblingSites with one).
func (r *repairer) siblings(ctx context.Context, ranked []angelic.Suspicion) (done bool, err error) {
	st := style{name: "cond"}
	targets := r.condTargets(ranked, maxSiblingSites, func(site collect.Site) (string, []candidate) {
		cond, intro := siblingCond(r.prog.Sites, site), "its sibling functions write `%s` there"
		if cond == "" {
			cond, intro = sameBodyCond(site), "the ifs of its function with the same block test `%s`"
		}
		if cond == "" {
			return "", nil
		}
		c := candidate{src: cond, method: "sibling"}
		if why := r.antiPatternOf(site, st, nil, c); why != "" {
			r.vlogf("siblings: rejected `%s`: %s", cond, why)
			return "", nil
		}
		return fmt.Sprintf(intro, cond), []candidate{c}
	})
	return r.validateTargets(ctx, targets, "sibling", "sibling condition", func(t condTarget) string { return t.why })
}

// sameBodyCond is the condition of the ifs of site's function whose block
// is written as site's (collect.Site.SameBody), when they all test the
// same one; "" otherwise.
func sameBodyCond(site collect.Site) string {
	if len(site.SameBody) == 0 || slices.ContainsFunc(site.SameBody, func(c string) bool {
		return normalExpr(c) != normalExpr(site.SameBody[0])
	}) {
		return ""
	}
	return site.SameBody[0]
}
