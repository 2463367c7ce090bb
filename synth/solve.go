package synth

import (
	"context"
	"errors"
	"fmt"
	"go/ast"
	"slices"
	"sort"
	"strings"
	"time"
)

// Options bound a Solve call.
type Options struct {
	// Backend names the search: "z3" (default when built with Z3) or "enum".
	Backend string
	// MaxSize is the largest candidate, in components; 0 (or less) means 7.
	MaxSize int
	// MaxCandidates is how many distinct candidates to return at most; 0 (or
	// less) means 10.
	MaxCandidates int
	// Timeout bounds the whole search; 0 (or less) means 10s. Each solver query also
	// stops when ctx is cancelled.
	Timeout time.Duration
	// Reject, when set, says why a term that fits every example is not
	// wanted ("" to keep it): it takes no place among the MaxCandidates,
	// and the search goes on at its level for others. It still bounds the
	// search as a found term does (the levels explored after the first
	// fit): a search past every rejected fit ends in larger, stranger
	// ones (n > max || n == len(s)). nopol's anti-patterns reject this way.
	Reject func(*Term) string
	// Stats, when set, is filled in by the search.
	Stats *Stats
}

// Stats is what a search did. Its bounds are counted in work (Z3's
// resource counter), the same on every machine; wall-clock bounds back
// them up. TimeBound counts the levels and searches a wall-clock bound
// ended first: a search with TimeBound > 0 may find other candidates on a
// faster or idler machine.
type Stats struct {
	Work      float64
	TimeBound int
}

// rejected reports whether opts.Reject rejects t.
func (o Options) rejected(t *Term) bool {
	return o.Reject != nil && o.Reject(t) != ""
}

func (o Options) withDefaults() Options {
	if o.Backend == "" {
		o.Backend = DefaultBackend()
	}
	if o.MaxSize <= 0 {
		o.MaxSize = 7
	}
	if o.MaxCandidates <= 0 {
		o.MaxCandidates = 10
	}
	if o.Timeout <= 0 {
		o.Timeout = 10 * time.Second
	}
	return o
}

// Candidate is one synthesized condition, checked against every example.
type Candidate struct {
	// Term is the expression tree over the spec's inputs and constants.
	Term *Term
	// Source is the Go source of the condition.
	Source string
	// Expr is Source parsed.
	Expr ast.Expr
	// Size is the number of components.
	Size int
	// Cost orders candidates: lower is better (see rank.go).
	Cost int
}

// ContradictionError reports two examples with the same state and different
// needed outcomes: no condition over the observed inputs can satisfy both.
type ContradictionError struct {
	A, B Example
}

func (e *ContradictionError) Error() string {
	return fmt.Sprintf("contradictory examples: the same observed state needs true (%s) and false (%s)", originOr(e.A), originOr(e.B))
}

func originOr(ex Example) string {
	if ex.Origin != "" {
		return ex.Origin
	}
	return "unnamed example"
}

// NoCandidateError reports that the search ended without a candidate, and why.
type NoCandidateError struct {
	Reason string
}

func (e *NoCandidateError) Error() string { return "no candidate: " + e.Reason }

// Problem is a validated spec with duplicate examples merged, as handed to a
// backend.
type Problem struct {
	Spec *Spec
	// Examples are the distinct examples of Spec, in first-seen order.
	Examples []Example
}

// Backend searches for terms satisfying every example of a problem.
// It returns terms in the order it found them; Solve checks, dedups and
// ranks them. A backend returns early when ctx is done.
type Backend interface {
	Search(ctx context.Context, p *Problem, opts Options) ([]*Term, error)
}

var backends = map[string]Backend{}

// Register makes a backend available under name; called from init.
func Register(name string, b Backend) { backends[name] = b }

// Backends lists the registered backend names, sorted.
func Backends() []string {
	var names []string
	for n := range backends {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// DefaultBackend is "z3" when the binary has it, else "enum".
func DefaultBackend() string {
	if _, ok := backends["z3"]; ok {
		return "z3"
	}
	return "enum"
}

// Prepare validates spec, merges duplicate examples and reports
// contradictory ones.
func Prepare(spec *Spec) (*Problem, error) {
	if err := spec.Validate(); err != nil {
		return nil, err
	}
	if len(spec.Examples) == 0 {
		return nil, &NoCandidateError{Reason: "the spec has no examples"}
	}
	seen := make(map[string]int, len(spec.Examples))
	p := &Problem{Spec: spec}
	for _, ex := range spec.Examples {
		k := stateKey(ex.Values)
		if i, ok := seen[k]; ok {
			if p.Examples[i].Want != ex.Want {
				return nil, &ContradictionError{A: p.Examples[i], B: ex}
			}
			continue
		}
		seen[k] = len(p.Examples)
		p.Examples = append(p.Examples, ex)
	}
	return p, nil
}

func stateKey(vals []Value) string {
	var b strings.Builder
	for _, v := range vals {
		b.WriteString(v.GoString())
		b.WriteByte(0)
	}
	return b.String()
}

// Solve finds up to opts.MaxCandidates conditions over spec's inputs that
// give every example its needed outcome, best first. Errors are
// *ContradictionError, *NoCandidateError, or a failure of the backend.
func Solve(ctx context.Context, spec *Spec, opts Options) ([]Candidate, error) {
	opts = opts.withDefaults()
	p, err := Prepare(spec)
	if err != nil {
		return nil, err
	}
	b, ok := backends[opts.Backend]
	if !ok {
		return nil, fmt.Errorf("unknown synthesis backend %q (have %s)", opts.Backend, strings.Join(Backends(), ", "))
	}
	ctx, cancel := context.WithTimeout(ctx, opts.Timeout)
	defer cancel()
	terms, err := b.Search(ctx, p, opts)
	if err != nil && !errors.Is(err, context.DeadlineExceeded) {
		return nil, err
	}
	if opts.Stats != nil && errors.Is(ctx.Err(), context.DeadlineExceeded) {
		opts.Stats.TimeBound++ // opts.Timeout
	}
	cands := Check(p, terms)
	if len(cands) == 0 {
		reason := fmt.Sprintf("no condition of up to %d components over %d inputs fits the %d distinct examples", opts.MaxSize, len(spec.Inputs), len(p.Examples))
		if ctx.Err() != nil {
			reason = fmt.Sprintf("the search stopped after %s (%s) without a condition fitting the %d distinct examples", opts.Timeout, opts.Backend, len(p.Examples))
		}
		return nil, &NoCandidateError{Reason: reason}
	}
	Rank(spec, cands)
	if len(cands) > opts.MaxCandidates {
		cands = cands[:opts.MaxCandidates]
	}
	return cands, nil
}

// Check keeps the terms that give every example of p its outcome with Go
// semantics, are not trivial (they read an input and, when every example
// wants the same outcome, change value on some probe state), render to
// parseable Go, and are distinct.
func Check(p *Problem, terms []*Term) []Candidate {
	var out []Candidate
	seen := map[string]bool{}
	// When every example wants the same outcome, a candidate is constant on
	// them: probe states tell a real condition from ok || !ok.
	var probes []Example
	if sameWant(p.Examples) {
		probes = probeStates(p)
	}
	for _, t := range terms {
		if t == nil || t.Kind(p.Spec) != Bool || !usesInput(t) {
			continue
		}
		src := t.Source(p.Spec)
		if seen[src] {
			continue
		}
		seen[src] = true
		if !Satisfies(p.Spec, t, p.Examples) {
			continue
		}
		if probes != nil && constantOn(p.Spec, t, probes, p.Examples[0].Want) {
			continue
		}
		e, err := t.AST(p.Spec)
		if err != nil {
			continue
		}
		out = append(out, Candidate{Term: t, Source: src, Expr: e, Size: t.Size()})
	}
	return out
}

func sameWant(exs []Example) bool {
	for _, ex := range exs {
		if ex.Want != exs[0].Want {
			return false
		}
	}
	return true
}

// maxProbed bounds the examples probeStates varies.
const maxProbed = 20

// probeStates returns variations of the first examples, one input changed
// at a time: a bool flipped, a number moved by one, to zero or negated, a
// value another example has, an empty string.
func probeStates(p *Problem) []Example {
	var out []Example
	exs := p.Examples[:min(len(p.Examples), maxProbed)]
	for _, ex := range exs {
		for i, v := range ex.Values {
			var alts []Value
			switch v.Kind {
			case Bool:
				alts = append(alts, BoolValue(!v.Bool))
			case Int:
				alts = append(alts, IntValue(v.Int-1), IntValue(v.Int+1), IntValue(0), IntValue(-v.Int))
			case Float:
				alts = append(alts, FloatValue(v.Float-1), FloatValue(v.Float+1), FloatValue(0), FloatValue(-v.Float))
			case String:
				alts = append(alts, StringValue(""))
			}
			for _, other := range exs {
				if w := other.Values[i]; !w.Missing {
					alts = append(alts, w)
				}
			}
			for _, alt := range alts {
				if alt == v {
					continue
				}
				probe := Example{Values: slices.Clone(ex.Values)}
				probe.Values[i] = alt
				out = append(out, probe)
			}
		}
	}
	return out
}

// constantOn reports whether t gives want on every probe it can evaluate.
func constantOn(spec *Spec, t *Term, probes []Example, want bool) bool {
	for i := range probes {
		if v, err := t.Eval(spec, &probes[i]); err == nil && v.Bool != want {
			return false
		}
	}
	return true
}

// Satisfies reports whether t evaluates to each example's Want.
func Satisfies(spec *Spec, t *Term, examples []Example) bool {
	for i := range examples {
		v, err := t.Eval(spec, &examples[i])
		if err != nil || v.Kind != Bool || v.Bool != examples[i].Want {
			return false
		}
	}
	return true
}

// usesInput reports whether t reads an observed input: a condition over
// constants only is trivial.
func usesInput(t *Term) bool {
	if t.Op == OpInput {
		return true
	}
	for _, a := range t.Args {
		if usesInput(a) {
			return true
		}
	}
	return false
}
