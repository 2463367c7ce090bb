package nopol

import (
	"context"
	"go/ast"
	"go/parser"
	"go/token"
	"slices"
	"strings"
	"time"

	"github.com/nopol-go/nopol/collect"
	"github.com/nopol-go/nopol/synth"
)

// A clause synthesized for one operand of the original condition. At a
// check whose branch panics or returns an error, when every condition
// that fits the recorded states breaks an anti-pattern (the smallest
// delete the check, and the original's operands alone fit nothing a
// maintainer would merge), the fix is often the original with one
// clause added: go-cmp's SortMaps needed `!function.IsType(vf.Type(),
// function.Less) || vf.IsNil()` to become `(!function.IsType(vf.Type(),
// function.Less) && !function.IsType(vf.Type(), function.Compare)) ||
// vf.IsNil()`, seven components where the search stops at four. The
// original is kept as a template with a hole X at one of its boolean
// operands (A becomes A && X or A || X, extensions' places), and X is
// synthesized on its own: at each recorded state where X decides the
// template's outcome, X must take the value that gives the needed one;
// where it does not, the state says nothing of X; a state the template
// gets wrong whatever X is rules the place out. A clause with one value
// at every recorded state stands for a constant (the operand deleted or
// made constant in disguise) and is not kept. The clause may exempt
// states from the error, not add a reason for it: a new reason belongs
// to its own check, with its own message (`n > max || n == len(s)` would
// call an empty port "too large"). Elsewhere (an if that only leaves or
// assigns) the recorded states are too thin to choose a clause: at
// color's Fprint, `if err == nil { return }` needed `err != nil`, and
// with err nil in every state, `err == nil && NoColor` fit.

// holeName is the boolean input that stands for the hole in a template.
const holeName = "nopolClause"

// Bounds of the clause search: the templates tried, the candidates kept,
// and the search of each hole's clause.
const (
	maxClauseTemplates  = 12
	maxClauseCandidates = 3
	clauseTimeout       = 3 * time.Second
)

// clauseCandidates returns the original condition of site with a clause
// synthesized for one of its operands, each fitting every example of
// spec, anti-patterns left out (noted in rep).
func (r *repairer) clauseCandidates(ctx context.Context, site collect.Site, st style, spec *synth.Spec, rep *SiteReport) []candidate {
	if !errorCheck(site) || spec == nil || len(spec.Examples) == 0 {
		return nil
	}
	orig, err := synth.ParseTerm(spec, site.Original)
	if err != nil {
		return nil
	}
	holed := *spec
	holed.Inputs = append(slices.Clone(spec.Inputs), synth.Input{Expr: holeName, Kind: synth.Bool})
	var templates []string
	for _, ext := range extensions(site.Original, []string{holeName}) {
		if !strings.Contains(ext.src, "!"+holeName) { // the solver negates X itself
			templates = append(templates, ext.src)
		}
	}
	if len(templates) > maxClauseTemplates {
		templates = templates[:maxClauseTemplates]
	}
	types := operandTypes(site)
	// A clause with one value at every recorded state says nothing the
	// tests check: added, it stands for a constant.
	constant := func(t *synth.Term) string {
		if vs := outcomes(spec, t); vs == nil || !slices.ContainsFunc(vs, func(v synth.Value) bool { return v != vs[0] }) {
			return "one value at every recorded state"
		}
		return ""
	}
	var out []candidate
	seen := map[string]bool{}
	for k, tmpl := range templates {
		if ctx.Err() != nil || len(out) >= maxClauseCandidates {
			break
		}
		sub, ok := holeSpec(spec, &holed, tmpl)
		if !ok {
			continue
		}
		r.vlogf("clause synthesis: template %d of %d, %s, from %d recorded states", k+1, len(templates), tmpl, len(sub.Examples))
		solved, _ := synth.Solve(ctx, sub, synth.Options{Backend: r.opts.Backend, MaxCandidates: maxClauseCandidates, Timeout: clauseTimeout, Reject: constant})
		var found []candidate
		for _, c := range solved {
			x := namedConstants(sub, types, c.Term).Source(sub)
			src := fillHole(tmpl, x)
			if src == "" || seen[src] {
				continue
			}
			seen[src] = true
			t, err := synth.ParseTerm(spec, src)
			if err != nil || !synth.Satisfies(spec, t, spec.Examples) || !narrower(spec, t, orig) {
				continue
			}
			found = append(found, candidate{src: src, term: t, method: "synthesis", added: x})
		}
		out = append(out, r.rejectAntiPatterns(site, st, spec, found, rep)...)
	}
	return out
}

// holeSpec returns the spec of the hole of tmpl (a condition over holed's
// inputs, the last of which is the hole): spec's inputs, and an example
// for each state of spec where the hole decides tmpl's outcome, wanting
// the value that gives the needed one. False when a state gets the wrong
// outcome whatever the hole is, or the hole decides none.
func holeSpec(spec, holed *synth.Spec, tmpl string) (*synth.Spec, bool) {
	t, err := synth.ParseTerm(holed, tmpl)
	if err != nil {
		return nil, false
	}
	sub := &synth.Spec{Inputs: spec.Inputs, Constants: spec.Constants, PredicateEquality: spec.PredicateEquality}
	for _, ex := range spec.Examples {
		var got [2]bool
		for b := range 2 {
			vals := append(slices.Clone(ex.Values), synth.BoolValue(b == 1))
			o, err := outcome(holed, t, &synth.Example{Values: vals})
			if err != nil {
				return nil, false
			}
			got[b] = o
		}
		switch {
		case got[0] == got[1] && got[0] != ex.Want:
			return nil, false
		case got[0] != got[1]:
			sub.Examples = append(sub.Examples, synth.Example{Values: ex.Values, Want: got[1] == ex.Want, Origin: ex.Origin})
		}
	}
	return sub, len(sub.Examples) > 0
}

// fillHole returns the template tmpl with the hole replaced by the
// condition x, parenthesized as gofmt prints it; "" when either does not
// parse.
func fillHole(tmpl, x string) string {
	fset, root, _, ok := parseCond(tmpl)
	if !ok {
		return ""
	}
	clause, err := parser.ParseExprFrom(fset, "", x, parser.SkipObjectResolution)
	if err != nil {
		return ""
	}
	filled := false
	for _, slot := range slots(&root) {
		if id, ok := (*slot).(*ast.Ident); ok && id.Name == holeName {
			*slot, filled = clause, true
		}
	}
	if !filled {
		return ""
	}
	return render(fset, parenthesize(unparen(root), token.LowestPrec))
}

// narrower reports whether t holds at no recorded state of spec where
// orig does not.
func narrower(spec *synth.Spec, t, orig *synth.Term) bool {
	for i := range spec.Examples {
		now, err1 := outcome(spec, t, &spec.Examples[i])
		was, err2 := outcome(spec, orig, &spec.Examples[i])
		if err1 != nil || err2 != nil || now && !was {
			return false
		}
	}
	return true
}

// errorCheck reports whether site is an if whose branch panics or returns
// an error.
func errorCheck(site collect.Site) bool {
	return site.Kind == collect.Cond && site.Then != nil && (site.Then.Panics || site.Then.ReturnsError)
}
