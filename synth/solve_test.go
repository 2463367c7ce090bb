package synth_test

import (
	"context"
	"errors"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/nopol-go/nopol/synth"
)

func intExample(want bool, origin string, xs ...int64) synth.Example {
	ex := synth.Example{Want: want, Origin: origin}
	for _, x := range xs {
		ex.Values = append(ex.Values, synth.IntValue(x))
	}
	return ex
}

func intSpec(original string, names ...string) *synth.Spec {
	s := &synth.Spec{Original: original, Constants: []synth.Constant{{Expr: "0", Value: synth.IntValue(0)}}}
	for _, n := range names {
		s.Inputs = append(s.Inputs, synth.Input{Expr: n, Kind: synth.Int})
	}
	return s
}

func TestPrepareMergesDuplicates(t *testing.T) {
	spec := intSpec("n > 0", "n", "m")
	spec.Examples = []synth.Example{
		intExample(true, "A", 1, 2),
		intExample(false, "B", 0, 2),
		intExample(true, "C", 1, 2),
		intExample(true, "D", 5, 5),
		intExample(false, "E", 0, 2),
	}
	p, err := synth.Prepare(spec)
	if err != nil {
		t.Fatal(err)
	}
	var origins []string
	for _, ex := range p.Examples {
		origins = append(origins, ex.Origin)
	}
	if want := []string{"A", "B", "D"}; !slices.Equal(origins, want) {
		t.Errorf("distinct examples %v, want %v (first seen, in order)", origins, want)
	}
	if len(spec.Examples) != 5 {
		t.Errorf("Prepare changed the spec: %d examples", len(spec.Examples))
	}
}

func TestPrepareErrors(t *testing.T) {
	contra := intSpec("n > 0", "n")
	contra.Examples = []synth.Example{intExample(true, "TestA", 1), intExample(false, "TestOther", 2), intExample(false, "TestB", 1)}
	_, err := synth.Prepare(contra)
	var ce *synth.ContradictionError
	if !errors.As(err, &ce) || ce.A.Origin != "TestA" || ce.B.Origin != "TestB" {
		t.Errorf("contradiction: got %v, want a *ContradictionError between TestA and TestB", err)
	} else if msg := err.Error(); !strings.Contains(msg, "TestA") || !strings.Contains(msg, "TestB") {
		t.Errorf("message %q does not name both tests", msg)
	}

	missing := &synth.Spec{Inputs: []synth.Input{{Expr: "p.n", Kind: synth.Int}}}
	missing.Examples = []synth.Example{
		{Values: []synth.Value{synth.MissingValue(synth.Int)}, Want: true},
		{Values: []synth.Value{synth.MissingValue(synth.Int)}, Want: false},
	}
	if _, err := synth.Prepare(missing); !errors.As(err, &ce) {
		t.Errorf("two missing states: got %v, want a *ContradictionError", err)
	}

	for name, spec := range map[string]*synth.Spec{
		"count": {Inputs: []synth.Input{{Expr: "n", Kind: synth.Int}}, Examples: []synth.Example{{Values: nil, Want: true}}},
		"kind":  {Inputs: []synth.Input{{Expr: "n", Kind: synth.Int}}, Examples: []synth.Example{{Values: []synth.Value{synth.BoolValue(true)}, Want: true}}},
		"expr":  {Inputs: []synth.Input{{Expr: "", Kind: synth.Int}}},
		"bad":   {Inputs: []synth.Input{{Expr: "n", Kind: 9}}},
	} {
		if _, err := synth.Prepare(spec); err == nil {
			t.Errorf("%s: Prepare accepted an invalid spec", name)
		}
	}

	var ne *synth.NoCandidateError
	if _, err := synth.Prepare(intSpec("", "n")); !errors.As(err, &ne) {
		t.Errorf("no examples: got %v, want a *NoCandidateError", err)
	}
}

func TestSolveUnknownBackend(t *testing.T) {
	spec := intSpec("", "n")
	spec.Examples = []synth.Example{intExample(true, "", 1), intExample(false, "", 0)}
	_, err := synth.Solve(context.Background(), spec, synth.Options{Backend: "nope"})
	if err == nil || !strings.Contains(err.Error(), `"nope"`) {
		t.Errorf("got %v, want an unknown backend error", err)
	}
}

func TestCheck(t *testing.T) {
	spec := intSpec("n <= 0", "n")
	spec.Examples = []synth.Example{intExample(true, "", -1), intExample(false, "", 0), intExample(false, "", 3)}
	p, err := synth.Prepare(spec)
	if err != nil {
		t.Fatal(err)
	}
	terms := []*synth.Term{
		bin(synth.OpLt, in(0), cst(0)),   // n < 0: kept
		bin(synth.OpLe, in(0), cst(0)),   // n <= 0: wrong on 0
		bin(synth.OpLt, in(0), cst(0)),   // duplicate
		bin(synth.OpLt, lit(-1), cst(0)), // reads no input
		bin(synth.OpAdd, in(0), lit(1)),  // not a bool
		nil,
		bin(synth.OpLe, in(0), lit(-1)), // n <= -1: kept
	}
	got := sources(synth.Check(p, terms))
	if want := []string{"n < 0", "n <= -1"}; !slices.Equal(got, want) {
		t.Errorf("Check kept %q, want %q", got, want)
	}
}

func TestRank(t *testing.T) {
	spec := &synth.Spec{
		Inputs: []synth.Input{
			{Expr: "n", Kind: synth.Int}, {Expr: "m", Kind: synth.Int}, {Expr: "ok", Kind: synth.Bool},
		},
		Constants: []synth.Constant{{Expr: "0", Value: synth.IntValue(0)}, {Expr: "limit", Value: synth.IntValue(42)}},
		Original:  "n <= 0",
	}
	// Best first.
	order := []*synth.Term{
		bin(synth.OpLt, in(0), cst(0)),                          // n < 0: original operands, one new operator
		bin(synth.OpGt, cst(0), in(0)),                          // 0 > n: same cost, further from the original
		bin(synth.OpLe, in(1), cst(0)),                          // m <= 0: a new operand (+15)
		bin(synth.OpLt, in(0), cst(1)),                          // n < limit: a new operator and code constant (+15), further
		bin(synth.OpLe, in(0), lit(-1)),                         // n <= -1: an invented constant (+30)
		bin(synth.OpAnd, bin(synth.OpLe, in(0), cst(0)), in(2)), // n <= 0 && ok: bigger
		bin(synth.OpAnd, in(2), bin(synth.OpLe, in(0), cst(0))), // ok && n <= 0: same cost, further
		bin(synth.OpLe, bin(synth.OpMul, in(0), lit(3)), cst(0)),
	}
	want := make([]string, len(order))
	var cands []synth.Candidate
	for i, term := range order {
		want[i] = term.Source(spec)
		cands = append(cands, synth.Candidate{Term: term, Source: want[i], Size: term.Size()})
	}
	r := rand.New(rand.NewPCG(3, 4))
	for range 20 {
		r.Shuffle(len(cands), func(i, j int) { cands[i], cands[j] = cands[j], cands[i] })
		synth.Rank(spec, cands)
		if got := sources(cands); !slices.Equal(got, want) {
			t.Fatalf("Rank order:\n got %q\nwant %q", got, want)
		}
	}
	for i := 1; i < len(cands); i++ {
		if cands[i].Cost < cands[i-1].Cost {
			t.Errorf("%q costs %d, less than %q before it (%d)", cands[i].Source, cands[i].Cost, cands[i-1].Source, cands[i-1].Cost)
		}
	}
}

// TestRankFormatting checks that the distance to the original ignores
// spacing: gofmt writes 2*n where a candidate prints 2 * n.
func TestRankFormatting(t *testing.T) {
	spec := intSpec("2*n > m", "n", "m")
	spec.Constants = append(spec.Constants, synth.Constant{Expr: "2", Value: synth.IntValue(2)})
	a := bin(synth.OpGe, bin(synth.OpMul, in(0), cst(1)), in(1)) // 2 * n >= m
	b := bin(synth.OpLe, in(1), bin(synth.OpMul, in(0), cst(1))) // m <= 2 * n
	cands := []synth.Candidate{{Term: b, Source: b.Source(spec)}, {Term: a, Source: a.Source(spec)}}
	synth.Rank(spec, cands)
	if cands[0].Source != "2 * n >= m" {
		t.Errorf("first %q, want 2 * n >= m", cands[0].Source)
	}
}

// TestRankNegation checks that among candidates one operator away from
// the original, its negation comes first (uniseg's `len(str) > length`,
// whose fix is `len(str) <= length`, not `len(str) < length`).
func TestRankNegation(t *testing.T) {
	for _, tt := range []struct{ original, want string }{
		{"len(s) > n", "len(s) <= n"},
		{"(len(s) < n)", "len(s) >= n"},
		{"len(s) != n", "len(s) == n"},
		{"len(s) > n && ok", "len(s) > n"}, // not one comparison: a clause dropped
	} {
		spec := &synth.Spec{
			Inputs:   []synth.Input{{Expr: "len(s)", Kind: synth.Int}, {Expr: "n", Kind: synth.Int}},
			Original: tt.original,
		}
		var cands []synth.Candidate
		for _, op := range []synth.Op{synth.OpLt, synth.OpLe, synth.OpGe, synth.OpEq, synth.OpGt, synth.OpNe} {
			term := bin(op, in(0), in(1))
			cands = append(cands, synth.Candidate{Term: term, Source: term.Source(spec), Size: term.Size()})
		}
		cands = slices.DeleteFunc(cands, func(c synth.Candidate) bool { return c.Source == strings.Trim(tt.original, "()") })
		synth.Rank(spec, cands)
		if cands[0].Source != tt.want {
			t.Errorf("original %s: first %q, want %q (%q)", tt.original, cands[0].Source, tt.want, sources(cands))
		}
	}
}

// TestRankNegatedInput checks that !(p == nil), printed p != nil, costs
// nothing more than the original p != nil itself.
func TestRankNegatedInput(t *testing.T) {
	spec := &synth.Spec{
		Inputs:   []synth.Input{{Expr: "p == nil", Kind: synth.Bool}, {Expr: "q", Kind: synth.Bool}},
		Original: "p != nil",
	}
	cands := []synth.Candidate{{Term: not(in(1))}, {Term: not(in(0))}}
	for i := range cands {
		cands[i].Source = cands[i].Term.Source(spec)
	}
	synth.Rank(spec, cands)
	if cands[0].Source != "p != nil" || cands[0].Cost != 200 {
		t.Errorf("first %q cost %d, want p != nil at 200 (two components, nothing new)", cands[0].Source, cands[0].Cost)
	}
}

// TestRankInvented checks that a predicate the observer invented
// (strings.Contains(val, ","), a call the code never makes) costs as the
// components it is written with: a new guard `val == ""` ranks before
// `!strings.Contains(val, ",")` (pflag's stringToIntConv), while the same
// call made by the code costs one component, as any observed call does.
func TestRankInvented(t *testing.T) {
	for _, tt := range []struct {
		invented bool
		want     string
	}{
		{true, `val == ""`},
		{false, `!strings.Contains(val, ",")`},
	} {
		spec := &synth.Spec{
			Inputs: []synth.Input{
				{Expr: "val", Kind: synth.String},
				{Expr: `strings.Contains(val, ",")`, Kind: synth.Bool, Invented: tt.invented},
			},
			Constants: []synth.Constant{{Expr: `""`, Value: synth.StringValue("")}},
		}
		cands := []synth.Candidate{{Term: not(in(1))}, {Term: bin(synth.OpEq, in(0), cst(0))}}
		for i := range cands {
			cands[i].Source = cands[i].Term.Source(spec)
		}
		synth.Rank(spec, cands)
		if cands[0].Source != tt.want {
			t.Errorf("invented=%v: first %q (cost %d), then %q (cost %d); want %q first", tt.invented, cands[0].Source, cands[0].Cost, cands[1].Source, cands[1].Cost, tt.want)
		}
	}
}

// TestCheckTautologies checks that when every example wants the same
// outcome, conditions true whatever the inputs are refused and real ones
// kept.
func TestCheckTautologies(t *testing.T) {
	spec := &synth.Spec{
		Inputs:    []synth.Input{{Expr: "ok", Kind: synth.Bool}, {Expr: "n", Kind: synth.Int}},
		Constants: []synth.Constant{{Expr: "0", Value: synth.IntValue(0)}},
	}
	for _, n := range []int64{1, 2, 3} {
		spec.Examples = append(spec.Examples, synth.Example{
			Values: []synth.Value{synth.BoolValue(n != 2), synth.IntValue(n)},
			Want:   true,
		})
	}
	p, err := synth.Prepare(spec)
	if err != nil {
		t.Fatal(err)
	}
	terms := []*synth.Term{
		bin(synth.OpOr, in(0), not(in(0))),                                              // ok || !ok
		not(bin(synth.OpAnd, in(0), not(in(0)))),                                        // !(ok && !ok)
		bin(synth.OpOr, bin(synth.OpLt, in(1), cst(0)), bin(synth.OpGe, in(1), cst(0))), // n < 0 || n >= 0
		bin(synth.OpGt, in(1), cst(0)),                                                  // n > 0: kept
		bin(synth.OpOr, in(0), bin(synth.OpGt, in(1), cst(0))),                          // ok || n > 0: kept
	}
	got := sources(synth.Check(p, terms))
	if want := []string{"n > 0", "ok || n > 0"}; !slices.Equal(got, want) {
		t.Errorf("Check kept %q, want %q", got, want)
	}
}

func TestSolveNegativeOptions(t *testing.T) {
	spec := intSpec("", "n")
	spec.Examples = []synth.Example{intExample(true, "", 1), intExample(false, "", 0)}
	cands, err := synth.Solve(context.Background(), spec, synth.Options{Backend: "enum", MaxSize: -1, MaxCandidates: -1, Timeout: -1})
	if err != nil || len(cands) == 0 || len(cands) > 10 {
		t.Errorf("got %d candidates, %v; want the defaults to apply", len(cands), err)
	}
}

// TestRandomSpecs solves random specs of every kind, with missing values
// and constants of every kind, with every backend, and checks every
// candidate returned.
func TestRandomSpecs(t *testing.T) {
	for _, backend := range synth.Backends() {
		t.Run(backend, func(t *testing.T) { randomSpecs(t, backend) })
	}
}

func randomSpecs(t *testing.T, backend string) {
	r := rand.New(rand.NewPCG(8, 9))
	kinds := []synth.Kind{synth.Bool, synth.Int, synth.Float, synth.String}
	value := func(k synth.Kind) synth.Value {
		switch k {
		case synth.Bool:
			return synth.BoolValue(r.IntN(2) == 0)
		case synth.Int:
			return synth.IntValue(int64(r.IntN(9) - 4))
		case synth.Float:
			return synth.FloatValue(float64(r.IntN(9)-4) / 2)
		}
		return synth.StringValue([]string{"", "a", "b"}[r.IntN(3)])
	}
	solved := 0
	for i := range 60 {
		spec := &synth.Spec{Original: []string{"", "a0 > 0", "b1 || b2"}[r.IntN(3)]}
		for j := range 2 + r.IntN(4) {
			k := kinds[r.IntN(len(kinds))]
			spec.Inputs = append(spec.Inputs, synth.Input{Expr: string("bifs"[k-1]) + string(rune('0'+j)), Kind: k})
		}
		spec.Constants = []synth.Constant{{Expr: "0", Value: synth.IntValue(0)}, {Expr: `"a"`, Value: synth.StringValue("a")}}
		for j := range r.IntN(4) {
			k := kinds[r.IntN(len(kinds))]
			expr := []string{"1", "true", "0.5", "limit"}[j]
			spec.Constants = append(spec.Constants, synth.Constant{Expr: expr, Value: value(k)})
		}
		// Half the specs follow a rule on one input, the others are noise.
		rule := r.IntN(2) == 0
		ruled := r.IntN(len(spec.Inputs))
		for range 3 + r.IntN(8) {
			ex := synth.Example{Want: r.IntN(2) == 0}
			for j, in := range spec.Inputs {
				v := value(in.Kind)
				if r.IntN(6) == 0 && !(rule && j == ruled) {
					v = synth.MissingValue(in.Kind)
				}
				ex.Values = append(ex.Values, v)
			}
			if v := ex.Values[ruled]; rule && !v.Missing {
				ex.Want = v.Bool || v.Int > 0 || v.Float > 0 || v.Str == "a"
			}
			spec.Examples = append(spec.Examples, ex)
		}
		cands, err := synth.Solve(context.Background(), spec, synth.Options{Backend: backend, MaxSize: 5, MaxCandidates: 5})
		var ce *synth.ContradictionError
		var ne *synth.NoCandidateError
		if err != nil && !errors.As(err, &ce) && !errors.As(err, &ne) {
			t.Errorf("spec %d: %v", i, err)
		}
		checkCandidates(t, spec, cands)
		if len(cands) > 0 {
			solved++
		}
	}
	t.Logf("%d of 60 random specs solved", solved)
	if solved < 20 {
		t.Errorf("only %d of 60 random specs solved", solved)
	}
}

// TestPredicateEquality checks that two boolean inputs are compared with
// == or != only when the spec allows it: with it, on == want is the
// smallest fit; without, no candidate compares on with want.
func TestPredicateEquality(t *testing.T) {
	B, I := synth.BoolValue, synth.IntValue
	ex := func(want bool, vals ...synth.Value) synth.Example { return synth.Example{Values: vals, Want: want} }
	for _, backend := range synth.Backends() {
		for _, allowed := range []bool{true, false} {
			spec := &synth.Spec{
				Inputs: []synth.Input{{Expr: "on", Kind: synth.Bool}, {Expr: "want", Kind: synth.Bool}, {Expr: "n", Kind: synth.Int}},
				Examples: []synth.Example{
					ex(true, B(true), B(true), I(1)), ex(false, B(true), B(false), I(2)), ex(true, B(false), B(false), I(3)),
					ex(false, B(false), B(true), I(0)), ex(true, B(true), B(true), I(7)),
				},
				PredicateEquality: allowed,
			}
			cands, err := synth.Solve(context.Background(), spec, synth.Options{Backend: backend})
			if err != nil {
				t.Fatalf("%s: %v", backend, err)
			}
			compares := false
			for _, c := range cands {
				compares = compares || strings.Contains(c.Source, "on == want") || strings.Contains(c.Source, "on != want") || strings.Contains(c.Source, "want == on")
			}
			if compares != allowed {
				t.Errorf("%s, PredicateEquality %v: candidates %v compare on with want: %v", backend, allowed, sources(cands), compares)
			}
		}
	}
}

// TestReject checks that a rejected fit is not returned and leaves its
// place to another of its level, with every backend.
func TestReject(t *testing.T) {
	I := synth.IntValue
	ex := func(want bool, n int64) synth.Example { return synth.Example{Values: []synth.Value{I(n)}, Want: want} }
	spec := &synth.Spec{
		Inputs:    []synth.Input{{Expr: "n", Kind: synth.Int}},
		Constants: []synth.Constant{{Expr: "2", Value: I(2)}},
		Examples:  []synth.Example{ex(false, 1), ex(false, 2), ex(true, 5), ex(true, 7)},
	}
	for _, backend := range synth.Backends() {
		var asked []string
		reject := func(t *synth.Term) string {
			asked = append(asked, t.Source(spec))
			if t.Source(spec) == "n > 2" {
				return "no"
			}
			return ""
		}
		cands, err := synth.Solve(context.Background(), spec, synth.Options{Backend: backend, Reject: reject})
		if err != nil {
			t.Fatalf("%s: %v", backend, err)
		}
		if !slices.Contains(asked, "n > 2") {
			t.Errorf("%s: n > 2 was never offered to Reject (offered %q)", backend, asked)
		}
		if got := sources(cands); slices.Contains(got, "n > 2") || len(got) == 0 {
			t.Errorf("%s: candidates %q, want some, and not n > 2", backend, got)
		}
	}
}
