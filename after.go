package nopol

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/nopol-go/nopol/collect"
	"github.com/nopol-go/nopol/internal/gotest"
)

// Tests that need the tests before them. A test that reads a package
// variable another test sets (color.NoColor = false) gives its suite
// result only after that test: run alone it fails where it passes in the
// suite, passes where it fails, or fails with other messages (a failing
// test then fails under every forced value, and no site is angelic).
// Such a test runs after the tests before it in the suite
// (collect.Run.Before), with the hook held until it starts.

// runTime is the time k's runs take: its baseline time, and that of the
// tests it runs after.
func (r *repairer) runTime(k testKey) time.Duration {
	return r.timeAfter(k, r.prog.RunsAfter(collect.TestID{Package: k.pkg, Test: k.name}))
}

// timeAfter is the time of k's own runs (ownTime) and the baseline time
// of the tests before of its package.
func (r *repairer) timeAfter(k testKey, before []string) time.Duration {
	d := r.ownTime(k)
	for _, t := range before {
		d += r.elapsed[testKey{k.pkg, t}]
	}
	return d
}

// ownTime is the time a run of test k takes: its baseline time, or for
// a failing test narrowed to its failing gocheck tests (-check.f), once
// its narrowed coverage run is done, the longer of that run's time and
// the failing gocheck tests' share of the baseline time (as many
// gocheck tests' average time). The whole suite's time made the limit
// of a narrowed run that a forced value made block twenty times too
// long: yaml.v3's Test, 1.4s in the baseline, had forced runs of its
// four failing gocheck tests take 30ms to 130ms, and the one that
// blocked took a minute with its retry.
func (r *repairer) ownTime(k testKey) time.Duration {
	d := r.elapsed[k]
	failing, rest := len(r.checks[k]), len(r.checkRest[k])
	res, covered := r.cover[k]
	if failing == 0 || !covered || res.TimedOut {
		return d
	}
	// With no passing gocheck test listed (rest 0), the share is d.
	return min(d, max(res.Duration, d*time.Duration(failing)/time.Duration(failing+rest)))
}

// suiteBefore returns the tests the baseline ran before k in its package,
// in order.
func (r *repairer) suiteBefore(k testKey) []string {
	order := r.suiteOrder[k.pkg]
	i := slices.Index(order, k.name)
	if i <= 0 {
		return nil
	}
	return slices.Clone(order[:i])
}

// givesSuiteResult reports whether res is k's result in the suite: the
// same outcome and, for a failing test, the same failure messages.
func (r *repairer) givesSuiteResult(k testKey, failing bool, res collect.Result) bool {
	if res.Passed != !failing {
		return false
	}
	return !failing || sameFailure(r.suiteFailure[k], testOutput(res.Output, k.name))
}

// runAfterOthers runs again, after the tests before them in the suite,
// the tests among tests (the failing ones first, as many as r.failing)
// whose instrumented run alone, results[i], does not give their suite
// result. Those that then give it run so from now on
// (collect.Program.RunAfter), and their run replaces results[i].
func (r *repairer) runAfterOthers(ctx context.Context, tests []testKey, runs []collect.Run, results []collect.Result) error {
	for i, k := range tests {
		failing := i < len(r.failing)
		if r.givesSuiteResult(k, failing, results[i]) || !r.prog.Marked(k.pkg, k.name) {
			continue
		}
		before := r.suiteBefore(k)
		if len(before) == 0 {
			continue
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		run := runs[i]
		run.Before = before
		run.Timeout = runTimeout(r.timeAfter(k, before))
		res, err := r.bin.Run(ctx, run)
		r.ran(testWork(res.TimedOut))
		if err != nil {
			return fmt.Errorf("running %s after the tests before it: %w", k.name, err)
		}
		if !r.givesSuiteResult(k, failing, res) {
			r.vlogf("coverage: %s does not give its suite result after the %s before it either", k.name, plural(len(before), "test"))
			continue
		}
		alone := "fails alone"
		switch {
		case failing && results[i].Passed:
			alone = "passes alone"
		case failing:
			alone = "fails otherwise alone"
		}
		r.prog.RunAfter(collect.TestID{Package: k.pkg, Test: k.name}, before)
		results[i] = res
		for j, t := range r.res.Tests {
			if t.Package == k.pkg && t.Name == k.name {
				r.res.Tests[j].RunsAfter = len(before)
			}
		}
		r.logf("coverage: %s %s but gives its suite result after the %s before it (they set what it reads); it runs after them from now on", k.name, alone, plural(len(before), "test"))
	}
	return nil
}

// testOutput is what test printed in the -test.v output of a test
// binary.
func testOutput(output, test string) string {
	for _, t := range gotest.ParseVerbose(output, false) {
		if t.Test == test {
			return t.Output
		}
	}
	return ""
}

// sameFailure reports whether two outputs of a failing test hold the
// same messages, framing lines, hook lines, times and addresses aside.
func sameFailure(a, b string) bool {
	return slices.Equal(failureMessages(a), failureMessages(b))
}

var (
	hexAddress = regexp.MustCompile(`0x[0-9a-fA-F]+`)
	duration   = regexp.MustCompile(`\(\d+(\.\d+)?m?s\)`)
)

// failureMessages are the lines of a test's output that its messages
// print, normalised: the framing lines of go test (=== RUN, --- FAIL)
// and the hook's lines are left out, addresses and times blanked. A
// panic's first line ends them: its stack names the files where the
// binary was built, which differ between the plain and instrumented runs.
func failureMessages(out string) []string {
	var msgs []string
	for _, line := range strings.Split(out, "\n") {
		t := strings.TrimSpace(strings.ReplaceAll(line, "\x16", ""))
		if t == "" || strings.HasPrefix(t, "=== ") || strings.HasPrefix(t, "--- ") || strings.HasPrefix(t, "nopol-") {
			continue
		}
		t = hexAddress.ReplaceAllString(t, "0x")
		msgs = append(msgs, duration.ReplaceAllString(t, "()"))
		if strings.HasPrefix(t, "panic: ") {
			break
		}
	}
	return msgs
}
