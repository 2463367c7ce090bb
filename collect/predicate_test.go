package collect

import "testing"

func TestPredicateHolds(t *testing.T) {
	vals := []Value{{Kind: KindInt, Int: -1}, {Kind: KindBool, Bool: true}, {Kind: KindInt, Int: 3}, {Kind: KindInt, Missing: true}}
	tests := []struct {
		name        string
		p           Predicate
		holds, know bool
	}{
		{"bool", Predicate{Index: 1, Op: PredBool, Other: -1}, true, true},
		{"bool negated", Predicate{Index: 1, Op: PredBool, Other: -1, Negate: true}, false, true},
		{"less than a constant", Predicate{Index: 0, Op: PredLess, Other: -1}, true, true},
		{"equal to a constant", Predicate{Index: 2, Op: PredEq, Other: -1, Const: 3}, true, true},
		{"not equal", Predicate{Index: 2, Op: PredEq, Other: -1, Const: 3, Negate: true}, false, true},
		{"at most another value", Predicate{Index: 2, Op: PredLessEq, Other: 0}, false, true},
		{"greater than another value", Predicate{Index: 2, Op: PredLessEq, Other: 0, Negate: true}, true, true},
		{"a missing value", Predicate{Index: 3, Op: PredEq, Other: -1}, false, false},
		{"another value missing", Predicate{Index: 0, Op: PredLess, Other: 3}, false, false},
		{"out of range", Predicate{Index: 9, Op: PredBool, Other: -1}, false, false},
		{"an unknown operator", Predicate{Index: 0, Op: "ne", Other: -1}, false, false},
	}
	for _, tt := range tests {
		holds, known := tt.p.Holds(vals)
		if holds != tt.holds || known != tt.know {
			t.Errorf("%s: Holds = %v, %v; want %v, %v", tt.name, holds, known, tt.holds, tt.know)
		}
	}
}

// TestPredicateOutcome checks a predicate joined with the original
// condition's value (Combine).
func TestPredicateOutcome(t *testing.T) {
	vals := []Value{{Kind: KindBool, Bool: true}, {Kind: KindBool, Missing: true}}
	tests := []struct {
		name           string
		p              Predicate
		original       bool
		outcome, known bool
	}{
		{"alone", Predicate{Index: 0, Op: PredBool, Other: -1}, false, true, true},
		{"or, the original false", Predicate{Index: 0, Op: PredBool, Other: -1, Combine: CombineOr}, false, true, true},
		{"or, p false", Predicate{Index: 0, Op: PredBool, Other: -1, Negate: true, Combine: CombineOr}, true, true, true},
		{"and, the original false", Predicate{Index: 0, Op: PredBool, Other: -1, Combine: CombineAnd}, false, false, true},
		{"and, both true", Predicate{Index: 0, Op: PredBool, Other: -1, Combine: CombineAnd}, true, true, true},
		{"and, p false", Predicate{Index: 0, Op: PredBool, Other: -1, Negate: true, Combine: CombineAnd}, true, false, true},
		{"a missing value", Predicate{Index: 1, Op: PredBool, Other: -1, Combine: CombineOr}, true, false, false},
	}
	for _, tt := range tests {
		outcome, known := tt.p.Outcome(tt.original, vals)
		if outcome != tt.outcome || known != tt.known {
			t.Errorf("%s: Outcome = %v, %v; want %v, %v", tt.name, outcome, known, tt.outcome, tt.known)
		}
	}
}

// TestPredicateEnv checks the encoding the hook parses (NOPOL_PRED,
// nopolParsePredicate): site:index:op:other:const:negate[:combine].
func TestPredicateEnv(t *testing.T) {
	env := runEnv(Run{Predicates: map[int]Predicate{7: {Index: 2, Op: PredLess, Other: -1, Const: -3, Negate: true}, 3: {Index: 0, Op: PredBool, Other: -1}, 5: {Index: 1, Op: PredBool, Other: -1, Combine: CombineAnd}}}, "out")
	want := "NOPOL_PRED=3:0:b:-1:0:0,5:1:b:-1:0:0:and,7:2:lt:-1:-3:1"
	for _, e := range env {
		if e == want {
			return
		}
	}
	t.Errorf("environment %q lacks %q", env, want)
}
