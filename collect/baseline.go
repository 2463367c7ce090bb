package collect

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/nopol-go/nopol/internal/gotest"
)

// defaultSuiteTimeout bounds a plain `go test` run when no timeout is given.
const defaultSuiteTimeout = 10 * time.Minute

// goTest runs `go test -json` on pkgs (import paths) in the module, with
// an overlay and a -run pattern when not "". timeout is passed to the test
// binaries; the go command itself gets more, for compiling.
func goTest(ctx context.Context, r *gotest.Runner, prog *Program, pkgs []string, overlay, run string, timeout time.Duration) ([]gotest.PackageSummary, error) {
	if timeout <= 0 {
		timeout = defaultSuiteTimeout
	}
	extra := []string{"-vet=off", "-timeout=" + timeout.String()}
	if overlay != "" {
		extra = append(extra, "-overlay="+overlay)
	}
	if run != "" {
		extra = append(extra, "-run="+run)
	}
	events, _, err := r.TestJSON(ctx, prog.Dir, 2*timeout+5*time.Minute, extra, pkgs...)
	if err != nil {
		return nil, err
	}
	return gotest.Summarize(events), nil
}

// namesPattern returns a -run pattern matching exactly the top-level names.
func namesPattern(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = regexp.QuoteMeta(n)
	}
	return "^(" + strings.Join(q, "|") + ")$"
}

// Baseline runs the plain (uninstrumented) suite of prog's packages once with
// `go test -json` and returns one result per top-level test, in package and
// source order. A build failure gives a *LoadError.
//
// A test that crashes its binary (a panic, os.Exit) keeps the tests after
// it from running; those are run again, without the tests already
// reported, until every test has a result.
func Baseline(ctx context.Context, prog *Program, timeout time.Duration) ([]TestResult, error) {
	r := gotest.Default
	got := map[string]map[string]gotest.TestSummary{}
	var extra = map[string][]string{} // reported tests not in prog.Tests
	pending := append([]string(nil), prog.Packages...)
	for _, p := range pending {
		got[p] = map[string]gotest.TestSummary{}
	}
	run := ""
	for round := 0; len(pending) > 0 && round < 20; round++ {
		sums, err := goTest(ctx, r, prog, pending, "", run, timeout)
		if err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			return nil, fmt.Errorf("running the tests: %w", err)
		}
		progress := false
		for _, s := range sums {
			if s.BuildFailed {
				return nil, &LoadError{Msg: fmt.Sprintf("building the tests of %s: the package does not compile; fix these errors first:\n%s", s.Package, strings.TrimSpace(s.Output))}
			}
			m := got[s.Package]
			if m == nil {
				continue
			}
			for _, t := range s.Tests {
				if t.Action == "" {
					continue
				}
				if _, ok := m[t.Test]; !ok {
					progress = true
					if !contains(prog.Tests[s.Package], t.Test) {
						extra[s.Package] = append(extra[s.Package], t.Test)
					}
				}
				m[t.Test] = t
			}
		}
		// What is left: tests that never ran.
		var next []string
		var left []string
		for _, p := range pending {
			var missing []string
			for _, name := range prog.Tests[p] {
				if _, ok := got[p][name]; !ok {
					missing = append(missing, name)
				}
			}
			if len(missing) > 0 {
				next = append(next, p)
				left = append(left, missing...)
			}
		}
		if !progress {
			break
		}
		pending, run = next, namesPattern(left)
	}
	var out []TestResult
	if prog.suiteTime == nil {
		prog.suiteTime = map[string]time.Duration{}
	}
	for _, p := range prog.Packages {
		var total time.Duration
		for _, t := range got[p] {
			total += t.Elapsed
		}
		prog.suiteTime[p] = total
		names := append(append([]string(nil), prog.Tests[p]...), extra[p]...)
		for _, name := range names {
			t, ok := got[p][name]
			if !ok {
				continue // never ran: an example without output, a skipped build
			}
			out = append(out, TestResult{
				Package: p,
				Test:    name,
				Passed:  t.Action == "pass",
				Skipped: t.Action == "skip",
				Elapsed: t.Elapsed,
				Output:  t.Output,
			})
		}
	}
	return out, nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// dependents returns the packages of prog with tests whose test binaries
// link path, path first when it has tests.
func (prog *Program) dependents(path string) []string {
	var out []string
	for _, p := range prog.Packages {
		if p == path || prog.pkgs[p].deps[path] {
			out = append(out, p)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i] == path && out[j] != path })
	return out
}

// packageOfFile returns the import path of the package holding file.
func (prog *Program) packageOfFile(file string) (string, bool) {
	dir := filepath.Dir(file)
	var paths []string
	for path, d := range prog.pkgs {
		if d.dir == dir {
			paths = append(paths, path)
		}
	}
	sort.Strings(paths)
	if len(paths) == 0 {
		return "", false
	}
	return paths[0], true
}

// VerifyPatch runs the whole suite of the package of file with file's
// content replaced by src (through an overlay, not on disk). The tests of
// the module's packages that link the patched package run too; their names
// in Failed are qualified by import path ("example.com/m/api.TestX"),
// those of the patched package are not.
func VerifyPatch(ctx context.Context, prog *Program, file string, src []byte, timeout time.Duration) (SuiteResult, error) {
	start := time.Now()
	abs, err := filepath.Abs(file)
	if err != nil {
		return SuiteResult{}, err
	}
	path, ok := prog.packageOfFile(abs)
	if !ok {
		return SuiteResult{}, fmt.Errorf("verifying a patch of %s: the file is in no loaded package", file)
	}
	dir, err := os.MkdirTemp("", "nopol-verify-")
	if err != nil {
		return SuiteResult{}, fmt.Errorf("verifying a patch of %s: %w", file, err)
	}
	defer os.RemoveAll(dir)
	ov := newOverlay(dir)
	if err := ov.add(abs, src); err != nil {
		return SuiteResult{}, fmt.Errorf("verifying a patch of %s: %w", file, err)
	}
	ovPath, err := ov.write()
	if err != nil {
		return SuiteResult{}, fmt.Errorf("verifying a patch of %s: %w", file, err)
	}
	pkgs := prog.dependents(path)
	if len(pkgs) == 0 {
		return SuiteResult{Passed: true, Duration: time.Since(start)}, nil
	}
	sums, err := goTest(ctx, gotest.Default, prog, pkgs, ovPath, "", timeout)
	res := SuiteResult{Duration: time.Since(start)}
	if gotest.IsTimeout(err) {
		res.TimedOut = true
		res.Output = err.Error()
		return res, nil
	}
	if err != nil {
		return res, fmt.Errorf("verifying a patch of %s: %w", file, err)
	}
	res.Passed = true
	for _, s := range sums {
		if s.BuildFailed {
			res.Passed, res.BuildFailed = false, true
			res.Output += s.Output
			continue
		}
		failed := false
		for _, t := range s.Tests {
			if t.Action == "fail" || t.Action == "" {
				name := t.Test
				if s.Package != path {
					name = s.Package + "." + t.Test
				}
				res.Failed = append(res.Failed, name)
				res.Output += t.Output
				failed = true
			}
			if strings.Contains(t.Output, "panic: test timed out") {
				res.TimedOut = true
			}
		}
		if s.Action != "pass" || failed {
			res.Passed = false
			if !failed {
				res.Output += s.Output
			}
		}
	}
	return res, nil
}
