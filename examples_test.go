package nopol

import (
	"context"
	"flag"
	"os"
	"path/filepath"
	"testing"
	"time"
)

var update = flag.Bool("update", false, "rewrite the want.diff and want.why files of the examples")

// TestExamples repairs every module of examples/ and compares the patch
// with its want.diff and the explanation with its want.why (rewritten
// with -update).
func TestExamples(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the examples' tests")
	}
	dirs, err := filepath.Glob("examples/*/go.mod")
	if err != nil || len(dirs) == 0 {
		t.Fatalf("no examples (%v)", err)
	}
	for _, gomod := range dirs {
		dir, _ := filepath.Abs(filepath.Dir(gomod))
		t.Run(filepath.Base(dir), func(t *testing.T) {
			before, err := os.ReadDir(dir)
			if err != nil {
				t.Fatal(err)
			}
			res, err := Repair(context.Background(), Options{Dir: dir, Timeout: 5 * time.Minute})
			if err != nil {
				t.Fatal(err)
			}
			if !res.Patched {
				t.Fatalf("no patch: %s", res.Reason)
			}
			// The examples are repaired by synthesis, not by the mutation
			// fallback.
			if res.Site.Method != "synthesis" {
				t.Errorf("found by %s", res.Site.Method)
			}
			if res.Explanation == nil {
				t.Fatal("a patch without an explanation")
			}
			for _, g := range []struct{ file, got string }{{"want.diff", res.Diff}, {"want.why", res.Explanation.String()}} {
				golden := filepath.Join(dir, g.file)
				if *update {
					if err := os.WriteFile(golden, []byte(g.got), 0o644); err != nil {
						t.Fatal(err)
					}
					continue
				}
				want, err := os.ReadFile(golden)
				if err != nil {
					t.Fatal(err)
				}
				if g.got != string(want) {
					t.Errorf("%s:\n%s\nwant:\n%s", g.file, g.got, want)
				}
			}
			if *update {
				return
			}
			if after, _ := os.ReadDir(dir); len(after) != len(before) {
				t.Errorf("the example's directory changed: %d entries, had %d", len(after), len(before))
			}
		})
	}
}
