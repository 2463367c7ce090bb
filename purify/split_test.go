package purify

import (
	"bytes"
	"fmt"
	"github.com/nopol-go/nopol/internal/txtartest"
	"go/token"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/dave/dst/decorator"
	"github.com/nopol-go/nopol/internal/gotest"
	"github.com/rogpeppe/go-internal/txtar"
)

// TestSplit splits every test of the test files of each testdata/split
// module (in Minimal mode, or Prefix for the tests listed in the section
// "prefix") and compares the purified files with the golden sections
// "purified/<file>"; unless -short, it then runs the original and the
// purified module and checks that every fragment of a passing test passes
// and that some fragment of a failing test fails (golden "outcomes").
func TestSplit(t *testing.T) {
	txtartest.EachArchive(t, "split", func(t *testing.T, file string, ar *txtar.Archive) {
		// Tests listed in the section "prefix" are split in Prefix mode.
		prefix := map[string]bool{}
		for _, f := range ar.Files {
			if f.Name == "prefix" {
				for _, l := range lines(f.Data) {
					prefix[l] = true
				}
			}
		}
		got := map[string][]byte{}
		var frags []Fragment
		var notes bytes.Buffer
		orig := t.TempDir()
		for _, f := range ar.Files {
			if strings.Contains(f.Name, "/") || !strings.HasSuffix(f.Name, ".go") && f.Name != "go.mod" {
				continue
			}
			write(t, filepath.Join(orig, f.Name), f.Data)
			if !strings.HasSuffix(f.Name, "_test.go") {
				continue
			}
			dec := decorator.NewDecorator(token.NewFileSet())
			df, err := dec.ParseFile(f.Name, f.Data, 0)
			if err != nil {
				t.Fatal(err)
			}
			fs, unsplit := Split(df, func(test string) Mode {
				if prefix[test] {
					return Prefix
				}
				return Minimal
			})
			frags = append(frags, fs...)
			for _, u := range unsplit {
				fmt.Fprintf(&notes, "%s not split: %s\n", u.Test, u.Reason)
			}
			var b bytes.Buffer
			if err := decorator.NewRestorer().Fprint(&b, df); err != nil {
				t.Fatal(err)
			}
			got["purified/"+f.Name] = b.Bytes()
		}
		if testing.Short() {
			txtartest.Golden(t, file, ar, got, *update)
			return
		}
		purified := t.TempDir()
		for _, f := range ar.Files {
			if !strings.Contains(f.Name, "/") && (strings.HasSuffix(f.Name, ".go") || f.Name == "go.mod") {
				write(t, filepath.Join(purified, f.Name), f.Data)
			}
		}
		for name, data := range got {
			write(t, filepath.Join(purified, strings.TrimPrefix(name, "purified/")), data)
		}
		before, after := outcomes(t, orig), outcomes(t, purified)
		byTest := map[string][]Fragment{}
		for _, fr := range frags {
			byTest[fr.Test] = append(byTest[fr.Test], fr)
		}
		var tests []string
		for name := range before {
			tests = append(tests, name)
		}
		sort.Strings(tests)
		for _, name := range tests {
			fmt.Fprintf(&notes, "%s %s\n", name, before[name])
			failed := false
			for _, fr := range byTest[name] {
				fmt.Fprintf(&notes, "\t%s %s\n", fr.Name, after[fr.Name])
				failed = failed || after[fr.Name] == "fail"
				if before[name] == "pass" && after[fr.Name] != "pass" {
					t.Errorf("%s passes but its fragment %s: %s", name, fr.Name, after[fr.Name])
				}
			}
			if len(byTest[name]) == 0 && after[name] != before[name] {
				t.Errorf("unsplit %s: %s, was %s", name, after[name], before[name])
			}
			if before[name] == "fail" && len(byTest[name]) > 0 && !failed {
				t.Errorf("%s fails but none of its fragments does", name)
			}
		}
		got["outcomes"] = notes.Bytes()
		txtartest.Golden(t, file, ar, got, *update)
	})
}

func write(t *testing.T, path string, data []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// outcomes runs the tests of the module at dir and returns the action
// ("pass", "fail", "skip") of every top-level test; a build failure fails
// the test.
func outcomes(t *testing.T, dir string) map[string]string {
	t.Helper()
	events, err := gotest.ParseEvents([]byte(txtartest.GoTest(t, dir, "-json", "-count=1", "-vet=off", "./...")))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, p := range gotest.Summarize(events) {
		if p.BuildFailed {
			t.Fatalf("build of %s failed:\n%s", p.Package, p.Output)
		}
		for _, ts := range p.Tests {
			out[ts.Test] = ts.Action
		}
	}
	return out
}
