package synth_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/nopol-go/nopol/synth"
)

// BenchmarkCorpus times Solve on every corpus problem, for every backend.
func BenchmarkCorpus(b *testing.B) {
	corpus := loadCorpus(b)
	for _, backend := range synth.Backends() {
		b.Run(backend, func(b *testing.B) {
			for _, p := range corpus {
				b.Run(p.Name, func(b *testing.B) {
					for b.Loop() {
						spec := p.Spec
						synth.Solve(context.Background(), &spec, p.options(backend))
					}
				})
			}
		})
	}
}

// BenchmarkScaling times one problem, lo <= x && x < hi, with 10 to 10000
// examples.
func BenchmarkScaling(b *testing.B) {
	for _, backend := range synth.Backends() {
		b.Run(backend, func(b *testing.B) {
			heldout := rangeSpec(500, 43)
			for _, n := range []int{10, 100, 1000, 10000} {
				spec := rangeSpec(n, 42)
				b.Run(fmt.Sprint(n), func(b *testing.B) {
					for b.Loop() {
						cands, err := synth.Solve(context.Background(), spec, synth.Options{Backend: backend})
						if err != nil {
							b.Fatal(err)
						}
						if n >= 100 && !synth.Satisfies(heldout, cands[0].Term, heldout.Examples) {
							b.Fatalf("first candidate %q is not lo <= x && x < hi", cands[0].Source)
						}
					}
				})
			}
		})
	}
}

// rangeSpec is lo <= x && x < hi on n states drawn from a source seeded with
// seed, the boundaries included.
func rangeSpec(n int, seed uint64) *synth.Spec {
	r := rand.New(rand.NewPCG(seed, 7))
	spec := &synth.Spec{
		Inputs: []synth.Input{
			{Expr: "x", Kind: synth.Int}, {Expr: "lo", Kind: synth.Int}, {Expr: "hi", Kind: synth.Int},
		},
		Original: "lo <= x && x <= hi",
	}
	add := func(x, lo, hi int64) {
		spec.Examples = append(spec.Examples, synth.Example{
			Values: []synth.Value{synth.IntValue(x), synth.IntValue(lo), synth.IntValue(hi)},
			Want:   lo <= x && x < hi,
		})
	}
	add(0, 0, 10)
	add(10, 0, 10)
	add(9, 0, 10)
	add(-1, 0, 10)
	for len(spec.Examples) < n {
		lo := r.Int64N(1000) - 500
		hi := lo + 1 + r.Int64N(100)
		add(lo-20+r.Int64N(hi-lo+40), lo, hi)
	}
	return spec
}
