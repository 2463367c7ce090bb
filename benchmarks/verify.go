package benchmarks

import (
	"context"
	"fmt"
	"slices"

	"golang.org/x/sync/errgroup"
)

// Verdict is the outcome of verifying one bug.
type Verdict struct {
	ID string
	// OK is set when the failing tests fail on the buggy tree, every
	// other test of the package passes there, and the whole package suite
	// passes on the fixed tree.
	OK bool
	// Problem says why OK is not set.
	Problem string
	// Failed are the tests failing on the buggy tree.
	Failed []string
	// FlakyUnderFix are the failing tests that pass and fail on
	// flakyRuns runs of the fixed tree: the data is kept (OK), the judge
	// excuses them (flakyUnderFix), and they are worth a look. When such
	// a test makes the verification fail, Problem says so.
	FlakyUnderFix []string
}

// Verify materialises each bug twice (fixed and buggy) in fresh temp dirs
// and checks its claims; jobs bugs are verified in parallel.
func Verify(ctx context.Context, r *Runner, bugs []*Bug, jobs int, progress func(Verdict)) []Verdict {
	out := make([]Verdict, len(bugs))
	forEach(ctx, len(bugs), jobs, func(i int) {
		v := verifyOne(ctx, r, bugs[i])
		out[i] = v
		if progress != nil {
			progress(v)
		}
	})
	return out
}

func verifyOne(ctx context.Context, r *Runner, b *Bug) Verdict {
	v := Verdict{ID: b.ID}
	if err := b.Check(); err != nil {
		v.Problem = err.Error()
		return v
	}
	// The fixed tree stays for the repeated runs of the flaky checks.
	fixedDir, remove, err := tempTree(ctx, r, b, false)
	if err != nil {
		v.Problem = "fixed tree: " + err.Error()
		return v
	}
	defer remove()
	fixed, err := GoTest(ctx, r, fixedDir, b.Package, "", testTimeout)
	if err != nil {
		v.Problem = "fixed tree: " + err.Error()
		return v
	}
	if !fixed.OK() {
		v.Problem = fmt.Sprintf("fixed tree: suite does not pass (failed %v, build failed %v, timed out %v)", fixed.Failed, fixed.BuildFailed, fixed.TimedOut)
		v.Problem += flakyHint(ctx, r, fixedDir, b.Package, fixed.Failed)
		return v
	}
	buggy, err := runBugSuite(ctx, r, b, true)
	if err != nil {
		v.Problem = "buggy tree: " + err.Error()
		return v
	}
	v.Failed = buggy.Failed
	switch {
	case buggy.BuildFailed:
		v.Problem = "buggy tree does not build"
	case buggy.TimedOut:
		v.Problem = "buggy tree times out"
	case !slices.Equal(buggy.Failed, b.FailingTests):
		v.Problem = fmt.Sprintf("buggy tree: failing tests %v, want %v", buggy.Failed, b.FailingTests)
		var differ []string
		for _, t := range append(slices.Clone(buggy.Failed), b.FailingTests...) {
			if slices.Contains(buggy.Failed, t) != slices.Contains(b.FailingTests, t) && !slices.Contains(differ, t) {
				differ = append(differ, t)
			}
		}
		v.Problem += flakyHint(ctx, r, fixedDir, b.Package, differ)
	default:
		v.OK = true
		v.FlakyUnderFix = flakyFailing(ctx, r, fixedDir, b.Package, b.FailingTests)
	}
	return v
}

// flakyHint says, when every test of tests is flaky on the fixed tree at
// fixedDir (package pkg), that the problem is the tests' and not the
// bug's; "" otherwise.
func flakyHint(ctx context.Context, r *Runner, fixedDir, pkg string, tests []string) string {
	if len(tests) == 0 {
		return ""
	}
	flaky := flakyFailing(ctx, r, fixedDir, pkg, tests)
	if len(flaky) < len(tests) {
		return ""
	}
	return fmt.Sprintf("; %v pass and fail on the fixed tree (%d runs): flaky whatever the code, drop them from failing_tests or from the suite", flaky, flakyRuns)
}

// flakyFailing returns the tests among tests that pass and fail on runs of
// the fixed tree at fixedDir, package pkg (flakyRuns of them).
func flakyFailing(ctx context.Context, r *Runner, fixedDir, pkg string, tests []string) []string {
	counts, ok := repeats(ctx, r, fixedDir, pkg, tests)
	if !ok {
		return nil
	}
	var out []string
	for _, t := range tests {
		if counts[t][0] > 0 && counts[t][1] > 0 {
			out = append(out, t)
		}
	}
	return out
}

// runBugSuite materialises b (buggy or fixed) in a temp dir and runs the
// package suite there.
func runBugSuite(ctx context.Context, r *Runner, b *Bug, buggy bool) (*TestRun, error) {
	dir, remove, err := tempTree(ctx, r, b, buggy)
	if err != nil {
		return nil, err
	}
	defer remove()
	return GoTest(ctx, r, dir, b.Package, "", testTimeout)
}

// forEach calls f(0..n-1) on jobs goroutines, stopping early when ctx is
// done.
func forEach(ctx context.Context, n, jobs int, f func(i int)) {
	var g errgroup.Group
	g.SetLimit(max(jobs, 1))
	for i := 0; i < n && ctx.Err() == nil; i++ {
		g.Go(func() error {
			f(i)
			return nil
		})
	}
	g.Wait()
}
