package nopol

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/nopol-go/nopol/collect"
	"github.com/nopol-go/nopol/synth"
)

// TestAntiPattern checks every rule on a candidate that breaks it and on a
// near one that does not.
func TestAntiPattern(t *testing.T) {
	// States: x and y ints, p == nil a bool; TestA has x = 7, TestB and
	// TestC have x in {2, 3} (near 4).
	ex := func(origin string, x, y int64, pnil bool) synth.Example {
		return synth.Example{Origin: origin, Values: []synth.Value{synth.IntValue(x), synth.IntValue(y), synth.BoolValue(pnil), synth.IntValue(x), synth.IntValue('a' + x), synth.BoolValue(y > 0), synth.IntValue(y)}}
	}
	spec := &synth.Spec{
		Inputs: []synth.Input{{Expr: "x", Kind: synth.Int}, {Expr: "y", Kind: synth.Int}, {Expr: "p == nil", Kind: synth.Bool}, {Expr: "i", Kind: synth.Int}, {Expr: "c", Kind: synth.Int, Char: true}, {Expr: "ok", Kind: synth.Bool}, {Expr: "len(p)", Kind: synth.Int}},
		Examples: []synth.Example{
			ex("TestA", 7, 1, false), ex("TestB", 2, 1, false), ex("TestB", 3, 5, true), ex("TestC", 3, 0, true),
		},
	}
	cond := func(orig string, then *collect.Branch) collect.Site {
		return collect.Site{Kind: collect.Cond, Original: orig, Then: then, LoopVars: []string{"i"}}
	}
	guard := collect.Site{Kind: collect.Guard, Original: "use(x)", LoopVars: []string{"i"}}
	enum := guard
	enum.Observed = []collect.Observed{{Expr: "x", Kind: collect.KindInt, Enum: true}}
	panics := &collect.Branch{Panics: true, Exits: true}
	errs := &collect.Branch{ReturnsError: true, Exits: true}
	derefs := &collect.Branch{Derefs: []string{"p"}}
	indexAfter := &collect.Branch{Exits: true, IndexedAfter: []collect.IndexAfter{{X: "p", Len: 2}}}
	for _, tc := range []struct {
		name string
		site collect.Site
		cand string
		rule string // "" when the candidate is fine
	}{
		{"panic guard kept and widened", cond("x == 0", panics), "x <= 0", ""},
		{"panic guard deleted", cond("x == 0", panics), "y > 2", "guard-deleted"},
		{"error guard loses a clause", cond("x == 0 || y < 0", errs), "x == 0", "guard-deleted"},
		{"error guard gains a clause", cond("x == 0", errs), "x == 0 || y < 0 && x > 1", ""},
		{"error guard absorbed into one of its clauses", cond("x == 0 && y > 1", errs), "x == 0 && y > 1 || x == 0", "guard-deleted"},
		{"error guard gains an unrelated reason", cond("x == 0", errs), "x == 0 || y < 0", "unrelated-clause"},
		{"plain branch gains an unrelated reason", cond("x == 0", nil), "x == 0 || y < 0", ""},
		{"error guard now tests the error it returns", cond("x == 0", &collect.Branch{ReturnsError: true, Exits: true, Errors: []string{"p"}}), "p != nil", ""},
		{"error test gains an unrelated reason", cond("p != nil", &collect.Branch{ReturnsError: true, Exits: true, Errors: []string{"p"}}), "p != nil || y > 3", "unrelated-clause"},
		{"error test gains a related clause", cond("p != nil", &collect.Branch{ReturnsError: true, Exits: true, Errors: []string{"p"}}), "p != nil && x > 1", ""},
		{"error guard tests something else", cond("x == 0", &collect.Branch{ReturnsError: true, Exits: true, Errors: []string{"p"}}), "p == nil", "guard-deleted"},
		{"plain branch may drop a clause", cond("x == 0 || y < 0", nil), "x == 0", ""},
		{"unrelated", cond("x > y", nil), "p != nil", "unrelated"},
		{"one variable shared", cond("x > y", nil), "x > 1 && p != nil", ""},
		{"nil check protecting a dereference dropped", cond("p != nil && x > 0", derefs), "x > 0", "nil-check-dropped"},
		{"nil check protecting a dereference kept", cond("p != nil && x > 0", derefs), "p != nil && x > 1", ""},
		{"nil check of a value the branch uses made a disjunct", cond("p != nil && ok && x > 0", &collect.Branch{NilUsed: []string{"p"}}), "p != nil && ok || x > 0", "nil-check-dropped"},
		{"nil check of a value the branch uses, || for &&", cond("p != nil && x > 0", &collect.Branch{NilUsed: []string{"p"}}), "p != nil || x > 0", "nil-check-dropped"},
		{"nil check of a value the branch uses kept in each disjunct", cond("p != nil && ok", &collect.Branch{NilUsed: []string{"p"}}), "(p != nil && ok) || (x > 1 && p != nil)", ""},
		{"nil check of a value the branch does not use made a disjunct", cond("p != nil && ok", &collect.Branch{}), "p != nil || ok", ""},
		{"length check protecting an index made a disjunct", cond("ok && len(p) > 0", derefs), "ok || len(p) > 0", "length-check-dropped"},
		{"length check protecting an index kept alone", cond("ok && len(p) > 0", derefs), "len(p) > 0", ""},
		{"length check protecting an index written otherwise", cond("0 < len(p) && x > 0", derefs), "!(len(p) == 0) && x > 1", ""},
		{"length check of what the branch does not index", cond("ok && len(p) > 0", &collect.Branch{Derefs: []string{"q"}}), "ok || len(p) > 0", ""},
		{"length equality is no lower bound", cond("len(p) == 0 && x > 0", derefs), "x > 1", ""},
		{"nil check before an exit dropped", cond("p == nil || y > 3", &collect.Branch{Exits: true}), "y > 3", "nil-check-dropped"},
		{"length guard before an index made an upper bound", cond("len(p) <= 2", indexAfter), "len(p) > 2", "length-check-dropped"},
		{"invented constant of one test", guard, "x == 7", "invented-constant"},
		{"invented constant no test has", cond("x > y", nil), "x != 5 && y > 0", "invented-constant"},
		{"invented threshold the states do not draw", guard, "x < 4", "invented-constant"},
		{"invented threshold the states draw", guard, "x > 2", ""},
		{"literal 1 is not invented", guard, "y == 1", ""},
		{"loop counter against one iteration", guard, "i == 3", "loop-counter"},
		{"loop counter against 0", guard, "i == 0", ""},
		{"named kind against a number", enum, "x == 3 && y > 0", "magic-number"},
		{"plain int equal to a number several tests reach", guard, "x == 3 && y > 0", "invented-constant"},
		{"plain int ordered against a number several tests reach", guard, "x <= 2 && y > 0", ""},
		{"character ordered against an invented letter", guard, "c > 106", "invented-constant"},
		{"character ordered against a letter several tests reach", guard, "c > 100", "invented-constant"},
		{"character equal to a letter several tests reach", guard, "c == 100", "invented-constant"}, // see TestInventedCharacter
		{"a character test made a range with one end", cond("c == 'T' || c == 't'", nil), "c <= 'T' || c == 't'", "char-range"},
		{"a class of characters with its last end left out", cond("'A' <= c", nil), "'A' <= c && c < 'Z'", "char-class"},
		{"outside a class of characters, an end taken in", cond("c < '0'", nil), "c < '0' || c >= '9'", "char-class"},
		{"a character test made a range, literal first", cond("c != '-'", nil), "'-' < c", "char-range"},
		{"two predicates compared", guard, "(p == nil) == (x > 2)", "predicate-equality"},
		{"a predicate unequal to a bool", cond("x > y", nil), "ok != (p == nil)", "predicate-equality"},
		{"a clause compares two predicates", guard, "y > 0 && ok != (x < 3)", "predicate-equality"},
		{"the original compares two predicates", cond("(p == nil) != (y > 0)", nil), "(p == nil) != (x > 2)", ""},
		{"a predicate against a literal", guard, "ok == false", ""},
		// Ranking an unrelated candidate last does not excuse it from the
		// rules that reject.
		{"unrelated and an invented character", cond("p == nil", nil), "c > 106", "invented-constant"},
		{"unrelated and an invented constant", cond("p == nil", nil), "x == 7", "invented-constant"},
		{"unrelated and a dropped nil check", cond("p != nil", derefs), "x > 0", "nil-check-dropped"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			checkRule(t, tc.site, spec, tc.cand, tc.rule)
		})
	}
}

// TestIndexAfterUnguarded checks length-check-dropped for the code after
// a guard that leaves: s[2:] after the if needs len(s) >= 2.
func TestIndexAfterUnguarded(t *testing.T) {
	after := &collect.Branch{Exits: true, IndexedAfter: []collect.IndexAfter{{X: "s", Len: 2}}}
	for _, tc := range []struct {
		name, orig, cand string
		then             *collect.Branch
		dropped          bool
	}{
		{"made an upper bound", "len(s) <= 2", "len(s) > 2", after, true},
		{"loosened", "len(s) < 2 || x > 0", "len(s) == 0 || x > 0", after, true},
		{"loosened to one byte", "len(s) <= 2", "len(s) <= 0", after, true},
		{"a conjunct added", "len(s) < 2", "len(s) < 2 && x > 0", after, true},
		{"tightened", "len(s) <= 2", "len(s) < 2", after, false},
		{"written otherwise", "len(s) <= 2", "!(len(s) >= 2) || x > 3", after, false},
		{"literal first", "2 > len(s)", "1 >= len(s)", after, false},
		{"an equality that still implies it", "len(s) < 2", "len(s) != 2", after, false},
		{"a named bound is not judged", "len(s) < 2", "len(s) < n", after, false},
		{"another reading of s is not judged", "len(s) < 2", "!strings.HasPrefix(s, `0x`)", after, false},
		{"the original did not ensure it", "len(s) == 0", "x > 0", after, false},
		{"what the code after does not index", "len(q) <= 2", "len(q) > 2", after, false},
		{"a branch that does not leave", "len(s) <= 2", "len(s) > 2", &collect.Branch{IndexedAfter: after.IndexedAfter}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			orig, err1 := parser.ParseExpr(tc.orig)
			cand, err2 := parser.ParseExpr(tc.cand)
			if err1 != nil || err2 != nil {
				t.Fatal(err1, err2)
			}
			site := collect.Site{Kind: collect.Cond, Original: tc.orig, Then: tc.then}
			if got := indexAfterUnguarded(site, orig, cand); (got != "") != tc.dropped {
				t.Errorf("indexAfterUnguarded(%s for %s) = %q, want dropped %v", tc.cand, tc.orig, got, tc.dropped)
			}
		})
	}
}

// TestSignCheckDropped checks length-check-dropped for the sign of a
// variable the code after a leaving guard indexes with (pflag's seeded
// FlagSet.Arg).
func TestSignCheckDropped(t *testing.T) {
	after := &collect.Branch{Exits: true, IndexVarsAfter: []string{"i"}}
	for _, tc := range []struct {
		name, orig, cand string
		then             *collect.Branch
		nonNegative      []string
		dropped          bool
	}{
		{"dropped", "i >= 0 || i >= len(args)", "i >= len(args)", after, nil, true},
		{"dropped, -1", "i == -1 || i >= len(args)", "i > len(args)", after, nil, true},
		{"kept", "i >= 0 || i >= len(args)", "i < 0 || i >= len(args)", after, nil, false},
		{"literal first", "0 > i || i >= len(args)", "0 > i || i > len(args)", after, nil, false},
		{"sign ordered, negatives let through", "i > 0 || i >= len(pa)", "i > 0 && i >= len(pa)", after, nil, true},
		{"sign ordered, literal first", "i > 0 || i >= len(pa)", "0 <= i && i >= len(pa)", after, nil, true},
		{"sign ordered, -1", "i > 0 || i >= len(pa)", "-1 >= i || i >= len(pa)", after, nil, false},
		{"sign ordered, never negative", "i > 0 || i >= len(pa)", "i > 0 && i >= len(pa)", after, []string{"i"}, false},
		{"never negative", "i >= 0 || i >= len(args)", "i >= len(args)", after, []string{"i"}, false},
		{"the original did not test it", "i >= len(args)", "i > len(args)", after, nil, false},
		{"not an index after", "j < 0", "j > 3", after, nil, false},
		{"a branch that does not leave", "i < 0", "i > 3", &collect.Branch{IndexVarsAfter: []string{"i"}}, nil, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			orig, err1 := parser.ParseExpr(tc.orig)
			cand, err2 := parser.ParseExpr(tc.cand)
			if err1 != nil || err2 != nil {
				t.Fatal(err1, err2)
			}
			site := collect.Site{Kind: collect.Cond, Original: tc.orig, Then: tc.then, NonNegative: tc.nonNegative}
			if got := signCheckDropped(site, orig, cand); (got != "") != tc.dropped {
				t.Errorf("signCheckDropped(%s for %s) = %q, want dropped %v", tc.cand, tc.orig, got, tc.dropped)
			}
		})
	}
}

// TestGuardChanged checks the rule that keeps an error guard from moving
// in a direction no test asks for.
func TestGuardChanged(t *testing.T) {
	ex := func(origin string, x, y int64, want bool) synth.Example {
		return synth.Example{Origin: origin, Values: []synth.Value{synth.IntValue(x), synth.IntValue(y)}, Want: want}
	}
	// The original x < 0 raises the error; TestFail needs it at x = 0.
	spec := &synth.Spec{
		Inputs:   []synth.Input{{Expr: "x", Kind: synth.Int}, {Expr: "y", Kind: synth.Int}},
		Examples: []synth.Example{ex("TestA", 5, 0, false), ex("TestB", -3, -2, true), ex("TestFail", 0, 3, true)},
	}
	errs := &collect.Branch{ReturnsError: true, Exits: true}
	for _, tc := range []struct {
		name string
		then *collect.Branch
		cand string
		rule string
	}{
		{"widened where asked", errs, "x <= 0", ""},
		{"widened by a clause", errs, "x < 0 || y > x", ""},
		{"drops the error at y = x", errs, "x < y", "guard-changed"},
		{"drops a panic at y = x", &collect.Branch{Panics: true, Exits: true}, "x < y", "guard-changed"},
		{"a plain branch may move both ways", &collect.Branch{Exits: true}, "x < y", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			site := collect.Site{Kind: collect.Cond, Original: "x < 0", Then: tc.then}
			checkRule(t, site, spec, tc.cand, tc.rule)
		})
	}
}

// TestGuardChangedNegation checks that the original's negation is not
// guard-changed: mux's URLHost raised its error on `r.regexp.host !=
// nil`, every failing test needs it not raised, and no state has a nil
// host; `r.regexp.host == nil` raises it where the original did not, as
// any fix of an inverted check does.
func TestGuardChangedNegation(t *testing.T) {
	ex := func(origin string, x int64) synth.Example {
		return synth.Example{Origin: origin, Values: []synth.Value{synth.IntValue(x), synth.BoolValue(false)}, Want: false}
	}
	spec := &synth.Spec{
		Inputs:   []synth.Input{{Expr: "x", Kind: synth.Int}, {Expr: "p == nil", Kind: synth.Bool}},
		Examples: []synth.Example{ex("TestA", 5), ex("TestB", 3), ex("TestC", 1)},
	}
	errs := &collect.Branch{ReturnsError: true, Exits: true}
	for _, tc := range []struct{ original, cand, rule string }{
		{"p != nil", "p == nil", ""},
		{"!(p == nil)", "p == nil", ""},
		{"x > 0", "x <= 0", ""},
		// One clause of a chain flipped: the error at x = 0, one step
		// from TestC's state, where no test asks, is the mirror of the
		// one TestC drops. The exemption reads the syntax: the same
		// clause written otherwise is judged.
		{"x > 0 || p == nil", "x <= 0 || p == nil", ""},
		{"x > 0 || p == nil", "x < 1 || p == nil", "guard-changed"},
	} {
		t.Run(tc.original+" to "+tc.cand, func(t *testing.T) {
			checkRule(t, collect.Site{Kind: collect.Cond, Original: tc.original, Then: errs}, spec, tc.cand, tc.rule)
		})
	}
}

// TestGuardChangedBool checks guard-changed one step from a recorded
// state by a boolean input: go-cmp's SortMaps panics on `!less || isNil`
// (less: the function has the type of a less function), and its failing
// test needs no panic for a non-nil compare function. Dropping the panic
// for a nil function is not asked by that test, whose function is not
// nil.
func TestGuardChangedBool(t *testing.T) {
	ex := func(origin string, less, compare bool, isNil synth.Value, want bool) synth.Example {
		return synth.Example{Origin: origin, Values: []synth.Value{synth.BoolValue(less), synth.BoolValue(compare), isNil}, Want: want}
	}
	// TestCompare's isNil is not evaluated: !less is true.
	spec := &synth.Spec{
		Inputs: []synth.Input{{Expr: "less", Kind: synth.Bool}, {Expr: "compare", Kind: synth.Bool}, {Expr: "isNil", Kind: synth.Bool}},
		Examples: []synth.Example{ex("TestLess", true, false, synth.BoolValue(false), false), ex("TestCompare", false, true, synth.MissingValue(synth.Bool), false),
			ex("TestPanic", true, false, synth.BoolValue(true), true)},
	}
	site := collect.Site{Kind: collect.Cond, Original: "!less || isNil", Then: &collect.Branch{Panics: true, Exits: true}}
	for _, tc := range []struct{ cand, rule string }{
		{"!less && !compare || isNil", ""},     // the developer's
		{"less && isNil", "guard-changed"},     // no panic for a nil compare function
		{"!less && !compare", "guard-deleted"}, // no panic for any nil function
	} {
		t.Run(tc.cand, func(t *testing.T) { checkRule(t, site, spec, tc.cand, tc.rule) })
	}
}

// checkRule checks that the synthesized candidate cand breaks rule at
// site ("" for none), as antiPattern reads it over spec.
func checkRule(t *testing.T, site collect.Site, spec *synth.Spec, cand, rule string) {
	t.Helper()
	term, err := synth.ParseTerm(spec, cand)
	if err != nil {
		t.Fatalf("ParseTerm(%q): %v", cand, err)
	}
	if got := antiPattern(site, spec, candidate{src: cand, term: term, method: "synthesis"}); ruleOf(got) != rule {
		t.Errorf("antiPattern(%q at `%s`) = %q, want rule %q", cand, site.Original, got, rule)
	}
}

// ruleOf is the rule named by an anti-pattern's reason.
func ruleOf(why string) string {
	rule, _, _ := strings.Cut(why, ":")
	return rule
}

// TestWithMutants checks the one ranking: mutants and synthesized
// candidates merged by distance to the original, a mutant first on a
// tie, a candidate both found in the mutant's place.
func TestWithMutants(t *testing.T) {
	syn := []candidate{{src: "n < 0", method: "synthesis"}, {src: "n < 0 && m > 2", method: "synthesis"}, {src: "k == 3", method: "synthesis"}}
	muts := []candidate{{src: "n < 0", method: "mutation"}, {src: "n >= 0", method: "mutation"}, {src: "!(n <= 0) || m > 2", method: "mutation"}}
	var got []string
	for _, c := range withMutants(syn, muts, "n <= 0") {
		got = append(got, c.src+"/"+c.method)
	}
	want := "n < 0/synthesis n >= 0/mutation n < 0 && m > 2/synthesis k == 3/synthesis !(n <= 0) || m > 2/mutation"
	if strings.Join(got, " ") != want {
		t.Errorf("ranking:\n got %s\nwant %s", strings.Join(got, " "), want)
	}
}

// TestSimplifications checks the clause deletions and the other mutants
// that fit the failing tests' states only, and their rank: after the
// candidates over the original's operands, before those reading another
// value; a deletion that does not give the failing test's state its
// needed outcome is not offered.
func TestSimplifications(t *testing.T) {
	if got := strings.Join(deletions("a == \"\" && (n > 0 || p == nil) && (x || y)"), " | "); got != `x || y | a == "" && (n > 0 || p == nil) | (n > 0 || p == nil) && (x || y) | a == "" && (x || y) | a == "" && p == nil && (x || y) | a == "" && n > 0 && (x || y) | a == "" && (n > 0 || p == nil) && y | a == "" && (n > 0 || p == nil) && x` {
		t.Errorf("deletions: %s", got)
	}
	spec := &synth.Spec{
		Original: `a == "" && n > 0`,
		Inputs:   []synth.Input{{Expr: "a", Kind: synth.String}, {Expr: "n", Kind: synth.Int}, {Expr: "m", Kind: synth.Int}},
		Examples: []synth.Example{
			{Values: []synth.Value{synth.StringValue("x"), synth.IntValue(2), synth.IntValue(0)}, Want: true, Origin: "TestFailing"},
			{Values: []synth.Value{synth.StringValue("x"), synth.IntValue(3), synth.IntValue(1)}, Want: false, Origin: "TestPassing"},
		},
	}
	r := &repairer{failing: []testKey{{pkg: "p", name: "TestFailing"}}}
	site := collect.Site{Original: spec.Original}
	syn := []candidate{{src: "n > 1", method: "synthesis"}, {src: "m == 0", method: "synthesis"}}
	for i := range syn {
		syn[i].term, _ = synth.ParseTerm(spec, syn[i].src)
	}
	var got []string
	for _, c := range withSimplifications(syn, r.simplifications(site, spec, nil, syn), originalOperands(spec)) {
		got = append(got, c.src)
	}
	// The deletion, then up to maxRelaxedMutants other mutants that fit
	// the failing test's state, before the candidate over another value.
	if want := `n > 1 | n > 0 | a == "" || n > 0 | a != "" && n > 0 | !(a == "" && n > 0) | m == 0`; strings.Join(got, " | ") != want {
		t.Errorf("ranking %s, want %s", strings.Join(got, " | "), want)
	}
}

// TestDifferences checks the states near the recorded ones where a patch
// and the original disagree and no test has been.
func TestDifferences(t *testing.T) {
	spec := &synth.Spec{
		Inputs: []synth.Input{{Expr: "n", Kind: synth.Int}, {Expr: "p == nil", Kind: synth.Bool}, {Expr: "n > 3", Kind: synth.Bool}},
		Examples: []synth.Example{
			{Values: []synth.Value{synth.IntValue(-3), synth.BoolValue(false), synth.BoolValue(false)}, Want: true},
			// The failing test's state: the original was wrong there.
			{Values: []synth.Value{synth.IntValue(0), synth.BoolValue(false), synth.BoolValue(false)}},
			{Values: []synth.Value{synth.IntValue(5), synth.BoolValue(false), synth.BoolValue(true)}},
		},
	}
	parse := func(src string) *synth.Term { return mustParseTerm(t, spec, src) }
	for _, tc := range []struct {
		orig, cand string // orig "" for a new guard
		want       string
	}{
		// n <= 0 → n < 0 differs at 0 only, which a test covers.
		{"n <= 0", "n < 0", ""},
		// n <= 0 → n < -2 differs at -2, near -3 where the original was
		// right (and at -1, near 0 where it was not: not reported).
		{"n <= 0", "n < -2", "n=-2: original true, patch false"},
		{"", "p == nil", "p == nil: original false, patch true"},
		// n > 3 is derived from n: it moves with n, never alone.
		{"n > 3 && n <= 4", "n > 3 && n <= 6", "n=6, n > 3: original false, patch true"},
	} {
		var orig *synth.Term
		if tc.orig != "" {
			orig = parse(tc.orig)
		}
		if got := strings.Join(differences(spec, orig, parse(tc.cand)), " | "); got != tc.want {
			t.Errorf("differences(%q, %q) = %q, want %q", tc.orig, tc.cand, got, tc.want)
		}
	}
}

// TestRejectAntiPatterns checks that a breaking candidate is dropped and
// noted, and an unrelated one only goes last.
func TestRejectAntiPatterns(t *testing.T) {
	spec := &synth.Spec{
		Inputs:    []synth.Input{{Expr: "x", Kind: synth.Int}, {Expr: "p == nil", Kind: synth.Bool}},
		Constants: []synth.Constant{{Expr: "5", Value: synth.IntValue(5)}},
		Examples: []synth.Example{
			{Origin: "TestA", Values: []synth.Value{synth.IntValue(7), synth.BoolValue(false)}},
			{Origin: "TestB", Values: []synth.Value{synth.IntValue(2), synth.BoolValue(true)}},
		},
	}
	var cands []candidate
	for _, src := range []string{"p != nil", "x == 7", "x >= 5"} {
		term, err := synth.ParseTerm(spec, src)
		if err != nil {
			t.Fatal(err)
		}
		cands = append(cands, candidate{src: src, term: term, method: "synthesis"})
	}
	site := collect.Site{Kind: collect.Cond, Original: "x > 5"}
	var rep SiteReport
	var got []string
	for _, c := range (&repairer{}).rejectAntiPatterns(site, style{}, spec, cands, &rep) {
		got = append(got, fmt.Sprintf("%s:%v", c.src, c.unrelated))
	}
	if strings.Join(got, " | ") != "x >= 5:false | p != nil:true" {
		t.Errorf("kept %q", got)
	}
	if len(rep.Rejected) != 1 || !strings.HasPrefix(rep.Rejected[0], "x == 7: invented-constant") {
		t.Errorf("rejected %q", rep.Rejected)
	}
}

// TestCodeConstants: a number the code has is not invented, except one it
// only writes as a literal, tested for equality, that a single test's
// states give; a named constant (an enum value, a const) always counts as
// the code's.
func TestCodeConstants(t *testing.T) {
	ex := func(origin string, x int64) synth.Example {
		return synth.Example{Origin: origin, Values: []synth.Value{synth.IntValue(x)}}
	}
	examples := []synth.Example{ex("TestA", 7), ex("TestB", 2), ex("TestC", 3), ex("TestD", 2)}
	site := collect.Site{Kind: collect.Guard, Original: "use(x)"}
	factor := synth.Constant{Expr: "2", Value: synth.IntValue(2), Factor: true}
	for _, tc := range []struct {
		name   string
		consts []synth.Constant
		cand   string
		rule   string
	}{
		{"literal of the code, equality, one test", []synth.Constant{{Expr: "7", Value: synth.IntValue(7)}}, "x != 7", "invented-constant"},
		{"literal of the code, ordered", []synth.Constant{{Expr: "6", Value: synth.IntValue(6)}}, "x > 6", ""},
		{"named constant, equality, one test", []synth.Constant{{Expr: "maxX", Value: synth.IntValue(7)}}, "x == maxX", ""},
		{"negative literal of the code, equality", []synth.Constant{{Expr: "-7", Value: synth.IntValue(-7)}}, "x == -7", "invented-constant"},
		{"character literal of the code, equality, one test", []synth.Constant{{Expr: "'\\a'", Value: synth.IntValue(7)}}, "x == '\\a'", ""},
		{"literal of the code, equality, two tests", []synth.Constant{{Expr: "2", Value: synth.IntValue(2)}}, "x == 2", ""},
		{"scale of the code, equality, two tests", []synth.Constant{factor}, "x == 2", "invented-constant"},
		{"scale of the code, ordered", []synth.Constant{factor}, "x < 2", ""},
		{"scale and a named constant of the code", []synth.Constant{factor, {Expr: "pair", Value: synth.IntValue(2)}}, "x != 2", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			spec := &synth.Spec{Inputs: []synth.Input{{Expr: "x", Kind: synth.Int}}, Constants: tc.consts, Examples: examples}
			checkRule(t, site, spec, tc.cand, tc.rule)
		})
	}
}

// TestInventedCharacter checks invented-constant on a character tested
// for equality with a literal that several tests' states give: a letter
// or digit the code does not have in either case is a test's input, a
// punctuation mark may be one more the fix accepts.
func TestInventedCharacter(t *testing.T) {
	ex := func(origin string, c rune) synth.Example {
		return synth.Example{Origin: origin, Values: []synth.Value{synth.IntValue(int64(c))}}
	}
	examples := []synth.Example{ex("TestA", 'd'), ex("TestB", 'd'), ex("TestC", '-'), ex("TestD", '-'), ex("TestA", '7'), ex("TestC", '7')}
	site := collect.Site{Kind: collect.Guard, Original: "use(c)"}
	char := func(c rune) synth.Constant {
		return synth.Constant{Expr: strconv.QuoteRune(c), Value: synth.IntValue(int64(c))}
	}
	for _, tc := range []struct {
		name   string
		consts []synth.Constant
		cand   string
		rule   string
	}{
		{"a letter the code does not have", nil, "c == 'd'", "invented-constant"},
		{"a letter the code does not have, negated", []synth.Constant{char('x')}, "c != 'd'", "invented-constant"},
		{"a digit the code does not have", []synth.Constant{char('8')}, "c == '7'", "invented-constant"},
		{"a letter the code has", []synth.Constant{char('d')}, "c == 'd'", ""},
		{"a letter whose other case the code has", []synth.Constant{char('D')}, "c == 'd'", ""},
		{"a punctuation mark the code does not have", nil, "c == '-'", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			spec := &synth.Spec{Inputs: []synth.Input{{Expr: "c", Kind: synth.Int, Char: true}}, Constants: tc.consts, Examples: examples}
			checkRule(t, site, spec, tc.cand, tc.rule)
		})
	}
}

// TestUnrelatedReuse checks the rule on a guard that reuses a return which
// reports the value its own guard tests.
func TestUnrelatedReuse(t *testing.T) {
	site := collect.Site{Kind: collect.Guard, Exits: []collect.Exit{
		{Body: `return unstable.NewParserError(rest, "extra characters")`, Strategy: collect.StrategyReuse, Guard: "len(rest) > 0"},
		{Body: "return nil", Strategy: collect.StrategyReuse, Guard: "len(rest) > 0"},
		{Body: `return errors.New("bad")`, Strategy: collect.StrategyReuse, Guard: "len(rest) > 0"},
		{Body: "return rest", Strategy: collect.StrategyReuse},
	}}
	for _, tc := range []struct {
		name string
		exit int
		cand string
		rule string
	}{
		{"reports rest, the guard tests something else", 0, "d.errorContext != nil", "unrelated-reuse"},
		{"reports rest, the guard tests rest too", 0, "rest[0] == ' ' && d.errorContext != nil", ""},
		{"reports nothing", 1, "d.errorContext != nil", ""},
		{"says why its guard leaves, the candidate reads none of its variables", 2, "d.errorContext != nil", "unrelated-reuse"},
		{"says why its guard leaves, the candidate reads rest", 2, "len(rest) != 1", ""},
		{"no guard of its own", 3, "d.errorContext != nil", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st := style{name: "return", guard: collect.GuardExit(tc.exit), strategy: collect.StrategyReuse}
			got := againstExit(site, st, candidate{src: tc.cand, method: "synthesis"})
			if ruleOf(got) != tc.rule {
				t.Errorf("againstExit(%q) = %q, want rule %q", tc.cand, got, tc.rule)
			}
		})
	}
	if got := againstExit(site, style{name: "guard", guard: collect.GuardWrap}, candidate{src: "d.errorContext != nil"}); got != "" {
		t.Errorf("a wrapping guard: %q", got)
	}
}

// TestReasonAbsent: a new guard that reuses a return whose error says why
// its own guard leaves (len(s) == 0, "Version string empty") is rejected
// where that guard holds at none of the recorded states where the
// candidate leaves (semver's seeded Parse).
func TestReasonAbsent(t *testing.T) {
	site := collect.Site{Kind: collect.Guard, Exits: []collect.Exit{
		{Body: `return Version{}, errors.New("Version string empty")`, Strategy: collect.StrategyReuse, Guard: "len(s) == 0"},
		{Body: `return Version{}, errors.New("Version string empty")`, Strategy: collect.StrategyReuse, Guard: "len(t) == 0"},
		{Body: "return Version{}, nil", Strategy: collect.StrategyReuse, Guard: "len(s) == 0"},
	}}
	spec := &synth.Spec{
		Inputs: []synth.Input{{Expr: "len(s)", Kind: synth.Int}, {Expr: "major", Kind: synth.Int}},
		Examples: []synth.Example{
			{Values: []synth.Value{synth.IntValue(5), synth.IntValue(1)}, Want: true},
			{Values: []synth.Value{synth.IntValue(5), synth.IntValue(0)}, Want: false},
			{Values: []synth.Value{synth.IntValue(0), synth.IntValue(0)}, Want: false},
		},
	}
	for _, tc := range []struct {
		name string
		exit int
		cand string
		rule string
	}{
		{"its guard holds nowhere the candidate leaves", 0, "major != 0", "unrelated-reuse"},
		{"its guard reads a value not recorded", 1, "major != 0", ""},
		{"no message", 2, "major != 0", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st := style{name: "return", guard: collect.GuardExit(tc.exit), strategy: collect.StrategyReuse}
			c := candidate{src: tc.cand, method: "synthesis"}
			c.term, _ = synth.ParseTerm(spec, c.src)
			if got := reasonAbsent(site, st, spec, c); ruleOf(got) != tc.rule {
				t.Errorf("reasonAbsent(%q) = %q, want rule %q", tc.cand, got, tc.rule)
			}
		})
	}
	// Where the guard holds at a state the candidate leaves at, the
	// reason is the one.
	spec.Examples = append(spec.Examples, synth.Example{Values: []synth.Value{synth.IntValue(0), synth.IntValue(2)}, Want: true})
	c := candidate{src: "major != 0", method: "synthesis"}
	c.term, _ = synth.ParseTerm(spec, c.src)
	if got := reasonAbsent(site, style{name: "return", guard: collect.GuardExit(0), strategy: collect.StrategyReuse}, spec, c); got != "" {
		t.Errorf("reasonAbsent where len(s) == 0 at a leaving state: %q", got)
	}
}

// TestErrorReplaced: a new guard on err != nil must not return another
// error where the function's own checks of err return err.
func TestErrorReplaced(t *testing.T) {
	sites := []collect.Site{
		{ID: 0, Kind: collect.Cond, File: "v.go", Func: "Parse", Original: "err != nil", Then: &collect.Branch{ReturnsError: true, Errors: []string{"err"}}},
		{ID: 1, Kind: collect.Cond, File: "v.go", Func: "Other", Original: "perr != nil", Then: &collect.Branch{ReturnsError: true, Errors: []string{"perr"}}},
	}
	site := collect.Site{ID: 2, Kind: collect.Guard, File: "v.go", Func: "Parse", Exits: []collect.Exit{
		{Body: `return Version{}, errors.New("Version string empty")`, Strategy: collect.StrategyReuse, Guard: "len(s) == 0"},
		{Body: "return Version{}, err", Strategy: collect.StrategyReuse},
		{Body: "return Version{}, nil", Strategy: collect.StrategyZero},
		{Body: `return Version{}, fmt.Errorf("bad %q: %w", s, err)`, Strategy: collect.StrategyErrNew},
		{Body: `return Version{}, errors.New("bad error")`, Strategy: collect.StrategyReuse, Guard: "err != nil && s == \"\""},
	}}
	for _, tc := range []struct {
		name string
		exit int
		cand string
		rule string
	}{
		{"another error for err", 0, "err != nil", "error-replaced"},
		{"another error, err one disjunct", 0, "len(s) > 3 || err != nil", "error-replaced"},
		{"err itself", 1, "err != nil", ""},
		{"no error", 2, "err != nil", ""},
		{"err wrapped", 3, "err != nil", ""},
		{"the return's own guard tests err", 4, "err != nil", ""},
		{"an error the function never returns", 0, "perr != nil", ""},
		{"err == nil", 0, "err == nil", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st := style{name: "return", guard: collect.GuardExit(tc.exit), strategy: site.Exits[tc.exit].Strategy, exit: site.Exits[tc.exit].Body}
			got := errorReplaced(sites, site, st, candidate{src: tc.cand, method: "synthesis"})
			if ruleOf(got) != tc.rule {
				t.Errorf("errorReplaced(%q) = %q, want rule %q", tc.cand, got, tc.rule)
			}
		})
	}
}

// TestInventedLengths: two lengths compared only where the code compares
// them.
func TestInventedLengths(t *testing.T) {
	sites := []collect.Site{
		{ID: 0, Kind: collect.Cond, File: "m.go", Original: "opts.multiline"},
		{ID: 1, Kind: collect.Cond, File: "m.go", Original: "len(k) > len(prefix) && ok"},
		{ID: 2, Kind: collect.Cond, File: "other.go", Original: "len(s) != len(b)"},
	}
	for _, tc := range []struct {
		site int
		cand string
		rule string
	}{
		{0, "opts.multiline && len(s) > len(b)", "length-relation"}, // compared in another file only
		{0, "opts.multiline && len(prefix) <= len(k)", ""},          // the file compares them
		{0, "opts.multiline && len(s) > 3", ""},
		{0, "len(s) == len(s)", ""},
		{1, "len(k) < len(prefix) && ok", ""}, // the original's own
		// Len methods count as lengths (go-toml's isArrayOfTables,
		// `elem.Kind() == reflect.Slice && elem.Len() > v.Len()`).
		{0, "elem.Kind() == reflect.Slice && elem.Len() > v.Len()", "length-relation"},
		{0, "opts.multiline && k.Len() >= len(prefix)", ""},
		{0, "elem.Len(0) > v.Len()", ""},
		// So do counts (go-cmp's compareStruct, a new guard).
		{0, "t.NumField() != len(s.opts)", "length-relation"},
		{0, "t.NumField() > t.Len()", "length-relation"},
		{0, "t.NumField() > 2", ""},
		{0, "t.Number() > len(s.opts)", ""},
		{0, "t.Numb() > len(s.opts)", ""},
		{1, "len(k) > len(prefix) && k.NumField() == len(prefix)", "length-relation"},
	} {
		got := inventedLengths(sites, sites[tc.site], candidate{src: tc.cand, method: "synthesis"})
		if ruleOf(got) != tc.rule {
			t.Errorf("inventedLengths(%q) = %q, want rule %q", tc.cand, got, tc.rule)
		}
	}
}

// TestBoundElsewhere: a clause over a value the original does not read,
// which an earlier if of the function bounds with a literal, is
// rejected (go-toml's seeded parseLocalDate); so is a guard around a
// statement that indexes with a value an enclosing if bounds with a
// literal (toml's seeded ErrorWithPosition), not an exit there, nor
// where the index reads no such value.
func TestBoundElsewhere(t *testing.T) {
	sites := []collect.Site{
		{ID: 0, Kind: collect.Cond, File: "d.go", Func: "parseLocalDate", Line: 10, Original: "date.Month < 1 || date.Month > 13"},
		{ID: 1, Kind: collect.Cond, File: "d.go", Func: "parseLocalDate", Line: 14, Original: "date.Day < 1 || date.Day > maxDay"},
		{ID: 2, Kind: collect.Cond, File: "d.go", Func: "other", Line: 30, Original: "date.Day > 31"},
		{ID: 3, Kind: collect.Guard, File: "d.go", Func: "parseLocalDate", Line: 15, Original: "return date, nil"},
	}
	guard := func(stmt string, holds ...string) collect.Site {
		return collect.Site{Kind: collect.Guard, Original: stmt, Holds: holds, CanWrap: true}
	}
	cond := style{name: "cond"}
	wrap := style{name: "guard", guard: collect.GuardWrap, strategy: collect.StrategySkip}
	exit := style{name: "return", guard: collect.GuardExit(0), strategy: collect.StrategyZero}
	fprintf := `fmt.Fprintf(b, "% 7d | %s\n", pe.Position.Line-2, expandTab(lines[pe.Position.Line-3]))`
	for _, tc := range []struct {
		site collect.Site
		st   style
		cand string
		rule string
	}{
		{sites[1], cond, "date.Day < 1 || date.Day > maxDay || date.Month == 13", "bound-elsewhere"},
		{sites[1], cond, "date.Day < 1 || date.Day > maxDay || 12 < date.Month", "bound-elsewhere"},
		{sites[1], cond, "date.Day < 1 || date.Day > maxDay || date.Year == 0", ""},       // no earlier bound
		{sites[1], cond, "date.Day < date.Month || date.Day > maxDay", "bound-elsewhere"}, // the literal replaced by the value
		{sites[1], cond, "date.Day <= 0 || date.Day > maxDay", ""},                        // the original's own value
		{sites[0], cond, "date.Month < 1 || date.Month > 12 || date.Day > 31", ""},        // the bound comes later
		{sites[2], cond, "date.Day > 31 || date.Month > 12", ""},                          // another function
		{sites[3], cond, "date.Month == 13", ""},                                          // not a condition
		{guard(fprintf, "pe.Position.Line > 1"), wrap, "len(lines) > 3", "bound-elsewhere"},
		{guard("s = s[:n-1]", "n >= 0"), wrap, "len(s) > 3", "bound-elsewhere"},
		{guard(fprintf, "pe.Position.Line > 1"), exit, "len(lines) > 3", ""},
		{guard("x = lines[i]", "pe.Position.Line > 1"), wrap, "len(lines) > i", ""},
		{guard("x = lines[i]", "ok"), wrap, "len(lines) > i", ""},
	} {
		got := boundElsewhere(sites, tc.site, tc.st, candidate{src: tc.cand, method: "synthesis"})
		if ruleOf(got) != tc.rule {
			t.Errorf("boundElsewhere(%q) at `%s` = %q, want rule %q", tc.cand, tc.site.Original, got, tc.rule)
		}
	}
}

// TestAgainstGuard checks the rules of a new guard: a guard around a
// statement is kept only when it protects the statement from its own
// panic (conditional-deletion), and no guard may test only what an
// enclosing if established (trivial-condition).
func TestAgainstGuard(t *testing.T) {
	wrap := style{name: "guard", guard: collect.GuardWrap, strategy: collect.StrategySkip}
	exit := style{name: "return", guard: collect.GuardExit(0), strategy: collect.StrategyZero}
	for _, tc := range []struct {
		name     string
		original string
		holds    []string
		st       style
		cand     string
		rule     string
	}{
		{"a nil check of what the statement dereferences", `s += fmt.Sprintf("%d", lim.MaxConns)`, nil, wrap, "lim != nil", ""},
		{"a nil check of a field dereferenced", "n := p.q.r", nil, wrap, "p.q != nil && ok", ""},
		{"a length check of what it indexes", "x = a[0]", nil, wrap, "len(a) > 0", ""},
		{"a length check of what it slices", "e = e[:len(e)-1]", nil, wrap, "len(e) != 1", ""},
		{"IsNil of the receiver", "v.Elem().Set(w)", nil, wrap, "!v.IsNil()", ""},
		{"isNil of a value dereferenced", "x := *p", nil, wrap, "!isNil(p)", ""},
		{"a nil check of a value passed on", "out[i] = reflect.TypeOf(v).String()", nil, wrap, "v != nil", ""},
		{"a nil check of what it assigns to", "match.Handler = r.handler", nil, wrap, "match.Handler == nil", "conditional-deletion"},
		{"a nil check of what it only copies", "match.Handler = r.handler", nil, wrap, "r.handler != nil", "conditional-deletion"},
		{"a nil check of what it dereferences, in a copy", "match.Handler = r.handler", nil, wrap, "r != nil", ""},
		{"a length check of what it does not index", "n = len(a) + 1", nil, wrap, "len(a) > 0", "conditional-deletion"},
		{"skips a decrement", "pos.Line--", nil, wrap, "lx.line != 1", "conditional-deletion"},
		{"tests an argument, not a dereference", "b, err = enc.encodeKv(b, kv.Value)", nil, wrap, "!isEmptyValue(kv.Value)", "conditional-deletion"},
		{"a statement that dereferences nothing", "n++", nil, wrap, "n > 3", "conditional-deletion"},
		{"an exit is not a deletion", "pos.Line--", nil, exit, "lx.line != 1", ""},
		{"the enclosing if's condition", "return err", []string{"err != nil"}, exit, "err != nil", "trivial-condition"},
		{"conjuncts of enclosing ifs", "return err", []string{"b", "err != nil", "a"}, exit, "a && (err != nil)", "trivial-condition"},
		{"a stronger condition", "return err", []string{"err != nil"}, exit, "err != nil && s == \"\"", ""},
		{"the enclosing condition around a wrap", "x = a[0]", []string{"len(a) > 0"}, wrap, "len(a) > 0", "trivial-condition"},
		{"the condition of the if it comes before", "if err != nil { …", nil, exit, "err != nil", "trivial-condition"},
		{"a conjunct of the if it comes before", "if err != nil && !retry { …", nil, exit, "err != nil", "trivial-condition"},
		{"more than the if it comes before", "if err != nil { …", nil, exit, "err != nil && s == \"\"", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			site := collect.Site{Kind: collect.Guard, Original: tc.original, Holds: tc.holds, CanWrap: true}
			if cond, ok := strings.CutPrefix(tc.original, "if "); ok {
				cond, _, _ = strings.Cut(cond, " {")
				site.IfConds = strings.Split(cond, " && ")
			}
			got := againstGuard(site, tc.st, candidate{src: tc.cand, method: "synthesis"}, false)
			if ruleOf(got) != tc.rule {
				t.Errorf("againstGuard(%q before `%s`) = %q, want rule %q", tc.cand, tc.original, got, tc.rule)
			}
		})
	}
	cond := collect.Site{Kind: collect.Cond, Original: "n > 0"}
	if got := againstGuard(cond, style{name: "cond"}, candidate{src: "m > 2"}, false); got != "" {
		t.Errorf("a condition site: %q", got)
	}
	// Where a passing test fails with the statement skipped (needed), a
	// guard that reads what it assigns is a conditional update; one that
	// does not is still a deletion, and without needed both are.
	upd := collect.Site{Kind: collect.Guard, Original: "match.MatchErr = nil", CanWrap: true}
	for _, tc := range []struct {
		cand   string
		needed bool
		rule   string
	}{
		{"match.MatchErr == ErrNotFound", true, ""},
		{`req.Host == ""`, true, ruleConditionalDeletion},
		{"match.MatchErr == ErrNotFound", false, ruleConditionalDeletion},
	} {
		if got := againstGuard(upd, wrap, candidate{src: tc.cand, method: "synthesis"}, tc.needed); ruleOf(got) != tc.rule {
			t.Errorf("againstGuard(%q, needed %v) = %q, want rule %q", tc.cand, tc.needed, got, tc.rule)
		}
	}
}

// TestChecksSkipped: a guard that leaves without an error before the
// error return of an input check is rejected when checks follow that
// check; one that leaves with an error, or with no check after, is not.
func TestChecksSkipped(t *testing.T) {
	zero := func(exit string) style {
		return style{name: "return", guard: collect.GuardExit(0), strategy: collect.StrategyZero, exit: exit}
	}
	for _, tc := range []struct {
		name    string
		skipped []string
		st      style
		rule    string
	}{
		{"return nil with checks after", []string{`strings.Contains(path, "//")`}, zero("return nil"), "checks-skipped"},
		{"return zero values and nil", []string{"len(b) > max"}, zero("return 0, nil"), "checks-skipped"},
		{"no check after", nil, zero("return nil"), ""},
		{"leaves with an error", []string{`strings.Contains(path, "//")`}, zero(`return fmt.Errorf("checkPath: invalid input")`), ""},
		{"leaves with a value", []string{"n > max"}, zero("return n, err"), ""},
		{"wraps", []string{"n > max"}, style{name: "guard", guard: collect.GuardWrap, strategy: collect.StrategySkip}, "conditional-deletion"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			site := collect.Site{Kind: collect.Guard, Original: `return fmt.Errorf("leading dash")`, Holds: []string{"path[0] == '-'"}, SkippedChecks: tc.skipped}
			got := againstGuard(site, tc.st, candidate{src: "kind == filePath", method: "synthesis"}, false)
			if ruleOf(got) != tc.rule {
				t.Errorf("againstGuard = %q, want rule %q", got, tc.rule)
			}
		})
	}
}

// TestDeadAfter: a guard before an if whose branch leaves, holding
// wherever that if's condition does not, leaves the statements after the
// if dead and is rejected; one that holds in fewer states, a guard that
// wraps, or an if with nothing after it, is not.
func TestDeadAfter(t *testing.T) {
	exit := style{name: "return", guard: collect.GuardExit(0), strategy: collect.StrategyReuse, exit: "return ip, nil"}
	errReturn := []string{`return nil, fmt.Errorf("invalid IP: %s", sval)`}
	for _, tc := range []struct {
		name  string
		cond  string
		after []string
		st    style
		cand  string
		rule  string
	}{
		{"the negation", "ip != nil", errReturn, exit, "ip == nil", "dead-after"},
		{"emptiness for nil", "ip != nil", errReturn, exit, "len(ip) == 0", "dead-after"},
		{"emptiness written as a bound", "ip != nil", errReturn, exit, "len(ip) < 1", "dead-after"},
		{"nil written first", "nil != ip", errReturn, exit, "ip == nil", "dead-after"},
		{"a disjunct", "ip != nil", errReturn, exit, `s == "" || ip == nil`, "dead-after"},
		{"fewer states", "ip != nil", errReturn, exit, `ip == nil && s == ""`, ""},
		{"another test", "ip != nil", errReturn, exit, `s == ""`, ""},
		{"emptiness does not give nil", "len(b) != 0", errReturn, exit, "b == nil", ""},
		{"both conjuncts negated", "a && b", errReturn, exit, "!a || !b", "dead-after"},
		{"one conjunct negated", "a && b", errReturn, exit, "!a", ""},
		{"a disjunction negated", "x > 0 || ok", errReturn, exit, "x <= 0 && !ok", "dead-after"},
		{"nothing after", "ip != nil", nil, exit, "ip == nil", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			site := collect.Site{Kind: collect.Guard, Original: "if " + tc.cond + " { …", IfConds: strings.Split(tc.cond, " && "), DeadAfter: tc.after}
			got := againstGuard(site, tc.st, candidate{src: tc.cand, method: "synthesis"}, false)
			if ruleOf(got) != tc.rule {
				t.Errorf("againstGuard(%q before `if %s`) = %q, want rule %q", tc.cand, tc.cond, got, tc.rule)
			}
		})
	}
}

// TestEmptinessFirst checks that a synthesized nil test of a slice is
// preceded by its test of emptiness when the recorded states allow it,
// and not when a state is empty without being nil.
func TestEmptinessFirst(t *testing.T) {
	inputs := []synth.Input{{Expr: "p.nodes == nil", Kind: synth.Bool}, {Expr: "len(p.nodes)", Kind: synth.Int}}
	ex := func(isNil bool, n int64, want bool) synth.Example {
		return synth.Example{Values: []synth.Value{synth.BoolValue(isNil), synth.IntValue(n)}, Want: want}
	}
	nilState, full, emptyNotNil := ex(true, 0, true), ex(false, 2, false), ex(false, 0, false)
	for _, tc := range []struct {
		name     string
		examples []synth.Example
		cands    []candidate
		want     string
	}{
		{"nil and empty agree", []synth.Example{nilState, full}, []candidate{{src: "p.nodes == nil", method: "synthesis"}}, "len(p.nodes) == 0 | p.nodes == nil"},
		{"the negation", []synth.Example{ex(true, 0, false), ex(false, 2, true)}, []candidate{{src: "p.nodes != nil", method: "synthesis"}}, "len(p.nodes) > 0 | p.nodes != nil"},
		{"a state empty, not nil", []synth.Example{nilState, full, emptyNotNil}, []candidate{{src: "p.nodes == nil", method: "synthesis"}}, "p.nodes == nil"},
		{"already there", []synth.Example{nilState, full}, []candidate{{src: "len(p.nodes) == 0", method: "synthesis"}, {src: "p.nodes == nil", method: "synthesis"}}, "len(p.nodes) == 0 | p.nodes == nil"},
		{"a mutant", []synth.Example{nilState, full}, []candidate{{src: "p.nodes == nil", method: "mutation"}}, "p.nodes == nil"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			spec := &synth.Spec{Inputs: inputs, Examples: tc.examples}
			var got []string
			for _, c := range emptinessFirst(spec, tc.cands) {
				got = append(got, c.src)
			}
			if strings.Join(got, " | ") != tc.want {
				t.Errorf("got %s, want %s", strings.Join(got, " | "), tc.want)
			}
		})
	}
}

// TestDependentAtoms checks which atoms a condition's outcome depends on.
func TestDependentAtoms(t *testing.T) {
	for _, tc := range []struct{ cond, want string }{
		{"a && b || a", "a"},
		{"strict && len(s) > 1 && s[0] == '0' || strict", "strict"},
		{"x > 0 || !(x > 0) && y", "x > 0 | y"},
		{"p != nil && p.n > 0", "p != nil | p.n > 0"},
		{"!(a || !a)", ""},
	} {
		e, err := parser.ParseExpr(tc.cond)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, a := range dependentAtoms(e) {
			got = append(got, types.ExprString(a))
		}
		if strings.Join(got, " | ") != tc.want {
			t.Errorf("%s: depends on %q, want %s", tc.cond, got, tc.want)
		}
	}
}

// TestCharRange checks the rule char-range alone, on conditions whose
// characters no recorded state has (the other rules would object).
func TestCharRange(t *testing.T) {
	for _, tc := range []struct {
		orig, cand string
		reject     bool
	}{
		{"c == 'T' || c == 't'", "c <= 'T' || c == 't'", true},
		{"c != '-'", "'-' < c", true},
		{"c == 'a' || c <= 'Z'", "c >= 'a' || c <= 'Z'", false}, // both ends
		{"c >= 'a' && c <= 'z'", "c >= 'a' && c < 'z'", false},  // a range kept
		{"c == 'T'", "c == 'T' || c == 't'", false},
		{"c == 'T'", "d <= 'T'", false}, // another expression: not a range of c
		{"s[i] == 'x'", "s[i] > 'x'", true},
	} {
		orig, err1 := parser.ParseExpr(tc.orig)
		cand, err2 := parser.ParseExpr(tc.cand)
		if err1 != nil || err2 != nil {
			t.Fatal(err1, err2)
		}
		why := charRange(orig, cand)
		if (why != "") != tc.reject || tc.reject && !strings.HasPrefix(why, "char-range: ") {
			t.Errorf("charRange(%s, %s) = %q, want rejected %v", tc.orig, tc.cand, why, tc.reject)
		}
	}
}

// TestCharMismatch checks the rule char-mismatch: a character literal of
// the code compared with a number that is no character.
func TestCharMismatch(t *testing.T) {
	ex := func(origin string, i, c int64) synth.Example {
		return synth.Example{Origin: origin, Values: []synth.Value{synth.IntValue(i), synth.IntValue(c)}}
	}
	newline := synth.Constant{Expr: `'\n'`, Value: synth.IntValue('\n')}
	spec := &synth.Spec{
		Inputs:    []synth.Input{{Expr: "i", Kind: synth.Int}, {Expr: "c", Kind: synth.Int, Char: true}},
		Constants: []synth.Constant{newline},
		Examples:  []synth.Example{ex("TestA", -1, 'a'), ex("TestB", 4, '\n'), ex("TestC", 12, 'b')},
	}
	ten := *spec
	ten.Constants = []synth.Constant{newline, {Expr: "10", Value: synth.IntValue(10)}}
	index := collect.Site{Kind: collect.Cond, Original: "i < 0"}
	// A lexer's character held in an int: the original tests it
	// against a character.
	lexer := collect.Site{Kind: collect.Cond, Original: "i == 'a'"}
	for _, tc := range []struct {
		name string
		site collect.Site
		spec *synth.Spec
		cand string
		rule string
	}{
		{"an index ordered against a newline", index, spec, `i < '\n' && i >= 0`, "char-mismatch"},
		{"a character against a newline", index, spec, `c == '\n' && i >= 0`, ""},
		{"the code has 10 as a number too", index, &ten, `i < 10 && i >= 0`, ""},
		{"an index equal to a newline", index, spec, `i == '\n' || i < 0`, ""},
		{"an int the original compares with a character", lexer, spec, `i < '\n'`, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			checkRule(t, tc.site, tc.spec, tc.cand, tc.rule)
		})
	}
}

// TestEnumOrder checks the rule enum-order: a synthesized ordering of a
// value whose values have names, against one of those names, where the
// original orders it against nothing.
func TestEnumOrder(t *testing.T) {
	ex := func(origin string, k int64) synth.Example {
		return synth.Example{Origin: origin, Values: []synth.Value{synth.IntValue(k)}}
	}
	spec := &synth.Spec{
		Inputs: []synth.Input{{Expr: "k", Kind: synth.Int}},
		Constants: []synth.Constant{
			{Expr: "reflect.Slice", Value: synth.IntValue(23)},
			{Expr: "reflect.Array", Value: synth.IntValue(17)},
		},
		Examples: []synth.Example{ex("TestA", 23), ex("TestA", 17), ex("TestB", 2)},
	}
	observed := []collect.Observed{{Expr: "k", Kind: collect.KindInt, Type: "reflect.Kind", Enum: true}}
	equality := collect.Site{Kind: collect.Cond, Original: "k == reflect.Slice", Observed: observed}
	ranged := collect.Site{Kind: collect.Cond, Original: "k >= reflect.Int && k <= reflect.Int64", Observed: observed}
	number := collect.Site{Kind: collect.Cond, Original: "k == 0", Observed: []collect.Observed{{Expr: "k", Kind: collect.KindInt, Type: "int"}}}
	for _, tc := range []struct {
		name string
		site collect.Site
		cand string
		rule string
	}{
		{"a range of kinds", equality, "k <= reflect.Slice && k >= reflect.Array", "enum-order"},
		{"two kinds", equality, "k == reflect.Slice || k == reflect.Array", ""},
		{"the original orders the kind", ranged, "k <= reflect.Slice && k >= reflect.Array", ""},
		{"a number, not a kind", number, "k <= reflect.Slice && k >= reflect.Array", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			checkRule(t, tc.site, spec, tc.cand, tc.rule)
		})
	}
}

// TestEnumMismatch checks the rule enum-mismatch: a comparison of a value
// the function compares with one enumeration's names against a name of
// another enumeration.
func TestEnumMismatch(t *testing.T) {
	ex := func(origin string, k int64) synth.Example {
		return synth.Example{Origin: origin, Values: []synth.Value{synth.IntValue(k)}}
	}
	spec := &synth.Spec{
		Inputs: []synth.Input{{Expr: "state", Kind: synth.Int}},
		Constants: []synth.Constant{
			{Expr: "sbATerm", Value: synth.IntValue(4)},
			{Expr: "gcPe", Value: synth.IntValue(4)},
			{Expr: "limit", Value: synth.IntValue(4)},
		},
		Examples: []synth.Example{ex("TestA", 4), ex("TestB", 2)},
	}
	constants := []collect.Constant{
		{Expr: "sbATerm", Value: collect.Value{Kind: collect.KindInt, Int: 4}, Group: "sbAny"},
		{Expr: "gcPe", Value: collect.Value{Kind: collect.KindInt, Int: 4}, Group: "gcCc"},
		{Expr: "limit", Value: collect.Value{Kind: collect.KindInt, Int: 4}},
	}
	compared := collect.Site{Kind: collect.Guard, Original: "x++", Constants: constants,
		Observed: []collect.Observed{{Expr: "state", Kind: collect.KindInt, Type: "int", Groups: []string{"sbAny"}}}}
	uncompared := compared
	uncompared.Observed = []collect.Observed{{Expr: "state", Kind: collect.KindInt, Type: "int"}}
	for _, tc := range []struct {
		name string
		site collect.Site
		cand string
		rule string
	}{
		{"another enumeration's name", compared, "state == gcPe", "enum-mismatch"},
		{"its own enumeration's name", compared, "state == sbATerm", ""},
		{"a constant of no enumeration", compared, "state == limit", ""},
		{"a value compared with no enumeration", uncompared, "state == gcPe", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			checkRule(t, tc.site, spec, tc.cand, tc.rule)
		})
	}
}

// TestMislabeled: a clause added that makes the original's check of a
// value the branch reports on another value is rejected; the same check
// with another constant, or where the branch reports both, is not.
func TestMislabeled(t *testing.T) {
	retract := collect.Site{Kind: collect.Cond, Original: "!isCanonicalVersion(vi.Low)",
		Then: &collect.Branch{Exits: true, ReturnsError: true, Reports: []string{"vi.Low"}}}
	both := retract
	both.Then = &collect.Branch{Exits: true, ReturnsError: true, Reports: []string{"vi.Low", "vi.High"}}
	sort := collect.Site{Kind: collect.Cond, Original: "!function.IsType(vf.Type(), function.Less) || vf.IsNil()",
		Then: &collect.Branch{Exits: true, Panics: true, Reports: []string{"lessOrCompareFunc"}}}
	for _, tc := range []struct {
		name   string
		site   collect.Site
		cand   string
		clause string
		rule   string
	}{
		{"another version, the branch reports vi.Low", retract, "!isCanonicalVersion(vi.Low) || !isCanonicalVersion(vi.High)", "isCanonicalVersion(vi.High)", "mislabeled"},
		{"the branch reports both", both, "!isCanonicalVersion(vi.Low) || !isCanonicalVersion(vi.High)", "isCanonicalVersion(vi.High)", ""},
		{"another constant", sort, "(!function.IsType(vf.Type(), function.Less) && !function.IsType(vf.Type(), function.Compare)) || vf.IsNil()", "function.IsType(vf.Type(), function.Compare)", ""},
		{"not an extension", retract, "!isCanonicalVersion(vi.Low) || !isCanonicalVersion(vi.High)", "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := antiPattern(tc.site, nil, candidate{src: tc.cand, method: "mutation", added: tc.clause})
			if ruleOf(got) != tc.rule {
				t.Errorf("antiPattern(%q) = %q, want rule %q", tc.cand, got, tc.rule)
			}
		})
	}
}

// TestReadsAssigned: a guard that reads what the wrapped assignment
// writes is a conditional update.
func TestReadsAssigned(t *testing.T) {
	for _, tc := range []struct {
		stmt, cond string
		want       bool
	}{
		{"match.MatchErr = nil", "match.MatchErr == ErrNotFound", true},
		{"max = x", "x > max", true},
		{"a[i] = v", "a[i] == 0", true},
		{"match.MatchErr = nil", "req.Host == \"\"", false},
		{"match.MatchErr = nil", "match == nil", false}, // reads match, not the field it writes
		{"n++", "n > 0", false},                         // no assignment
		{"x, y = y, x", "y > x", true},
		{"total += x", "total <= x", false}, // an op-assignment always reads its target
	} {
		if got := readsAssigned(tc.stmt, tc.cond); got != tc.want {
			t.Errorf("readsAssigned(%q, %q) = %v, want %v", tc.stmt, tc.cond, got, tc.want)
		}
	}
}

// TestOnlyRule: the rejections of a site all by one rule.
func TestOnlyRule(t *testing.T) {
	del := "x > 0: " + ruleConditionalDeletion + ": x > 0 would skip `y = 1`"
	for _, tc := range []struct {
		rejected []string
		want     bool
	}{
		{nil, false},
		{[]string{del}, true},
		{[]string{del, "3 more rejected in the search: " + ruleConditionalDeletion}, true},
		{[]string{del, "y < 2: " + ruleGuardDeleted + ": the branch panics"}, false},
	} {
		if got := onlyRule(tc.rejected, ruleConditionalDeletion); got != tc.want {
			t.Errorf("onlyRule(%q) = %v, want %v", tc.rejected, got, tc.want)
		}
	}
}

func TestDeletionsCloser(t *testing.T) {
	// hcl's alignedItems: every recorded state (i=0, one key) needs
	// true; the original is false there.
	spec := &synth.Spec{
		Inputs: []synth.Input{{Expr: "i", Kind: synth.Int}, {Expr: "len(keys)", Kind: synth.Int}, {Expr: "ok", Kind: synth.Bool}},
		Examples: []synth.Example{
			{Values: []synth.Value{synth.IntValue(0), synth.IntValue(1), synth.BoolValue(true)}, Want: true},
			{Values: []synth.Value{synth.IntValue(0), synth.IntValue(1), synth.BoolValue(false)}, Want: true},
		},
	}
	mut := func(src string) candidate { return candidate{src: src, method: "mutation"} }
	for _, tc := range []struct {
		name, orig string
		cands      []string
		want       []string
	}{
		{
			"the deletion changes less than the swap",
			"i == len(keys)-2 && len(keys) == 1",
			[]string{"i == len(keys)-2 || len(keys) == 1", "i != len(keys)-2 && len(keys) == 1", "len(keys) == 1"},
			[]string{"len(keys) == 1", "i == len(keys)-2 || len(keys) == 1", "i != len(keys)-2 && len(keys) == 1"},
		},
		{
			// len(keys) == 2 differs from the swap on the recorded
			// states: the suite tells them apart, the order stays.
			"a deletion the recorded states tell apart stays",
			"ok && len(keys) == 2",
			[]string{"ok || len(keys) == 2", "len(keys) == 2"},
			[]string{"ok || len(keys) == 2", "len(keys) == 2"},
		},
		{
			// len(keys) == 1 changes the original at i=-1, as i <= 0
			// does, and at i=1: it is no closer.
			"a deletion that changes more stays",
			"i == 0 && len(keys) == 1",
			[]string{"i <= 0 && len(keys) == 1", "len(keys) == 1"},
			[]string{"i <= 0 && len(keys) == 1", "len(keys) == 1"},
		},
		{
			// The swap changes i=-1 and len(keys)=0, the deletion i=-1
			// and i=1: neither changes less.
			"a deletion that changes otherwise stays",
			"i == 0 && len(keys) == 1",
			[]string{"i <= 0 && len(keys) <= 1", "len(keys) == 1"},
			[]string{"i <= 0 && len(keys) <= 1", "len(keys) == 1"},
		},
		{
			"only a deletion moves",
			"i == len(keys)-2 && len(keys) == 1",
			[]string{"i == len(keys)-2 || len(keys) == 1", "len(keys) == 1 && i < 1"},
			[]string{"i == len(keys)-2 || len(keys) == 1", "len(keys) == 1 && i < 1"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var cands []candidate
			for _, c := range tc.cands {
				cands = append(cands, mut(c))
			}
			var got []string
			for _, c := range deletionsCloser(spec, cands, tc.orig) {
				got = append(got, c.src)
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("deletionsCloser(%q) = %q, want %q", tc.cands, got, tc.want)
			}
		})
	}
}

// TestDeletionsCloserParallel: a deletion that changes fewer near states
// does not move before a mutant that makes the clauses parallel (color's
// seeded Equals).
func TestDeletionsCloserParallel(t *testing.T) {
	spec := &synth.Spec{
		Inputs:   []synth.Input{{Expr: "c == nil", Kind: synth.Bool}, {Expr: "c2 == nil", Kind: synth.Bool}},
		Examples: []synth.Example{{Values: []synth.Value{synth.BoolValue(false), synth.BoolValue(false)}, Want: false}},
	}
	for _, tc := range []struct {
		method string
		want   []string
	}{
		{"mutation", []string{"c == nil || c2 == nil", "c == nil"}},
		// Not a mutant: the deletion changes less and moves.
		{"synthesis", []string{"c == nil", "c == nil || c2 == nil"}},
	} {
		cands := []candidate{{src: "c == nil || c2 == nil", method: tc.method}, {src: "c == nil", method: "mutation"}}
		var got []string
		for _, c := range deletionsCloser(spec, cands, "c == nil || c2 != nil") {
			got = append(got, c.src)
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("deletionsCloser after a %s = %q, want %q", tc.method, got, tc.want)
		}
	}
}

// TestGuardWeakened: at an if whose branch panics or returns an error, a
// candidate that implies the original weakens the check and is ranked
// after the others at the site; elsewhere, and for any other change, the
// order stays.
func TestGuardWeakened(t *testing.T) {
	panics := &collect.Branch{Exits: true, Panics: true}
	errs := &collect.Branch{Exits: true, ReturnsError: true}
	tests := []struct {
		orig, cand string
		then       *collect.Branch
		want       bool
	}{
		{"(less && !cmp) || isNil", "(less && !cmp) && isNil", panics, true},
		{"(less && !cmp) || isNil", "(!less && !cmp) || isNil", panics, false},
		{"(less && !cmp) || isNil", "isNil", panics, true},
		{"a || b", "a", errs, true},
		{"a || b", "a || b", errs, false}, // the original itself
		{"a || b", "a || c", errs, false},
		{"a", "a && b", errs, true},
		{"a || b", "a && b", nil, false},                          // no error branch
		{"a || b", "a && b", &collect.Branch{Exits: true}, false}, // nor here
		{"x > 0", "x >= 0", panics, false},                        // an operator: not read as an implication
	}
	for _, tt := range tests {
		site := collect.Site{Kind: collect.Cond, Original: tt.orig, Then: tt.then}
		if got := guardWeakened(site, tt.cand); got != tt.want {
			t.Errorf("guardWeakened(%q, %q) = %v, want %v", tt.orig, tt.cand, got, tt.want)
		}
	}
	site := collect.Site{Kind: collect.Cond, Original: "(less && !cmp) || isNil", Then: panics}
	var got []string
	for _, c := range weakenedLast(site, []candidate{{src: "(less && !cmp) && isNil"}, {src: "!((less && !cmp) || isNil)"}, {src: "isNil"}, {src: "(!less && !cmp) || isNil"}}) {
		got = append(got, c.src)
	}
	if want := []string{"!((less && !cmp) || isNil)", "(!less && !cmp) || isNil", "(less && !cmp) && isNil", "isNil"}; !slices.Equal(got, want) {
		t.Errorf("order %q, want %q", got, want)
	}
}

// TestEnumRange checks enum-range on the fallback's mutants (no recorded
// states): an equality with a name of an enumeration made an ordering.
func TestEnumRange(t *testing.T) {
	for _, tc := range []struct {
		name, orig, cand, rule string
	}{
		{"an enumeration's name made a range", "x == prMid || x == prQuote", "x <= prMid || x == prQuote", "enum-range"},
		{"an enumeration's name made a range, name first", "x != prMid", "prMid > x", "enum-range"},
		{"an enumeration's name kept an equality", "x == prMid || x == prQuote", "x == prMid || x != prQuote", ""},
		{"an enumeration's name the original orders against", "x >= prMid && x != prQuote", "x > prMid && x != prQuote", ""},
		{"a constant of no enumeration made a range", "x == maxLen", "x >= maxLen", ""},
		// go-cmp's seeded formatDiffSlice: `t.Kind() != reflect.String`
		// was "repaired" by <= (every kind up to String).
		{"another package's named value made a range", "t.Kind() != reflect.String", "t.Kind() <= reflect.String", "enum-range"},
		{"another package's named value negated", "t.Kind() != reflect.String", "t.Kind() == reflect.String", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			site := collect.Site{Kind: collect.Cond, Original: tc.orig}
			for _, n := range []string{"prMid", "prQuote", "reflect.String"} {
				if strings.Contains(tc.orig, n) {
					site.EnumNames = append(site.EnumNames, n)
				}
			}
			if got := antiPattern(site, nil, candidate{src: tc.cand, method: "mutation", pointToRange: true}); ruleOf(got) != tc.rule {
				t.Errorf("antiPattern(%q at `%s`) = %q, want rule %q", tc.cand, tc.orig, got, tc.rule)
			}
		})
	}
}

// TestNilSafeFirst: at an if that leaves before dereferencing c and c2,
// a candidate that leaves on their nil comes before one as far from the
// original that lets it through; candidates at other distances keep
// their places.
func TestNilSafeFirst(t *testing.T) {
	leaving := collect.Site{Kind: collect.Cond, Original: "c == nil || c2 != nil", Then: &collect.Branch{Exits: true, DerefsAfter: []string{"c", "c2"}}}
	tests := []struct {
		name  string
		site  collect.Site
		cands []string
		want  []string
	}{
		{"the nil-safe mutant first", leaving,
			[]string{"c == nil && c2 != nil", "c == nil", "c == nil || c2 == nil", "!(c == nil || c2 != nil)"},
			[]string{"c == nil || c2 == nil", "c == nil", "c == nil && c2 != nil", "!(c == nil || c2 != nil)"}},
		{"nil == x counts, a nil test under && does not", leaving,
			[]string{"c == nil && c2 == nil", "nil == c || c2 != nil"},
			[]string{"nil == c || c2 != nil", "c == nil && c2 == nil"}},
		{"equally safe: the order stays", leaving,
			[]string{"c == nil || c2 == 0", "c == nil || c2 > nil"},
			[]string{"c == nil || c2 == 0", "c == nil || c2 > nil"}},
		{"nothing dereferenced after", collect.Site{Kind: collect.Cond, Original: "c == nil || c2 != nil", Then: &collect.Branch{Exits: true}},
			[]string{"c == nil && c2 != nil", "c == nil || c2 == nil"},
			[]string{"c == nil && c2 != nil", "c == nil || c2 == nil"}},
	}
	for _, tc := range tests {
		var cands []candidate
		for _, src := range tc.cands {
			cands = append(cands, candidate{src: src, method: "mutation"})
		}
		var got []string
		for _, c := range nilSafeFirst(tc.site, cands) {
			got = append(got, c.src)
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s:\n got %q\nwant %q", tc.name, got, tc.want)
		}
	}
}

// TestGuardChangedPrefixes checks guard-changed where each prefix of the
// original's chain of || is observed, each over the one before (x/mod's
// ParseTilePath): a state one step from a recorded one has every prefix
// recomputed, however deep the chain, so the mutant `h < 1` of `h <= 1`
// is not blamed for a change where `p` was moved and the longest prefix
// was left as recorded.
func TestGuardChangedPrefixes(t *testing.T) {
	inputs := []synth.Input{
		{Expr: "p || q || h <= 1 || l < 0", Kind: synth.Bool},
		{Expr: "p || q || h <= 1", Kind: synth.Bool},
		{Expr: "p || q", Kind: synth.Bool},
		{Expr: "p", Kind: synth.Bool},
		{Expr: "q", Kind: synth.Bool},
		{Expr: "h <= 1", Kind: synth.Bool},
		{Expr: "h", Kind: synth.Int},
		{Expr: "l < 0", Kind: synth.Bool},
		{Expr: "l", Kind: synth.Int},
		{Expr: "h > 30", Kind: synth.Bool},
	}
	state := func(origin string, h, l int64, want bool) synth.Example {
		b := synth.BoolValue
		return synth.Example{Origin: origin, Want: want, Values: []synth.Value{
			b(h <= 1 || l < 0), b(h <= 1), b(false), b(false), b(false), b(h <= 1), synth.IntValue(h), b(l < 0), synth.IntValue(l), b(h > 30),
		}}
	}
	spec := &synth.Spec{Inputs: inputs, Examples: []synth.Example{
		state("TestFail", 1, 0, false), state("TestA", 4, 0, false), state("TestB", 3, -1, true),
	}}
	site := collect.Site{Kind: collect.Cond, Original: "p || q || h <= 1 || l < 0 || h > 30", Then: &collect.Branch{ReturnsError: true, Exits: true}}
	checkRule(t, site, spec, "p || q || h < 1 || l < 0 || h > 30", "")
	checkRule(t, site, spec, "(p || q || h <= 1 || l < 0) && h > 30", "") // weakened: ranked, not rejected
}

// TestRulesAlone checks char-class (classEnd: the ends of a class of
// characters both in, or both out) and range-union (rangeUnion: a range's
// bounds joined by ||) on their own.
func TestRulesAlone(t *testing.T) {
	for _, tc := range []struct {
		rule       func(orig, cand ast.Expr) string
		orig, cand string
		bad        bool
	}{
		{classEnd, "'A' <= c", "'A' <= c && c < 'Z'", true},
		{classEnd, "'A' <= c", "'A' <= c && c <= 'Z'", false},
		{classEnd, "'A' <= c", "c > 'A' && c <= 'Z'", true},
		{classEnd, "c < '0'", "c < '0' || c >= '9'", true},
		{classEnd, "c < '0'", "c < '0' || '9' < c", false},
		{classEnd, "c < '0'", "c <= '0' || c > '9'", true},
		{classEnd, "'a' <= c && c < 'f' && x > 0", "'a' <= c && c < 'f'", false}, // the original's own
		{classEnd, "'a' <= c", "'a' <= c && c < 'g'", false},                     // no class
		{classEnd, "'a' <= c", "'a' <= c && d < 'z'", false},                     // another value
		{classEnd, "c == 'a'", "c == 'a' || c == 'z'", false},                    // equalities
		{rangeUnion, "1 <= t && t < Type(len(tokens))", "1 <= t || t < Type(len(tokens))", true},
		{rangeUnion, "1 <= t && t < Type(len(tokens))", "0 <= t && t < Type(len(tokens))", false},
		{rangeUnion, "x >= lo && x <= hi", "x <= hi || x >= lo", true},
		{rangeUnion, "x >= lo && x <= hi", "ok || x >= lo || hi >= x", true},
		{rangeUnion, "x < lo || x > hi", "x < lo || x >= hi", false}, // outside the range
		{rangeUnion, "x >= lo && x <= hi", "x >= lo || y <= hi", false},
		{rangeUnion, "x >= lo", "x >= lo || x < hi", false}, // no range in the original
	} {
		orig, err := parser.ParseExpr(tc.orig)
		if err != nil {
			t.Fatal(err)
		}
		cand, err := parser.ParseExpr(tc.cand)
		if err != nil {
			t.Fatal(err)
		}
		if why := tc.rule(orig, cand); (why != "") != tc.bad {
			t.Errorf("%s at %s: %q, want a rejection: %v", tc.cand, tc.orig, why, tc.bad)
		}
	}
}

// TestInventedArithmetic: a term of two non-literal operands is rejected
// unless the file computes it (in an expression or an x op= y); a literal
// operand is always allowed.
func TestInventedArithmetic(t *testing.T) {
	file, err := parser.ParseFile(token.NewFileSet(), "m.go", `package m
func f(s *state, fields []string, totalFields int) {
	n := len(fields) - totalFields
	total := 0
	total += s.width
	_ = n * 2
}`, 0)
	if err != nil {
		t.Fatal(err)
	}
	written := arithmeticTerms(file)
	for _, tc := range []struct {
		cand string
		rule string
	}{
		{"len(s.exporters) == len(s.opts) - len(s.exporters)", "invented-arithmetic"},
		{"mayForce && numContextRecords * len(s.curPath) == len(s.opts)", "invented-arithmetic"},
		{"firstProp + graphemeState + len(b) >= gcMn", "invented-arithmetic"},
		{"i != totalFields - 1", ""},
		{"i < -1 + totalFields", ""},
		{"len(fields) - totalFields > 0", ""},                    // the file computes it
		{"s.width + total > 3", ""},                              // total += s.width
		{"totalFields - len(fields) > 0", "invented-arithmetic"}, // not that one
		{"x > 0 && y", ""},
	} {
		got := inventedArithmetic(written, candidate{src: tc.cand, method: "synthesis"})
		if ruleOf(got) != tc.rule {
			t.Errorf("inventedArithmetic(%q) = %q, want rule %q", tc.cand, got, tc.rule)
		}
	}
}

// TestDecrementUnguarded: where the branch decrements a value the
// original keeps at 1 or more, a candidate that holds where it may be 0
// or less is rejected.
func TestDecrementUnguarded(t *testing.T) {
	site := collect.Site{Kind: collect.Cond, Original: "ok && n.count > 0", Then: &collect.Branch{Decremented: []string{"n.count"}}}
	for _, tc := range []struct {
		orig, cand, rule string
	}{
		{"ok && n.count > 0", "ok && n.count >= 0", "decrement-unguarded"},
		{"ok && n.count > 0", "ok", "decrement-unguarded"},
		{"ok && n.count > 0", "ok && n.count == 0", "decrement-unguarded"},
		{"ok && n.count > 0", "ok || n.count > 0", "decrement-unguarded"},
		{"ok && n.count > 0", "!ok && n.count > 0", ""},
		{"ok && n.count > 0", "n.count >= 1", ""},
		{"ok && n.count > 0", "0 < n.count && ok", ""},
		{"ok && n.count > 0", "n.count > 0 && ok || n.count == 2", ""},
		{"ok && n.count > 0", "n.count > -1", "decrement-unguarded"},
		{"ok && n.count >= 0", "ok", ""}, // the original lets it reach -1 already
		{"ok && 1 <= n.count", "ok && n.count != 0", "decrement-unguarded"},
	} {
		orig, cand := parseExpr(t, tc.orig), parseExpr(t, tc.cand)
		if got := decrementUnguarded(site, orig, cand); ruleOf(got) != tc.rule {
			t.Errorf("decrementUnguarded(%q, %q) = %q, want rule %q", tc.orig, tc.cand, got, tc.rule)
		}
	}
	if got := decrementUnguarded(collect.Site{Then: &collect.Branch{}}, parseExpr(t, "n > 0"), parseExpr(t, "n >= 0")); got != "" {
		t.Errorf("without a decrement: %q", got)
	}
}

// parseExpr parses the Go expression src or fails t.
func parseExpr(t *testing.T, src string) ast.Expr {
	t.Helper()
	e, err := parser.ParseExpr(src)
	if err != nil {
		t.Fatal(err)
	}
	return e
}
