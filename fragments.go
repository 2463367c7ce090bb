package nopol

import (
	"slices"
	"strings"

	"github.com/nopol-go/nopol/angelic"
	"github.com/nopol-go/nopol/collect"
	"github.com/nopol-go/nopol/internal/constituent"
)

// Test purification (on unless Options.NoPurify): a failing test that fails under both
// forced values as a whole is split into fragments at run time. Its runs
// print the running constituent (collect.Run.PrintConstituents); each
// failure reported in the output is attributed to the fragment running at
// the time, and the angelic value is forced in those fragments only. The
// test file is not rewritten: the markers collect put into it tell the
// hook which fragment runs.

// failingFragments attributes the failures reported in the output of a run
// of test k (made with PrintConstituents) to k's fragments, in order of
// report, each once: every failure message and panic frame that lies in a
// top-level statement of k, and every other failure message to the
// constituent printed last before it, with the table-loop iteration
// running when it was printed.
func (r *repairer) failingFragments(k testKey, output string) []angelic.Constituent {
	cons := r.bin.Constituents(k.pkg)
	var out []angelic.Constituent
	for _, l := range constituent.ParseOutput(output) {
		seg, ok := constituent.Attribute(cons, k.name, l.File, l.Line)
		if !ok && l.Segment >= 0 {
			// A failure or panic outside the test function (a helper's
			// subtest, a shared check function): the constituent
			// running when it was printed.
			seg, ok = l.Segment, true
		}
		if !ok {
			continue
		}
		fr := angelic.Constituent{Segment: seg}
		if l.Segment == seg && l.Iteration > 0 {
			fr.Iteration = l.Iteration
		}
		if !slices.Contains(out, fr) {
			out = append(out, fr)
		}
	}
	return out
}

// wholeTest reports whether forcing in frs is forcing during the whole
// of test k: frs hold every top-level statement of k, none of them a table
// loop forced in some iterations only. Splitting k is then moot.
func (r *repairer) wholeTest(k testKey, frs []angelic.Constituent) bool {
	n := 0
	for _, c := range r.bin.Constituents(k.pkg) {
		if c.Test != k.name {
			continue
		}
		n++
		if !slices.ContainsFunc(frs, func(fr angelic.Constituent) bool {
			return fr.Segment == c.Segment && (fr.Iteration == -1 || fr.Iteration == 0 && !c.Loop)
		}) {
			return false
		}
	}
	return n > 0
}

// forceFragments restricts the forcing of run to frs, with values, when
// not empty, the value forced in each; none forces during the whole test.
func forceFragments(run *collect.Run, frs []angelic.Constituent, values []bool) {
	run.ForceSegment, run.ForceIteration, run.ForceConstituents = -1, 0, nil
	for _, fr := range frs {
		run.ForceConstituents = append(run.ForceConstituents, collect.Constituent{Segment: fr.Segment, Iteration: fr.Iteration})
	}
	run.ForceValues = values
}

// fragmentReports describes the fragments of test k forced as f.
func (r *repairer) fragmentReports(k testKey, f angelic.Force, guard bool) []ConstituentReport {
	value := angelic.Force{Value: f.Value, Return: f.Return}.Label(guard)
	if f.EveryEval() {
		value = "negated" // every evaluation in the fragment
	}
	cons := r.bin.Constituents(k.pkg)
	var out []ConstituentReport
	for i, fr := range f.Fragments {
		rep := ConstituentReport{Test: k.name, Segment: fr.Segment, Iteration: fr.Iteration, Value: value}
		if i < len(f.Values) {
			rep.Value = angelic.Force{Value: f.Values[i]}.Label(guard)
		}
		for _, c := range cons {
			if c.Test == k.name && c.Segment == fr.Segment && c.File != "" {
				rep.File, rep.Line = r.relPath(c.File), c.StartLine
				break
			}
		}
		out = append(out, rep)
	}
	return out
}

// describeFragments renders fragment reports for progress lines.
func describeFragments(frs []ConstituentReport) string {
	var s []string
	for _, f := range frs {
		s = append(s, f.String()+mixedValue(frs, f))
	}
	return strings.Join(s, ", ")
}

// mixedValue is " = value" for a fragment f of frs when the fragments of
// its test were forced with different values (angelic.Force.Values), ""
// otherwise.
func mixedValue(frs []ConstituentReport, f ConstituentReport) string {
	for _, o := range frs {
		if o.Test == f.Test && o.Value != f.Value {
			return " = " + f.Value
		}
	}
	return ""
}
