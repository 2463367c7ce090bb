package nopol_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/nopol-go/nopol"
)

// BenchmarkSlowSuite repairs testdata/slowsuite.txtar, whose passing
// tests sleep 12 s: the runs of the suite a repair makes are most of its
// time there (validate.go, slowSuite). It reports the repair's seconds,
// its validation's and the test runs.
func BenchmarkSlowSuite(b *testing.B) {
	ar, err := txtar.ParseFile("testdata/slowsuite.txtar")
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		dir := b.TempDir()
		for _, f := range ar.Files {
			if err := os.WriteFile(filepath.Join(dir, f.Name), f.Data, 0o644); err != nil {
				b.Fatal(err)
			}
		}
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
