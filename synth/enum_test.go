package synth_test

import (
	"context"
	"errors"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/nopol-go/nopol/synth"
)

func enumOpts(maxSize, maxCands int) synth.Options {
	return synth.Options{Backend: "enum", MaxSize: maxSize, MaxCandidates: maxCands}
}

func TestEnumSeveralCandidates(t *testing.T) {
	spec := rangeSpec(60, 1)
	cands, err := synth.Solve(context.Background(), spec, enumOpts(0, 3))
	if err != nil {
		t.Fatal(err)
	}
	if len(cands) < 2 || len(cands) > 3 {
		t.Fatalf("got %d candidates %q, want 2 or 3", len(cands), sources(cands))
	}
	if cands[0].Source != "lo <= x && x < hi" {
		t.Errorf("first %q, want lo <= x && x < hi", cands[0].Source)
	}
	checkCandidates(t, spec, cands)
}

func TestEnumMaxSize(t *testing.T) {
	spec := rangeSpec(60, 2)
	_, err := synth.Solve(context.Background(), spec, enumOpts(5, 0))
	var ne *synth.NoCandidateError
	if !errors.As(err, &ne) || !strings.Contains(err.Error(), "up to 5 components") {
		t.Errorf("MaxSize 5: got %v, want a *NoCandidateError for 5 components", err)
	}
	if _, err := synth.Solve(context.Background(), spec, enumOpts(7, 0)); err != nil {
		t.Errorf("MaxSize 7: %v", err)
	}
}

func TestEnumSmallSizes(t *testing.T) {
	spec := &synth.Spec{Inputs: []synth.Input{{Expr: "ok", Kind: synth.Bool}, {Expr: "n", Kind: synth.Int}}}
	for i, ok := range []bool{true, false, true, false} {
		spec.Examples = append(spec.Examples, synth.Example{
			Values: []synth.Value{synth.BoolValue(ok), synth.IntValue(int64(i))},
			Want:   !ok,
		})
	}
	for _, size := range []int{2, 3, 4} {
		cands, err := synth.Solve(context.Background(), spec, enumOpts(size, 0))
		if err != nil || cands[0].Source != "!ok" {
			t.Errorf("MaxSize %d: got %q, %v; want !ok first", size, sources(cands), err)
		}
	}
	if _, err := synth.Solve(context.Background(), spec, enumOpts(1, 0)); err == nil {
		t.Error("MaxSize 1: found a candidate for !ok")
	}
}

func TestEnumInventsConstants(t *testing.T) {
	spec := &synth.Spec{Inputs: []synth.Input{{Expr: "n", Kind: synth.Int}}}
	for _, n := range []int64{-7, 0, 3, 41, 42, 43, 99} {
		spec.Examples = append(spec.Examples, synth.Example{Values: []synth.Value{synth.IntValue(n)}, Want: n < 42})
	}
	cands, err := synth.Solve(context.Background(), spec, enumOpts(3, 0))
	if err != nil {
		t.Fatal(err)
	}
	got := sources(cands)
	for _, want := range []string{"n < 42", "n <= 41"} {
		if !slices.Contains(got, want) {
			t.Errorf("candidates %q lack %q", got, want)
		}
	}
}

func TestEnumStops(t *testing.T) {
	spec := parityLike(2000)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	start := time.Now()
	if _, err := synth.Solve(ctx, spec, enumOpts(9, 0)); err == nil {
		t.Error("cancelled: no error")
	}
	start2 := time.Now()
	// Up to 13 components the whole search takes seconds (size 9: about
	// 50 ms, as long as the timeout, which made this test flaky).
	_, err := synth.Solve(context.Background(), spec, synth.Options{Backend: "enum", MaxSize: 13, Timeout: 50 * time.Millisecond})
	var ne *synth.NoCandidateError
	if !errors.As(err, &ne) || !strings.Contains(err.Error(), "stopped") {
		t.Errorf("timeout: got %v, want a *NoCandidateError saying the search stopped", err)
	}
	if d := start2.Sub(start); d > time.Second {
		t.Errorf("cancelled search took %v", d)
	}
	if d := time.Since(start2); d > 2*time.Second {
		t.Errorf("50ms timeout took %v", d)
	}
}

// parityLike is parity of n among several inputs: no small condition fits,
// so the search runs to its limits.
func parityLike(n int) *synth.Spec {
	spec := &synth.Spec{Constants: []synth.Constant{{Expr: "2", Value: synth.IntValue(2)}}}
	for _, name := range []string{"n", "a", "b", "c", "d"} {
		spec.Inputs = append(spec.Inputs, synth.Input{Expr: name, Kind: synth.Int})
	}
	for i := range n {
		var vals []synth.Value
		for k := range 5 {
			vals = append(vals, synth.IntValue(int64((i*(k+3)*7919)%1000)))
		}
		spec.Examples = append(spec.Examples, synth.Example{Values: vals, Want: vals[0].Int%2 == 0})
	}
	return spec
}

// TestComplete draws random conditions of up to 7 components over a few
// inputs and the code's constants, and checks that every backend finds a
// condition fitting their examples, no bigger than the drawn one: pruning
// must not lose what fits.
func TestComplete(t *testing.T) {
	for _, backend := range synth.Backends() {
		n := 150
		if backend != "enum" {
			n = 60 // slower: fewer draws
		}
		t.Run(backend, func(t *testing.T) { complete(t, backend, n) })
	}
}

func complete(t *testing.T, backend string, n int) {
	spec := synth.Spec{
		Inputs: []synth.Input{
			{Expr: "a", Kind: synth.Int}, {Expr: "b", Kind: synth.Int}, {Expr: "c", Kind: synth.Int},
			{Expr: "ok", Kind: synth.Bool}, {Expr: "p == nil", Kind: synth.Bool}, {Expr: "p.n", Kind: synth.Int},
		},
		Constants: []synth.Constant{{Expr: "0", Value: synth.IntValue(0)}, {Expr: "2", Value: synth.IntValue(2)}},
	}
	r := rand.New(rand.NewPCG(5, 6))
	leaf := func(k synth.Kind) *synth.Term {
		if k == synth.Bool {
			return in(3 + r.IntN(2))
		}
		if r.IntN(4) == 0 {
			return cst(r.IntN(2))
		}
		return in([]int{0, 1, 2, 5}[r.IntN(4)])
	}
	var gen func(k synth.Kind, budget int) *synth.Term
	gen = func(k synth.Kind, budget int) *synth.Term {
		if budget < 3 {
			if k == synth.Bool && budget >= 2 && r.IntN(2) == 0 {
				return not(leaf(k))
			}
			return leaf(k)
		}
		left := 1 + r.IntN(budget-2)
		right := budget - 1 - left
		if k == synth.Int {
			if r.IntN(3) == 0 {
				return bin(synth.OpMul, gen(synth.Int, budget-2), cst(1))
			}
			return bin(synth.OpAdd+synth.Op(r.IntN(2)), gen(synth.Int, left), gen(synth.Int, right))
		}
		switch r.IntN(3) {
		case 0:
			return bin(synth.OpAnd, gen(synth.Bool, left), gen(synth.Bool, right))
		case 1:
			return bin(synth.OpOr, gen(synth.Bool, left), gen(synth.Bool, right))
		}
		return bin(synth.OpLt+synth.Op(r.IntN(6)), gen(synth.Int, left), gen(synth.Int, right))
	}
	tried := 0
	for tried < n {
		target := gen(synth.Bool, 3+r.IntN(5))
		if target.Size() < 5 && r.IntN(2) == 0 {
			continue // mostly big ones
		}
		s := spec
		s.Examples = nil
		ok := true
		for range 40 {
			isNil := r.IntN(5) == 0
			pn := synth.IntValue(int64(r.IntN(9) - 4))
			if isNil {
				pn = synth.MissingValue(synth.Int)
			}
			ex := synth.Example{Values: []synth.Value{
				synth.IntValue(int64(r.IntN(41) - 20)), synth.IntValue(int64(r.IntN(41) - 20)), synth.IntValue(int64(r.IntN(41) - 20)),
				synth.BoolValue(r.IntN(2) == 0), synth.BoolValue(isNil), pn,
			}}
			v, err := target.Eval(&s, &ex)
			if err != nil {
				ok = false
				break
			}
			ex.Want = v.Bool
			s.Examples = append(s.Examples, ex)
		}
		if !ok || target.Size() > 7 || trivial(&s, target) || sameWant(s.Examples) {
			continue // a constant target may be a tautology, rightly refused
		}
		tried++
		cands, err := synth.Solve(context.Background(), &s, synth.Options{Backend: backend, MaxSize: 7, MaxCandidates: 1})
		if err != nil {
			t.Errorf("%s (size %d): %v", target.Source(&s), target.Size(), err)
		} else if cands[0].Size > target.Size() {
			t.Errorf("%s (size %d): found %s, of size %d", target.Source(&s), target.Size(), cands[0].Source, cands[0].Size)
		}
	}
}

func sameWant(exs []synth.Example) bool {
	for _, ex := range exs {
		if ex.Want != exs[0].Want {
			return false
		}
	}
	return true
}
