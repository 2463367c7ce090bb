package resilience

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
)

// TestAnalyze runs the analysis on a module whose pairs are used in
// each way, and checks the verdicts, the runs made (one plain run, then
// one per pair and test that ran its try) and that the tree is unchanged.
//
// Before Go 1.18 (no generics), the tries returning values are injected
// by a statement after them: the verdicts are the same.
//
// thesis.txtar renders the examples of the thesis' chapter 3 in Go: its
// verdicts are the thesis' (see the archive's comment).
func TestAnalyze(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a test binary")
	}
	for _, goVersion := range []string{"1.22", "1.16"} {
		t.Run("go"+goVersion, func(t *testing.T) { testAnalyze(t, "testdata/handlers.txtar", goVersion) })
	}
	t.Run("thesis", func(t *testing.T) { testAnalyze(t, "testdata/thesis.txtar", "1.22") })
}

func testAnalyze(t *testing.T, archive, goVersion string) {
	ar, err := txtar.ParseFile(archive)
	if err != nil {
		t.Fatal(err)
	}
	for i, f := range ar.Files {
		if f.Name == "go.mod" {
			ar.Files[i].Data = []byte(strings.Replace(string(f.Data), "go 1.22", "go "+goVersion, 1))
		}
	}
	dir := t.TempDir()
	var want string
	before := map[string]string{}
	for _, f := range ar.Files {
		if f.Name == "want" {
			want = string(f.Data)
			continue
		}
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, f.Name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, f.Name), f.Data, 0o644); err != nil {
			t.Fatal(err)
		}
		before[f.Name] = string(f.Data)
	}
	rep, err := Analyze(context.Background(), Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	var got strings.Builder
	for _, p := range rep.Pairs {
		fmt.Fprintf(&got, "%s:%d %s %s %s: %s, purely resilient %s", filepath.Base(p.Catch.File), p.Catch.Line, p.CatchText, p.Kind, p.Action, p.Class, p.PurelyResilient)
		for i, o := range p.Tests {
			sep := ", "
			if i == 0 {
				sep = "; "
			}
			verdict := "failed"
			if o.Passed {
				verdict = "passed"
			}
			fmt.Fprintf(&got, "%s%s %s %s", sep, o.Test, o.Usage, verdict)
		}
		if st := p.Stretch; st != nil {
			fmt.Fprintf(&got, "; stretched to %s: passed %v, failed %v", st.Condition, st.Passed, st.Failed)
		}
		got.WriteString("\n")
	}
	fmt.Fprintf(&got, "runs %d, stretch runs %d\n", rep.Runs, rep.StretchRuns)
	// With generics the tries are skipped when an error is injected;
	// before, they run and their results are replaced.
	for _, p := range rep.Pairs {
		if after := goVersion == "1.16" && p.Kind != Recover; p.InjectedAfter != after {
			t.Errorf("%s:%d: injected after the try: %v, want %v", filepath.Base(p.Catch.File), p.Catch.Line, p.InjectedAfter, after)
		}
	}
	if got.String() != want {
		t.Errorf("got:\n%s\nwant:\n%s", got.String(), want)
	}
	// Invariants: the classes partition the executed pairs; the runs are
	// one plain run and one per pair and test.
	runs := 1
	for _, p := range rep.Pairs {
		runs += len(p.Tests)
	}
	if runs != rep.Runs {
		t.Errorf("%d runs, want 1 + %d", rep.Runs, runs-1)
	}
	for name, data := range before {
		if b, _ := os.ReadFile(filepath.Join(dir, name)); string(b) != data {
			t.Errorf("%s was written", name)
		}
	}
	n := 0
	filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			n++
		}
		return nil
	})
	if n != len(before) {
		t.Errorf("%d files in the module, want %d", n, len(before))
	}
}

// TestAnalyzePurify: a test that runs the catch, then needs its try to
// succeed, makes the pair source-dependent; split by -purify, its first
// fragment makes it source-independent.
func TestAnalyzePurify(t *testing.T) {
	if testing.Short() {
		t.Skip("builds test binaries")
	}
	ar, err := txtar.ParseFile("testdata/purify.txtar")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for _, f := range ar.Files {
		if err := os.WriteFile(filepath.Join(dir, f.Name), f.Data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		purify bool
		want   Class
		tests  int
	}{{false, SourceDependent, 1}, {true, SourceIndependent, 2}} {
		rep, err := Analyze(context.Background(), Options{Dir: dir, Purify: tc.purify})
		if err != nil {
			t.Fatal(err)
		}
		if len(rep.Pairs) != 1 || rep.Pairs[0].Class != tc.want || len(rep.Pairs[0].Tests) != tc.tests {
			t.Errorf("purify=%v: pairs %+v, want one %s run by %d tests", tc.purify, rep.Pairs, tc.want, tc.tests)
		}
		if tc.purify && rep.Purified != 1 {
			t.Errorf("%d files purified, want 1", rep.Purified)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "pur_test.go")); string(b) != string(ar.Files[2].Data) {
		t.Errorf("the test file was written")
	}
}
