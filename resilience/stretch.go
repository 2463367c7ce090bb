package resilience

import (
	"context"
	"os"
	"path/filepath"
	"strconv"

	"github.com/nopol-go/nopol/internal/diff"
)

// Stretch is a catch broadened to every error of its try (the thesis'
// catch stretching): a source-independent catch of one kind of error that
// is the last branch of its handler is broadened, kept when the
// package's whole suite still passes:
//   - an if condition or a case of a tagless switch (errors.Is, ==,
//     errors.As) becomes `err != nil`;
//   - a case of a type switch on the error becomes `case error:` (when
//     its body does not use the typed value: it would not compile);
//   - a case of `switch err` becomes `default:` when nil has its own
//     case (otherwise the default would also run without an error).
//
// A predicate is not broadened: it may test more than the error
// (len(b) != 8 || err != nil).
type Stretch struct {
	Pair int `json:"pair"`
	// Condition is the broadened condition or case ("err != nil",
	// "error", "default"), Diff the patch.
	Condition string `json:"condition"`
	Diff      string `json:"diff"`
	// Passed reports that the package's tests pass with the patch;
	// Failed names the tests that do not.
	Passed bool     `json:"passed"`
	Failed []string `json:"failed,omitempty"`
}

// stretchable reports whether p's catch can be broadened: a specific
// catch, the last of its handler, with a broadened form (see Stretch),
// source-independent.
func stretchable(p PairResult) bool {
	switch p.Kind {
	case Is, Equal, As, Type:
	default:
		return false
	}
	return p.Class == SourceIndependent && p.Last && p.broadenTo != "" && p.Var != ""
}

// stretch validates the broadened condition of each stretchable pair of a
// package: its file patched through an overlay, the package's tests run.
func (a *pkgAnalysis) stretch(ctx context.Context, dir string, results []PairResult) error {
	for i := range results {
		p := &results[i]
		if !stretchable(*p) {
			continue
		}
		src, err := os.ReadFile(p.Catch.File)
		if err != nil {
			return err
		}
		start, end := a.fset.Position(p.broadenFrom).Offset, a.fset.Position(p.broadenEnd).Offset
		cond := p.broadenTo
		patched := apply(src, []edit{{at: start, end: end, text: cond}})
		rel, err := filepath.Rel(a.root, p.Catch.File)
		if err != nil {
			rel = filepath.Base(p.Catch.File)
		}
		st := Stretch{Pair: p.ID, Condition: cond, Diff: diff.Unified(filepath.ToSlash(rel), src, patched)}
		name, err := writeOverlayFile(a.tmp, p.Catch.File, patched, 1000+p.ID)
		if err != nil {
			return err
		}
		ovPath := filepath.Join(a.tmp, "stretch"+strconv.Itoa(p.ID)+".json")
		if err := writeOverlay(ovPath, map[string]string{p.Catch.File: name}); err != nil {
			return err
		}
		a.logf("%s: pair %d: stretching `%s` to `%s`, running the tests", a.path, p.ID, p.CatchText, cond)
		sums, _, err := a.opts.Runner.TestJSON(ctx, dir, a.opts.Timeout, []string{"-overlay", ovPath}, a.path)
		a.rep.StretchRuns++
		if err != nil && ctx.Err() != nil {
			return ctx.Err()
		}
		st.Passed = err == nil && len(sums) == 1 && sums[0].Action == "pass"
		for _, s := range sums {
			for _, t := range s.Tests {
				if t.Action == "fail" {
					st.Failed = append(st.Failed, t.Test)
				}
			}
		}
		p.Stretch = &st
	}
	return nil
}
