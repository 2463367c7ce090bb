package resilience

import (
	"fmt"
	"io"
	"path/filepath"
	"text/tabwriter"
)

// InputError reports packages that cannot be analysed as given (they do
// not compile, a bad pattern): the message says what to fix.
type InputError struct{ Msg string }

func (e *InputError) Error() string { return e.Msg }

// PackageSummary counts the pairs of one package as the thesis' Table 3.1
// does.
type PackageSummary struct {
	Package string `json:"package"`
	// Pairs found; Classes counts those whose try a passing test ran, with
	// an error injected (Executed), by class.
	Pairs int `json:"pairs"`
	Classes
	// Propagating counts the executed pairs whose catch returns or panics
	// with the error (Java's implicit propagation has no handler).
	Propagating int `json:"propagating"`
	// NotInjectable counts the pairs where no error could be injected.
	NotInjectable int `json:"not_injectable"`
	// Stretchable counts the source-independent pairs whose catch could
	// be broadened (see Stretch), Stretched those whose broadened catch
	// keeps the package's tests passing.
	Stretchable int `json:"stretchable"`
	Stretched   int `json:"stretched"`
	// Recovering counts the executed pairs whose catch recovers (the
	// ones a Java catch block corresponds to), by class.
	Recovering Classes `json:"recovering"`
	// CatchAll counts the pairs whose catch handles every error already.
	CatchAll int `json:"catch_all"`
}

// Classes counts executed pairs by class.
type Classes struct {
	Executed          int `json:"executed"`
	PurelyResilient   int `json:"purely_resilient"`
	SourceIndependent int `json:"source_independent"`
	SourceDependent   int `json:"source_dependent"`
	Unknown           int `json:"unknown"`
}

// count counts p, an executed pair.
func (c *Classes) count(p PairResult) {
	c.Executed++
	switch p.Class {
	case SourceIndependent:
		c.SourceIndependent++
	case SourceDependent:
		c.SourceDependent++
	case Unknown:
		c.Unknown++
	}
	if p.PurelyResilient == "yes" {
		c.PurelyResilient++
	}
}

// Add counts c2 into c.
func (c *Classes) Add(c2 Classes) {
	c.Executed += c2.Executed
	c.SourceIndependent += c2.SourceIndependent
	c.SourceDependent += c2.SourceDependent
	c.Unknown += c2.Unknown
	c.PurelyResilient += c2.PurelyResilient
}

// Add counts s2 into s (Package is kept).
func (s *PackageSummary) Add(s2 PackageSummary) {
	s.Pairs += s2.Pairs
	s.Classes.Add(s2.Classes)
	s.Propagating += s2.Propagating
	s.NotInjectable += s2.NotInjectable
	s.Stretchable += s2.Stretchable
	s.Stretched += s2.Stretched
	s.CatchAll += s2.CatchAll
	s.Recovering.Add(s2.Recovering)
}

// Summaries counts the pairs per package, in the order of the report.
func (r *Report) Summaries() []PackageSummary {
	var out []PackageSummary
	index := map[string]int{}
	for _, p := range r.Pairs {
		i, ok := index[p.Package]
		if !ok {
			i = len(out)
			index[p.Package] = i
			out = append(out, PackageSummary{Package: p.Package})
		}
		s := &out[i]
		s.Pairs++
		if p.Kind == CatchAll {
			s.CatchAll++
		}
		switch p.Class {
		case NotInjectable:
			s.NotInjectable++
			continue
		case NotExecuted, NotAnalysed:
			continue
		}
		s.count(p)
		if p.Action == Recovers {
			s.Recovering.count(p)
		} else {
			s.Propagating++
		}
		if p.Stretch != nil {
			s.Stretchable++
			if p.Stretch.Passed {
				s.Stretched++
			}
		}
	}
	return out
}

// WriteText writes the table of the packages and, per pair, the test
// that makes it source-dependent or not purely resilient.
func (r *Report) WriteText(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "package\tpairs\texecuted\tpurely resilient\tsource-independent\tsource-dependent\tunknown\tpropagating\tnot injectable\tstretchable (suite passes)")
	var total PackageSummary
	for _, s := range r.Summaries() {
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d (%d)\n", s.Package, s.Pairs, s.Executed, s.PurelyResilient, s.SourceIndependent, s.SourceDependent, s.Unknown, s.Propagating, s.NotInjectable, s.Stretchable, s.Stretched)
		total.Add(s)
	}
	fmt.Fprintf(tw, "total\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d (%d)\n", total.Pairs, total.Executed, total.PurelyResilient, total.SourceIndependent, total.SourceDependent, total.Unknown, total.Propagating, total.NotInjectable, total.Stretchable, total.Stretched)
	if err := tw.Flush(); err != nil {
		return err
	}
	r0 := total.Recovering
	fmt.Fprintf(w, "\nrecovering catches (not returning or panicking with the error): %d executed, %d source-independent, %d source-dependent, %d unknown, %d purely resilient\n",
		r0.Executed, r0.SourceIndependent, r0.SourceDependent, r0.Unknown, r0.PurelyResilient)
	fmt.Fprintf(w, "\n%d test runs (%d again alone, %d suite runs of stretched catches) in %s\n", r.Runs, r.Reruns, r.StretchRuns, r.Time.Round(100_000_000))
	for _, s := range r.Skipped {
		fmt.Fprintf(w, "skipped %s\n", s)
	}
	if r.TimedOut {
		n := 0
		for _, p := range r.Pairs {
			if p.Class == NotAnalysed {
				n++
			}
		}
		fmt.Fprintf(w, "the time limit ran out: %d pairs not analysed (raise -timeout)\n", n)
	}
	for _, p := range r.Pairs {
		if st := p.Stretch; st != nil && st.Passed {
			fmt.Fprintf(w, "\n%s:%d %s: `%s` stretched to `%s`, the tests pass:\n%s", filepath.Base(p.Catch.File), p.Catch.Line, p.Func, p.CatchText, st.Condition, st.Diff)
		}
	}
	for _, p := range r.Pairs {
		if p.Class != SourceDependent && p.PurelyResilient != "no" {
			continue
		}
		for _, t := range p.Tests {
			if t.Passed || (p.Class == SourceDependent && t.Usage != White) {
				continue
			}
			injected := "a fresh error"
			switch p.Kind {
			case Is, Equal:
				injected = p.Target
			case As, Type:
				injected = "a " + p.Target
			case Recover:
				injected = "a panic"
			}
			fmt.Fprintf(w, "\n%s:%d %s (%s `%s`, try `%s`): %s fails with %s injected (%s usage)", filepath.Base(p.Catch.File), p.Catch.Line, p.Func, p.Kind, p.CatchText, p.TryText, t.Test, injected, t.Usage)
			if t.Failure != "" {
				fmt.Fprintf(w, ": %s", t.Failure)
			}
			fmt.Fprintln(w)
			break
		}
	}
	return nil
}
