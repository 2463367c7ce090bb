package benchmarks

import (
	"context"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
)

// tree is a writable copy of one module version in which candidate bugs
// are tried one at a time (used by mining and seeding).
type tree struct {
	Module, Version string
	Dir             string // the module root of the copy
	remove          func() // removes the copy
	runner          *Runner
	baselines       map[string]*TestRun // by package dir
	skipped         map[string]bool     // packages reported as not passing
}

// testTimeout is passed to go test so an endless loop fails its test
// rather than hanging.
const testTimeout = "-timeout=60s"

// openTree downloads module@version and copies it into a new temp dir
// (removed by close).
func openTree(ctx context.Context, r *Runner, module, version string) (*tree, error) {
	src, err := Download(ctx, r, module, version)
	if err != nil {
		return nil, err
	}
	dir, remove, err := tempModuleDir()
	if err != nil {
		return nil, err
	}
	t := &tree{Module: module, Version: version, Dir: dir, remove: remove, runner: r, baselines: map[string]*TestRun{}, skipped: map[string]bool{}}
	if err := CopyTree(src, dir); err != nil {
		t.close()
		return nil, err
	}
	if _, err := os.Stat(filepath.Join(dir, "go.mod")); err != nil {
		t.close()
		return nil, fmt.Errorf("%s@%s has no go.mod", module, version)
	}
	out, err := r.Run(ctx, dir, "go", "mod", "download")
	if err != nil || out.ExitCode != 0 {
		t.close()
		return nil, fmt.Errorf("%s@%s: go mod download: %v %s", module, version, err, tail(out.Stderr, 300))
	}
	return t, nil
}

func (t *tree) close() { t.remove() }

// baseline runs (once) the package's tests on the unmodified tree.
func (t *tree) baseline(ctx context.Context, pkg string) (*TestRun, error) {
	if tr, ok := t.baselines[pkg]; ok {
		return tr, nil
	}
	tr, err := GoTest(ctx, t.runner, t.Dir, pkg, "", testTimeout)
	if err != nil {
		return nil, err
	}
	t.baselines[pkg] = tr
	return tr, nil
}

// confirmRuns is how many runs of the package's tests a candidate bug's
// failing tests must fail in, every one: a test that fails by chance (a
// timing race) is no failing test of the bug (two of cron's seeded bugs
// were kept on TestChainSkipIfStillRunning, which then passed on their
// buggy trees).
const confirmRuns = 3

// try writes src as file, runs the package's tests, and restores the file.
// When tests fail, it runs the tests again, up to confirmRuns runs in all,
// and its Failed lists only the tests that failed in every run (none: the
// failures were chance). A run that does not build or times out is
// returned as it is.
func (t *tree) try(ctx context.Context, file string, src []byte) (*TestRun, error) {
	p := filepath.Join(t.Dir, filepath.FromSlash(file))
	orig, err := os.ReadFile(p)
	if err != nil {
		return nil, err
	}
	if err := os.WriteFile(p, src, 0o644); err != nil {
		return nil, err
	}
	defer os.WriteFile(p, orig, 0o644)
	first, err := GoTest(ctx, t.runner, t.Dir, path.Dir(file), "", testTimeout)
	if err != nil || first.BuildFailed || first.TimedOut {
		return first, err
	}
	for i := 1; i < confirmRuns && len(first.Failed) > 0; i++ {
		again, err := GoTest(ctx, t.runner, t.Dir, path.Dir(file), "", testTimeout)
		if err != nil || again.BuildFailed || again.TimedOut {
			return again, err
		}
		first.Failed = slices.DeleteFunc(first.Failed, func(name string) bool {
			return !slices.Contains(again.Failed, name)
		})
	}
	return first, nil
}
