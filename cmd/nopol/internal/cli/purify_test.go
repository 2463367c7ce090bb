package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"github.com/nopol-go/nopol/internal/txtartest"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/nopol-go/nopol/internal/gotest"
	"github.com/rogpeppe/go-internal/txtar"
)

var updatePurify = flag.Bool("update-purify", false, "rewrite the golden sections of testdata/purify")

func TestPurifyUsage(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"purify", "-timeout", "0s"}, ExitBadInput, "want a positive duration"},
		{[]string{"purify", "-C", "nowhere"}, ExitBadInput, "-C nowhere: not a directory"},
		{[]string{"purify", "-bogus"}, ExitBadInput, "flag provided but not defined"},
		{[]string{"purify", "-h"}, ExitOK, "Usage: nopol purify"}, // help asked for
	}
	for _, tc := range tests {
		var stdout, stderr bytes.Buffer
		code := Main(context.Background(), &Env{Stdout: &stdout, Stderr: &stderr, Dir: dir}, tc.args)
		if code != tc.code {
			t.Errorf("%q: exit %d, want %d\n%s", tc.args, code, tc.code, stderr.String())
		}
		if !strings.Contains(stderr.String(), tc.msg) {
			t.Errorf("%q: stderr lacks %q:\n%s", tc.args, tc.msg, stderr.String())
		}
		if stdout.Len() != 0 {
			t.Errorf("%q: stdout %q", tc.args, stdout.String())
		}
	}
}

// TestPurify runs nopol purify -write on the modules of testdata/purify and
// compares the report and the purified files with the golden sections
// "stdout" and "written/<file>". It then runs the purified tests in a copy
// of the module: a fragment of a passing test passes, and some fragment of
// a failing test fails. The module itself must be left unchanged.
func TestPurify(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs test binaries")
	}
	txtartest.EachArchive(t, "purify", func(t *testing.T, file string, ar *txtar.Archive) {
		mod, out := t.TempDir(), t.TempDir()
		orig := map[string][]byte{}
		for _, f := range ar.Files {
			if isModuleFile(f.Name) {
				writeFile(t, filepath.Join(mod, f.Name), f.Data)
				orig[f.Name] = f.Data
			}
		}
		var stdout, stderr bytes.Buffer
		code := Main(context.Background(), &Env{Stdout: &stdout, Stderr: &stderr, Dir: mod}, []string{"purify", "-q", "-write", out})
		if code != ExitOK {
			t.Fatalf("exit %d\n%s", code, stderr.String())
		}
		if strings.Contains(stderr.String(), "warning") {
			t.Errorf("warnings:\n%s", stderr.String())
		}
		got := map[string][]byte{"stdout": stdout.Bytes()}
		err := filepath.WalkDir(out, func(path string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			data, err := os.ReadFile(path)
			rel, _ := filepath.Rel(out, path)
			got["written/"+filepath.ToSlash(rel)] = data
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		for name, data := range orig {
			now, err := os.ReadFile(filepath.Join(mod, name))
			if err != nil || !bytes.Equal(now, data) {
				t.Errorf("the module's %s was changed", name)
			}
		}

		// The purified module passes and fails as the original.
		purified := t.TempDir()
		for name, data := range orig {
			writeFile(t, filepath.Join(purified, name), data)
		}
		for name, data := range got {
			if rel, ok := strings.CutPrefix(name, "written/"); ok {
				writeFile(t, filepath.Join(purified, rel), data)
			}
		}
		before, after := testActions(t, mod), testActions(t, purified)
		var lines []string
		for name, act := range after {
			lines = append(lines, name+" "+act)
		}
		sort.Strings(lines)
		got["outcomes"] = []byte(strings.Join(lines, "\n") + "\n")
		for test, act := range before {
			var frags []string
			for name := range after {
				if strings.HasPrefix(name, test+"_") || name == test {
					frags = append(frags, name)
				}
			}
			failed := false
			for _, fr := range frags {
				failed = failed || after[fr] == "fail"
				if act == "pass" && after[fr] != "pass" {
					t.Errorf("%s passes, its fragment %s: %s", test, fr, after[fr])
				}
			}
			if act == "fail" && !failed {
				t.Errorf("%s fails, none of its fragments %v does", test, frags)
			}
		}
		goldenPurify(t, file, ar, got)

		// Writing over the module's own files is refused.
		stderr.Reset()
		code = Main(context.Background(), &Env{Stdout: &stdout, Stderr: &stderr, Dir: mod}, []string{"purify", "-q", "-write", "."})
		if code != ExitInternal || !strings.Contains(stderr.String(), "would overwrite") {
			t.Errorf("-write into the module: exit %d, want %d\n%s", code, ExitInternal, stderr.String())
		}
		for name, data := range orig {
			if now, _ := os.ReadFile(filepath.Join(mod, name)); !bytes.Equal(now, data) {
				t.Errorf("-write . changed %s", name)
			}
		}
	})
}

func TestPurifyJSON(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs test binaries")
	}
	ar, err := txtar.ParseFile("testdata/purify/abs.txtar")
	if err != nil {
		t.Fatal(err)
	}
	mod := t.TempDir()
	for _, f := range ar.Files {
		if isModuleFile(f.Name) {
			writeFile(t, filepath.Join(mod, f.Name), f.Data)
		}
	}
	var stdout, stderr bytes.Buffer
	if code := Main(context.Background(), &Env{Stdout: &stdout, Stderr: &stderr, Dir: mod}, []string{"purify", "-json", "-write", t.TempDir()}); code != ExitOK {
		t.Fatalf("exit %d\n%s", code, stderr.String())
	}
	var r struct {
		Total struct {
			Tests int `json:"tests"`
		} `json:"total"`
		Tests []struct {
			Test  string `json:"test"`
			Class string `json:"class"`
		} `json:"tests"`
		Written []struct {
			Prefix    []string `json:"prefix"`
			Fragments []struct {
				Name string
			} `json:"fragments"`
		} `json:"written"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &r); err != nil {
		t.Fatalf("%v\n%s", err, stdout.String())
	}
	classes := fmt.Sprint(r.Tests)
	want := "[{TestMixed absolutely-impure} {TestPure pure} {TestRegistry impure} {TestSign impure} {TestTable impure}]"
	if r.Total.Tests != 5 || classes != want {
		t.Errorf("tests %d, classes %s, want 5, %s", r.Total.Tests, classes, want)
	}
	if len(r.Written) != 1 || fmt.Sprint(r.Written[0].Prefix) != "[TestRegistry]" || len(r.Written[0].Fragments) != 8 {
		t.Errorf("written %+v, want one file, TestRegistry split in prefix mode, 8 fragments", r.Written)
	}
	if !strings.Contains(stderr.String(), "[5/5]") {
		t.Errorf("no progress on stderr:\n%s", stderr.String())
	}
}

func isModuleFile(name string) bool {
	return !strings.Contains(name, "/") && (strings.HasSuffix(name, ".go") || name == "go.mod")
}

func writeFile(t *testing.T, path string, data []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// testActions runs go test -json in the module at dir and returns each
// top-level test's action.
func testActions(t *testing.T, dir string) map[string]string {
	t.Helper()
	out, _ := gotest.Default.Run(context.Background(), &gotest.Invocation{
		Path: "go", Args: []string{"test", "-json", "-count=1", "-vet=off", "./..."},
		Dir: dir, Env: []string{"GOFLAGS=", "GOWORK=off", "GOPROXY=off"},
	})
	events, err := gotest.ParseEvents(out.Stdout)
	if err != nil {
		t.Fatal(err)
	}
	acts := map[string]string{}
	for _, p := range gotest.Summarize(events) {
		if p.BuildFailed {
			t.Fatalf("%s does not build:\n%s", p.Package, p.Output)
		}
		for _, ts := range p.Tests {
			acts[ts.Test] = ts.Action
		}
	}
	return acts
}

// goldenPurify compares got with the sections of ar of the same names, or
// with -update-purify writes them into the archive at file.
func goldenPurify(t *testing.T, file string, ar *txtar.Archive, got map[string][]byte) {
	t.Helper()
	var names []string
	for name := range got {
		names = append(names, name)
	}
	sort.Strings(names)
	if *updatePurify {
		var keep []txtar.File
		for _, f := range ar.Files {
			if _, ok := got[f.Name]; !ok && !strings.HasPrefix(f.Name, "written/") {
				keep = append(keep, f)
			}
		}
		for _, name := range names {
			keep = append(keep, txtar.File{Name: name, Data: got[name]})
		}
		ar.Files = keep
		if err := os.WriteFile(file, txtar.Format(ar), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want := map[string][]byte{}
	for _, f := range ar.Files {
		if _, ok := got[f.Name]; ok || strings.HasPrefix(f.Name, "written/") {
			want[f.Name] = f.Data
		}
	}
	for _, name := range names {
		if !bytes.Equal(got[name], want[name]) {
			t.Errorf("%s differs (run with -update-purify to accept)\n--- got\n%s\n--- want\n%s", name, got[name], want[name])
		}
		delete(want, name)
	}
	for name := range want {
		t.Errorf("%s was not written", name)
	}
}
