package benchcmd

import (
	"bytes"
	"context"
	"fmt"
	"github.com/nopol-go/nopol/cmd/nopol/internal/cli"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/nopol-go/nopol/benchmarks"
)

// TestBenchPurified runs the check of 'nopol bench purified' on two small
// bugs, with nopol purify run in the test process: the purified tests must
// pass on the fixed trees and reveal each bug, and on absbug only one of
// the four fragments of the failing table test fails.
func TestBenchPurified(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs test binaries")
	}
	var bugs []*benchmarks.Bug
	for _, f := range []string{"testdata/purified/absbug.json", "../../../../benchmarks/testdata/maxbug.json"} {
		b, err := benchmarks.LoadBug(f)
		if err != nil {
			t.Fatal(err)
		}
		bugs = append(bugs, b)
	}
	inProcess := func(ctx context.Context, dir, pkg, out string) ([]byte, error) {
		var stdout, stderr bytes.Buffer
		if code := cli.Main(ctx, &cli.Env{Stdout: &stdout, Stderr: &stderr, Dir: dir}, []string{"purify", "-q", "-json", "-write", out, pkg}); code != 0 {
			return nil, fmt.Errorf("nopol purify exited %d: %s", code, stderr.String())
		}
		return stdout.Bytes(), nil
	}
	out := t.TempDir()
	bf := &benchFlags{jobs: 2}
	if err := checkPurified(context.Background(), &cli.Env{Stderr: io.Discard}, bf, out, inProcess, bugs); err != nil {
		t.Fatal(err)
	}
	results, err := benchmarks.ReadPurified(out)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][2]int{"absbug": {1, 4}, "maxbug": {3, 3}} // failing fragments / fragments of the failing test
	if len(results) != len(want) {
		t.Fatalf("%d results, want %d", len(results), len(want))
	}
	for _, r := range results {
		if !r.Same || r.Files != 1 {
			t.Errorf("%s: %s (files %d)", r.Bug, r.Status(), r.Files)
		}
		if got := [2]int{r.FailingFragments, r.FragmentsOfFailing}; got != want[r.Bug] {
			t.Errorf("%s: failing fragments / fragments of the failing tests %v, want %v", r.Bug, got, want[r.Bug])
		}
	}
	if _, err := os.Stat(filepath.Join(out, "purified.md")); err != nil {
		t.Error(err)
	}
}
