package nopol

import (
	"fmt"
	"slices"
	"strings"

	"github.com/nopol-go/nopol/synth"
)

// More than the suite says: the patched condition and the original are
// evaluated side by side on states near the recorded ones where the
// original was right (one observed value moved: an integer by one, a
// boolean flipped, a string emptied), and the states where they disagree
// that no recorded state covers are reported. They are the behaviour changes a reviewer must look at: no
// test checks them.

// maxDifferences bounds the differences reported.
const maxDifferences = 5

// differences returns the states near spec's examples where cand and
// orig (nil: a new guard, never taken before) give different outcomes and
// that no example covers, rendered over the inputs either reads
// ("pos=5, length=-1: original false, patch true"), at most
// maxDifferences, in the examples' order.
func differences(spec *synth.Spec, orig, cand *synth.Term) []string {
	if spec == nil || cand == nil {
		return nil
	}
	recorded := map[string]bool{}
	for _, ex := range spec.Examples {
		recorded[stateKey(ex.Values)] = true
	}
	read := inputsRead(cand)
	if orig != nil {
		read = append(read, inputsRead(orig)...)
	}
	slices.Sort(read)
	read = slices.Compact(read)
	seen := map[string]bool{}
	var out []string
	for _, ex := range spec.Examples {
		if was, err := outcome(spec, orig, &ex); err != nil || was != ex.Want {
			continue // the change the failing tests asked for
		}
		for _, i := range read {
			for _, v := range nearby(ex.Values[i]) {
				vals := slices.Clone(ex.Values)
				vals[i] = v
				key := stateKey(vals)
				if recorded[key] || seen[key] {
					continue
				}
				seen[key] = true
				near := synth.Example{Values: vals}
				was, err := outcome(spec, orig, &near)
				if err != nil {
					continue
				}
				now, err := outcome(spec, cand, &near)
				if err != nil || now == was {
					continue
				}
				var parts []string
				for _, j := range read {
					parts = append(parts, renderInput(spec.Inputs[j].Expr, vals[j]))
				}
				d := fmt.Sprintf("%s: original %v, patch %v", strings.Join(parts, ", "), was, now)
				if slices.Contains(out, d) {
					continue
				}
				out = append(out, d)
				if len(out) == maxDifferences {
					return out
				}
			}
		}
	}
	return out
}

// renderInput renders an input's value: "x=5", "p == nil", "not p == nil".
func renderInput(expr string, v synth.Value) string {
	if v.Kind == synth.Bool {
		if v.Bool {
			return expr
		}
		return "not " + expr
	}
	return expr + "=" + v.GoString()
}

// outcome evaluates t on ex; a nil t is false (no guard).
func outcome(spec *synth.Spec, t *synth.Term, ex *synth.Example) (bool, error) {
	if t == nil {
		return false, nil
	}
	v, err := t.Eval(spec, ex)
	if err != nil || v.Kind != synth.Bool {
		return false, fmt.Errorf("not a boolean: %v", err)
	}
	return v.Bool, nil
}

// nearby are the values one step from v.
func nearby(v synth.Value) []synth.Value {
	if v.Missing {
		return nil
	}
	switch v.Kind {
	case synth.Int:
		return []synth.Value{synth.IntValue(v.Int - 1), synth.IntValue(v.Int + 1)}
	case synth.Bool:
		return []synth.Value{synth.BoolValue(!v.Bool)}
	case synth.String:
		if v.Str != "" {
			return []synth.Value{synth.StringValue("")}
		}
	case synth.Float:
		return []synth.Value{synth.FloatValue(v.Float - 1), synth.FloatValue(v.Float + 1)}
	}
	return nil
}

// inputsRead lists the inputs t reads.
func inputsRead(t *synth.Term) []int {
	var out []int
	walkTerm(t, func(n *synth.Term) {
		if n.Op == synth.OpInput && !slices.Contains(out, n.Index) {
			out = append(out, n.Index)
		}
	})
	return out
}
