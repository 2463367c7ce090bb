package nopol

import (
	"go/token"
	"slices"

	"github.com/nopol-go/nopol/synth"
)

// idleClauses returns the clauses of cand (operands of its && and ||
// chains) that change no recorded outcome: deleted, every example of spec
// gets the same value from cand. The tests do not check them, so a patch
// with one rests on a guess for the states where it decides. A clause the
// original condition orig has in a chain with the same connective, or the
// original whole, is the developer's and not returned (orig is nil at a
// new guard).
//
// hcl's seeded alignedItems, `i == len(item.Keys)-2 &&
// len(item.Keys) == 1`, became `i == len(item.Keys)-2 ||
// len(item.Keys) == 1`: every recorded state had one key, so the first
// disjunct never held, and the patch was printed with confidence high.
// The developer's condition is `i == len(item.Keys)-1 && len(item.Keys)
// == 1`.
func idleClauses(spec *synth.Spec, orig, cand *synth.Term) []string {
	own := map[string]bool{}
	if orig != nil {
		// The original whole, joined with a clause, is the developer's
		// too (c == nil in c == nil || c.Name == "").
		own[chainClause{synth.OpAnd, orig}.key(spec)] = true
		own[chainClause{synth.OpOr, orig}.key(spec)] = true
		for _, c := range chainClauses(orig) {
			own[c.key(spec)] = true
		}
	}
	var idle []string
	var outer []*synth.Term // the idle clauses: those inside say no more
	for _, c := range chainClauses(cand) {
		if own[c.key(spec)] || slices.ContainsFunc(outer, func(o *synth.Term) bool { return within(c.clause, o) }) || decides(spec, cand, c) {
			continue
		}
		outer = append(outer, c.clause)
		if src := gofmtSource(spec, c.clause); !slices.Contains(idle, src) {
			idle = append(idle, src)
		}
	}
	return idle
}

// within reports whether t is o or a subterm of o.
func within(t, o *synth.Term) bool {
	if t == o {
		return true
	}
	for _, a := range o.Args {
		if within(t, a) {
			return true
		}
	}
	return false
}

// gofmtSource is t's source as gofmt prints it (n-2, not n - 2).
func gofmtSource(spec *synth.Spec, t *synth.Term) string {
	if e, err := t.AST(spec); err == nil {
		if src := render(token.NewFileSet(), e); src != "" {
			return src
		}
	}
	return t.Source(spec)
}

// chainClause is an operand of a chain of && (or of ||).
type chainClause struct {
	op     synth.Op // synth.OpAnd or synth.OpOr
	clause *synth.Term
}

// key names the clause with its connective.
func (c chainClause) key(spec *synth.Spec) string {
	if c.op == synth.OpAnd {
		return "&& " + c.clause.Source(spec)
	}
	return "|| " + c.clause.Source(spec)
}

// chainClauses are the operands of every maximal chain of one connective
// in t, nested chains included.
func chainClauses(t *synth.Term) []chainClause {
	var out []chainClause
	var walk func(t *synth.Term)
	walk = func(t *synth.Term) {
		if t.Op != synth.OpAnd && t.Op != synth.OpOr {
			for _, a := range t.Args {
				walk(a)
			}
			return
		}
		for _, a := range t.Args {
			if a.Op != t.Op {
				out = append(out, chainClause{t.Op, a})
			}
			walk(a)
		}
	}
	walk(t)
	return out
}

// decides reports whether deleting clause c from t (it takes its chain's
// neutral value: true in &&, false in ||) changes t's value at an
// example of spec that both evaluate without error.
func decides(spec *synth.Spec, t *synth.Term, c chainClause) bool {
	neutral := c.op == synth.OpAnd
	for i := range spec.Examples {
		ex := &spec.Examples[i]
		with, err1 := evalWith(spec, t, ex, nil, false)
		without, err2 := evalWith(spec, t, ex, c.clause, neutral)
		if err1 == nil && err2 == nil && with != without {
			return true
		}
	}
	return false
}

// evalWith evaluates the boolean term t on ex, with the subterm at (a
// pointer into t) taking value v.
func evalWith(spec *synth.Spec, t *synth.Term, ex *synth.Example, at *synth.Term, v bool) (bool, error) {
	if t == at {
		return v, nil
	}
	switch t.Op {
	case synth.OpNot:
		a, err := evalWith(spec, t.Args[0], ex, at, v)
		return !a, err
	case synth.OpAnd, synth.OpOr:
		a, err := evalWith(spec, t.Args[0], ex, at, v)
		if err != nil || a == (t.Op == synth.OpOr) {
			return a, err
		}
		return evalWith(spec, t.Args[1], ex, at, v)
	}
	return outcome(spec, t, ex)
}
