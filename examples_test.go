package nopol_test

import (
	"context"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nopol-go/nopol"
	"github.com/nopol-go/nopol/report"
)

var update = flag.Bool("update", false, "rewrite the golden files of the examples (want.*)")

// TestExamples repairs every module of examples/ and compares the patch
// with its want.diff, the explanation with its want.why and the patch in
// every report format with want.sarif, want.rdjsonl and want.github
// (rewritten with -update).
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
			opts := nopol.Options{Dir: dir, Timeout: 5 * time.Minute}
			// An example whose patch is speculative (want.withheld) is
			// withheld by default, and printed with Speculative.
			if want, err := os.ReadFile(filepath.Join(dir, "want.withheld")); err == nil {
				res, err := nopol.Repair(context.Background(), opts)
				if err != nil {
					t.Fatal(err)
				}
				if res.Patched || len(res.Withheld) == 0 {
					t.Fatalf("patched %v, withheld %d: want the patch withheld", res.Patched, len(res.Withheld))
				}
				got := res.Withheld[0].Why + "\n" + res.Withheld[0].Diff
				if *update {
					if err := os.WriteFile(filepath.Join(dir, "want.withheld"), []byte(got), 0o644); err != nil {
						t.Fatal(err)
					}
				} else if got != string(want) {
					t.Errorf("want.withheld:\n%s\nwant:\n%s", got, want)
				}
				opts.Speculative = true
			}
			res, err := nopol.Repair(context.Background(), opts)
			if err != nil {
				t.Fatal(err)
			}
			if !res.Patched {
				t.Fatalf("no patch: %s", res.Reason)
			}
			// The examples are repaired by synthesis (or NpeFix's
			// replacements, for a nil dereference), not by the mutation
			// fallback.
			if res.Site.Method != "synthesis" && res.Site.Method != "npefix" {
				t.Errorf("found by %s", res.Site.Method)
			}
			if res.Explanation == nil {
				t.Fatal("a patch without an explanation")
			}
			goldens := []struct{ file, got string }{{"want.diff", res.Diff}, {"want.why", res.Explanation.String()}}
			for _, format := range []string{report.JSON, report.SARIF, report.RDJSONL, report.GitHub} {
				var b strings.Builder
				if err := report.Write(&b, format, res, report.Options{}); err != nil {
					t.Fatal(err)
				}
				got := b.String()
				if format == report.JSON {
					got = stableJSON(t, got)
				}
				goldens = append(goldens, struct{ file, got string }{"want." + format, got})
			}
			for _, g := range goldens {
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

// volatile are the members of the json format that differ from run to run
// or machine to machine: times, the module's directory, the test runs
// (a collision re-runs a test), the wall-clock bounds that decided
// something (a busy machine hits more).
var volatile = []string{"ms", "total_ms", "phases", "dir", "runs", "time_bounds"}

// stableJSON is the JSON document src without its volatile members.
func stableJSON(t *testing.T, src string) string {
	t.Helper()
	var v any
	if err := json.Unmarshal([]byte(src), &v); err != nil {
		t.Fatal(err)
	}
	var strip func(any)
	strip = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			for _, k := range volatile {
				delete(v, k)
			}
			for _, x := range v {
				strip(x)
			}
		case []any:
			for _, x := range v {
				strip(x)
			}
		}
	}
	strip(v)
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	return b.String()
}
