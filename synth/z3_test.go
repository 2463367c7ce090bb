//go:build cgo && !noz3

package synth

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"
)

// ex builds an example from values and the wanted outcome.
func ex(want bool, vals ...Value) Example { return Example{Values: vals, Want: want} }

var (
	I = IntValue
	F = FloatValue
	B = BoolValue
	S = StringValue
)

// z3Specs are small problems with a known answer: want is a condition
// that must be among the candidates (any one of the alternatives).
var z3Specs = []struct {
	name string
	spec Spec
	want []string // nil: no candidate
}{
	{
		name: "lt instead of le",
		spec: Spec{
			Inputs:    []Input{{Expr: "n", Kind: Int}},
			Constants: []Constant{{Expr: "0", Value: I(0)}},
			Original:  "n <= 0",
			Examples: []Example{
				ex(true, I(-3)), ex(false, I(0)), ex(false, I(5)), ex(true, I(-1)),
			},
		},
		want: []string{"n < 0"},
	},
	{
		name: "range",
		spec: Spec{
			Inputs:   []Input{{Expr: "lo", Kind: Int}, {Expr: "x", Kind: Int}, {Expr: "hi", Kind: Int}},
			Original: "lo <= x && x <= hi",
			Examples: []Example{
				ex(true, I(0), I(0), I(3)), ex(true, I(0), I(2), I(3)), ex(false, I(0), I(3), I(3)),
				ex(false, I(0), I(-1), I(3)), ex(true, I(5), I(7), I(9)), ex(false, I(5), I(9), I(9)),
				ex(false, I(5), I(4), I(9)), ex(true, I(-4), I(-4), I(-2)), ex(false, I(-4), I(-5), I(-2)),
				ex(true, I(1), I(1), I(2)), ex(false, I(1), I(2), I(2)), ex(false, I(3), I(2), I(10)),
			},
		},
		want: []string{"lo <= x && x < hi", "x >= lo && x < hi", "x < hi && lo <= x", "x < hi && x >= lo"},
	},
	{
		name: "nil or positive",
		spec: Spec{
			Inputs:    []Input{{Expr: "p == nil", Kind: Bool}, {Expr: "n", Kind: Int}},
			Constants: []Constant{{Expr: "0", Value: I(0)}},
			Original:  "p == nil",
			Examples: []Example{
				ex(true, B(true), I(-1)), ex(true, B(true), I(3)), ex(true, B(false), I(1)),
				ex(false, B(false), I(0)), ex(false, B(false), I(-7)), ex(true, B(false), I(9)),
			},
		},
		want: []string{"p == nil || n > 0"},
	},
	{
		name: "empty string",
		spec: Spec{
			Inputs:    []Input{{Expr: "s", Kind: String}, {Expr: "len(s)", Kind: Int}},
			Constants: []Constant{{Expr: `""`, Value: S("")}},
			Examples: []Example{
				ex(true, S(""), I(0)), ex(false, S("a"), I(1)), ex(false, S("bc"), I(2)),
			},
		},
		want: []string{`s == ""`, "len(s) == 0", "len(s) < 1", "len(s) <= 0"},
	},
	{
		name: "string equality between inputs",
		spec: Spec{
			Inputs: []Input{{Expr: "a", Kind: String}, {Expr: "b", Kind: String}},
			Examples: []Example{
				ex(true, S("x"), S("x")), ex(false, S("x"), S("y")), ex(true, S("y"), S("y")), ex(false, S(""), S("y")),
			},
		},
		want: []string{"a == b"},
	},
	{
		name: "invented constant",
		spec: Spec{
			Inputs: []Input{{Expr: "n", Kind: Int}},
			Examples: []Example{
				ex(true, I(41)), ex(false, I(42)), ex(true, I(0)), ex(false, I(100)),
			},
		},
		want: []string{"n < 42", "n <= 41"},
	},
	{
		name: "float comparison",
		spec: Spec{
			Inputs:    []Input{{Expr: "x", Kind: Float}, {Expr: "y", Kind: Float}},
			Constants: []Constant{{Expr: "0.5", Value: F(0.5)}},
			Examples: []Example{
				ex(true, F(0.25), F(1)), ex(false, F(0.5), F(1)), ex(false, F(3.5), F(-1)), ex(true, F(-2), F(7)),
			},
		},
		want: []string{"x < 0.5"},
	},
	{
		name: "float sum",
		spec: Spec{
			Inputs: []Input{{Expr: "x", Kind: Float}, {Expr: "y", Kind: Float}, {Expr: "z", Kind: Float}},
			Examples: []Example{
				ex(true, F(1), F(2), F(4)), ex(false, F(1), F(2), F(3)), ex(false, F(2.5), F(2), F(1)),
				ex(true, F(-1), F(-1), F(0)), ex(false, F(0), F(0), F(-0.5)), ex(true, F(0.5), F(0.25), F(1)),
			},
		},
		want: []string{"x + y < z", "z > x + y"},
	},
	{
		name: "negated bool",
		spec: Spec{
			Inputs: []Input{{Expr: "ok", Kind: Bool}, {Expr: "n", Kind: Int}},
			Examples: []Example{
				ex(true, B(false), I(1)), ex(false, B(true), I(1)), ex(true, B(false), I(2)), ex(false, B(true), I(5)),
			},
		},
		want: []string{"!ok"},
	},
	{
		name: "nil guard with missing field",
		spec: Spec{
			Inputs:    []Input{{Expr: "p != nil", Kind: Bool}, {Expr: "p.n", Kind: Int}},
			Constants: []Constant{{Expr: "0", Value: I(0)}},
			Examples: []Example{
				ex(false, B(false), MissingValue(Int)), ex(true, B(true), I(3)), ex(false, B(true), I(0)),
				ex(true, B(true), I(1)), ex(false, B(true), I(-2)),
			},
		},
		want: []string{"p != nil && p.n > 0"},
	},
	{
		name: "arithmetic with constant",
		spec: Spec{
			Inputs:    []Input{{Expr: "i", Kind: Int}, {Expr: "n", Kind: Int}},
			Constants: []Constant{{Expr: "1", Value: I(1)}},
			Examples: []Example{
				ex(true, I(0), I(3)), ex(true, I(1), I(3)), ex(false, I(2), I(3)), ex(false, I(3), I(3)),
				ex(true, I(0), I(2)), ex(false, I(1), I(2)), ex(false, I(5), I(1)), ex(true, I(7), I(10)),
			},
		},
		want: []string{"i + 1 < n", "i < n - 1"},
	},
	{
		name: "literal snapped to a code constant",
		spec: Spec{
			Inputs:    []Input{{Expr: "n", Kind: Int}, {Expr: "m", Kind: Int}},
			Constants: []Constant{{Expr: "0", Value: I(0)}, {Expr: "limit", Value: I(40)}},
			Original:  "n <= limit",
			Examples: []Example{
				ex(true, I(10), I(3)), ex(true, I(36), I(1)), ex(false, I(41), I(3)), ex(false, I(50), I(0)),
			},
		},
		want: []string{"n < limit"},
	},
	{
		name: "integer literal with a float",
		spec: Spec{
			Inputs:    []Input{{Expr: "ratio", Kind: Float}, {Expr: "n", Kind: Int}},
			Constants: []Constant{{Expr: "1", Value: I(1)}, {Expr: "0", Value: I(0)}},
			Original:  "ratio >= 1",
			Examples: []Example{
				ex(false, F(1), I(1)), ex(true, F(1.5), I(2)), ex(false, F(0.5), I(3)), ex(true, F(3), I(0)),
			},
		},
		want: []string{"ratio > 1"},
	},
	{
		name: "bool equality",
		spec: Spec{
			Inputs: []Input{{Expr: "on", Kind: Bool}, {Expr: "want", Kind: Bool}, {Expr: "n", Kind: Int}},
			Examples: []Example{
				ex(true, B(true), B(true), I(1)), ex(false, B(true), B(false), I(2)), ex(true, B(false), B(false), I(3)),
				ex(false, B(false), B(true), I(0)), ex(true, B(true), B(true), I(7)),
			},
			PredicateEquality: true,
		},
		want: []string{"on == want"},
	},
	{
		name: "unsat xor",
		spec: Spec{
			Inputs: []Input{{Expr: "a", Kind: Bool}, {Expr: "b", Kind: Bool}, {Expr: "c", Kind: Bool}},
			Examples: []Example{
				ex(false, B(false), B(false), B(false)), ex(true, B(true), B(false), B(false)),
				ex(true, B(false), B(true), B(false)), ex(false, B(true), B(true), B(false)),
				ex(true, B(false), B(false), B(true)), ex(false, B(true), B(false), B(true)),
				ex(false, B(false), B(true), B(true)), ex(true, B(true), B(true), B(true)),
			},
		},
	},
}

func TestZ3Specs(t *testing.T) {
	for _, tt := range z3Specs {
		t.Run(tt.name, func(t *testing.T) {
			start := time.Now()
			cands, err := Solve(context.Background(), &tt.spec, Options{Backend: "z3"})
			took := time.Since(start)
			var srcs []string
			for _, c := range cands {
				srcs = append(srcs, c.Source)
			}
			t.Logf("%v: %q", took, srcs)
			if tt.want == nil {
				var nc *NoCandidateError
				if !errors.As(err, &nc) {
					t.Fatalf("Solve = %q, %v; want no candidate", srcs, err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			ok := false
			for _, w := range tt.want {
				ok = ok || slices.Contains(srcs, w)
			}
			if !ok {
				t.Errorf("candidates %q contain none of %q", srcs, tt.want)
			}
			if took > 5*time.Second {
				t.Errorf("took %v", took)
			}
		})
	}
}

// TestZ3Deterministic checks that the same spec gives the same terms in
// the same order.
func TestZ3Deterministic(t *testing.T) {
	for _, tt := range z3Specs {
		p := mustPrepare(t, &tt.spec)
		var first []string
		for i := range 2 {
			terms, err := z3Backend{}.Search(context.Background(), p, Options{})
			if err != nil {
				t.Fatal(err)
			}
			var srcs []string
			for _, term := range terms {
				srcs = append(srcs, term.Source(p.Spec))
			}
			if i == 0 {
				first = srcs
			} else if !slices.Equal(first, srcs) {
				t.Errorf("%s: run %d: %q, first run %q", tt.name, i, srcs, first)
			}
		}
	}
}

// TestZ3NoTrivial checks that no candidate is without inputs, even when a
// constant condition would fit.
func TestZ3NoTrivial(t *testing.T) {
	spec := &Spec{
		Inputs:    []Input{{Expr: "n", Kind: Int}},
		Constants: []Constant{{Expr: "0", Value: I(0)}, {Expr: "1", Value: I(1)}},
		Examples:  []Example{ex(true, I(1)), ex(true, I(5)), ex(true, I(-2))},
	}
	terms, err := z3Backend{}.Search(context.Background(), mustPrepare(t, spec), Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, term := range terms {
		if !usesInput(term) {
			t.Errorf("trivial term %s", term.Source(spec))
		}
	}
}

// TestZ3Cancel checks that a cancelled context stops the search promptly.
func TestZ3Cancel(t *testing.T) {
	spec := randomSpec(rand.New(rand.NewPCG(1, 2)), 12, 60)
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err := z3Backend{}.Search(ctx, mustPrepare(t, spec), Options{MaxSize: 9, MaxCandidates: 1000})
	if took := time.Since(start); took > 2*time.Second {
		t.Errorf("Search returned after %v, %v", took, err)
	}
}

func mustPrepare(t testing.TB, spec *Spec) *Problem {
	t.Helper()
	p, err := Prepare(spec)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// randomSpec makes a spec over n int inputs (plus a bool and a float) whose
// examples follow a hidden condition of two comparisons.
func randomSpec(r *rand.Rand, n, m int) *Spec {
	spec := &Spec{Constants: []Constant{{Expr: "0", Value: I(0)}, {Expr: "1", Value: I(1)}, {Expr: "10", Value: I(10)}}}
	for i := range n {
		spec.Inputs = append(spec.Inputs, Input{Expr: fmt.Sprintf("v%d", i), Kind: Int})
	}
	spec.Inputs = append(spec.Inputs, Input{Expr: "p == nil", Kind: Bool}, Input{Expr: "f", Kind: Float})
	a, b, c := r.IntN(n), r.IntN(n), r.IntN(n)
	k := int64(r.IntN(20) - 5)
	for range m {
		var vals []Value
		for range n {
			vals = append(vals, I(int64(r.IntN(30)-10)))
		}
		vals = append(vals, B(r.IntN(2) == 0), F(r.Float64()))
		want := vals[a].Int < vals[b].Int || vals[c].Int >= k
		spec.Examples = append(spec.Examples, Example{Values: vals, Want: want})
	}
	return spec
}

// TestZ3Random runs the backend on random problems with a hidden answer of
// size 7 and reports per-problem times.
func TestZ3Random(t *testing.T) {
	if testing.Short() {
		t.Skip("slow")
	}
	r := rand.New(rand.NewPCG(7, 9))
	var times []time.Duration
	for i := range 20 {
		spec := randomSpec(r, 3+i%8, 20+5*i)
		start := time.Now()
		cands, err := Solve(context.Background(), spec, Options{Backend: "z3"})
		took := time.Since(start)
		times = append(times, took)
		if err != nil {
			t.Errorf("problem %d (%d inputs, %d examples): %v after %v", i, len(spec.Inputs), len(spec.Examples), err, took)
			continue
		}
		t.Logf("problem %d (%d inputs, %d examples): %v, %d candidates, best %s", i, len(spec.Inputs), len(spec.Examples), took, len(cands), cands[0].Source)
	}
	sort.Slice(times, func(i, j int) bool { return times[i] < times[j] })
	t.Logf("median %v, max %v", times[len(times)/2], times[len(times)-1])
}

// BenchmarkZ3Specs solves each small spec of the table.
func BenchmarkZ3Specs(b *testing.B) {
	for _, tt := range z3Specs {
		b.Run(strings.ReplaceAll(tt.name, " ", "_"), func(b *testing.B) {
			for b.Loop() {
				Solve(context.Background(), &tt.spec, Options{Backend: "z3"})
			}
		})
	}
}

// TestZ3Unusual runs the backend on specs at the edges of the encoding: it
// must not fail, and Solve keeps only candidates satisfying every example.
func TestZ3Unusual(t *testing.T) {
	inf := math.Inf(1)
	tests := []struct {
		name string
		spec Spec
		opts Options
		want string // a candidate that must be found; "" for none
	}{
		{"nan and inf", Spec{
			Inputs: []Input{{Expr: "x", Kind: Float}},
			Examples: []Example{
				ex(true, F(math.NaN())), ex(false, F(inf)), ex(true, F(1)), ex(false, F(5)),
			},
		}, Options{}, ""},
		{"all true", Spec{
			Inputs:   []Input{{Expr: "n", Kind: Int}},
			Examples: []Example{ex(true, I(1)), ex(true, I(7))},
		}, Options{}, "n > 0"},
		{"single string input without constants", Spec{
			Inputs:   []Input{{Expr: "s", Kind: String}},
			Examples: []Example{ex(true, S("a")), ex(false, S("b"))},
		}, Options{}, ""},
		{"missing strings", Spec{
			Inputs:    []Input{{Expr: "p != nil", Kind: Bool}, {Expr: "p.name", Kind: String}},
			Constants: []Constant{{Expr: `"x"`, Value: S("x")}},
			Examples: []Example{
				ex(false, B(false), MissingValue(String)), ex(true, B(true), S("x")), ex(false, B(true), S("y")),
			},
		}, Options{}, `p != nil && p.name == "x"`},
		{"max size 3", Spec{
			Inputs: []Input{{Expr: "a", Kind: Int}, {Expr: "b", Kind: Int}},
			Examples: []Example{
				ex(true, I(1), I(2)), ex(false, I(2), I(1)), ex(false, I(3), I(3)),
			},
		}, Options{MaxSize: 3}, "a < b"},
		{"huge values", Spec{
			Inputs: []Input{{Expr: "a", Kind: Int}, {Expr: "b", Kind: Int}},
			Examples: []Example{
				ex(true, I(math.MaxInt64), I(1)), ex(false, I(math.MinInt64), I(1)), ex(true, I(5), I(-3)),
			},
		}, Options{}, "a > b"},
		{"no inputs the solver can use", Spec{
			Inputs:   []Input{{Expr: "s", Kind: String}},
			Examples: []Example{ex(true, S("a"))},
		}, Options{}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			opts := tt.opts
			opts.Backend = "z3"
			cands, err := Solve(context.Background(), &tt.spec, opts)
			var nc *NoCandidateError
			if err != nil && !errors.As(err, &nc) {
				t.Fatal(err)
			}
			var srcs []string
			for _, c := range cands {
				srcs = append(srcs, c.Source)
				if opts.MaxSize > 0 && c.Size > opts.MaxSize {
					t.Errorf("%s: size %d over %d", c.Source, c.Size, opts.MaxSize)
				}
			}
			t.Logf("%q", srcs)
			if tt.want != "" && !slices.Contains(srcs, tt.want) {
				t.Errorf("candidates %q, want %q among them", srcs, tt.want)
			}
		})
	}
}

// TestZ3StatsTimeBound checks that Stats tells a search its work bounds
// ended (the easy specs, whose terms are few and small) from one a
// wall-clock bound cut (a large random spec with a tiny time limit).
func TestZ3StatsTimeBound(t *testing.T) {
	for _, tt := range z3Specs[:2] {
		var st Stats
		if _, err := (z3Backend{}).Search(context.Background(), mustPrepare(t, &tt.spec), Options{Timeout: time.Minute, Stats: &st}); err != nil {
			t.Fatal(err)
		}
		if st.TimeBound != 0 || st.Work <= 0 {
			t.Errorf("%s: Stats %+v, want work done and no time bound", tt.name, st)
		}
	}
	spec := randomSpec(rand.New(rand.NewPCG(1, 2)), 12, 60)
	var st Stats
	_, err := Solve(context.Background(), spec, Options{Backend: "z3", MaxSize: 9, MaxCandidates: 1000, Timeout: 50 * time.Millisecond, Stats: &st})
	var nc *NoCandidateError
	if err != nil && !errors.As(err, &nc) {
		t.Fatal(err)
	}
	if st.TimeBound == 0 {
		t.Errorf("a search cut after 50ms: Stats %+v, want a time bound counted", st)
	}
}

// TestSnapLiteralsGroups checks that a literal compared with an input
// becomes the name of the input's enumeration before another name of the
// same value, in either order of the constants.
func TestSnapLiteralsGroups(t *testing.T) {
	for _, tc := range []struct {
		name   string
		groups []string
		want   string
	}{
		{"the input's enumeration", []string{"stStart"}, "state == stGap"},
		{"another enumeration only", []string{"other"}, "state == gap"},
		{"no enumeration known", nil, "state == catSpace"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			spec := &Spec{
				Inputs: []Input{{Expr: "state", Kind: Int, Groups: tc.groups}},
				Constants: []Constant{
					{Expr: "catSpace", Value: I(3), Group: "catOther"},
					{Expr: "gap", Value: I(3)},
					{Expr: "stGap", Value: I(3), Group: "stStart"},
				},
				Examples: []Example{ex(true, I(3)), ex(false, I(1)), ex(false, I(4))},
			}
			p := mustPrepare(t, spec)
			term := BinTerm(OpEq, InputTerm(0), LitTerm(I(3)))
			if got := snapLiterals(p, term).Source(spec); got != tc.want {
				t.Errorf("snapLiterals = %s, want %s", got, tc.want)
			}
		})
	}
}
