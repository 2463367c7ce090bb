package nopol

import (
	"context"
	"testing"
	"time"

	"github.com/nopol-go/nopol/collect"
)

func TestJudge(t *testing.T) {
	ignored := map[string]bool{"TestLeftOut": true}
	tests := []struct {
		name    string
		ignored map[string]bool
		sr      collect.SuiteResult
		want    bool
		// reruns is how many flakiness checks the verdict takes.
		reruns int
	}{
		{"passes", nil, collect.SuiteResult{Passed: true}, true, 0},
		{"fails, nothing left out", nil, collect.SuiteResult{Failed: []string{"TestA"}}, false, 1},
		{"only a left-out test fails", ignored, collect.SuiteResult{Failed: []string{"TestLeftOut/case"}}, true, 0},
		{"another test fails too", ignored, collect.SuiteResult{Failed: []string{"TestLeftOut", "TestB"}}, false, 1},
		{"a test of another package fails", ignored, collect.SuiteResult{Failed: []string{"TestLeftOut"}, FailedElsewhere: []string{"example.com/m/api.TestB"}}, false, 1},
		{"a left-out test of another package fails", ignored, collect.SuiteResult{FailedElsewhere: []string{"example.com/m/api.TestLeftOut/sub"}}, true, 0},
		{"a prefix of a left-out name is not it", ignored, collect.SuiteResult{FailedElsewhere: []string{"example.com/m/api.TestLeftOutToo"}}, false, 1},
		{"timeout", ignored, collect.SuiteResult{TimedOut: true, Failed: []string{"TestLeftOut"}}, false, 0},
		{"fails without names", ignored, collect.SuiteResult{}, false, 0},
		{"a flaky test fails", nil, collect.SuiteResult{Failed: []string{"TestFlaky"}}, true, 1},
		{"a flaky test of another package fails", nil, collect.SuiteResult{FailedElsewhere: []string{"example.com/m/api.TestFlaky"}}, true, 1},
		{"a flaky and a stable test fail", nil, collect.SuiteResult{Failed: []string{"TestFlaky/x", "TestA"}}, false, 1},
		{"the test to repair still fails", nil, collect.SuiteResult{Failed: []string{"TestFlaky", "TestZero"}}, false, 0},
		{"too many failures to be flakiness", nil, collect.SuiteResult{Failed: []string{"TestFlaky", "TestA", "TestB", "TestC"}}, false, 0},
		// Another test's crash kept it from running in the baseline: it
		// may fail on the user's code every time, so its failure is not
		// checked for flakiness but counts.
		{"a test the baseline did not run fails", nil, collect.SuiteResult{Failed: []string{"TestNotRun"}}, false, 0},
		// It passed in the suite and fails every run alone: it needs the
		// tests before it, not luck, and the candidate broke it there.
		{"a test that fails every run alone fails", nil, collect.SuiteResult{Failed: []string{"TestOrder"}}, false, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFake(t)
			f.flakyTests = map[string]bool{"TestFlaky": true}
			f.aloneFails = map[string]bool{"TestOrder": true}
			for _, n := range []string{"TestA", "TestB", "TestC", "TestFlaky", "TestOrder"} {
				f.tests = append(f.tests, fakeTest{name: n, inputs: []int64{1}})
			}
			prog := f.program()
			prog.Packages = append(prog.Packages, "example.com/m/api")
			r := &repairer{ignored: tt.ignored, c: &countingRerun{fake: f}, prog: prog, res: &Result{},
				failing: []testKey{{"example.com/m", "TestZero"}}}
			for _, p := range prog.Packages {
				for _, n := range []string{"TestA", "TestB", "TestC", "TestFlaky", "TestOrder", "TestLeftOutToo"} {
					r.passing = append(r.passing, testKey{p, n})
				}
			}
			got, err := r.judge(context.Background(), "example.com/m", tt.sr)
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.want {
				t.Errorf("judge(%+v) = %v, want %v", tt.sr, got, tt.want)
			}
			if n := r.c.(*countingRerun).n; n != tt.reruns {
				t.Errorf("%d flakiness checks, want %d", n, tt.reruns)
			}
			// A second judgement of the same run checks nothing again.
			if again, _ := r.judge(context.Background(), "example.com/m", tt.sr); again != got || r.c.(*countingRerun).n != tt.reruns {
				t.Errorf("judged again: %v after %d checks", again, r.c.(*countingRerun).n)
			}
		})
	}
}

// countingRerun counts the flakiness checks.
type countingRerun struct {
	*fake
	n int
}

func (c *countingRerun) Rerun(ctx context.Context, prog *collect.Program, patch *collect.Patch, tests []collect.TestID, count int, timeout time.Duration) (map[collect.TestID]collect.Repeats, error) {
	c.n++
	return c.fake.Rerun(ctx, prog, patch, tests, count, timeout)
}

// TestRetryBusy: on a busy machine, a run of the failing tests that timed
// out runs again only when its limit was short enough for the load to
// explain it and it did not reach the evaluation limit.
func TestRetryBusy(t *testing.T) {
	for _, tc := range []struct {
		name  string
		limit time.Duration
		sr    collect.SuiteResult
		want  bool
	}{
		{"short limit, timed out", 2 * time.Second, collect.SuiteResult{TimedOut: true}, true},
		{"just under the bound", busyRetryBelow - time.Millisecond, collect.SuiteResult{TimedOut: true}, true},
		{"at the bound", busyRetryBelow, collect.SuiteResult{TimedOut: true}, false},
		{"long limit, timed out", 20 * time.Second, collect.SuiteResult{TimedOut: true}, false},
		{"short limit, spun", 2 * time.Second, collect.SuiteResult{TimedOut: true, Hung: true}, false},
		{"short limit, failed", 2 * time.Second, collect.SuiteResult{}, false},
	} {
		if got := retryBusy(tc.limit, tc.sr); got != tc.want {
			t.Errorf("%s: retryBusy(%s) = %v, want %v", tc.name, tc.limit, got, tc.want)
		}
	}
}
