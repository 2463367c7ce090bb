package nopol_test

import (
	"context"
	"testing"
	"time"

	"github.com/nopol-go/nopol"
	"github.com/nopol-go/nopol/internal/txtartest"
)

// BenchmarkSlowSuite repairs testdata/slowsuite.txtar, whose passing
// tests sleep 12 s: the runs of the suite a repair makes are most of its
// time there (validate.go, slowSuite). It reports the repair's seconds,
// its validation's and the test runs.
func BenchmarkSlowSuite(b *testing.B) {
	for b.Loop() {
		dir := b.TempDir()
		txtartest.Extract(b, "testdata/slowsuite.txtar", dir)
		start := time.Now()
		res, err := nopol.Repair(context.Background(), nopol.Options{Dir: dir, Timeout: 5 * time.Minute})
		if err != nil {
			b.Fatal(err)
		}
		if !res.Patched || res.Condition != "d <= time.Second" {
			b.Fatalf("patched %v `%s`: %s", res.Patched, res.Condition, res.Reason)
		}
		b.ReportMetric(time.Since(start).Seconds(), "s/repair")
		var validation float64
		for _, p := range res.Phases {
			if p.Name == "validation" || p.Name == "verify" {
				validation += p.Duration.Seconds()
			}
		}
		b.ReportMetric(validation, "validation-s/repair")
		b.ReportMetric(float64(res.Runs), "runs/repair")
	}
}
