package nopol

import (
	"context"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/nopol-go/nopol/collect"
	"github.com/nopol-go/nopol/internal/diff"
)

// validate runs the suite for each candidate in order and stops at the
// first that passes and survives the patched-source check.
func (r *repairer) validate(ctx context.Context, site collect.Site, st style, srcs []string, rep *SiteReport) (bool, error) {
	r.enter("validation")
	schema, err := r.c.BuildSchema(ctx, r.prog, site, st.guard, srcs, suiteTimeout(r.suiteTime()))
	if err != nil {
		if ctx.Err() != nil {
			return false, ctx.Err()
		}
		rep.Outcome = "building the candidates: " + err.Error()
		return false, nil
	}
	defer schema.Close()
	for k, src := range srcs {
		r.enter("validation")
		sr, err := schema.RunSuite(ctx, k)
		r.res.Runs++
		if err != nil {
			return false, fmt.Errorf("validating %s at site %d: %w", src, site.ID, err)
		}
		ok := r.acceptable(sr)
		cr := CandidateReport{Site: site.ID, Style: st.name, Condition: src, Passed: ok, Failed: sr.Failed, TimedOut: sr.TimedOut, Duration: sr.Duration}
		r.res.Candidates = append(r.res.Candidates, cr)
		r.logf("candidate %d/%d `%s`: %s", k+1, len(srcs), src, suiteSummary(sr, ok))
		if !ok {
			continue
		}
		r.enter("verify")
		done, why, err := r.finish(ctx, site, st, src, rep)
		if err != nil || done {
			return done, err
		}
		r.res.Candidates[len(r.res.Candidates)-1].Passed = false
		r.logf("candidate %d/%d `%s`: %s", k+1, len(srcs), src, why)
	}
	rep.Outcome = fmt.Sprintf("none of %d candidates passes the suite", len(srcs))
	return false, nil
}

func suiteSummary(sr collect.SuiteResult, ok bool) string {
	switch {
	case ok:
		return "the suite passes"
	case sr.BuildFailed:
		msg, _, _ := strings.Cut(strings.TrimSpace(sr.Output), "\n")
		return "does not compile: " + msg
	case sr.TimedOut:
		return "the suite timed out"
	case len(sr.Failed) == 0:
		return "the suite fails"
	}
	return "fails " + strings.Join(sr.Failed, ", ")
}

// acceptable reports whether a suite run passes, but for the failing tests
// left out with -run.
func (r *repairer) acceptable(sr collect.SuiteResult) bool {
	if sr.Passed {
		return true
	}
	if sr.TimedOut || len(sr.Failed) == 0 || len(r.ignored) == 0 {
		return false
	}
	for _, f := range sr.Failed {
		top, _, _ := strings.Cut(f, "/")
		if !r.ignored[top] {
			return false
		}
	}
	return true
}

// finish writes the candidate into the source, checks the patched file
// through an overlay, and fills in the result.
func (r *repairer) finish(ctx context.Context, site collect.Site, st style, cond string, rep *SiteReport) (bool, string, error) {
	old, err := os.ReadFile(site.File)
	if err != nil {
		return false, "", fmt.Errorf("reading %s: %w", site.File, err)
	}
	src, err := patchSource(old, site, st.guard, cond)
	if err != nil {
		return false, "writing the patch: " + err.Error(), nil
	}
	sr, err := r.c.VerifyPatch(ctx, r.prog, site.File, src, suiteTimeout(r.suiteTime())+time.Minute)
	r.res.Runs++
	if err != nil {
		return false, "", fmt.Errorf("verifying the patch of %s: %w", rep.File, err)
	}
	if !r.acceptable(sr) {
		return false, "the patched file fails the suite: " + suiteSummary(sr, false), nil
	}
	rep.Outcome = "patched"
	r.res.Patched = true
	r.res.Site = rep
	r.res.Style = st.name
	r.res.Condition = cond
	r.res.File = rep.File
	r.res.Source = src
	r.res.Diff = diff.Unified(rep.File, old, src)
	r.logf("patched %s:%d in %s", rep.File, site.Line, time.Since(r.start).Round(time.Millisecond))
	return true, "", nil
}
