package purify

import (
	"bytes"
	"flag"
	"fmt"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dave/dst/decorator"
	"github.com/rogpeppe/go-internal/txtar"
)

var update = flag.Bool("update", false, "rewrite the golden sections of testdata")

// TestMark marks the test file of each testdata/mark archive and compares
// the result and the constituents with the archive's golden sections
// "marked" and "constituents".
func TestMark(t *testing.T) {
	eachArchive(t, "mark", func(t *testing.T, file string, ar *txtar.Archive) {
		src := section(t, ar, "abs_test.go")
		qual := strings.TrimSpace(string(section(t, ar, "qualifier")))
		dec := decorator.NewDecorator(token.NewFileSet())
		f, err := dec.ParseFile("abs_test.go", src, 0)
		if err != nil {
			t.Fatal(err)
		}
		cons := Mark(dec, f, qual)
		var out bytes.Buffer
		if err := decorator.NewRestorer().Fprint(&out, f); err != nil {
			t.Fatal(err)
		}
		var cs bytes.Buffer
		for _, c := range cons {
			fmt.Fprintf(&cs, "%s seg=%d loop=%v %s:%d-%d\n", c.Test, c.Segment, c.Loop, c.File, c.StartLine, c.EndLine)
		}
		golden(t, file, ar, map[string][]byte{"marked": out.Bytes(), "constituents": cs.Bytes()})
	})
}

// eachArchive runs fn as a subtest for each txtar archive of testdata/dir.
func eachArchive(t *testing.T, dir string, fn func(t *testing.T, file string, ar *txtar.Archive)) {
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

// section returns the named file of ar.
func section(t *testing.T, ar *txtar.Archive, name string) []byte {
	t.Helper()
	for _, f := range ar.Files {
		if f.Name == name {
			return f.Data
		}
	}
	t.Fatalf("archive has no section %q", name)
	return nil
}

// golden compares got with the sections of ar of the same names, or with
// -update writes them into the archive at file.
func golden(t *testing.T, file string, ar *txtar.Archive, got map[string][]byte) {
	t.Helper()
	if *update {
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
		want := section(t, ar, name)
		if !bytes.Equal(want, data) {
			t.Errorf("%s differs (run with -update to accept)\n--- got\n%s\n--- want\n%s", name, data, want)
		}
	}
}
