package nopol

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/nopol-go/nopol/angelic"
	"github.com/nopol-go/nopol/collect"
	"github.com/nopol-go/nopol/internal/constituent"
	"github.com/nopol-go/nopol/internal/gotest"
)

// Table tests: a failing test whose subtests (t.Run) mostly pass runs,
// in every run of the search (coverage, the angelic search, the
// snapshots), its failing subtests alone. A value forced at a site then
// needs to make only them pass, not the passing cases that reach the
// same site too (go-cmp's TestDiff: 204 subtests, 40 of them failing,
// failed under every value forced at every site), the spectrum of the
// failing test holds the sites its failing cases reach, and each run is
// shorter. Its passing subtests run apart, as a passing test of their
// own (restKey): a passing spectrum for localization (a site they reach
// is less suspicious), passing states in the snapshots. A patch is still
// validated on the whole suite.

// narrowedTo returns the leaves of t's failing subtests, when some of its
// subtests passed and every failing one is listed; nil otherwise.
func narrowedTo(t collect.TestResult) []string {
	return failingLeaves(t.FailedSubtests, t.PassedSubtests, t.SubtestsCut)
}

// failingLeaves returns the paths among failed that no other one extends
// (a subtest fails with its failing subtests), when passed subtests passed
// and none is cut from failed; nil otherwise.
func failingLeaves(failed []string, passed int, cut bool) []string {
	if len(failed) == 0 || passed == 0 || cut {
		return nil
	}
	var leaves []string
	for _, p := range failed {
		if !slices.ContainsFunc(failed, func(q string) bool { return strings.HasPrefix(q, p+"/") }) {
			leaves = append(leaves, p)
		}
	}
	return leaves
}

// renarrowMapTables narrows the failing tests whose table is a map anew.
// The plain run ran their cases in a random order; the instrumented binary
// runs them in key order (constituent.Mark). When the cases share state,
// the case that fails depends on the order, and so do the passing cases
// seen before it (BurntSushi toml v1.2.0's TestEncode: another subtest on
// each run, and none passing when the failing one came first, which left
// it whole). Narrowed by the plain run, every later run, the localization
// and the patch would depend on that chance. Each such test runs once
// whole, instrumented, and is narrowed to the subtests that fail there, or
// left whole when none does or none passes.
func (r *repairer) renarrowMapTables(ctx context.Context) error {
	for _, k := range r.failing {
		if !r.mapTable(k) {
			continue
		}
		run := r.testRun(k, collect.ModeCover)
		run.Subtests = nil
		res, err := r.bin.Run(ctx, run)
		r.ran(testWork(res.TimedOut))
		if err != nil {
			return fmt.Errorf("running the instrumented tests: %w", err)
		}
		var subs []string
		if !res.TimedOut {
			for _, t := range gotest.ParseVerbose(res.Output, false) {
				if t.Test == k.name {
					subs = failingLeaves(t.FailedSubtests, t.PassedSubtests, t.SubtestsCut)
				}
			}
		}
		if len(subs) == 0 {
			// Not said: whether the plain run narrowed it was chance.
			delete(r.narrow, k)
			continue
		}
		// Said whether or not they are the plain run's: the same input
		// prints the same progress.
		r.logf("coverage: %s ranges over a map, in a random order in the plain run: it runs the %s failing in key order (%s)", k.name, plural(len(subs), "subtest"), strings.Join(subs[:min(len(subs), 3)], ", "))
		r.narrow[k] = subs
	}
	return nil
}

// mapTable reports whether test k has a table loop over a map, which the
// instrumented binary runs in key order.
func (r *repairer) mapTable(k testKey) bool {
	return slices.ContainsFunc(r.bin.Constituents(k.pkg), func(c constituent.Constituent) bool {
		return c.Test == k.name && c.SortedMap
	})
}

// widenPassing runs again, whole, the failing tests whose narrowed
// coverage run passed (a subtest that needs the ones before it), and puts
// their results in place; their later runs are whole too.
func (r *repairer) widenPassing(ctx context.Context, tests []testKey, runs []collect.Run, results []collect.Result) error {
	for i, k := range tests[:len(r.failing)] {
		if len(runs[i].Subtests) == 0 && len(runs[i].Gocheck) == 0 || !results[i].Passed {
			continue
		}
		r.logf("coverage: %s passes with only its failing subtests or gocheck tests run; it runs whole", k.name)
		delete(r.narrow, k)
		delete(r.checks, k)
		runs[i].Subtests, runs[i].Gocheck = nil, nil
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
		if names := r.checks[k]; len(names) > 0 {
			r.logf("coverage: %s runs only its %s", k.name, plural(len(names), "failing gocheck test"))
		}
	}
}

// restMark ends the name of the test key that stands for the passing
// subtests of a narrowed failing test (restKey); no Go test's name has a
// space.
const restMark = " (its passing subtests)"

// restKey is the key of the passing subtests of failing test k.
func restKey(k testKey) testKey { return testKey{k.pkg, k.name + restMark} }

// testRun is the plain run of test k in mode: a narrowed failing test's
// failing subtests, the passing subtests of a restKey.
func (r *repairer) testRun(k testKey, mode collect.Mode) collect.Run {
	run := collect.Run{Package: k.pkg, Test: k.name, Subtests: r.narrow[k], Gocheck: r.checks[k], Mode: mode, ForceSegment: -1, Timeout: r.timeout(k)}
	if name, ok := strings.CutSuffix(k.name, restMark); ok {
		failing := testKey{k.pkg, name}
		run.Test, run.Subtests, run.SkipSubtests, run.Gocheck = name, nil, r.narrow[failing], r.checkRest[failing]
	}
	return run
}

// coverRest runs, in coverage, the passing subtests of each narrowed
// failing test (the failing ones skipped) when its failing subtests are
// of one depth (-test.skip matches each depth by its own pattern). When
// they pass, their key joins restKeys: a passing spectrum in
// localization, passing runs in the snapshots.
func (r *repairer) coverRest(ctx context.Context) error {
	r.restKeys = nil
	r.checkRest = map[testKey][]string{}
	for _, k := range r.failing {
		subs := r.narrow[k]
		if len(r.checks[k]) > 0 {
			rest, err := r.passingGocheck(ctx, k)
			if err != nil {
				return err
			}
			if len(rest) == 0 {
				continue
			}
			r.checkRest[k] = rest
		} else if len(subs) == 0 || slices.ContainsFunc(subs, func(p string) bool { return strings.Count(p, "/") != strings.Count(subs[0], "/") }) {
			continue
		}
		rest := restKey(k)
		r.elapsed[rest] = r.elapsed[k]
		res, err := r.bin.Run(ctx, r.testRun(rest, collect.ModeCover))
		r.ran(testWork(res.TimedOut))
		if err != nil {
			return fmt.Errorf("running the instrumented tests: %w", err)
		}
		if !res.Passed {
			why := "fail"
			if res.TimedOut {
				why = "time out"
			}
			r.logf("coverage: the passing subtests of %s %s without the failing ones; left out", k.name, why)
			continue
		}
		r.vlogf("coverage %s: %d sites reached", rest.name, reachedCount(res))
		r.cover[rest] = res
		r.restKeys = append(r.restKeys, rest)
	}
	return nil
}

// passingGocheck lists the gocheck tests of failing test k that passed:
// those its suite lists (-check.list) but the failing ones.
func (r *repairer) passingGocheck(ctx context.Context, k testKey) ([]string, error) {
	res, err := r.bin.Run(ctx, collect.Run{Package: k.pkg, Test: k.name, GocheckList: true, ForceSegment: -1, Timeout: r.timeout(k)})
	r.ran(testWork(res.TimedOut))
	if err != nil {
		return nil, fmt.Errorf("listing the gocheck tests of %s: %w", k.name, err)
	}
	var rest []string
	for _, line := range strings.Split(res.Output, "\n") {
		name := strings.TrimSpace(line)
		if gocheckName.MatchString(name) && !slices.Contains(r.checks[k], name) && !slices.Contains(rest, name) {
			rest = append(rest, name)
		}
	}
	return rest, nil
}

// restSpectra are the passing spectra of restKeys.
func (r *repairer) restSpectra() []angelic.Spectrum {
	var out []angelic.Spectrum
	for _, k := range r.restKeys {
		if cases := r.restCases[k]; len(cases) > 0 {
			for _, c := range cases {
				out = append(out, r.spectrum(k.name+" ("+strings.Join(c.names, ", ")+")", c.res))
			}
			continue
		}
		out = append(out, r.spectrum(k.name, r.cover[k]))
	}
	return out
}
