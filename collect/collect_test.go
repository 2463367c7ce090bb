package collect

import (
	"context"
	"crypto/sha256"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/nopol-go/nopol/internal/gotest"
	"github.com/nopol-go/nopol/internal/txtartest"
)

// extract writes testdata/name.txtar into a temp dir and returns it. The
// dir is removed by TestMain: fixtures outlive single tests.
func extract(t testing.TB, name string) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "nopol-collect-test-")
	if err != nil {
		t.Fatal(err)
	}
	tempDirs = append(tempDirs, dir)
	txtartest.Extract(t, filepath.Join("testdata", name+".txtar"), dir)
	return dir
}

// treeHash hashes every file under dir, to check nothing was written.
func treeHash(t testing.TB, dir string) string {
	t.Helper()
	var lines []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		lines = append(lines, fmt.Sprintf("%s %x", p, sha256.Sum256(data)))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(lines)
	return strings.Join(lines, "\n")
}

// fixture is a loaded and instrumented test module, shared by the tests
// of one archive (building takes seconds).
type fixture struct {
	dir   string
	prog  *Program
	build *Build
	hash  string
}

var (
	fixtures = map[string]*fixture{}
	tempDirs []string
)

func load(t testing.TB, name string) *fixture {
	t.Helper()
	if f := fixtures[name]; f != nil {
		return f
	}
	dir := extract(t, name)
	hash := treeHash(t, dir)
	prog, err := Load(context.Background(), dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	f := &fixture{dir: dir, prog: prog, hash: hash}
	fixtures[name] = f
	return f
}

func instrument(t *testing.T, name string) *fixture {
	t.Helper()
	f := load(t, name)
	if f.build == nil {
		b, err := Instrument(context.Background(), f.prog)
		if err != nil {
			t.Fatal(err)
		}
		f.build = b
		t.Logf("instrumented %s in %v", name, b.BuildTime)
	}
	return f
}

// TestMain runs the tests with a private TMPDIR and fails if any temp dir
// of collect is left in it.
func TestMain(m *testing.M) {
	tmp, err := gotest.TempDir("nopol-collect-tmp-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	os.Setenv("TMPDIR", tmp)
	code := m.Run()
	for _, f := range fixtures {
		if f.build != nil {
			if err := f.build.Close(); err != nil {
				fmt.Fprintln(os.Stderr, err)
				code = 1
			}
		}
	}
	for _, d := range tempDirs {
		os.RemoveAll(d)
	}
	left, _ := filepath.Glob(filepath.Join(tmp, "nopol-*"))
	if len(left) > 0 {
		fmt.Fprintf(os.Stderr, "temp dirs left behind: %v\n", left)
		code = 1
	}
	os.RemoveAll(tmp)
	os.Exit(code)
}

// site returns the ID of the site of kind at file:line.
func (f *fixture) site(t *testing.T, kind SiteKind, file string, line int) int {
	t.Helper()
	for _, s := range f.prog.Sites {
		if s.Kind == kind && s.Line == line && strings.HasSuffix(s.File, file) {
			return s.ID
		}
	}
	t.Fatalf("no site of kind %d at %s:%d", kind, file, line)
	return -1
}

// exit is the index of the first exit of site id with the strategy.
func (f *fixture) exit(t *testing.T, id int, strategy string) int {
	t.Helper()
	for k, e := range f.prog.Sites[id].Exits {
		if e.Strategy == strategy {
			return k
		}
	}
	t.Fatalf("site %d has no %s exit: %+v", id, strategy, f.prog.Sites[id].Exits)
	return -1
}

func (f *fixture) checkUntouched(t *testing.T) {
	t.Helper()
	if h := treeHash(t, f.dir); h != f.hash {
		t.Errorf("the module's files changed:\n%s\nwant\n%s", h, f.hash)
	}
}

// TestSchemaBisect checks that candidates the compiler rejects are found
// by bisection when type-checking lets them through.
// TestSchemaTimeout checks that a candidate that makes a loop endless is
// killed and reported as timed out, with the running test failed.
// TestTricky checks that unusual syntax instruments into a binary that
// behaves like the original.
// TestRunConcurrent checks that concurrent runs of one build do not mix
// their records.
