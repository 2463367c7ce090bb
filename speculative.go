package nopol

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/types"
	"maps"
	"slices"
	"strings"

	"github.com/nopol-go/nopol/collect"
	"github.com/nopol-go/nopol/synth"
)

// Speculative patches. A candidate that passes the whole suite is
// plausible; some plausible patches rest on a guess the tests do not
// check, and over every bench run kept in benchmarks/results (training
// split) most of them were wrong. Such a patch is withheld: it is not
// printed, the search goes on to the next candidate, site and tier, and
// when nothing else passes the result says what was withheld and why
// (Result.Withheld; Options.Speculative prints it instead). A repair bot
// is judged by its worst suggestions.
//
//   - unrelated: the condition shares none of the original condition's
//     variables (ruleUnrelated): 2 correct of 10 plausible over the
//     training runs. A test of the error the branch returns is not
//     unrelated (`err != nil` for `len(b) == 0` before `return 0, nil,
//     err`: the developer's fix of go-toml's parseSimpleKey).
//   - error-new: a new guard that returns an error the function never
//     returns (collect.StrategyErrNew, fmt.Errorf naming the function): the
//     tests say the function must leave there, not that this error is
//     the one to return, nor that its callers expect it: 1 correct of 7.
//   - panic-new: the same for a new guard that panics where the function
//     never panics (collect.StrategyPanicNew): the test expects a panic,
//     not that these inputs are the ones that must make it (1 of 1 wrong
//     on the training split: parser-range's guard caught the test's case,
//     not the developer's second half).
//   - far-ambiguous: a synthesized condition far from the original
//     (more than maxCloseTokens tokens changed), while another candidate
//     that reads a value the patch does not read, or does not read one it
//     reads, fits the recorded states too: the tests chose neither the
//     values nor the shape of the condition (`!f.CanSet() &&
//     key.IsLast()`, where `!f.CanSet() && value.Data == nil` fit as well
//     and the fix was `!f.CanAddr()`; hcl's seeded scanComment,
//     `len(s.src) < digitVal(ch)` where `len(s.src) < '#'` fit as well).
//     A value and its length count as one value, so `c == nil || c.Name
//     == ""` with `c == nil || len(c.Name) == 0` after it is not
//     ambiguous. Far synthesized conditions were 2
//     correct of 16 plausible, both on one bug a mutant fixes.
//   - far-negated: a synthesized condition far from the original whose
//     specification is the original negated at every evaluation in the
//     failing fragments only (angelic: flip@every in fragments): the
//     tests say the failing table case needs the other branch each time,
//     not which values tell that case from the others; a far condition
//     fits the few states of one case by accident
//     (`fieldIndex[0] <= len(fields)-fieldIndex[0]-len(keyName)` for
//     BurntSushi/toml's `fieldIndex[0] != totalFields-1`, the one such
//     patch over the training runs, wrong).
//   - guard-underdetermined: the condition of a new guard with a later
//     tier's exit that leaves the function (a return the function writes
//     elsewhere, or zero values, where the tests do not say where else it
//     should leave)
//     synthesized from fewer than minStates distinct recorded states
//     while another candidate fits them too: two states draw no line
//     between the inputs that must leave and the others. Over every kept
//     training and dev run, such guards were 0 correct of 3 plausible (goldmark's seeded
//     linkify `c != ' '`, tableParagraphTransformer `isHeader`, toml's
//     lexInlineTableValueEnd), and pflag's seeded durationSliceConv got
//     `len(f.actual) == 0` in its caller.
//   - guard-ambiguous: the condition of a new guard synthesized from the
//     recorded states while at least minAmbiguous other candidates that
//     the suite did not reject fit them too, none of them reading a
//     value the patch reads (a value, its length and a call's argument
//     count as one): the tests say where the guard must leave, not what
//     tells those inputs from the others, and the first fit by the
//     ranking is one guess among values that have nothing in common.
//     Over every kept training and dev run (one record per bug and
//     condition), synthesized new guards with three or more other
//     fitting candidates were 4 correct of 28 plausible, against 26 of
//     59 with fewer (go-cmp's retrieveUnexportedField `t.NumField() !=
//     len(s.opts) && …`, toml's eStruct `t2 == nil` for
//     `isNil(fieldVal)`, pflag's ipConv); those counts do not ask that
//     the others share no value, so the rule as written fires on fewer.
//
// Mutants of the original, bounds checks, siblings' guards and NpeFix
// replacements are never speculative by these rules.
const (
	specUnrelated    = "unrelated"
	specErrorNew     = "error-new"
	specPanicNew     = "panic-new"
	specFarAmbiguous = "far-ambiguous"
	specFarNegated   = "far-negated"
	// specUnderdetermined: see underdetermined.
	specUnderdetermined = "guard-underdetermined"
	specAmbiguousGuard  = "guard-ambiguous"
)

// minAmbiguous is how many other fitting candidates, reading other
// values, make a synthesized new guard ambiguous (guard-ambiguous).
const minAmbiguous = 3

// speculative returns why the plausible patch c at site (style st) is
// speculative, or "": ranked are the candidates of its site, failed
// reports those the suite rejected; distinct counts the distinct recorded
// states of the site (SiteReport.Distinct); negatedIn says that the
// specification is the original negated at every evaluation in the
// failing fragments.
func speculative(site collect.Site, st style, c candidate, ranked []candidate, spec *synth.Spec, distinct int, negatedIn bool, failed func(src string) bool) string {
	switch {
	case c.unrelated:
		return specUnrelated + ": the condition shares none of the original condition's variables"
	case st.strategy == collect.StrategyErrNew:
		return specErrorNew + fmt.Sprintf(": a new error (`%s`) the function never returns elsewhere; the tests only say it must leave there", st.exit)
	case st.strategy == collect.StrategyPanicNew:
		return specPanicNew + fmt.Sprintf(": a new panic (`%s`) where the function never panics; the tests only say it must panic, not for which inputs", st.exit)
	}
	if why := underdetermined(st, c, ranked, distinct, failed); why != "" {
		return why
	}
	if why := ambiguousGuard(site, c, ranked, spec, failed); why != "" {
		return why
	}
	if !farFromOriginal(site, c) {
		return ""
	}
	if negatedIn {
		return specFarNegated + ": far from the original condition, from a specification that only negates it in the failing fragments"
	}
	if spec == nil || c.term == nil {
		return ""
	}
	mine := valuesRead(spec, c.term)
	for _, o := range ranked {
		if o.term == nil || o.src == c.src || failed(o.src) {
			continue
		}
		theirs := valuesRead(spec, o.term)
		for _, v := range slices.Sorted(maps.Keys(theirs)) {
			if !mine[v] {
				return specFarAmbiguous + fmt.Sprintf(": far from the original condition, and `%s`, which reads `%s`, fits the recorded states as well", o.src, v)
			}
		}
		for _, v := range slices.Sorted(maps.Keys(mine)) {
			if !theirs[v] {
				return specFarAmbiguous + fmt.Sprintf(": far from the original condition, and `%s`, which does not read `%s`, fits the recorded states as well", o.src, v)
			}
		}
	}
	return ""
}

// underdetermined checks the rule guard-underdetermined: c is the
// condition of a new guard with a later tier's exit (style.late: the
// tests do not say where else it should leave) that leaves the function
// (a return, not a loop's continue or break) synthesized from fewer
// than minStates distinct recorded states (distinct, as the explanation
// counts them over every observed value), and another candidate of the
// site fits them as well.
func underdetermined(st style, c candidate, ranked []candidate, distinct int, failed func(src string) bool) string {
	if st.name != "return" || !st.late || !strings.HasPrefix(st.exit, "return") || c.method != "synthesis" || c.term == nil || distinct >= minStates {
		return ""
	}
	for _, o := range ranked {
		if o.term != nil && o.src != c.src && !failed(o.src) {
			return specUnderdetermined + fmt.Sprintf(": a new guard from %s, and `%s` fits them as well", plural(distinct, "distinct recorded state"), o.src)
		}
	}
	return ""
}

// ambiguousGuard checks the rule guard-ambiguous: c is the synthesized
// condition of a new guard, and at least minAmbiguous other candidates of
// the site that the suite did not reject (failed) fit the recorded states
// (spec) and read none of the values c reads.
func ambiguousGuard(site collect.Site, c candidate, ranked []candidate, spec *synth.Spec, failed func(src string) bool) string {
	if site.Kind != collect.Guard || c.method != "synthesis" || c.term == nil || spec == nil {
		return ""
	}
	mine := valuesNamed(spec, c.term)
	var others []string
	for _, o := range ranked {
		if o.term == nil || o.src == c.src || failed(o.src) || overlaps(mine, valuesNamed(spec, o.term)) {
			continue
		}
		others = append(others, "`"+o.src+"`")
	}
	if len(others) < minAmbiguous {
		return ""
	}
	return specAmbiguousGuard + fmt.Sprintf(": a new guard, and %d other conditions reading none of its values fit the recorded states as well (%s)", len(others), strings.Join(others[:min(len(others), 3)], ", "))
}

// farFromOriginal reports whether c, a synthesized replacement of site's
// condition (synthesizedCond), changes more than maxCloseTokens tokens of
// it. The original with an operand of its && or || deleted is close,
// however long the operand (`len(s) > 0` for `r.scheme == "" && len(s) >
// 0`).
func farFromOriginal(site collect.Site, c candidate) bool {
	if !synthesizedCond(site, c) || synth.EditDistance(site.Original, c.src) <= maxCloseTokens {
		return false
	}
	return !deletionOf(site.Original)(c.src)
}

// synthesizedCond reports whether c replaces site's condition with one
// synthesized from the recorded states: not a mutant, a bounds check, a
// sibling's guard, a nil check nor a nil replacement.
func synthesizedCond(site collect.Site, c candidate) bool {
	return site.Kind == collect.Cond && c.method != "mutation" && c.method != "bounds" && c.method != "npefix" && c.method != "sibling" && c.method != "nil-check"
}

// valuesRead are the values t reads: its inputs' expressions, with len(x)
// and cap(x) read as x.
func valuesRead(spec *synth.Spec, t *synth.Term) map[string]bool {
	out := map[string]bool{}
	for _, i := range inputsRead(t) {
		out[lengthOf(spec.Inputs[i].Expr)] = true
	}
	return out
}

// valuesNamed returns the values t reads, as valuesRead, with the
// arguments of each call it reads: normalize(f) names f too.
func valuesNamed(spec *synth.Spec, t *synth.Term) map[string]bool {
	out := valuesRead(spec, t)
	for _, i := range inputsRead(t) {
		e, err := parser.ParseExpr(spec.Inputs[i].Expr)
		if err != nil {
			continue
		}
		ast.Inspect(e, func(n ast.Node) bool {
			if call, ok := n.(*ast.CallExpr); ok {
				for _, a := range call.Args {
					out[lengthOf(types.ExprString(ast.Unparen(a)))] = true
				}
			}
			return true
		})
	}
	return out
}

// overlaps reports whether a and b share a key.
func overlaps(a, b map[string]bool) bool {
	for k := range a {
		if b[k] {
			return true
		}
	}
	return false
}

// lengthOf returns x for len(x) or cap(x), expr otherwise.
func lengthOf(expr string) string {
	e, err := parser.ParseExpr(expr)
	if err != nil {
		return expr
	}
	if x, ok := builtinArg(e, "len", "cap"); ok {
		return x
	}
	return expr
}

// builtinArg returns x, printed, for e a call f(x) of one of the builtins
// named.
func builtinArg(e ast.Expr, names ...string) (string, bool) {
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok || len(call.Args) != 1 {
		return "", false
	}
	if id, ok := call.Fun.(*ast.Ident); ok && slices.Contains(names, id.Name) {
		return types.ExprString(ast.Unparen(call.Args[0])), true
	}
	return "", false
}
