package collect

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/nopol-go/nopol/internal/gotest"
)

// TestStress instruments a real module named by NOPOL_STRESS_DIR (patterns
// in NOPOL_STRESS_PATTERNS) and checks that every test behaves the same
// instrumented. It is skipped without the variable.
func TestStress(t *testing.T) {
	dir := os.Getenv("NOPOL_STRESS_DIR")
	if dir == "" {
		t.Skip("NOPOL_STRESS_DIR not set")
	}
	ctx := context.Background()
	start := time.Now()
	prog, err := Load(ctx, dir, strings.Fields(os.Getenv("NOPOL_STRESS_PATTERNS")))
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("load: %v, %d packages with tests, %d sites", time.Since(start), len(prog.Packages), len(prog.Sites))
	if os.Getenv("NOPOL_STRESS_QUICK") != "" {
		// Only check that everything instruments and compiles.
		b, err := Instrument(ctx, prog)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("instrument: %v", b.BuildTime)
		b.Close()
		return
	}
	start = time.Now()
	base, err := Baseline(ctx, prog, 5*time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("baseline: %v, %d tests", time.Since(start), len(base))
	b, err := Instrument(ctx, prog)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	t.Logf("instrument: %v", b.BuildTime)
	start = time.Now()
	var total time.Duration
	reached := map[int]bool{}
	same, ran, orderDependent := 0, 0, 0
	snapshots, values, missing := 0, 0, 0
	for _, r := range base {
		if r.Skipped {
			continue
		}
		ran++
		res, err := b.Run(ctx, Run{Package: r.Package, Test: r.Test, Mode: ModeCover, ForceSegment: -1, Timeout: time.Minute})
		if err != nil {
			t.Fatal(err)
		}
		total += res.Duration
		var sites []int
		for id := range res.Reached {
			reached[id] = true
			sites = append(sites, id)
		}
		if len(sites) > 0 {
			// Snapshots evaluate the observed expressions: they must not
			// change the outcome either.
			snap, err := b.Run(ctx, Run{Package: r.Package, Test: r.Test, Mode: ModeSnapshot, Sites: sites, ForceSegment: -1, Timeout: time.Minute})
			if err != nil {
				t.Fatal(err)
			}
			snapshots++
			for _, e := range snap.Evals {
				for _, v := range e.Values {
					values++
					if v.Missing {
						missing++
					}
				}
			}
			if snap.Passed != res.Passed {
				t.Errorf("%s.%s: passed=%v in a snapshot run, %v in a cover run\n%s", r.Package, r.Test, snap.Passed, res.Passed, snap.Output)
			}
		}
		if res.Passed == r.Passed {
			same++
			continue
		}
		// The instrumented run is of this test alone: a test that
		// depends on the ones before it is compared with a plain run of
		// it alone.
		sums, err := goTest(ctx, gotest.Default, prog, []string{r.Package}, "", namesPattern([]string{r.Test}), time.Minute)
		if err != nil {
			t.Fatal(err)
		}
		alone := false
		for _, s := range sums {
			for _, st := range s.Tests {
				alone = alone || (st.Test == r.Test && st.Action == "pass")
			}
		}
		if res.Passed != alone {
			t.Errorf("%s.%s: instrumented passed=%v, plain %v (alone %v)\n%s", r.Package, r.Test, res.Passed, r.Passed, alone, res.Output)
			continue
		}
		same++
		orderDependent++
	}
	t.Logf("cover runs: %v (sum of run durations %v), %d sites reached", time.Since(start), total, len(reached))
	t.Logf("snapshot runs: %d, same outcome as cover runs; %d values recorded, %d missing", snapshots, values, missing)
	t.Logf("same outcome plain and instrumented: %d of %d tests run (%d only when run alone too: order-dependent)", same, ran, orderDependent)
}
