package nopol

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/nopol-go/nopol/collect"
)

// Table tests: a failing test whose subtests (t.Run) mostly pass runs,
// in every run of the search (coverage, the angelic search, the
// snapshots), its failing subtests alone. A value forced at a site then
// needs to make only them pass, not the passing cases that reach the
// same site too (go-cmp's TestDiff: 204 subtests, 40 of them failing,
// failed under every value forced at every site), the spectrum of the
// failing test holds the sites its failing cases reach, and each run is
// shorter. A patch is still validated on the whole suite.

// narrowedTo returns the leaves of t's failing subtests, when some of its
// subtests passed and every failing one is listed; nil otherwise.
func narrowedTo(t collect.TestResult) []string {
	if len(t.FailedSubtests) == 0 || t.PassedSubtests == 0 || t.SubtestsCut {
		return nil
	}
	var leaves []string
	for _, p := range t.FailedSubtests {
		if !slices.ContainsFunc(t.FailedSubtests, func(q string) bool { return strings.HasPrefix(q, p+"/") }) {
			leaves = append(leaves, p)
		}
	}
	return leaves
}

// widenPassing runs again, whole, the failing tests whose narrowed
// coverage run passed (a subtest that needs the ones before it), and puts
// their results in place; their later runs are whole too.
func (r *repairer) widenPassing(ctx context.Context, tests []testKey, runs []collect.Run, results []collect.Result) error {
	for i, k := range tests[:len(r.failing)] {
		if len(runs[i].Subtests) == 0 || !results[i].Passed {
			continue
		}
		r.logf("coverage: %s passes with only its failing subtests run; it runs whole", k.name)
		delete(r.narrow, k)
		runs[i].Subtests = nil
		res, err := r.bin.Run(ctx, runs[i])
		r.ran(testWork(res.TimedOut))
		if err != nil {
			return fmt.Errorf("running the instrumented tests: %w", err)
		}
		results[i] = res
	}
	return nil
}

// logNarrowed tells which failing tests run their failing subtests only.
func (r *repairer) logNarrowed() {
	for _, k := range r.failing {
		if subs := r.narrow[k]; len(subs) > 0 {
			r.logf("coverage: %s runs only its %s", k.name, plural(len(subs), "failing subtest"))
		}
	}
}
