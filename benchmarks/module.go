package benchmarks

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/nopol-go/nopol/internal/gotest"
	"github.com/rogpeppe/go-internal/txtar"
)

// goEnv is the environment of every go command on a materialised tree:
// dependencies come from the proxy through the module's own go.mod, and
// go.sum may be completed.
var goEnv = []string{"GOFLAGS=-mod=mod -buildvcs=false", "GOTOOLCHAIN=local", "GOWORK=off"}

// Versions lists the release versions of module (no pre-releases), oldest
// first, as 'go list -m -versions' gives them.
func Versions(ctx context.Context, r *Runner, module string) ([]string, error) {
	out, err := r.Run(ctx, os.TempDir(), "go", "list", "-m", "-versions", module)
	if err != nil || out.ExitCode != 0 {
		return nil, fmt.Errorf("listing versions of %s: %v %s", module, err, tail(out.Stderr, 500))
	}
	f := strings.Fields(string(out.Stdout))
	var vs []string
	for _, v := range f[1:] {
		if !strings.Contains(v, "-") && !strings.Contains(v, "+incompatible") {
			vs = append(vs, v)
		}
	}
	return vs, nil
}

// Download fetches module@version into the module cache and returns its
// directory there (read-only).
func Download(ctx context.Context, r *Runner, module, version string) (string, error) {
	out, err := r.Run(ctx, os.TempDir(), "go", "mod", "download", "-json", module+"@"+version)
	if err != nil {
		return "", fmt.Errorf("downloading %s@%s: %v", module, version, err)
	}
	var info struct{ Dir, Error string }
	if err := json.Unmarshal(out.Stdout, &info); err != nil || info.Dir == "" {
		return "", fmt.Errorf("downloading %s@%s: %s %s", module, version, info.Error, tail(out.Stderr, 500))
	}
	return info.Dir, nil
}

// ModuleTree writes module@version from the proxy into a new temp dir
// (named with prefix), with a go.mod synthesized for a module from before
// modules, and downloads its dependencies. The caller removes dir, also
// when err is not nil.
func ModuleTree(ctx context.Context, r *Runner, module, version, prefix string) (dir string, err error) {
	src, err := Download(ctx, r, module, version)
	if err != nil {
		return "", err
	}
	dir, err = gotest.TempDir(prefix)
	if err != nil {
		return "", err
	}
	if err := CopyTree(src, dir); err != nil {
		return dir, fmt.Errorf("copying: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "go.mod")); err != nil {
		// A module from before modules: give it a go.mod, as `go get`
		// does when it synthesizes one.
		for _, args := range [][]string{{"mod", "init", module}, {"mod", "tidy"}} {
			if out, err := r.Run(ctx, dir, append([]string{"go"}, args...)...); err != nil || out.ExitCode != 0 {
				return dir, fmt.Errorf("go %s: %v %s", strings.Join(args, " "), err, tail(out.Stderr, 300))
			}
		}
	}
	if out, err := r.Run(ctx, dir, "go", "mod", "download"); err != nil || out.ExitCode != 0 {
		return dir, fmt.Errorf("go mod download: %v %s", err, tail(out.Stderr, 300))
	}
	return dir, nil
}

// CopyTree copies the regular files of src into dst, writable.
func CopyTree(src, dst string) error {
	return filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		if !d.Type().IsRegular() {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(target, data, 0o644)
	})
}

// tempModuleDir makes an empty dir for a module tree, "m" in a temp dir
// marked for removal by the next nopol process should this one be killed
// (gotest.TempDir): the mark stays outside the module.
func tempModuleDir() (dir string, remove func(), err error) {
	root, err := gotest.TempDir("nopol-bench-")
	if err != nil {
		return "", nil, err
	}
	remove = func() { os.RemoveAll(root) }
	dir = filepath.Join(root, "m")
	if err := os.Mkdir(dir, 0o755); err != nil {
		remove()
		return "", nil, err
	}
	return dir, remove, nil
}

// tempTree materialises b (buggy or fixed) in a new temp dir and returns
// it with its removal.
func tempTree(ctx context.Context, r *Runner, b *Bug, buggy bool) (dir string, remove func(), err error) {
	dir, remove, err = tempModuleDir()
	if err != nil {
		return "", nil, err
	}
	if err := Materialise(ctx, r, b, dir, buggy); err != nil {
		remove()
		return "", nil, err
	}
	return dir, remove, nil
}

// Materialise writes the fixed tree of b into dir (which must exist) and,
// when buggy is set, applies b.Patch; then it downloads the dependencies.
func Materialise(ctx context.Context, r *Runner, b *Bug, dir string, buggy bool) error {
	src := b.Local
	if src == "" {
		var err error
		src, err = Download(ctx, r, b.Module, b.Version)
		if err != nil {
			return err
		}
	}
	copyTree := CopyTree
	if strings.HasSuffix(src, ".txtar") {
		copyTree = extractTxtar
	}
	if err := copyTree(src, dir); err != nil {
		return fmt.Errorf("materialising %s: %v", b.ID, err)
	}
	if _, err := os.Stat(filepath.Join(dir, "go.mod")); err != nil {
		return fmt.Errorf("materialising %s: the module has no go.mod", b.ID)
	}
	if buggy {
		if err := ApplyPatchDir(dir, b.Patch); err != nil {
			return fmt.Errorf("materialising %s: %v", b.ID, err)
		}
	}
	if b.Local == "" {
		out, err := r.Run(ctx, dir, "go", "mod", "download")
		if err != nil || out.ExitCode != 0 {
			return fmt.Errorf("materialising %s: go mod download: %v %s", b.ID, err, tail(out.Stderr, 500))
		}
	}
	return nil
}

// TestRun is the outcome of 'go test -json' on one package.
type TestRun struct {
	// BuildFailed is set when the package or its tests do not compile.
	BuildFailed bool
	// Passed and Failed list top-level tests, sorted.
	Passed, Failed []string
	// TimedOut is set when the run was killed at its timeout, or the test
	// binary hit its own -timeout.
	TimedOut bool
	// Output is the tail of the output, for diagnostics; Stdout all of
	// it (the JSON events).
	Output   string
	Stdout   []byte
	Duration time.Duration
}

// OK reports whether the package built and no test failed.
func (t *TestRun) OK() bool {
	return !t.BuildFailed && !t.TimedOut && len(t.Failed) == 0 && len(t.Passed) > 0
}

// GoTest runs the tests of pkg (a directory relative to the module root
// dir) matching run (all when empty), with extra go test flags.
func GoTest(ctx context.Context, r *Runner, dir, pkg, run string, extra ...string) (*TestRun, error) {
	args := []string{"go", "test", "-json", "-count=1", "-vet=off"}
	if run != "" {
		args = append(args, "-run", run)
	}
	args = append(args, extra...)
	args = append(args, "./"+filepath.ToSlash(pkg))
	out, err := r.Run(ctx, dir, args...)
	tr := parseTestJSON(out.Stdout)
	tr.Duration = out.Duration
	tr.Stdout = out.Stdout
	tr.Output = tail(append(out.Stdout, out.Stderr...), 2000)
	if bytes.Contains(out.Stdout, []byte("panic: test timed out")) {
		tr.TimedOut = true
	}
	if err != nil {
		if out.TimedOut {
			tr.TimedOut = true
			return tr, nil
		}
		return tr, err
	}
	if out.ExitCode != 0 && len(tr.Failed) == 0 {
		// Build errors, a panic outside a test, or TestMain failing.
		tr.BuildFailed = true
	}
	return tr, nil
}

// parseTestJSON reads the events of 'go test -json' (gotest's one
// parser): the top-level tests that passed or were skipped, and those that
// failed or never finished (crashed or killed), by name.
func parseTestJSON(data []byte) *TestRun {
	events, _ := gotest.ParseEvents(data) // a scanner error keeps what was read
	status := map[string]bool{}           // passed, by test name
	for _, p := range gotest.Summarize(events) {
		for _, t := range p.Tests {
			ok := t.Action == "pass" || t.Action == "skip"
			if prev, seen := status[t.Test]; !seen || prev {
				status[t.Test] = ok
			}
		}
	}
	tr := &TestRun{}
	for t, ok := range status {
		if ok {
			tr.Passed = append(tr.Passed, t)
		} else {
			tr.Failed = append(tr.Failed, t)
		}
	}
	sort.Strings(tr.Passed)
	sort.Strings(tr.Failed)
	return tr
}

// runPattern is a -run regexp matching exactly the given top-level tests.
func runPattern(tests []string) string {
	return "^(" + strings.Join(tests, "|") + ")$"
}

// extractTxtar writes the files of a txtar archive under dst.
func extractTxtar(archive, dst string) error {
	ar, err := txtar.ParseFile(archive)
	if err != nil {
		return err
	}
	for _, f := range ar.Files {
		p := filepath.Join(dst, filepath.FromSlash(f.Name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(p, f.Data, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// Summary says in a few words why a run is not OK.
func (t *TestRun) Summary() string {
	switch {
	case t == nil:
		return ""
	case t.BuildFailed:
		return "build failed: " + tail([]byte(t.Output), 300)
	case t.TimedOut:
		return "timed out"
	case len(t.Failed) > 0:
		return fmt.Sprintf("failing tests %v", t.Failed)
	case len(t.Passed) == 0:
		return "no tests"
	}
	return "ok"
}
