// Package txtartest holds the helpers of the tests that read txtar
// archives of testdata with golden sections (one archive per subtest, a
// section by name, golden sections compared or rewritten) and run go test
// on the small modules they hold.
package txtartest

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nopol-go/nopol/internal/gotest"
	"github.com/rogpeppe/go-internal/txtar"
)

// EachArchive runs fn as a subtest for each txtar archive of testdata/dir.
func EachArchive(t *testing.T, dir string, fn func(t *testing.T, file string, ar *txtar.Archive)) {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("testdata", dir, "*.txtar"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no testdata in testdata/%s: %v", dir, err)
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txtar"), func(t *testing.T) {
			ar, err := txtar.ParseFile(file)
			if err != nil {
				t.Fatal(err)
			}
			fn(t, file, ar)
		})
	}
}

// Section returns the named file of ar.
func Section(t *testing.T, ar *txtar.Archive, name string) []byte {
	t.Helper()
	for _, f := range ar.Files {
		if f.Name == name {
			return f.Data
		}
	}
	t.Fatalf("archive has no section %q", name)
	return nil
}

// Extract writes every file of the archive at file into dir.
func Extract(tb testing.TB, file, dir string) {
	tb.Helper()
	ar, err := txtar.ParseFile(file)
	if err != nil {
		tb.Fatal(err)
	}
	for _, f := range ar.Files {
		p := filepath.Join(dir, f.Name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			tb.Fatal(err)
		}
		if err := os.WriteFile(p, f.Data, 0o644); err != nil {
			tb.Fatal(err)
		}
	}
}

// Golden compares got with the sections of ar of the same names, or, with
// update (the test's -update flag), writes them into the archive at file.
func Golden(t *testing.T, file string, ar *txtar.Archive, got map[string][]byte, update bool) {
	t.Helper()
	if update {
		for name, data := range got {
			found := false
			for i := range ar.Files {
				if ar.Files[i].Name == name {
					ar.Files[i].Data, found = data, true
				}
			}
			if !found {
				ar.Files = append(ar.Files, txtar.File{Name: name, Data: data})
			}
		}
		if err := os.WriteFile(file, txtar.Format(ar), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	for name, data := range got {
		want := Section(t, ar, name)
		if !bytes.Equal(want, data) {
			t.Errorf("%s differs (run with -update to accept)\n--- got\n%s\n--- want\n%s", name, data, want)
		}
	}
}

// GoTest runs go test with args in the module at dir, offline, and
// returns its output; the tests may fail.
func GoTest(t *testing.T, dir string, args ...string) string {
	t.Helper()
	inv := &gotest.Invocation{
		Path:    "go",
		Args:    append([]string{"test"}, args...),
		Dir:     dir,
		Env:     []string{"GOFLAGS=", "GOWORK=off", "GOPROXY=off"},
		Timeout: 2 * time.Minute,
	}
	out, err := gotest.Default.Run(context.Background(), inv)
	if err != nil && out.ExitCode != 1 {
		t.Fatalf("%v\n%s", err, out.Stdout)
	}
	return string(out.Stdout) + string(out.Stderr)
}
