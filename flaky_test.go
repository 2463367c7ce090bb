package nopol

import (
	"context"
	"errors"
	"math"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nopol-go/nopol/collect"
)

func TestFewerPasses(t *testing.T) {
	for _, c := range []struct {
		a, n, b, m int
		// want is the p-value, computed by hand from the
		// hypergeometric distribution.
		want   float64
		broken bool
	}{
		{12, 13, 3, 12, 0.000895, true},
		{12, 13, 4, 12, 0.003258, false},
		{10, 13, 1, 12, 0.000787, true},
		{10, 13, 2, 12, 0.003812, false},
		// Half the runs before, none after: 0.00357, not below the
		// level (brokenFlaky's other rule rejects it).
		{7, 13, 0, 12, 0.003570, false},
		{7, 13, 7, 12, 0.734544, false},
		{12, 13, 12, 12, 1, false},
	} {
		got := fewerPasses(c.a, c.n, c.b, c.m)
		if math.Abs(got-c.want) > 1e-5 || (got < brokenLevel) != c.broken {
			t.Errorf("fewerPasses(%d of %d, %d of %d) = %.6f, want %.6f (broken %v)", c.a, c.n, c.b, c.m, got, c.want, c.broken)
		}
	}
}

// besideCoverage is the fake whose check of the failing tests on the
// user's code waits until a coverage run has started: it ends only when
// the two run at the same time.
type besideCoverage struct {
	*fake
	once    sync.Once
	started chan struct{}
}

func (b *besideCoverage) Instrument(ctx context.Context, prog *collect.Program) (testBinary, error) {
	return b, nil
}

func (b *besideCoverage) Run(ctx context.Context, r collect.Run) (collect.Result, error) {
	b.once.Do(func() { close(b.started) })
	return b.fake.Run(ctx, r)
}

func (b *besideCoverage) Rerun(ctx context.Context, prog *collect.Program, patch *collect.Patch, tests []collect.TestID, count int, timeout time.Duration) (map[collect.TestID]collect.Repeats, error) {
	select {
	case <-b.started:
	case <-time.After(10 * time.Second):
		return nil, errors.New("no coverage run started while the failing tests ran again")
	}
	return b.fake.Rerun(ctx, prog, patch, tests, count, timeout)
}

// TestFailingCheckBesideCoverage checks that the flakiness check of the
// failing tests runs beside the first coverage runs, and that a failing
// test it finds flaky is then neither repaired nor searched, though its
// coverage run was made.
func TestFailingCheckBesideCoverage(t *testing.T) {
	f := newFake(t)
	f.tests = append(f.tests, fakeTest{name: "TestFlakyFail", inputs: []int64{1}, broken: true})
	f.flakyTests = map[string]bool{"TestFlakyFail": true}
	b := &besideCoverage{fake: f, started: make(chan struct{})}
	var progress strings.Builder
	res, err := repair(context.Background(), Options{Dir: f.dir, Backend: "fake", Logf: logTo(&progress), Verbose: true}, b)
	if err != nil {
		t.Fatalf("repair: %v\n%s", err, progress.String())
	}
	if !res.Patched || res.Condition != "n < 0" {
		t.Fatalf("patched %v `%s`: %s\n%s", res.Patched, res.Condition, res.Reason, progress.String())
	}
	if !slices.Contains(res.Flaky, "TestFlakyFail") {
		t.Errorf("flaky tests %v", res.Flaky)
	}
	covered := false
	for _, run := range f.runs {
		covered = covered || (run.Test == "TestFlakyFail" && run.Mode == collect.ModeCover)
		if run.Test == "TestFlakyFail" && run.Mode != collect.ModeCover {
			t.Errorf("the flaky test ran in the search: %+v", run)
		}
	}
	if !covered {
		t.Error("the flaky failing test had no coverage run beside the check")
	}
	for _, tr := range res.Tests {
		if tr.Name == "TestFlakyFail" && (tr.Repaired || !tr.Flaky) {
			t.Errorf("report of the flaky test: %+v", tr)
		}
		if tr.Name == "TestZero" && !tr.Repaired {
			t.Errorf("report of the failing test: %+v", tr)
		}
	}
}
