package nopol

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"maps"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/nopol-go/nopol/collect"
	"github.com/nopol-go/nopol/internal/astname"
	"github.com/nopol-go/nopol/synth"
)

// Anti-patterns (Tan et al., FSE 2016): a candidate that passes the suite
// may still be a patch no maintainer would merge. Each rule below rejects
// such a candidate before it is validated, and says why; the rejections
// are in the site's report (SiteReport.Rejected). One rule, unrelated,
// only ranks the candidate last at its site: developers do rewrite a
// condition whole (`!tagged` became `explicitName == ""` in go-toml).
//
//   - guard-deleted: at an if whose branch panics or returns an error, the
//     candidate no longer reads one of the original's operands (the check
//     is gone, or a clause of it), unless it tests the error variable the
//     branch returns against nil.
//   - unrelated-clause: at such an if, the candidate adds a disjunct that
//     reads none of the original's variables: a new reason for the error
//     that has nothing to do with what the branch checks (len(rest) > 0
//     becoming len(rest) > 0 || d.errorContext != nil).
//   - unrelated-reuse: a new guard reuses a return of the function that
//     reports the value its own guard tests (unstable.NewParserError(rest,
//     ...) under len(rest) > 0), or whose error says why its own guard
//     leaves (errors.New("Version string empty") under len(s) == 0), and
//     reads none of that guard's variables (d.errorContext != nil,
//     len(patchStr) != 1): the error would report the wrong value or
//     the wrong reason. The same when that guard, read over the recorded
//     states, holds at none of those where the candidate leaves
//     (reasonAbsent).
//   - length-relation: the candidate compares the lengths of two values
//     that neither the original nor any other condition of its file
//     compares (inventedLengths).
//   - invented-arithmetic: the candidate adds, subtracts, multiplies,
//     divides or shifts two operands neither of which is a literal, a
//     computation its file never writes (inventedArithmetic).
//   - state-success: a new guard leaves with zero values and a nil error
//     from a method with parameters, under a condition that reads none of
//     them nor any local, only what the receiver holds: the method
//     succeeds with nothing for every argument in that state (pflag's
//     GetIP, `len(f.actual) == 0 { return nil, nil }`; stateSuccess).
//   - error-swallowed: a new guard leaves with a nil error just before
//     `if err != nil`, where err is not nil in a recorded state in which
//     it leaves, and does not read err: the error the if returns is
//     dropped for another reason (pflag's GetIP, `val == nil { return
//     nil, nil }` after `val, err := f.getFlagType(...)`; errorSwallowed).
//   - bound-elsewhere: at a condition, the candidate reads a value the
//     original does not read, where an earlier if of the function
//     compares that value with a literal: the fault is that bound's,
//     not a missing clause here (boundElsewhere).
//   - error-replaced: a new guard leaves where an error x is not nil and
//     returns another error, in a function whose own checks of x return
//     x (errorReplaced).
//   - guard-changed: at such an if, the candidate gives the other outcome
//     than the original in a direction no recorded state asks for, at a
//     recorded state or one a step from it: it drops an error the
//     original raised when the failing tests only needed more errors
//     (len(rest) > 0 becoming len(rest) > lt.Nanosecond || ...), or the
//     reverse.
//   - unrelated: the candidate shares none of the original condition's
//     variables.
//   - guard-weakened (ranks): at such an if, a candidate that implies
//     the original (&& for ||, a disjunct dropped) raises the error in
//     fewer states and never in a new one; it comes after the site's
//     other candidates, in the mutation fallback, and among those from
//     the recorded states when it is a mutant that adds no clause
//     (guardWeakened; go-cmp's IgnoreMapEntries, seeded
//     `function.IsType(...) || vf.IsNil()` with its `!` dropped, was
//     "repaired" by && for ||, every invalid function accepted unless
//     nil).
//   - char-range: the original tests x for equality with a character
//     and the candidate orders x against it with no other end (c == 'T'
//     || c == 't' becoming c <= 'T' || c == 't': every character up to
//     'T', digits and punctuation among them); or a candidate from the
//     recorded states (a new guard too) orders a character against one the
//     function only tests for equality (collect.Constant.Bound), with no
//     other end.
//   - char-class: the candidate tests a character against both ends of
//     a class (digits, letters of either case, hexadecimal letters) with
//     one end left out of a test inside the class ('A' <= r && r < 'Z')
//     or taken into a test outside it (r < '0' || r >= '9'), a
//     comparison the original does not have (classEnd).
//   - range-union: the original orders x against lo and hi, and the
//     candidate joins a lower bound of x by lo and an upper bound by hi
//     with || (1 <= t || t < n for 1 <= t && t < n): every x passes
//     wherever lo <= hi (rangeUnion).
//   - enum-range: the candidate orders a value against a name of an
//     enumeration (an iota group, or another package's defined integer
//     type with named values: reflect.Kind; collect.Site.EnumNames) that the
//     original only tests for equality (nextProperty == prMidLetter
//     becoming nextProperty <= prMidLetter): every name declared before
//     it, whatever it stands for (enumRange).
//   - nil-check-dropped: the original tests x against nil, the branch
//     dereferences x (x != nil) or leaves (x == nil), and the candidate no
//     longer tests x against nil; or the original holds only where x !=
//     nil, the branch reads x (collect.Branch.NilUsed), and the candidate
//     holds where x may be nil (impliesNotNil: goldmark's typographer,
//     `s.Substitutions[RightSingleQuote] != nil && d.CanClose ||
//     !d.CanOpen` for a && that the tests could not tell from ||).
//   - length-check-dropped: a conjunct of the original bounds len(x)
//     from below (len(schemes) > 0), the branch indexes x, and no
//     conjunct of the candidate bounds len(x) from below: the branch may
//     now index an empty x. In mux, r.buildScheme == "" &&
//     len(schemes) > 0 { r.buildScheme = schemes[0] } became
//     r.buildScheme == "" || len(schemes) > 0, which panics on a route
//     with a build scheme and no schemes; the fix was len(schemes) > 0.
//     After the if too: where the branch leaves and the original is false
//     (the code after the if runs), len(x) is at least what that code
//     needs to index x with literals (s[1], s[2:]; collect.Branch.
//     IndexedAfter), and where the candidate is false it is not
//     (indexAfterUnguarded): `len(s) > 2` for `len(s) <= 2` before
//     `s = s[2:]`. The same for the sign of a variable the code after
//     the if indexes with (signCheckDropped): `i >= len(f.args)` for `i
//     < 0 || i >= len(f.args)` before `return f.args[i]`; and a candidate
//     that orders that variable against 0 and still lets a negative one
//     through (`i > 0 && i >= len(pa)`), whatever the original. And for
//     the upper end (upperCheckDropped, boundedafter.go): where the code
//     after the if needs i < len(x) (x[i], x[i+1:]; collect.Branch.
//     BoundedAfter) and the original ensures it wherever it is false, by a
//     comparison or by reading x[i] on every path to false, the candidate
//     must too: `pos < len(line)-1 && line[pos] != '^'` for `pos <
//     len(line)-1 || line[pos] != '^'` before `line[pos+1 : ...]`.
//   - decrement-unguarded: the original holds only where x >= 1 (x > 0,
//     x >= 1 or x == 2 in a conjunct), the branch decrements x
//     (collect.Branch.Decremented: x--, x -= 1), and the candidate holds
//     where x may be 0 or less: the count the branch keeps falls below
//     zero. goldmark's typographer, `s.Substitutions[RightSingleQuote] !=
//     nil && counter.Single >= 0` for `... && counter.Single > 0` before
//     `counter.Single--`, a count of unclosed quotes (decrementUnguarded).
//   - invented-constant: the candidate tests for equality with a number
//     the code does not have (t.Hour == 10, date.Year == 2023: it singles
//     out the tests' inputs, however many tests reach it); or compares an
//     expression with a literal the code does not have (other than 0, 1,
//     -1 and ""), and at most one test's recorded states have the
//     expression at that value;
//     or tests for equality with a number the code has only as a base,
//     a scale or a size (frac *= 10, [10]int, 1e1; collect's
//     Constant.Factor), however many tests' states give it;
//     or orders a byte or rune against a character the code does not
//     have (before > 'j'; 0x20, 0x7f and 0x80 are the usual bounds), or
//     tests one for equality with a letter or digit the code has in
//     neither case, however many tests' states give it (r == 'd'); or
//     tests for equality with a number the code only writes as a literal
//     (a base 10, not a named constant nor a character) that at most one
//     test's states give (len(tag) != 10); or, synthesized, orders an
//     expression against an integer the code does not have (other than
//     0, 1 and -1) where one more or one less fits every recorded state
//     as well: the states do not draw that threshold, the solver picked
//     it among several (len(tag) > 11 where no tag is 11 or 12 long).
//
//     Or, synthesized, orders a value whose values have names against
//     one of them where the original orders it against nothing
//     (enum-order): k <= reflect.Slice && k >= reflect.Array holds for
//     the kinds declared between them too, which no test has.
//
//   - enum-mismatch: the candidate compares a value that the function
//     compares with names of one enumeration of the package with a name
//     of another (state == gcPe where the function compares state with
//     sbATerm, sbSB7, ...; enumMismatch).
//   - conditional-deletion: a guard around a statement (`if COND { stmt }`)
//     deletes the statement wherever COND is false, which passes a suite
//     as easily as deleting it (Tan et al.'s anti-delete rules): it is
//     kept only as NpeFix's skip, a guard against the statement's own
//     panic, when COND tests the nil-ness of a value the statement
//     dereferences or passes to a call (lim != nil around s +=
//     fmt.Sprint(lim.MaxConns), v != nil around
//     reflect.TypeOf(v).String(); not r.handler != nil around
//     match.Handler = r.handler, a copy) or the length of one it indexes or
//     slices; or, where a passing test fails with the statement skipped
//     (deleting it does not pass the suite), when COND reads what the
//     statement assigns: a conditional update (repairer.needed,
//     readsAssigned).
//   - trivial-condition: a new guard tests only what an enclosing if
//     already established (err != nil before the return err of
//     if err != nil { ... }): it always leaves, so it replaces the
//     statement rather than guarding it (Tan et al.: a condition that is
//     always true); or, before an if statement, only what that if tests
//     (err != nil { return nil } before if err != nil { return err }): it
//     leaves wherever the branch would run, so the branch is dead and the
//     error swallowed.
//   - dead-after: a new guard before an if without else whose branch
//     leaves (if ip != nil { return ip, nil }) holds wherever that if's
//     condition does not (len(ip) == 0): every state leaves at one of
//     the two, and the statements after the if never run
//     (collect.Site.DeadAfter; holdsWhereNot). In pflag's ipConv, the
//     error return for a string that is no IP was gone; the fix was
//     sval == "" || sval == "<nil>" { return nil, nil }.
//   - checks-skipped: a new guard before the error return that ends the
//     branch of a check of the input (if path[0] == '-' { return
//     fmt.Errorf("leading dash") }, not if err != nil) leaves without an
//     error, when the function checks more after that if
//     (collect.Site.SkippedChecks): the input the check rejected is
//     accepted without the checks that follow (kind == filePath { return
//     nil } there skipped the double-slash and trailing-slash checks for
//     file paths; the fix was path[0] == '-' && kind != filePath). With no
//     check after it, the same guard is the usual fix (s == "" { return
//     nil } before ParseIP's error in pflag).
//   - else-shadowed: the candidate holds wherever the condition of an
//     else if after it in the chain holds (collect.Site.ElseIfs), and the
//     original does not: that branch would never run (mux's seeded
//     braceIndices, `level != 1` for `level == 0` before `else if level
//     < 0 { return nil, fmt.Errorf("mux: unbalanced braces ...") }`: the
//     error for unbalanced braces was gone).
//
// The rules that reject are checked even when the candidate is
// unrelated (ranked last is not accepted).
//   - dead-clause, bounds-check-alone, index-out-of-range,
//     nil-dereferenced and index-unguarded: see deadclause.go.
//   - loop-counter: the candidate tests a loop counter for equality with a
//     literal the code does not have (other than 0): one iteration.
//   - magic-number: the candidate compares a value of a defined integer
//     type (reflect.Kind, time.Month) with a number the code does not have:
//     v.Kind() == 21 for reflect.Map.
//   - predicate-equality: the candidate compares two predicates with == or
//     != ((rest == nil) == (d.errorContext == nil), typeEqual(...) !=
//     isNil(rv)), and the original condition does not: an exclusive or
//     fits any pattern of outcomes over the recorded states, and says
//     nothing a reviewer can check. Over every bench run kept in
//     benchmarks/results, nopol printed two such patches, both wrong.
//     Synthesis does not build them either (synth.Spec.PredicateEquality):
//     they took the places of candidates worth validating (9 of the 10
//     at a go-toml guard, v.Kind() != reflect.Interface not among them).
//     The rule still applies to candidates from elsewhere.

// candidate is a condition to validate at a site.
type candidate struct {
	src string
	// term is src over the spec's inputs; nil for the fallback's
	// mutants, which are not read against a spec.
	term *synth.Term
	// method is "synthesis", "mutation", "guess" (withGuesses), or how
	// another tier made it ("bounds", "sibling", "twin", "nil-check",
	// "npefix").
	method string
	// unrelated marks a candidate that shares none of the original's
	// variables (ranked last; see ruleUnrelated).
	unrelated bool
	// written marks a mutant whose changed comparison the file writes
	// elsewhere (written.go); pointToRange one that makes an equality an
	// ordering (mutants' last tier).
	written, pointToRange bool
	// added is, for a mutant that adds a clause to one operand of the
	// original (extensions), that clause.
	added string
	// from is, for a clause deleted from the first candidate
	// (fewerClauses), that candidate.
	from string
	// leastChange is, for a mutant that changes the original's outcome
	// at fewer of the failing tests' states than the first candidate
	// (leastchange.go), that candidate.
	leastChange string
}

// ruleElseShadowed: see elseShadowed.
const ruleElseShadowed = "else-shadowed"

// elseShadowed returns why cand, at a Cond site, leaves an else if after
// it in the chain dead: cand holds wherever that else if's condition
// holds (shadows), and orig does not; "" otherwise.
func elseShadowed(site collect.Site, orig, cand ast.Expr, known knownValues) string {
	for _, src := range site.ElseIfs {
		later, err := parser.ParseExpr(src)
		if err != nil || !shadows(cand, later, known) || shadows(orig, later, known) {
			continue
		}
		return fmt.Sprintf("%s: it holds wherever `%s`, an else if after it, holds: that branch would never run", ruleElseShadowed, src)
	}
	return ""
}

// shadows reports whether a holds wherever b does, as implies reads
// conjuncts: each disjunct of b implies a disjunct of a.
func shadows(a, b ast.Expr, known knownValues) bool {
	for _, q := range operandsOf(b, token.LOR) {
		if !slices.ContainsFunc(operandsOf(a, token.LOR), func(p ast.Expr) bool { return implies(q, p, known) }) {
			return false
		}
	}
	return true
}

// ruleUnrelated names the anti-pattern that ranks last instead of
// rejecting.
const ruleUnrelated = "unrelated"

// The rules the search looks for in a site's rejections.
const (
	ruleGuardDeleted        = "guard-deleted"
	ruleConditionalDeletion = "conditional-deletion"
)

// guardWeakened reports whether src, a candidate at an if whose branch
// panics or returns an error, implies the original condition without
// being it: every disjunct of src has every conjunct of one of the
// original's disjuncts (A && B for A, A for A || B). It raises the
// error in fewer states, never in a new one: the check is weakened. The
// fallback ranks such mutants last at their site (weakenedLast): in
// go-cmp, (IsType(t, Less) && !IsType(t, Compare)) || v.IsNil(), with
// its first `!` dropped, was repaired by && for its || (every invalid
// function accepted unless nil) where a `!` restored was the fix; the
// weakening is still tried when nothing else at the site passes (a
// seeded && made ||).
func guardWeakened(site collect.Site, src string) bool {
	if b := site.Then; b == nil || !b.Panics && !b.ReturnsError {
		return false
	}
	orig, err1 := parser.ParseExpr(site.Original)
	cand, err2 := parser.ParseExpr(src)
	if err1 != nil || err2 != nil || types.ExprString(orig) == types.ExprString(cand) {
		return false
	}
	origDisjuncts := operandsOf(orig, token.LOR)
	for _, d := range operandsOf(cand, token.LOR) {
		var has []string
		for _, c := range operandsOf(d, token.LAND) {
			has = append(has, types.ExprString(ast.Unparen(c)))
		}
		if !slices.ContainsFunc(origDisjuncts, func(o ast.Expr) bool { return allIn(has, o) != "" }) {
			return false
		}
	}
	return true
}

// weakenedLast moves the candidates that weaken site's error check
// (guardWeakened) after the others, each group in its order.
func weakenedLast(site collect.Site, cands []candidate) []candidate {
	return weakenedLastOf(site, cands, func(candidate) bool { return true })
}

// weakenedLastOf is weakenedLast for the candidates of which applies
// holds; the others keep their places among those kept.
func weakenedLastOf(site collect.Site, cands []candidate, applies func(candidate) bool) []candidate {
	var kept, weak []candidate
	for _, c := range cands {
		if applies(c) && guardWeakened(site, c.src) {
			weak = append(weak, c)
		} else {
			kept = append(kept, c)
		}
	}
	return append(kept, weak...)
}

// antiPattern returns the rule c breaks at site and why, or "" when it
// breaks none. spec may be nil (no recorded states: the rules that need
// them are not checked).
func antiPattern(site collect.Site, spec *synth.Spec, c candidate) string {
	cand, err := parser.ParseExpr(c.src)
	if err != nil {
		return ""
	}
	// ruleUnrelated only ranks a candidate last: the rules that reject
	// are checked before it is returned.
	soft := ""
	what, testsError := errorGuard(site, cand)
	var orig ast.Expr
	if site.Kind == collect.Cond {
		orig, _ = parser.ParseExpr(site.Original)
	}
	known := valuesOf(site)
	if why := deadClause(cand, orig, known); why != "" {
		return why
	}
	if why := indexPastLength(cand); why != "" {
		return why
	}
	if why := nilPastCheck(cand); why != "" {
		return why
	}
	if orig != nil {
		if why := boundsAlone(orig, cand); why != "" {
			return why
		}
		if why := indexUnguarded(orig, cand); why != "" {
			return why
		}
		if why := mislabeled(site, orig, c.added); why != "" {
			return why
		}
		if why := elseShadowed(site, orig, cand, known); why != "" {
			return why
		}
		why := againstOriginal(site, orig, cand, what, testsError)
		if why != "" && !strings.HasPrefix(why, ruleUnrelated+":") {
			return why
		}
		soft = why
	}
	if c.term != nil && spec != nil {
		if why := againstStates(site, spec, c.term, c.method == "synthesis"); why != "" {
			return why
		}
		if what != "" && !testsError && !isNegation(site.Original, c.src) {
			if orig, err := synth.ParseTerm(spec, site.Original); err == nil {
				if d := unasked(spec, orig, c.term); d != "" {
					return fmt.Sprintf("guard-changed: the branch %s and the candidate changes when, where no test asks (%s)", what, d)
				}
			}
		}
	}
	return soft
}

// isNegation reports whether cand is the negation of the Go condition
// original (negate: a comparison flipped, a ! removed or added), or
// original with one of its comparisons flipped to its negation. A
// negation fits the recorded states only where each needs the other
// outcome than the original's, and it raises the error in every state
// the original did not: guard-changed does not apply (mux's URLHost:
// `r.regexp.host == nil` for `!= nil`, where no state has a nil host;
// the mutants' fallback drops that rule too, see fallbackMutants). With
// one clause flipped (`b64 == ""` for `b64 != ""` in a chain of checks
// that returns an error), the outcome changes exactly where that clause
// decides, in both directions: the failing tests ask for one. There the
// rule read, one step from a recorded state, states that cannot happen:
// x/mod's seeded note.Open, `err != nil || !isValidName(name) || b64 ==
// "" || len(sig) < 5`, was rejected for an empty b64 whose decoding has
// five bytes, and a clause swapped from || to && was printed.
func isNegation(original, cand string) bool {
	o, err := parser.ParseExpr(original)
	if err != nil {
		return false
	}
	c, err := parser.ParseExpr(cand)
	if err != nil {
		return false
	}
	want := types.ExprString(unparen(c))
	// One comparison flipped at a time, and flipped back; then the
	// whole negated (negate may change o: last).
	found := false
	ast.Inspect(o, func(n ast.Node) bool {
		b, ok := n.(*ast.BinaryExpr)
		if found || !ok || !comparison(b.Op) {
			return !found
		}
		op := b.Op
		b.Op, _ = synth.Negated(op)
		found = types.ExprString(unparen(o)) == want
		b.Op = op
		return !found
	})
	return found || types.ExprString(unparen(negate(o))) == want
}

// errorGuard says what the then-branch of a Cond site does when it panics
// or returns an error ("panics", "returns an error"), and "" otherwise;
// testsError reports that the candidate tests the error the branch
// returns: a branch that returns the error it was given (return nil,
// err) keeps its check when the candidate tests that error (len(b) == 0
// becoming err != nil does not delete the guard), but a clause added
// beside that test is still a new reason to leave (err != nil ||
// shouldOmitEmpty(...) returns nil, nil: the output cut short).
func errorGuard(site collect.Site, cand ast.Expr) (what string, testsError bool) {
	b := site.Then
	if b == nil || !b.Panics && !b.ReturnsError {
		return "", false
	}
	written := subexprs(cand)
	testsError = slices.ContainsFunc(b.Errors, func(e string) bool { return written[e+" != nil"] })
	if b.Panics {
		return "panics", testsError
	}
	return "returns an error", testsError
}

// againstExit checks the rule of a guard that reuses a return of its
// function (unrelated-reuse): when that return reports the value its own
// guard tests (return unstable.NewParserError(rest, ...) under
// len(rest) > 0), the new guard must read one of that guard's variables,
// or the error would report a value that has nothing to do with why it
// is raised.
func againstExit(site collect.Site, st style, c candidate) string {
	if st.name != "return" || st.strategy != collect.StrategyReuse && st.strategy != collect.StrategySibling {
		return ""
	}
	e, ok := exitOf(site, st.guard)
	if !ok || e.Guard == "" {
		return ""
	}
	guard, err := parser.ParseExpr(e.Guard)
	if err != nil {
		return ""
	}
	cand, err := parser.ParseExpr(c.src)
	if err != nil {
		return ""
	}
	guarded := namesOf(guard)
	var reported []string
	for _, n := range returnNames(e.Body) {
		if slices.Contains(guarded, n) {
			reported = append(reported, n)
		}
	}
	if slices.ContainsFunc(namesOf(cand), func(n string) bool { return slices.Contains(guarded, n) }) {
		return ""
	}
	if len(reported) > 0 {
		return fmt.Sprintf("unrelated-reuse: the return reused, `%s`, reports %s, which its own guard `%s` tests and the candidate does not read", e.Body, strings.Join(reported, ", "), e.Guard)
	}
	if msg := errorMessage(lastResult(e.Body)); msg != "" {
		return fmt.Sprintf("unrelated-reuse: the return reused, `%s`, says %s, why its own guard `%s` leaves, and the candidate reads none of that guard's variables", e.Body, msg, e.Guard)
	}
	return ""
}

// reasonAbsent checks the other half of unrelated-reuse: a new guard
// reuses a return whose error says why its own guard leaves (semver's
// errors.New("Version string empty") under len(s) == 0), and that guard,
// read over the recorded states of the site, holds at none of those
// where the candidate leaves: the error would give a reason that is not
// the one (`hasLeadingZeroes(s) && major != 0` reusing "Version string
// empty" in semver's seeded Parse). Not checked where a value that guard
// reads is not recorded at the site.
func reasonAbsent(site collect.Site, st style, spec *synth.Spec, c candidate) string {
	if spec == nil || c.term == nil || st.name != "return" || st.strategy != collect.StrategyReuse && st.strategy != collect.StrategySibling {
		return ""
	}
	e, ok := exitOf(site, st.guard)
	if !ok || e.Guard == "" {
		return ""
	}
	msg := errorMessage(lastResult(e.Body))
	if msg == "" {
		return ""
	}
	guard, err := synth.ParseTerm(spec, e.Guard)
	if err != nil {
		return ""
	}
	leaves := 0
	for i := range spec.Examples {
		ex := &spec.Examples[i]
		if !ex.Want {
			continue
		}
		v, err := guard.Eval(spec, ex)
		if err != nil || v.Missing || v.Kind != synth.Bool || v.Bool {
			return "" // unknown there, or the reason holds
		}
		leaves++
	}
	if leaves == 0 {
		return ""
	}
	return fmt.Sprintf("unrelated-reuse: the return reused, `%s`, says %s, why its own guard `%s` leaves, and that guard holds at none of the %s where the candidate leaves", e.Body, msg, e.Guard, plural(leaves, "recorded state"))
}

// errorMessage is the first string literal among the arguments of the
// call e (errors.New("Version string empty"), fmt.Errorf("bad %q", s)),
// "" when e is no such call.
func errorMessage(e ast.Expr) string {
	call, ok := e.(*ast.CallExpr)
	if !ok {
		return ""
	}
	for _, a := range call.Args {
		if lit, ok := a.(*ast.BasicLit); ok && lit.Kind == token.STRING {
			return lit.Value
		}
	}
	return ""
}

// errorReplaced checks the rule error-replaced: a new guard that leaves
// where an error x is not nil (x != nil, one of its disjuncts) and
// returns another error in its place, in a function whose own checks of
// x return x (a Cond site of the function, `x != nil`, whose branch
// returns x: collect.Branch.Errors). The error the call gave is dropped
// for one that says something else: semver's seeded Parse, its
// `if err != nil { return Version{}, err }` after ParseUint deleted, was
// "repaired" by `if err != nil { return Version{}, errors.New("Version
// string empty") }` at the function's end, a reused return whose own
// guard tests the input's length. A return that reads x (wraps it) or
// whose own guard reads x, and one whose error is nil, are not looked
// at; nor is a function that never returns x.
func errorReplaced(sites []collect.Site, site collect.Site, st style, c candidate) string {
	if site.Kind != collect.Guard || st.name != "return" {
		return ""
	}
	last := lastResult(st.exit)
	if last == nil {
		return ""
	}
	if id, ok := last.(*ast.Ident); ok && id.Name == "nil" {
		return ""
	}
	cand, err := parser.ParseExpr(c.src)
	if err != nil {
		return ""
	}
	var guardNames []string
	if e, ok := exitOf(site, st.guard); ok && e.Guard != "" {
		if g, err := parser.ParseExpr(e.Guard); err == nil {
			guardNames = namesOf(g)
		}
	}
	returned := namesOf(last)
	for _, d := range operandsOf(cand, token.LOR) {
		b, ok := ast.Unparen(d).(*ast.BinaryExpr)
		if !ok || b.Op != token.NEQ {
			continue
		}
		x, ok := b.X.(*ast.Ident)
		if y, isNil := b.Y.(*ast.Ident); !ok || !isNil || y.Name != "nil" {
			continue
		}
		if slices.Contains(returned, x.Name) || slices.Contains(guardNames, x.Name) {
			continue
		}
		for _, s := range sites {
			if s.Kind == collect.Cond && s.File == site.File && s.Func == site.Func && s.Then != nil &&
				slices.Contains(s.Then.Errors, x.Name) && strings.Contains(s.Original, x.Name+" != nil") {
				return fmt.Sprintf("error-replaced: %s leaves with `%s`, which drops %s for another error, where %s's own check `if %s` returns %s", c.src, st.exit, x.Name, site.Func, oneLine(s.Original), x.Name)
			}
		}
	}
	return ""
}

// boundElsewhere checks the rule bound-elsewhere: a candidate at a
// condition reads a value (date.Month == 13, date.Day < date.Month) that
// the original condition does not read, where an earlier if of the same
// function already compares that value with a literal (`if date.Month < 1
// || date.Month > 13 { return ... }`). That earlier bound is where the
// fault most likely is: the clause moves its check to a later place that
// happens to run for the failing tests' inputs (go-toml's seeded
// parseLocalDate, dev77: the month's bound 13 for 12, patched into the
// day's check). Rejected, so that the search goes on to the earlier
// condition.
//
// The same at a guard around a statement that indexes with a value an
// enclosing if bounds with a literal (`if pe.Position.Line > 1 { ...
// lines[pe.Position.Line-3] ... }`): the guard would keep the index from
// panicking where the enclosing bound lets it in too early (toml's seeded
// ParseError.ErrorWithPosition, dev77: `if len(lines) > 3 { ... }` for
// the bound 2 made 1).
func boundElsewhere(sites []collect.Site, site collect.Site, st style, c candidate) string {
	if site.Kind == collect.Guard && st.guard == collect.GuardWrap {
		return boundAround(site, c)
	}
	if site.Kind != collect.Cond {
		return ""
	}
	orig, err := parser.ParseExpr(site.Original)
	if err != nil {
		return ""
	}
	cand, err := parser.ParseExpr(c.src)
	if err != nil {
		return ""
	}
	for _, x := range operands(cand) {
		if reads(orig, x) {
			continue
		}
		for _, s := range sites {
			if s.Kind != collect.Cond || s.File != site.File || s.Func != site.Func || s.Line >= site.Line {
				continue
			}
			if slices.Contains(boundedBy(s.Original), x) {
				return fmt.Sprintf("bound-elsewhere: %s tests %s, which the original does not read and the earlier `if %s` (line %d) bounds: a fix of that bound belongs there", c.src, x, oneLine(s.Original), s.Line)
			}
		}
	}
	return ""
}

// boundAround is boundElsewhere at a guard around a statement: the
// statement indexes (or slices) with a value that a condition holding
// there (Site.Holds) compares with a literal.
func boundAround(site collect.Site, c candidate) string {
	body := parseStmts(site.Original)
	if body == nil {
		return ""
	}
	for _, h := range site.Holds {
		for _, x := range boundedBy(h) {
			found := false
			ast.Inspect(body, func(n ast.Node) bool {
				var idx []ast.Expr
				switch n := n.(type) {
				case *ast.IndexExpr:
					idx = []ast.Expr{n.Index}
				case *ast.SliceExpr:
					idx = []ast.Expr{n.Low, n.High}
				}
				for _, e := range idx {
					found = found || e != nil && reads(e, x)
				}
				return !found
			})
			if found {
				return fmt.Sprintf("bound-elsewhere: %s keeps `%s` from indexing with %s, which the enclosing `if %s` bounds: a fix of that bound belongs there", c.src, oneLine(site.Original), x, h)
			}
		}
	}
	return ""
}

// boundedBy are the operands that the comparisons of src compare with a
// literal, as written.
func boundedBy(src string) []string {
	var out []string
	for _, b := range comparisonsOf(src) {
		x, y := ast.Unparen(b.X), ast.Unparen(b.Y)
		switch {
		case isLiteral(y) && !isLiteral(x):
			out = append(out, types.ExprString(x))
		case isLiteral(x) && !isLiteral(y):
			out = append(out, types.ExprString(y))
		}
	}
	return out
}

// inventedLengths checks the rule length-relation: the candidate compares
// the lengths of two values (len(s) > len(b)) that neither the original
// condition nor any other condition of its file compares. Two lengths
// the tests' states happen to order are no relation the code has: over
// every run kept in benchmarks/results, nopol printed four such patches,
// all wrong (go-toml's appendValue `opts.multiline && len(s) > len(b)`,
// ini's MustFloat64 `len(defaultVal) == len(k.value)`), and every
// correct patch comparing two lengths kept a comparison of the original
// (`len(item.Keys) < len(keys)` for `>`). Counts are lengths too: go-cmp's
// compareStruct took a new guard `t.NumField() != len(s.opts) &&
// t.NumField() <= len(s.exporters)`, the number of a struct's fields
// against the number of options.
func inventedLengths(sites []collect.Site, site collect.Site, c candidate) string {
	// A pair is the two values whose lengths a comparison compares, in
	// order, and the comparison's operands as written.
	type pair struct{ key, x, y string }
	pairs := func(src string) (out []pair) {
		for _, b := range comparisonsOf(src) {
			x, okX := lengthRead(b.X)
			y, okY := lengthRead(b.Y)
			if okX && okY && x != y {
				out = append(out, pair{min(x, y) + "\x00" + max(x, y), types.ExprString(b.X), types.ExprString(b.Y)})
			}
		}
		return out
	}
	cand := pairs(c.src)
	if len(cand) == 0 {
		return ""
	}
	written := map[string]bool{}
	for _, p := range pairs(site.Original) {
		written[p.key] = true
	}
	for _, s := range sites {
		if s.Kind == collect.Cond && s.File == site.File {
			for _, p := range pairs(s.Original) {
				written[p.key] = true
			}
		}
	}
	for _, p := range cand {
		if !written[p.key] {
			return fmt.Sprintf("length-relation: %s compares %s with %s, which no condition of the file compares", c.src, p.x, p.y)
		}
	}
	return ""
}

// inventedArithmetic checks the rule invented-arithmetic: the candidate
// computes a term of two operands, neither a literal (len(s.opts) -
// len(s.exporters), numContextRecords * len(s.curPath)), that no
// expression of its file computes (written: the file's terms,
// arithmeticTerms). The solver combines whatever values the states hold
// until one sum or product orders them as the tests need; over every run
// kept in benchmarks/results (training and dev bugs) and 35 real bugs
// mined fresh (real78), nopol printed seven such conditions, all wrong
// (go-toml's `len(b) - len(table.Key) < len(table.Key)`, uniseg's
// `firstProp + graphemeState + len(b) >= gcMn`); every correct
// synthesized condition with arithmetic took a literal (`totalFields -
// 1`).
func inventedArithmetic(written map[string]bool, c candidate) string {
	cand, err := parser.ParseExpr(c.src)
	if err != nil {
		return ""
	}
	why := ""
	ast.Inspect(cand, func(n ast.Node) bool {
		b, ok := n.(*ast.BinaryExpr)
		if !ok || why != "" || !isArithmetic(b.Op) || isLiteral(ast.Unparen(b.X)) || isLiteral(ast.Unparen(b.Y)) {
			return why == ""
		}
		if key := arithmeticKey(b); !written[key] {
			why = fmt.Sprintf("invented-arithmetic: %s computes %s, which its file never computes", c.src, types.ExprString(b))
		}
		return why == ""
	})
	return why
}

// arithmeticTerms are the keys (arithmeticKey) of the terms of two
// operands, neither a literal, that the expressions of file compute.
func arithmeticTerms(file *ast.File) map[string]bool {
	out := map[string]bool{}
	ast.Inspect(file, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.BinaryExpr:
			if isArithmetic(n.Op) {
				out[arithmeticKey(n)] = true
			}
		case *ast.AssignStmt:
			// x -= y computes x - y.
			if op, ok := assignOps[n.Tok]; ok && len(n.Lhs) == 1 && len(n.Rhs) == 1 {
				out[arithmeticKey(&ast.BinaryExpr{X: n.Lhs[0], Op: op, Y: n.Rhs[0]})] = true
			}
		}
		return true
	})
	return out
}

// assignOps are the arithmetic operators of the assignments that apply one.
var assignOps = map[token.Token]token.Token{
	token.ADD_ASSIGN: token.ADD, token.SUB_ASSIGN: token.SUB, token.MUL_ASSIGN: token.MUL,
	token.QUO_ASSIGN: token.QUO, token.REM_ASSIGN: token.REM, token.SHL_ASSIGN: token.SHL, token.SHR_ASSIGN: token.SHR,
}

// arithmeticKey is the operator and the operands of b as printed, the
// operands in order for + and * (a + b and b + a are one term).
func arithmeticKey(b *ast.BinaryExpr) string {
	x, y := types.ExprString(ast.Unparen(b.X)), types.ExprString(ast.Unparen(b.Y))
	if (b.Op == token.ADD || b.Op == token.MUL) && y < x {
		x, y = y, x
	}
	return b.Op.String() + "\x00" + x + "\x00" + y
}

func isArithmetic(op token.Token) bool {
	switch op {
	case token.ADD, token.SUB, token.MUL, token.QUO, token.REM, token.SHL, token.SHR:
		return true
	}
	return false
}

// lengthRead returns x for e, len(x) or x.Len() (reflect.Value's, a
// buffer's: the method of that name with no arguments), and x.NumField
// for a count x.NumField() (reflect's NumField, NumMethod, NumIn,
// NumOut; go-cmp's NumDiff: a method named Num and a capital, with no
// arguments), the size of another collection than x's own.
func lengthRead(e ast.Expr) (string, bool) {
	if x, ok := builtinArg(e, "len"); ok {
		return x, true
	}
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok || len(call.Args) != 0 {
		return "", false
	}
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok {
		return "", false
	}
	switch name := sel.Sel.Name; {
	case name == "Len":
		return types.ExprString(ast.Unparen(sel.X)), true
	case len(name) > 3 && strings.HasPrefix(name, "Num") && unicode.IsUpper(rune(name[3])):
		return types.ExprString(ast.Unparen(sel.X)) + "." + name, true
	}
	return "", false
}

// lastResult is the last result of exit, a return statement; nil for
// any other statement or a bare return.
func lastResult(exit string) ast.Expr {
	b := parseStmts(exit)
	if b == nil || len(b.List) != 1 {
		return nil
	}
	ret, ok := b.List[0].(*ast.ReturnStmt)
	if !ok || len(ret.Results) == 0 {
		return nil
	}
	return ret.Results[len(ret.Results)-1]
}

// againstGuard checks the rules of a new guard: trivial-condition for
// every style, conditional-deletion for a guard around the statement.
// needed reports that a passing test fails with the statement skipped
// (repairer.needed): a guard around it that reads what it assigns is
// then a conditional update.
func againstGuard(site collect.Site, st style, c candidate, needed bool) string {
	if site.Kind != collect.Guard || st.name != "guard" && st.name != "return" {
		return ""
	}
	cand, err := parser.ParseExpr(c.src)
	if err != nil {
		return ""
	}
	if held := allIn(site.Holds, cand); held != "" {
		return fmt.Sprintf("trivial-condition: %s always holds at `%s` (it is inside `if %s`): the guard always leaves", c.src, oneLine(site.Original), held)
	}
	if shadowed := allIn(site.IfConds, cand); shadowed != "" {
		return fmt.Sprintf("trivial-condition: %s holds wherever the branch of `%s` runs: the guard leaves first, so it replaces the branch", c.src, oneLine(site.Original))
	}
	if st.name == "return" && len(site.DeadAfter) > 0 && holdsWhereNot(site.IfConds, cand) {
		return fmt.Sprintf("dead-after: %s leaves wherever `%s` does not, and that if leaves: %s after it would never run", c.src, oneLine(site.Original), strings.Join(site.DeadAfter, "; "))
	}
	if st.name == "return" && len(site.SkippedChecks) > 0 && leavesWithoutError(st.exit) {
		return fmt.Sprintf("checks-skipped: %s leaves with `%s` before `%s`: it accepts what the enclosing check rejects, and skips the checks after it (%s)", c.src, st.exit, oneLine(site.Original), strings.Join(site.SkippedChecks, "; "))
	}
	if st.name != "guard" {
		return ""
	}
	derefs, risky := stmtOperands(site.Original)
	nilTested, lenTested := protected(cand)
	if slices.ContainsFunc(nilTested, func(x string) bool { return risky[x] }) ||
		slices.ContainsFunc(lenTested, func(x string) bool { return slices.Contains(derefs, x) }) {
		return ""
	}
	if needed && readsAssigned(site.Original, c.src) {
		return "" // a conditional update (gorilla/mux: if match.MatchErr == ErrNotFound { match.MatchErr = nil })
	}
	what := "the statement dereferences nothing"
	if len(derefs) > 0 {
		what = "it tests neither the nil-ness nor the length of " + strings.Join(derefs, ", ")
	}
	return fmt.Sprintf(ruleConditionalDeletion+": %s would skip `%s` without guarding it against a panic of its own (%s)", c.src, oneLine(site.Original), what)
}

// holdsWhereNot reports whether cand holds wherever the conjunction of
// conds does not (not conds implies cand): for each conjunct, where it is
// false, one of cand's disjuncts has each of its conjuncts among what
// that establishes (the conjunct negated, the negations of its
// disjuncts; x == nil also gives len(x) == 0). A syntactic test: an
// implication it cannot see is not reported.
func holdsWhereNot(conds []string, cand ast.Expr) bool {
	if len(conds) == 0 {
		return false
	}
	var disjuncts [][]string
	for _, d := range operandsOf(cand, token.LOR) {
		var cs []string
		for _, c := range operandsOf(d, token.LAND) {
			cs = append(cs, canonicalAtom(c))
		}
		disjuncts = append(disjuncts, cs)
	}
	for _, src := range conds {
		c, err := parser.ParseExpr(src)
		if err != nil {
			return false
		}
		facts := map[string]bool{}
		for _, d := range operandsOf(c, token.LOR) {
			f := canonicalAtom(negate(d))
			facts[f] = true
			if x, ok := strings.CutSuffix(f, " == nil"); ok {
				facts["len("+x+") == 0"] = true
			}
		}
		if !slices.ContainsFunc(disjuncts, func(cs []string) bool {
			return !slices.ContainsFunc(cs, func(a string) bool { return !facts[a] })
		}) {
			return false
		}
	}
	return true
}

// canonicalAtom writes a comparison as holdsWhereNot compares them: nil
// and a length's bound on the right, len(x) < 1 and len(x) <= 0 as
// len(x) == 0, len(x) > 0 and len(x) >= 1 as len(x) != 0.
func canonicalAtom(e ast.Expr) string {
	e = unparen(e)
	b, ok := e.(*ast.BinaryExpr)
	if !ok || !comparison(b.Op) {
		return types.ExprString(e)
	}
	x, op, y := unparen(b.X), b.Op, unparen(b.Y)
	if id, ok := x.(*ast.Ident); ok && id.Name == "nil" || isLiteral(x) {
		x, op, y = y, mirrored(op), x
	}
	if call, ok := x.(*ast.CallExpr); ok {
		if f, ok := call.Fun.(*ast.Ident); ok && f.Name == "len" && len(call.Args) == 1 {
			if lit, ok := y.(*ast.BasicLit); ok {
				switch {
				case op == token.LSS && lit.Value == "1", op == token.LEQ && lit.Value == "0":
					op, y = token.EQL, &ast.BasicLit{Kind: token.INT, Value: "0"}
				case op == token.GTR && lit.Value == "0", op == token.GEQ && lit.Value == "1":
					op, y = token.NEQ, &ast.BasicLit{Kind: token.INT, Value: "0"}
				}
			}
		}
	}
	return types.ExprString(&ast.BinaryExpr{X: x, Op: op, Y: y})
}

// readsAssigned reports whether cond reads a variable, field or
// element that stmt, an assignment, writes: a guard that decides from a
// value whether to overwrite it is a conditional update (if x > max {
// max = x }), not a statement deleted where a test does not look. Only
// a plain assignment: total += x always reads total.
func readsAssigned(stmt, cond string) bool {
	body := parseStmts(stmt)
	c, err := parser.ParseExpr(cond)
	if body == nil || len(body.List) != 1 || err != nil {
		return false
	}
	as, ok := body.List[0].(*ast.AssignStmt)
	if !ok || as.Tok != token.ASSIGN {
		return false // total += x reads total: no update decided by its old value
	}
	written := map[string]bool{}
	for _, l := range as.Lhs {
		written[types.ExprString(ast.Unparen(l))] = true
	}
	found := false
	ast.Inspect(c, func(n ast.Node) bool {
		if e, ok := n.(ast.Expr); ok && written[types.ExprString(ast.Unparen(e))] {
			found = true
		}
		return !found
	})
	return found
}

// leavesWithoutError reports whether exit is a return whose last result
// is nil (return nil, return 0, nil).
func leavesWithoutError(exit string) bool {
	id, ok := lastResult(exit).(*ast.Ident)
	return ok && id.Name == "nil"
}

// allIn returns cand, as written from its conjuncts, when every conjunct
// of cand is one of conds; "" otherwise.
func allIn(conds []string, cand ast.Expr) string {
	if len(conds) == 0 {
		return ""
	}
	var in []string
	for _, c := range operandsOf(cand, token.LAND) {
		s := types.ExprString(ast.Unparen(c))
		if !slices.Contains(conds, s) {
			return ""
		}
		in = append(in, s)
	}
	return strings.Join(in, " && ")
}

// protected lists what cand guards against a panic: the expressions it
// compares with nil or tests with IsNil (x.IsNil(), isNil(x)), and those
// it takes the len of.
func protected(cand ast.Expr) (nilTested, lenTested []string) {
	for x := range nilChecks(cand) {
		nilTested = append(nilTested, x)
	}
	ast.Inspect(cand, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		switch f := ast.Unparen(call.Fun).(type) {
		case *ast.Ident:
			if len(call.Args) != 1 {
				break
			}
			arg := types.ExprString(ast.Unparen(call.Args[0]))
			if f.Name == "len" {
				lenTested = append(lenTested, arg)
			} else if strings.EqualFold(f.Name, "isNil") {
				nilTested = append(nilTested, arg)
			}
		case *ast.SelectorExpr:
			if f.Sel.Name == "IsNil" && len(call.Args) == 0 {
				nilTested = append(nilTested, types.ExprString(ast.Unparen(f.X)))
			}
		}
		return true
	})
	return nilTested, lenTested
}

// stmtOperands reads statement src: derefs are what it dereferences,
// indexes or slices, as written (x in x.f, x.m(), *x, x[i], x[i:j]; a.b
// in a.b.c); risky are the values a nil would make it panic on: those,
// and the arguments of its calls (v in reflect.TypeOf(v).String()). A
// value it only copies is not risky: r.handler in match.Handler =
// r.handler. Nothing when src does not parse.
func stmtOperands(src string) (derefs []string, risky map[string]bool) {
	risky = map[string]bool{}
	body := parseStmts(src)
	if body == nil {
		return nil, risky
	}
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.SelectorExpr:
			derefs = appendNew(derefs, n.X)
		case *ast.IndexExpr:
			derefs = appendNew(derefs, n.X)
		case *ast.SliceExpr:
			derefs = appendNew(derefs, n.X)
		case *ast.StarExpr:
			derefs = appendNew(derefs, n.X)
		case *ast.CallExpr:
			for _, a := range n.Args {
				risky[types.ExprString(ast.Unparen(a))] = true
			}
		}
		return true
	})
	for _, d := range derefs {
		risky[d] = true
	}
	return derefs, risky
}

// appendNew appends x as written to list unless it is there.
func appendNew(list []string, x ast.Expr) []string {
	if s := types.ExprString(ast.Unparen(x)); !slices.Contains(list, s) {
		return append(list, s)
	}
	return list
}

// parseStmts parses src, statements as a site or an exit writes them,
// as the body of a function; nil when it does not parse.
func parseStmts(src string) *ast.BlockStmt {
	f, err := parser.ParseFile(token.NewFileSet(), "", "package p\nfunc _() {\n"+src+"\n}", parser.SkipObjectResolution)
	if err != nil || len(f.Decls) == 0 {
		return nil
	}
	fd, ok := f.Decls[0].(*ast.FuncDecl)
	if !ok {
		return nil
	}
	return fd.Body
}

// returnNames lists the variables a return statement's results read (see
// namesOf); none when body does not parse.
func returnNames(body string) []string {
	block := parseStmts(body)
	if block == nil || len(block.List) == 0 {
		return nil
	}
	ret, ok := block.List[0].(*ast.ReturnStmt)
	if !ok {
		return nil
	}
	var out []string
	for _, r := range ret.Results {
		for _, n := range namesOf(r) {
			if !slices.Contains(out, n) {
				out = append(out, n)
			}
		}
	}
	return out
}

// isAlternate reports whether src is site's original with an operand
// replaced by an alternate the function writes (collect.Site.Alternates),
// in any layout.
func isAlternate(site collect.Site, src string) bool {
	n := normalExpr(src)
	return slices.ContainsFunc(site.Alternates, func(a string) bool { return normalExpr(a) == n })
}

// againstOriginal checks the rules that compare cand with the original
// condition orig; what and testsError are errorGuard's.
func againstOriginal(site collect.Site, orig, cand ast.Expr, what string, testsError bool) string {
	// What the candidate tests is what its outcome depends on:
	// strict && len(s) > 1 || strict tests strict alone.
	written := map[string]bool{}
	for _, a := range dependentAtoms(cand) {
		maps.Copy(written, subexprs(a))
	}
	// An alternate the function writes in place of an operand
	// (collect.Site.Alternates) still tests what the original tested,
	// through the value the code ties to it.
	if what != "" && !testsError && !isAlternate(site, types.ExprString(cand)) {
		for _, op := range operands(orig) {
			if !written[op] {
				return fmt.Sprintf(ruleGuardDeleted+": the branch %s and the candidate no longer tests %s", what, op)
			}
		}
	}
	if what != "" {
		if shared := namesOf(orig); len(shared) > 0 {
			for _, d := range operandsOf(cand, token.LOR) {
				if isReturnedErrorTest(site, d) {
					continue // the test of the error the branch returns
				}
				if !slices.ContainsFunc(namesOf(d), func(n string) bool { return slices.Contains(shared, n) }) {
					return fmt.Sprintf("unrelated-clause: the branch %s and the candidate adds a reason for it, %s, that reads none of the original's variables (%s)", what, types.ExprString(d), strings.Join(shared, ", "))
				}
			}
		}
	}
	if why := charRange(orig, cand); why != "" {
		return why
	}
	if why := classEnd(orig, cand); why != "" {
		return why
	}
	if why := rangeUnion(orig, cand); why != "" {
		return why
	}
	if why := enumRange(site, orig, cand); why != "" {
		return why
	}
	candNil := nilChecks(cand)
	for x := range candNil {
		if !written[x+" == nil"] && !written[x+" != nil"] {
			delete(candNil, x)
		}
	}
	for x, op := range nilChecks(orig) {
		if _, kept := candNil[x]; kept || site.Then == nil {
			continue
		}
		if op == token.NEQ && slices.Contains(site.Then.Derefs, x) {
			return fmt.Sprintf("nil-check-dropped: %s != nil protects the branch's dereference of %s", x, x)
		}
		if op == token.EQL && site.Then.Exits {
			return fmt.Sprintf("nil-check-dropped: %s == nil leaves before the code that follows uses %s", x, x)
		}
	}
	if site.Then != nil {
		for _, x := range site.Then.NilUsed {
			if impliesNotNil(orig, x) && !impliesNotNil(cand, x) {
				return fmt.Sprintf("nil-check-dropped: the original holds only where %s != nil, the branch uses %s, and the candidate holds where it may be nil", x, x)
			}
		}
	}
	if why := lengthCheckDropped(site, orig, cand); why != "" {
		return why
	}
	if why := indexAfterUnguarded(site, orig, cand); why != "" {
		return why
	}
	if why := signCheckDropped(site, orig, cand); why != "" {
		return why
	}
	if why := upperCheckDropped(site, orig, cand); why != "" {
		return why
	}
	if why := decrementUnguarded(site, orig, cand); why != "" {
		return why
	}
	// Last: the one rule that ranks instead of rejecting. A test of the
	// error the branch returns is related to it whatever the original
	// tested (`err != nil` for `len(b) == 0` before `return 0, nil, err`).
	if shared := namesOf(orig); len(shared) > 0 && !testsReturnedError(site, cand) {
		if !slices.ContainsFunc(namesOf(cand), func(n string) bool { return slices.Contains(shared, n) }) {
			return ruleUnrelated + ": shares none of the original's variables (" + strings.Join(shared, ", ") + ")"
		}
	}
	return ""
}

// isReturnedErrorTest reports whether d is `e != nil` for an error e the
// branch of site returns.
func isReturnedErrorTest(site collect.Site, d ast.Expr) bool {
	return site.Then != nil && slices.ContainsFunc(site.Then.Errors, func(e string) bool { return types.ExprString(d) == e+" != nil" })
}

// testsReturnedError reports whether a clause of cand's disjunction is
// the test of an error the branch of site returns (isReturnedErrorTest).
func testsReturnedError(site collect.Site, cand ast.Expr) bool {
	return slices.ContainsFunc(operandsOf(cand, token.LOR), func(d ast.Expr) bool { return isReturnedErrorTest(site, d) })
}

// charRange checks the rule char-range: the original tests x for equality
// with a character ('T'), the candidate orders x against that character
// (x <= 'T'), and neither orders x against a character on the other side:
// a test of one character became every character below (or above) it,
// digits, punctuation and control characters among them. A maintainer
// writes a range of characters with both ends ('0' <= c && c <= '9').
func charRange(orig, cand ast.Expr) string {
	equal := map[string]bool{} // x + " " + 'c', tested for equality in orig
	for _, b := range charComparisons(orig) {
		if b.Op == token.EQL || b.Op == token.NEQ {
			equal[b.x+" "+b.lit] = true
		}
	}
	if len(equal) == 0 {
		return ""
	}
	// ends[x]: the directions x is bounded in (0 above, 1 below).
	ends := map[string][2]bool{}
	for _, e := range []ast.Expr{orig, cand} {
		for _, b := range charComparisons(e) {
			if d, ok := b.direction(); ok {
				v := ends[b.x]
				v[d] = true
				ends[b.x] = v
			}
		}
	}
	for _, b := range charComparisons(cand) {
		if _, ok := b.direction(); !ok || !equal[b.x+" "+b.lit] {
			continue
		}
		if v := ends[b.x]; !v[0] || !v[1] {
			return fmt.Sprintf("char-range: %s turns the test of %s for the character %s into a range of characters with one end", types.ExprString(b.BinaryExpr), b.x, b.lit)
		}
	}
	return ""
}

// charClasses are the ranges of characters code tests by both ends:
// digits, letters of either case, hexadecimal letters.
var charClasses = [][2]rune{{'0', '9'}, {'a', 'z'}, {'A', 'Z'}, {'a', 'f'}, {'A', 'F'}}

// classEnd checks the rule char-class: the candidate tests x against both
// ends of a class of characters (charClasses) and leaves one end out
// where it tests x inside the class ('A' <= r && r < 'Z'), or takes it in
// where it tests x outside (r < '0' || r >= '9'), and the original does
// not have that comparison: a maintainer writes a class with both ends
// in ('A' <= r && r <= 'Z') or both out (r < '0' || r > '9'). The
// states rarely tell: no test has the last letter (x/mod's seeded
// escapeString, `'A' <= r` with its upper end dropped, was "repaired"
// by `'A' <= r && r < 'Z'`).
func classEnd(orig, cand ast.Expr) string {
	had := map[string]bool{}
	for _, b := range charComparisons(orig) {
		had[types.ExprString(b.BinaryExpr)] = true
	}
	runeOf := func(lit string) (rune, bool) {
		s, err := strconv.Unquote(lit)
		r := []rune(s)
		if err != nil || len(r) != 1 {
			return 0, false
		}
		return r[0], true
	}
	cs := charComparisons(cand)
	for _, b := range cs {
		d, ok := b.direction()
		r, isRune := runeOf(b.lit)
		if !ok || !isRune || had[types.ExprString(b.BinaryExpr)] {
			continue
		}
		for _, cl := range charClasses {
			if r != cl[0] && r != cl[1] {
				continue
			}
			other := cl[0] + cl[1] - r
			if !slices.ContainsFunc(cs, func(o litComparison) bool {
				ro, isRune := runeOf(o.lit)
				_, ordered := o.direction()
				return isRune && ordered && ro == other && o.x == b.x
			}) {
				continue
			}
			// The class's inside: its first end bounds x from below, its
			// last from above.
			inside := (r == cl[0]) == (d == 1)
			if strict := b.Op == token.LSS || b.Op == token.GTR; inside == strict {
				what := "leaves out"
				if !inside {
					what = "takes in"
				}
				return fmt.Sprintf("char-class: %s %s the end %s of the characters %s to %s: a class is tested with both ends in (%s <= %s && %s <= %s) or both out (%s < %s || %s > %s)",
					types.ExprString(b.BinaryExpr), what, b.lit, strconv.QuoteRune(cl[0]), strconv.QuoteRune(cl[1]),
					strconv.QuoteRune(cl[0]), b.x, b.x, strconv.QuoteRune(cl[1]), b.x, strconv.QuoteRune(cl[0]), b.x, strconv.QuoteRune(cl[1]))
			}
		}
	}
	return ""
}

// orderings lists, per value, the values the orderings among ops bound it by
// from below (lower) and from above, as printed: `1 <= t` bounds t from
// below by 1, and 1 from above by t.
type orderings struct{ lower, upper map[string][]string }

func orderingsOf(ops []ast.Expr) orderings {
	bs := orderings{map[string][]string{}, map[string][]string{}}
	for _, o := range ops {
		b, ok := ast.Unparen(o).(*ast.BinaryExpr)
		if !ok {
			continue
		}
		x, y := types.ExprString(ast.Unparen(b.X)), types.ExprString(ast.Unparen(b.Y))
		switch b.Op {
		case token.LSS, token.LEQ: // x below y
			bs.upper[x] = append(bs.upper[x], y)
			bs.lower[y] = append(bs.lower[y], x)
		case token.GTR, token.GEQ:
			bs.lower[x] = append(bs.lower[x], y)
			bs.upper[y] = append(bs.upper[y], x)
		}
	}
	return bs
}

// rangeUnion checks the rule range-union: the original bounds x from
// below by lo and from above by hi in a chain of && (a range, lo <= x &&
// x < hi), and the candidate joins a lower
// bound of x by lo and an upper bound by hi with ||: it holds for every x
// wherever lo <= hi, the range test gone (hcl's seeded Type.String,
// `1 <= t && t < Type(len(tokens))` for 0 <= t, was "repaired" by `1 <=
// t || t < Type(len(tokens))`).
func rangeUnion(orig, cand ast.Expr) string {
	// The original's ranges: the bounds its && chains put on a value.
	var ranges []ast.Expr
	ast.Inspect(orig, func(n ast.Node) bool {
		if b, ok := n.(*ast.BinaryExpr); ok && b.Op == token.LAND {
			ranges = append(ranges, operandsOf(b, token.LAND)...)
		}
		return true
	})
	ob := orderingsOf(ranges)
	why := ""
	ast.Inspect(cand, func(n ast.Node) bool {
		b, ok := n.(*ast.BinaryExpr)
		if why != "" || !ok || b.Op != token.LOR {
			return why == ""
		}
		cb := orderingsOf(operandsOf(b, token.LOR))
		for x, los := range cb.lower {
			for _, lo := range los {
				for _, hi := range cb.upper[x] {
					if slices.Contains(ob.lower[x], lo) && slices.Contains(ob.upper[x], hi) {
						why = fmt.Sprintf("range-union: %s is bounded from below by %s or from above by %s: every %s passes wherever %s <= %s, where the original tests a range", x, lo, hi, x, lo, hi)
						return false
					}
				}
			}
		}
		return true
	})
	return why
}

// enumRange checks the rule enum-range: the candidate orders a value
// against a name of an enumeration (collect.Site.EnumNames) that the
// original only tests for equality: nextProperty == prMidLetter made
// nextProperty <= prMidLetter takes in every name declared before
// prMidLetter, whatever it stands for (uniseg's seeded fault was
// elsewhere; the mutant passed a suite that did not tell). The order of
// an iota group is the order its names were written in.
func enumRange(site collect.Site, orig, cand ast.Expr) string {
	if len(site.EnumNames) == 0 {
		return ""
	}
	ordered := func(e ast.Expr) map[string]*ast.BinaryExpr {
		out := map[string]*ast.BinaryExpr{}
		ast.Inspect(e, func(n ast.Node) bool {
			b, ok := n.(*ast.BinaryExpr)
			if !ok || !comparison(b.Op) || equality(b.Op) {
				return true
			}
			for _, x := range []ast.Expr{b.X, b.Y} {
				if name := types.ExprString(ast.Unparen(x)); slices.Contains(site.EnumNames, name) {
					out[name] = b
				}
			}
			return true
		})
		return out
	}
	before, after := ordered(orig), ordered(cand)
	for _, name := range site.EnumNames {
		if b := after[name]; b != nil && before[name] == nil {
			return fmt.Sprintf("enum-range: %s orders a value against %s, a name of an enumeration the original tests for equality only: every name declared on one side of it is taken in", types.ExprString(b), name)
		}
	}
	return ""
}

// charOfNumber is the rule char-mismatch: n orders other, an input the
// original condition compares with a number (an index, a count: i < 0),
// against c, a character literal of the code ('\n'), and the code has that
// value as no other constant: bytes.IndexByte(line, '\n') < '\n' reads
// the character as a number. A character held in an int (a lexer's ch)
// is compared with characters, not numbers, and keeps them.
func charOfNumber(site collect.Site, spec *synth.Spec, n *synth.Term, c synth.Constant, other *synth.Term) string {
	if n.Op == synth.OpEq || n.Op == synth.OpNe || !strings.HasPrefix(c.Expr, "'") || other.Op != synth.OpInput || spec.Inputs[other.Index].Char {
		return ""
	}
	if slices.ContainsFunc(spec.Constants, func(d synth.Constant) bool { return d.Value == c.Value && !strings.HasPrefix(d.Expr, "'") }) {
		return ""
	}
	if !comparedWithNumber(site.Original, spec.Inputs[other.Index].Expr) {
		return ""
	}
	return fmt.Sprintf("char-mismatch: %s orders %s, which the original compares with a number, against the character %s", n.Source(spec), other.Source(spec), c.Expr)
}

// enumOrder is the rule enum-order: synthesized, n orders other, a value
// whose values have names (reflect.Kind), against c, one of those names,
// and the original condition orders it against nothing: k <=
// reflect.Slice && k >= reflect.Array for a slice or an array holds for
// the kinds declared between them (Chan, Func, Interface, Map, Pointer),
// which no recorded state has. The same states fit k == reflect.Slice ||
// k == reflect.Array; the rule makes room for it among synthesis's
// candidates.
func enumOrder(site collect.Site, spec *synth.Spec, n *synth.Term, c synth.Constant, other *synth.Term, synthesized bool) string {
	if !synthesized || n.Op == synth.OpEq || n.Op == synth.OpNe || other.Op != synth.OpInput {
		return ""
	}
	x := spec.Inputs[other.Index].Expr
	if !isEnumInput(site, x) || orders(site.Original, x) {
		return ""
	}
	return fmt.Sprintf("enum-order: %s orders %s, whose values have names, against %s: the names declared between the bounds are in the range too, and no recorded state has them", n.Source(spec), x, c.Expr)
}

// enumMismatch is the rule enum-mismatch: n compares other, an input
// the function compares with names of some enumerations of the package
// only (collect.Observed.Groups), with c, a name of another enumeration:
// uniseg's untyped gcPe, a general category, against the sentence-break
// state its function compares with sbAny's names (`state == gcPe`
// printed for uniseg's seeded transitionSentenceBreakState). Two groups'
// names are numbers that compare, and a value of one fits the tests'
// states where it happens to equal a value of the other.
func enumMismatch(site collect.Site, spec *synth.Spec, n *synth.Term, c synth.Constant, other *synth.Term) string {
	if other.Op != synth.OpInput {
		return ""
	}
	i := slices.IndexFunc(site.Constants, func(k collect.Constant) bool { return k.Expr == c.Expr })
	if i < 0 || site.Constants[i].Group == "" {
		return ""
	}
	x := spec.Inputs[other.Index].Expr
	j := slices.IndexFunc(site.Observed, func(o collect.Observed) bool { return o.Expr == x })
	if j < 0 || len(site.Observed[j].Groups) == 0 || slices.Contains(site.Observed[j].Groups, site.Constants[i].Group) {
		return ""
	}
	return fmt.Sprintf("enum-mismatch: %s compares %s, which the function compares with names of %s's enumeration, with %s, a name of %s's", n.Source(spec), x, strings.Join(site.Observed[j].Groups, ", "), c.Expr, site.Constants[i].Group)
}

// orders reports whether the condition src orders the expression x
// (x < y, y >= x).
func orders(src, x string) bool {
	e, err := parser.ParseExpr(src)
	if err != nil {
		return false
	}
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		b, ok := n.(*ast.BinaryExpr)
		if ok && comparison(b.Op) && b.Op != token.EQL && b.Op != token.NEQ &&
			(types.ExprString(unparen(b.X)) == x || types.ExprString(unparen(b.Y)) == x) {
			found = true
		}
		return !found
	})
	return found
}

// comparedWithNumber reports whether the condition src compares the
// expression x with an integer literal.
func comparedWithNumber(src, x string) bool {
	e, err := parser.ParseExpr(src)
	if err != nil {
		return false
	}
	return slices.ContainsFunc(literalComparisons(e, token.INT), func(b litComparison) bool { return comparison(b.Op) && b.x == x })
}

// charRangeOfCode is the rule char-range for a candidate built from the
// code's constants (a synthesized one, at a guard as well): n orders a
// character input against c, a character the function only tests for
// equality (not collect.Constant.Bound), and t bounds that input on no
// other side.
func charRangeOfCode(spec *synth.Spec, t, n *synth.Term, c synth.Constant, other *synth.Term, side int) string {
	d, ok := termDirection(n.Op, side)
	if !ok || c.Bound || !strings.HasPrefix(c.Expr, "'") || other.Op != synth.OpInput || !spec.Inputs[other.Index].Char {
		return ""
	}
	both := false
	walkTerm(t, func(m *synth.Term) {
		for s := range 2 {
			if m.Args == nil || len(m.Args) != 2 || m.Args[1-s].Op != synth.OpInput || m.Args[1-s].Index != other.Index {
				continue
			}
			if md, ok := termDirection(m.Op, s); ok && md != d {
				both = true
			}
		}
	})
	if both {
		return ""
	}
	return fmt.Sprintf("char-range: %s orders the character %s against %s, which the code only tests for equality: a range of characters with one end", n.Source(spec), spec.Inputs[other.Index].Expr, c.Expr)
}

// termDirection is litComparison.direction for a comparison term whose
// constant side is side (0: the constant comes first).
func termDirection(op synth.Op, side int) (int, bool) {
	return boundSide(op == synth.OpLt || op == synth.OpLe, op == synth.OpGt || op == synth.OpGe, side == 0)
}

// boundSide says which way a comparison with a constant bounds the other
// operand: 0 from above (x < c, x <= c: upper), 1 from below (lower), the
// other way round when the constant comes first; ok is false when it is
// neither (an equality).
func boundSide(upper, lower, constFirst bool) (d int, ok bool) {
	if !upper && !lower {
		return 0, false
	}
	if lower {
		d = 1
	}
	if constFirst {
		d = 1 - d
	}
	return d, true
}

// litComparison is a binary expression of an expression x and a
// literal lit (a character, a number), written x OP lit or lit OP x.
type litComparison struct {
	*ast.BinaryExpr
	x, lit   string
	litFirst bool
}

// direction says which way an ordering bounds x: 0 from above (x < 'c',
// x <= 'c'), 1 from below; ok is false for an equality.
func (b litComparison) direction() (int, bool) {
	return boundSide(b.Op == token.LSS || b.Op == token.LEQ, b.Op == token.GTR || b.Op == token.GEQ, b.litFirst)
}

// charComparisons lists the comparisons with a character literal in e.
func charComparisons(e ast.Expr) []litComparison { return literalComparisons(e, token.CHAR) }

// literalComparisons lists the binary expressions of e with an operand
// that is a literal of the given kind (token.CHAR, token.INT).
func literalComparisons(e ast.Expr, kind token.Token) []litComparison {
	var out []litComparison
	ast.Inspect(e, func(n ast.Node) bool {
		b, ok := n.(*ast.BinaryExpr)
		if !ok {
			return true
		}
		for side, lit := range []ast.Expr{b.X, b.Y} {
			if l, ok := ast.Unparen(lit).(*ast.BasicLit); ok && l.Kind == kind {
				other := b.Y
				if side == 1 {
					other = b.X
				}
				out = append(out, litComparison{BinaryExpr: b, x: types.ExprString(other), lit: l.Value, litFirst: side == 0})
			}
		}
		return true
	})
	return out
}

// againstStates checks the rules that need the recorded states;
// synthesized says t is a solution of spec (its literals are the
// solver's choice, not an edit of the original's).
func againstStates(site collect.Site, spec *synth.Spec, t *synth.Term, synthesized bool) string {
	if why := predicateEquality(site, spec, t); why != "" {
		return why
	}
	var why string
	walkTerm(t, func(n *synth.Term) {
		if why != "" || !isComparison(n.Op) {
			return
		}
		for side := range 2 {
			lit, other := n.Args[side], n.Args[1-side]
			if lit.Op == synth.OpConst {
				if why = charOfNumber(site, spec, n, spec.Constants[lit.Index], other); why != "" {
					return
				}
				if why = enumOrder(site, spec, n, spec.Constants[lit.Index], other, synthesized); why != "" {
					return
				}
				if why = enumMismatch(site, spec, n, spec.Constants[lit.Index], other); why != "" {
					return
				}
				if why = charRangeOfCode(spec, t, n, spec.Constants[lit.Index], other, side); why != "" {
					return
				}
				why = literalOfCode(spec, n, spec.Constants[lit.Index], other)
				if why != "" {
					return
				}
				continue
			}
			if lit.Op != synth.OpLit {
				continue
			}
			if other.Op == synth.OpInput && (n.Op == synth.OpEq || n.Op == synth.OpNe) &&
				slices.Contains(site.LoopVars, spec.Inputs[other.Index].Expr) && !(lit.Lit.Kind == synth.Int && lit.Lit.Int == 0) {
				why = fmt.Sprintf("loop-counter: %s tests the loop counter %s against one iteration", n.Source(spec), spec.Inputs[other.Index].Expr)
				return
			}
			if other.Op == synth.OpInput && isEnumInput(site, spec.Inputs[other.Index].Expr) && lit.Lit.Kind == synth.Int {
				why = fmt.Sprintf("magic-number: %s compares %s, whose values have names, with the number %s", n.Source(spec), spec.Inputs[other.Index].Expr, lit.Lit.GoString())
				return
			}
			if why = factorEquality(spec, n, lit.Lit); why != "" {
				return
			}
			if trivialLiteral(lit.Lit) || slices.ContainsFunc(spec.Constants, func(c synth.Constant) bool { return c.Value == lit.Lit }) {
				continue
			}
			if ordered := n.Op != synth.OpEq && n.Op != synth.OpNe; ordered && other.Op == synth.OpInput && spec.Inputs[other.Index].Char &&
				!slices.Contains([]int64{0x20, 0x7f, 0x80}, lit.Lit.Int) {
				why = fmt.Sprintf("invented-constant: %s orders the character %s against %s, which the code does not have", n.Source(spec), spec.Inputs[other.Index].Expr, lit.Lit.GoString())
				return
			}
			if equality := n.Op == synth.OpEq || n.Op == synth.OpNe; equality && lit.Lit.Kind == synth.Int && other.Op == synth.OpInput && spec.Inputs[other.Index].Char &&
				alnumInvented(spec, lit.Lit.Int) {
				why = fmt.Sprintf("invented-constant: %s tests the character %s for equality with %s, a letter or digit the code does not have in either case", n.Source(spec), spec.Inputs[other.Index].Expr, lit.Lit.GoString())
				return
			}
			if equality := n.Op == synth.OpEq || n.Op == synth.OpNe; equality && (lit.Lit.Kind == synth.Int || lit.Lit.Kind == synth.Float) &&
				!(other.Op == synth.OpInput && spec.Inputs[other.Index].Char) {
				why = fmt.Sprintf("invented-constant: %s tests for equality with %s, a number the code does not have", n.Source(spec), lit.Lit.GoString())
				return
			}
			tests := testsAt(spec, other, lit.Lit, n.Op != synth.OpEq && n.Op != synth.OpNe)
			if len(tests) <= 1 {
				who := "no test's"
				if len(tests) == 1 {
					who = "only " + tests[0] + "'s"
				}
				why = fmt.Sprintf("invented-constant: %s compares with %s, which the code does not have and %s states give %s", n.Source(spec), lit.Lit.GoString(), who, other.Source(spec))
				return
			}
			if ordered := n.Op != synth.OpEq && n.Op != synth.OpNe; ordered && synthesized && lit.Lit.Kind == synth.Int {
				if lo, hi, loose := looseThreshold(spec, t, lit); loose {
					why = fmt.Sprintf("invented-constant: %s compares with %s, which the code does not have, and the recorded states fit any number from %d to %d there", n.Source(spec), lit.Lit.GoString(), lo, hi)
					return
				}
			}
		}
	})
	return why
}

// alnumInvented reports whether c is an ASCII letter or digit that
// spec's constants have in neither case: a character a new check singles
// out of the tests' inputs (uniseg's seeded transitionSentenceBreakState
// "repaired" by `r == 'd'`, the first letter of a test's sentence). A
// punctuation mark the code does not have is left to the other rules: a
// fix often accepts one more (c == '-' beside c == '_'); a letter it
// accepts usually has its other case in the code already (e beside E).
func alnumInvented(spec *synth.Spec, c int64) bool {
	if c > unicode.MaxASCII || !unicode.IsLetter(rune(c)) && !unicode.IsDigit(rune(c)) {
		return false
	}
	other := int64(unicode.SimpleFold(rune(c)))
	return !slices.ContainsFunc(spec.Constants, func(k synth.Constant) bool {
		return k.Value.Kind == synth.Int && (k.Value.Int == c || k.Value.Int == other)
	})
}

// predicateEquality checks the rule predicate-equality: the first
// comparison in t of two boolean terms, neither a literal nor a constant,
// unless the original condition of site has one.
func predicateEquality(site collect.Site, spec *synth.Spec, t *synth.Term) string {
	n := comparedPredicates(spec, t)
	if n == nil || originalComparesPredicates(site, spec) {
		return ""
	}
	return fmt.Sprintf("predicate-equality: %s compares two predicates, an exclusive or that fits the recorded states and nothing a reviewer can check", n.Source(spec))
}

// comparedPredicates returns the first comparison in t of two boolean
// terms, neither a literal nor a constant, or nil.
func comparedPredicates(spec *synth.Spec, t *synth.Term) (found *synth.Term) {
	walkTerm(t, func(n *synth.Term) {
		if found == nil && (n.Op == synth.OpEq || n.Op == synth.OpNe) && n.Args[0].Kind(spec) == synth.Bool &&
			!slices.ContainsFunc(n.Args, func(a *synth.Term) bool { return a.Op == synth.OpLit || a.Op == synth.OpConst }) {
			found = n
		}
	})
	return found
}

// originalComparesPredicates reports whether the original condition of
// site compares two predicates (synth.Spec.PredicateEquality: the
// synthesis builds such comparisons only then).
func originalComparesPredicates(site collect.Site, spec *synth.Spec) bool {
	orig, err := synth.ParseTerm(spec, site.Original)
	return err == nil && comparedPredicates(spec, orig) != nil
}

// literalOfCode checks a comparison n of other with a constant c of the
// code. A constant of the code is not invented, unless it is a number the
// code only writes as a literal (a base 10, a width 6) tested for
// equality and a single test's states give it: len(tag) != 10 singles out
// one test's state as well as an invented number does. A named constant
// (a const, an enum value) always counts as the code's.
func literalOfCode(spec *synth.Spec, n *synth.Term, c synth.Constant, other *synth.Term) string {
	if why := factorEquality(spec, n, c.Value); why != "" {
		return why
	}
	if (n.Op != synth.OpEq && n.Op != synth.OpNe) || c.Value.Kind != synth.Int || trivialLiteral(c.Value) {
		return ""
	}
	e, err := parser.ParseExpr(c.Expr)
	if u, ok := e.(*ast.UnaryExpr); ok && err == nil {
		e = u.X
	}
	if b, ok := e.(*ast.BasicLit); !ok || err != nil || b.Kind != token.INT {
		return "" // a named constant, or a character ('_' reads as what it means)
	}
	tests := testsAt(spec, other, c.Value, false)
	if len(tests) > 1 {
		return ""
	}
	who := "no test's"
	if len(tests) == 1 {
		who = "only " + tests[0] + "'s"
	}
	return fmt.Sprintf("invented-constant: %s compares with %s, which the code has only as a literal, and %s states give %s", n.Source(spec), c.Expr, who, other.Source(spec))
}

// factorEquality checks the second form of invented-constant: n tests
// for equality with v, a number the code writes only as a base or a
// scale or a size (frac *= 10, [10]int; synth.Constant.Factor), however
// many tests' states give it: t.Hour == 10 borrows the 10 of a decimal
// parse.
func factorEquality(spec *synth.Spec, n *synth.Term, v synth.Value) string {
	if (n.Op != synth.OpEq && n.Op != synth.OpNe) || v.Kind != synth.Int || trivialLiteral(v) {
		return ""
	}
	factor := false
	for _, c := range spec.Constants {
		if c.Value == v {
			if !c.Factor {
				return ""
			}
			factor = true
		}
	}
	if !factor {
		return ""
	}
	return fmt.Sprintf("invented-constant: %s tests for equality with %s, which the code has only as a base, a scale or a size (an operand of *, /, %%, << or >>, an array length)", n.Source(spec), v.GoString())
}

// isEnumInput reports whether the observed expression expr of site has a
// defined integer type (collect.Observed.Enum).
func isEnumInput(site collect.Site, expr string) bool {
	return slices.ContainsFunc(site.Observed, func(o collect.Observed) bool { return o.Expr == expr && o.Enum })
}

// looseThreshold reports whether the integer literal lit of candidate t
// could be one more or one less and t still give every recorded state
// the same outcome: the states do not draw the threshold there, the
// solver picked it among several (len(tag) > 11 where no tag is 11 or 12
// long). lo and hi are the range that fits, searched up to 64 away.
func looseThreshold(spec *synth.Spec, t, lit *synth.Term) (lo, hi int64, loose bool) {
	v := lit.Lit.Int
	defer func() { lit.Lit.Int = v }()
	want := outcomes(spec, t)
	if want == nil {
		return 0, 0, false
	}
	fits := func(w int64) bool {
		lit.Lit.Int = w
		return slices.Equal(outcomes(spec, t), want)
	}
	lo, hi = v, v
	for lo > v-64 && fits(lo-1) {
		lo--
	}
	for hi < v+64 && fits(hi+1) {
		hi++
	}
	return lo, hi, lo < v || hi > v
}

// outcomes evaluates t on every example of spec; nil when one fails.
func outcomes(spec *synth.Spec, t *synth.Term) []synth.Value {
	out := make([]synth.Value, len(spec.Examples))
	for i := range spec.Examples {
		got, err := t.Eval(spec, &spec.Examples[i])
		if err != nil {
			return nil
		}
		out[i] = got
	}
	return out
}

// testsAt returns the tests (example origins) whose recorded states give
// t the value v (or, for an ordered comparison, an integer within 1 of
// it: the boundary the literal draws).
func testsAt(spec *synth.Spec, t *synth.Term, v synth.Value, ordered bool) []string {
	var out []string
	for i := range spec.Examples {
		ex := &spec.Examples[i]
		got, err := t.Eval(spec, ex)
		if err != nil || got.Kind != v.Kind {
			continue
		}
		near := got == v
		if ordered && got.Kind == synth.Int {
			near = got.Int >= v.Int-1 && got.Int <= v.Int+1
		}
		if near && !slices.Contains(out, ex.Origin) {
			out = append(out, ex.Origin)
		}
	}
	return out
}

// trivialLiteral reports the literals any condition may use: 0, 1, -1,
// "", true and false.
func trivialLiteral(v synth.Value) bool {
	switch v.Kind {
	case synth.Int:
		return v.Int >= -1 && v.Int <= 1
	case synth.Float:
		return v.Float == 0 || v.Float == 1
	case synth.String:
		return v.Str == ""
	}
	return true
}

func isComparison(op synth.Op) bool {
	switch op {
	case synth.OpLt, synth.OpLe, synth.OpEq, synth.OpNe, synth.OpGt, synth.OpGe:
		return true
	}
	return false
}

func walkTerm(t *synth.Term, f func(*synth.Term)) {
	f(t)
	for _, a := range t.Args {
		walkTerm(a, f)
	}
}

// subexprs is the set of e's subexpressions as types.ExprString prints
// them.
func subexprs(e ast.Expr) map[string]bool {
	out := map[string]bool{}
	ast.Inspect(e, func(n ast.Node) bool {
		if x, ok := n.(ast.Expr); ok {
			out[types.ExprString(ast.Unparen(x))] = true
		}
		return true
	})
	return out
}

// operands are the leaves of condition e: the non-literal sides of its
// comparisons and its boolean operands, below &&, || and !.
func operands(e ast.Expr) []string {
	var out []string
	add := func(x ast.Expr) {
		x = ast.Unparen(x)
		if isLiteral(x) {
			return
		}
		if s := types.ExprString(x); !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	var walk func(ast.Expr)
	walk = func(e ast.Expr) {
		switch e := ast.Unparen(e).(type) {
		case *ast.BinaryExpr:
			switch e.Op {
			case token.LAND, token.LOR:
				walk(e.X)
				walk(e.Y)
			case token.EQL, token.NEQ, token.LSS, token.LEQ, token.GTR, token.GEQ:
				add(e.X)
				add(e.Y)
			default:
				add(e)
			}
		case *ast.UnaryExpr:
			if e.Op == token.NOT {
				walk(e.X)
				return
			}
			add(e)
		default:
			add(e)
		}
	}
	walk(e)
	return out
}

// isLiteral reports a literal, nil, true, false or a negated literal.
func isLiteral(x ast.Expr) bool {
	switch x := x.(type) {
	case *ast.BasicLit:
		return true
	case *ast.Ident:
		return x.Name == "nil" || x.Name == "true" || x.Name == "false"
	case *ast.UnaryExpr:
		return x.Op == token.SUB && isLiteral(ast.Unparen(x.X))
	}
	return false
}

// namesOf lists the variables e reads: the identifiers at the root of its
// operands, not the selected names (x in x.f.g) nor builtins and
// predeclared names.
func namesOf(e ast.Expr) []string {
	var out []string
	ast.Inspect(e, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.SelectorExpr:
			ast.Inspect(n.X, func(m ast.Node) bool {
				if id, ok := m.(*ast.Ident); ok && !predeclared(id.Name) && !slices.Contains(out, id.Name) {
					out = append(out, id.Name)
				}
				return true
			})
			return false
		case *ast.Ident:
			if !predeclared(n.Name) && !slices.Contains(out, n.Name) {
				out = append(out, n.Name)
			}
		}
		return true
	})
	return out
}

func predeclared(name string) bool {
	return types.Universe.Lookup(name) != nil
}

// maxAtoms bounds the atoms dependentAtoms decides on (2^maxAtoms
// evaluations); beyond, every atom counts.
const maxAtoms = 10

// dependentAtoms returns the atoms of condition e (its operands that are
// not &&, || or !) on which its outcome depends, taking them as
// independent: in a && b || a, only a.
func dependentAtoms(e ast.Expr) []ast.Expr {
	var atoms []ast.Expr
	index := map[string]int{}
	astname.BoolAtoms(e, func(x ast.Expr) {
		if _, ok := index[types.ExprString(x)]; !ok {
			index[types.ExprString(x)] = len(atoms)
			atoms = append(atoms, x)
		}
	})
	if len(atoms) > maxAtoms {
		return atoms
	}
	var eval func(x ast.Expr, bits uint) bool
	eval = func(x ast.Expr, bits uint) bool {
		x = ast.Unparen(x)
		switch y := x.(type) {
		case *ast.BinaryExpr:
			switch y.Op {
			case token.LAND:
				return eval(y.X, bits) && eval(y.Y, bits)
			case token.LOR:
				return eval(y.X, bits) || eval(y.Y, bits)
			}
		case *ast.UnaryExpr:
			if y.Op == token.NOT {
				return !eval(y.X, bits)
			}
		}
		return bits&(1<<index[types.ExprString(x)]) != 0
	}
	var out []ast.Expr
	for i, a := range atoms {
		for bits := uint(0); bits < 1<<len(atoms); bits++ {
			if bits&(1<<i) == 0 && eval(e, bits) != eval(e, bits|1<<i) {
				out = append(out, a)
				break
			}
		}
	}
	return out
}

// operandsOf are the operands of e's top-level op (&& or ||): its
// disjuncts or conjuncts, e itself when it has none.
func operandsOf(e ast.Expr, op token.Token) []ast.Expr {
	if b, ok := ast.Unparen(e).(*ast.BinaryExpr); ok && b.Op == op {
		return append(operandsOf(b.X, op), operandsOf(b.Y, op)...)
	}
	return []ast.Expr{e}
}

// nilChecks maps the expressions e compares with nil to the operator.
func nilChecks(e ast.Expr) map[string]token.Token {
	out := map[string]token.Token{}
	ast.Inspect(e, func(n ast.Node) bool {
		if b, ok := n.(*ast.BinaryExpr); ok {
			if x, ok := nilCompared(b); ok {
				out[x] = b.Op
			}
		}
		return true
	})
	return out
}

// impliesNotNil reports whether e holds only where x != nil: e is x !=
// nil, a conjunction with a conjunct that implies it, or a disjunction of
// which each disjunct does (`x != nil && a || b` does not).
func impliesNotNil(e ast.Expr, x string) bool {
	return holdsOnlyWhere(e, func(b *ast.BinaryExpr) bool {
		y, ok := nilCompared(b)
		return ok && b.Op == token.NEQ && y == x
	})
}

// holdsOnlyWhere reports whether e holds only where some comparison does
// (atom says which): e is such a comparison, a conjunction of which one
// conjunct holds only there, or a disjunction of which each disjunct
// does.
func holdsOnlyWhere(e ast.Expr, atom func(b *ast.BinaryExpr) bool) bool {
	b, ok := ast.Unparen(e).(*ast.BinaryExpr)
	if !ok {
		return false
	}
	switch b.Op {
	case token.LAND:
		return holdsOnlyWhere(b.X, atom) || holdsOnlyWhere(b.Y, atom)
	case token.LOR:
		return holdsOnlyWhere(b.X, atom) && holdsOnlyWhere(b.Y, atom)
	}
	return atom(b)
}

// nilCompared returns x for b, x == nil or x != nil (either side).
func nilCompared(b *ast.BinaryExpr) (x string, ok bool) {
	if b.Op != token.EQL && b.Op != token.NEQ {
		return "", false
	}
	for _, pair := range [][2]ast.Expr{{b.X, b.Y}, {b.Y, b.X}} {
		if id, ok := ast.Unparen(pair[1]).(*ast.Ident); ok && id.Name == "nil" {
			return types.ExprString(ast.Unparen(pair[0])), true
		}
	}
	return "", false
}

// mislabeled rejects a clause added to the original (candidate.added)
// that makes a check of the original on another value, where the branch
// reports the value the original checks: in x/mod's AddRetract, `if
// !isCanonicalVersion(vi.Low) { return &InvalidVersionError{Version:
// vi.Low, ...} }` with `|| !isCanonicalVersion(vi.High)` added would
// blame vi.Low for a bad vi.High. The same call with another constant
// (function.IsType(vf.Type(), function.Compare) beside function.Less)
// is no such clause when the branch does not report the constant.
func mislabeled(site collect.Site, orig ast.Expr, clause string) string {
	if clause == "" || site.Then == nil || len(site.Then.Reports) == 0 {
		return ""
	}
	x, err := parser.ParseExpr(clause)
	if err != nil {
		return ""
	}
	for _, oc := range astname.Calls(orig) {
		for _, xc := range astname.Calls(x) {
			fun := types.ExprString(oc.Fun)
			if fun != types.ExprString(xc.Fun) || len(oc.Args) != len(xc.Args) {
				continue
			}
			for i := range oc.Args {
				a, b := types.ExprString(oc.Args[i]), types.ExprString(xc.Args[i])
				if a != b && slices.Contains(site.Then.Reports, a) && !slices.Contains(site.Then.Reports, b) {
					return fmt.Sprintf("mislabeled: the branch reports %s, which the original checks with %s; the clause added checks %s, which it does not report", a, fun, b)
				}
			}
		}
	}
	return ""
}

// lengthCheckDropped checks the rule length-check-dropped: a conjunct of
// orig bounds len(x) from below for an x the branch of site indexes (or
// dereferences), and no conjunct of cand does.
func lengthCheckDropped(site collect.Site, orig, cand ast.Expr) string {
	if site.Then == nil {
		return ""
	}
	kept := map[string]bool{}
	for _, c := range operandsOf(cand, token.LAND) {
		kept[lowerBound(c)] = true
	}
	for _, c := range operandsOf(orig, token.LAND) {
		x := lowerBound(c)
		if x != "" && !kept[x] && slices.Contains(site.Then.Derefs, x) {
			return fmt.Sprintf("length-check-dropped: %s protects the branch's index of %s and the candidate no longer implies it", types.ExprString(ast.Unparen(c)), x)
		}
	}
	return ""
}

// indexAfterUnguarded checks the rule length-check-dropped for the code
// after a guard: the branch of site leaves, and where orig is false (the
// code after the if runs) len(x) is at least the length that code needs
// to index x (collect.Branch.IndexedAfter); where cand is false, it is
// not. hcl's unquoteChar: `len(s) > 2` for `len(s) <= 2` before
// `s = s[2:]` lets a one-byte s through.
func indexAfterUnguarded(site collect.Site, orig, cand ast.Expr) string {
	if site.Then == nil || !site.Then.Exits {
		return ""
	}
	for _, ia := range site.Then.IndexedAfter {
		o, ok := leastLenWhenFalse(orig, ia.X)
		if !ok || o < ia.Len {
			continue
		}
		if c, ok := leastLenWhenFalse(cand, ia.X); ok && c < ia.Len {
			return fmt.Sprintf("length-check-dropped: where the condition is false, the code after the if indexes %s, which needs len(%s) >= %d; %s ensures it, the candidate lets len(%s) = %d through",
				ia.X, ia.X, ia.Len, types.ExprString(orig), ia.X, c)
		}
	}
	return ""
}

// signCheckDropped is length-check-dropped for the other end of an
// index: where the branch leaves, the code after the if indexes with an
// integer variable i (collect.Branch.IndexVarsAfter) that the function
// may make negative (not in collect.Site.NonNegative), the original
// compares i with 0 or -1, and the candidate does not: a negative i now
// reaches the index (pflag's seeded FlagSet.Arg, `i >= len(f.args)` for
// `i < 0 || i >= len(f.args)` before `return f.args[i]`); or the
// candidate orders i against 0 or -1 and holds nowhere i < 0 (it tests
// the sign and gets it wrong).
func signCheckDropped(site collect.Site, orig, cand ast.Expr) string {
	if site.Then == nil || !site.Then.Exits {
		return ""
	}
	for _, i := range site.Then.IndexVarsAfter {
		if slices.Contains(site.NonNegative, i) {
			continue
		}
		if comparesSign(orig, i) && !comparesSign(cand, i) {
			return fmt.Sprintf("length-check-dropped: where the condition is false, the code after the if indexes with %s; %s tests its sign, the candidate lets a negative %s through", i, types.ExprString(orig), i)
		}
		if ordersSign(cand, i) && !leavesOnNegative(cand, i) {
			return fmt.Sprintf("length-check-dropped: where the condition is false, the code after the if indexes with %s; the candidate orders %s against 0 but lets a negative %s through", i, i, i)
		}
	}
	return ""
}

// ordersSign reports whether e orders the variable i against 0 or -1 (<,
// <=, >, >=).
func ordersSign(e ast.Expr, i string) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		if b, ok := n.(*ast.BinaryExpr); ok && !found && comparison(b.Op) && b.Op != token.EQL && b.Op != token.NEQ {
			found = comparesSign(b, i)
		}
		return !found
	})
	return found
}

// leavesOnNegative reports whether e holds wherever i < 0: one of its
// disjuncts is i < 0, i <= -1, 0 > i or -1 >= i (the usual index check,
// i < 0 || i >= len(s): signCheckDropped's second form rejects i > 0 &&
// i >= len(pa), go-cmp's seeded PathStep index, which lets i = -1 reach
// pa[i]).
func leavesOnNegative(e ast.Expr, i string) bool {
	for _, d := range operandsOf(e, token.LOR) {
		b, ok := ast.Unparen(d).(*ast.BinaryExpr)
		if !ok {
			continue
		}
		x, y, op := types.ExprString(ast.Unparen(b.X)), types.ExprString(ast.Unparen(b.Y)), b.Op
		if y == i {
			x, y, op = y, x, mirrored(op) // 0 > i is i < 0
		}
		if x == i && (op == token.LSS && y == "0" || op == token.LEQ && y == "-1") {
			return true
		}
	}
	return false
}

// comparesSign reports whether e compares the variable i with 0 or -1.
func comparesSign(e ast.Expr, i string) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		b, ok := n.(*ast.BinaryExpr)
		if !ok || !comparison(b.Op) || found {
			return !found
		}
		for _, pair := range [][2]ast.Expr{{b.X, b.Y}, {b.Y, b.X}} {
			id, ok := ast.Unparen(pair[0]).(*ast.Ident)
			if !ok || id.Name != i {
				continue
			}
			switch k := ast.Unparen(pair[1]).(type) {
			case *ast.BasicLit:
				found = found || k.Kind == token.INT && k.Value == "0"
			case *ast.UnaryExpr:
				lit, ok := k.X.(*ast.BasicLit)
				found = found || ok && k.Op == token.SUB && lit.Kind == token.INT && lit.Value == "1"
			}
		}
		return true
	})
	return found
}

// leastLenWhenFalse returns the least len(x) where cond is false, from
// its clauses that compare len(x) with an integer literal (len(x) < 2
// false: at least 2; a disjunct that is a conjunction bounds it by the
// least of its conjuncts' bounds); ok is false when another clause reads
// x (its bound is not known).
func leastLenWhenFalse(cond ast.Expr, x string) (least int64, ok bool) {
	for _, d := range operandsOf(cond, token.LOR) {
		bound := int64(-1)
		for _, c := range operandsOf(d, token.LAND) {
			op, k, isLen := lenLiteralComparison(c, x)
			if !isLen && slices.Contains(namesOf(c), x) {
				return 0, false
			}
			b := int64(0)
			if neg, _ := synth.Negated(op); isLen && (neg == token.GEQ || neg == token.EQL) {
				b = k
			} else if isLen && neg == token.GTR {
				b = k + 1
			}
			if bound < 0 || b < bound {
				bound = b
			}
		}
		least = max(least, bound)
	}
	return least, true
}

// lenLiteralComparison reads e as `len(x) op k` for an integer literal k
// (lenRelation).
func lenLiteralComparison(e ast.Expr, x string) (op token.Token, k int64, ok bool) {
	y, op, other, ok := lenRelation(e)
	if !ok || y != x {
		return 0, 0, false
	}
	lit, isLit := ast.Unparen(other).(*ast.BasicLit)
	if !isLit || lit.Kind != token.INT {
		return 0, 0, false
	}
	k, err := strconv.ParseInt(lit.Value, 0, 64)
	return op, k, err == nil
}

// lenRelation reads e as `len(x) op other`: len(x) on either side (op
// mirrored when it is the right one; the left one when both are), under
// any number of ! (op negated for each).
func lenRelation(e ast.Expr) (x string, op token.Token, other ast.Expr, ok bool) {
	negated := false
	for {
		u, isNot := ast.Unparen(e).(*ast.UnaryExpr)
		if !isNot || u.Op != token.NOT {
			break
		}
		negated, e = !negated, u.X
	}
	b, isBin := ast.Unparen(e).(*ast.BinaryExpr)
	if !isBin {
		return "", 0, nil, false
	}
	op, other = b.Op, b.Y
	if x, ok = builtinArg(b.X, "len"); !ok {
		if x, ok = builtinArg(b.Y, "len"); !ok {
			return "", 0, nil, false
		}
		op, other = synth.Mirrored(op), b.X
	}
	if negated {
		if op, ok = synth.Negated(op); !ok {
			return "", 0, nil, false
		}
	}
	return x, op, other, true
}

// lowerBound returns x when e bounds len(x) from below: len(x) > k,
// len(x) >= k, len(x) != 0, either side, or the negation of len(x) < k,
// len(x) <= k, len(x) == 0; "" otherwise.
func lowerBound(e ast.Expr) string {
	x, op, other, ok := lenRelation(e)
	if !ok {
		return ""
	}
	switch op {
	case token.GTR, token.GEQ:
		return x
	case token.NEQ:
		if lit, ok := ast.Unparen(other).(*ast.BasicLit); ok && lit.Value == "0" {
			return x
		}
	}
	return ""
}

// decrementUnguarded checks the rule decrement-unguarded (see the list
// above): a value the branch decrements that the original keeps at 1 or
// more and the candidate does not.
func decrementUnguarded(site collect.Site, orig, cand ast.Expr) string {
	if site.Then == nil {
		return ""
	}
	for _, x := range site.Then.Decremented {
		if keepsPositive(orig, x) && !keepsPositive(cand, x) {
			return fmt.Sprintf("decrement-unguarded: the original holds only where %s >= 1, the branch decrements %s, and the candidate holds where %s may be 0 or less", x, x, x)
		}
	}
	return ""
}

// keepsPositive reports whether e holds only where x >= 1: a conjunct of
// e, or each disjunct, compares x with an integer literal so (x > 0, 0 <
// x, x >= 1, x == 2).
func keepsPositive(e ast.Expr, x string) bool {
	return holdsOnlyWhere(e, func(b *ast.BinaryExpr) bool {
		op, v, lit := b.Op, ast.Unparen(b.X), ast.Unparen(b.Y)
		if _, ok := v.(*ast.BasicLit); ok {
			op, v, lit = mirrored(op), lit, v // 0 < x is x > 0
		}
		k, ok := lit.(*ast.BasicLit)
		if !ok || k.Kind != token.INT || types.ExprString(v) != x {
			return false
		}
		n, err := strconv.ParseInt(k.Value, 0, 64)
		if err != nil {
			return false
		}
		switch op {
		case token.GTR:
			return n >= 0
		case token.GEQ, token.EQL:
			return n >= 1
		}
		return false
	})
}

// mirrored is the comparison op with its operands swapped: a < b is b >
// a; other operators are their own mirror.
func mirrored(op token.Token) token.Token {
	switch op {
	case token.LSS:
		return token.GTR
	case token.GTR:
		return token.LSS
	case token.LEQ:
		return token.GEQ
	case token.GEQ:
		return token.LEQ
	}
	return op
}
