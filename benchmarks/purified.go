package benchmarks

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/nopol-go/nopol/internal/gotest"
)

// PurifyFunc writes the purified tests of the package pattern pkg of the
// module in dir under out ('nopol purify -json -write out -C dir pkg') and
// returns what the command printed as JSON.
type PurifyFunc func(ctx context.Context, dir, pkg, out string) ([]byte, error)

// PurifyCommand is the PurifyFunc that runs the nopol binary through r.
func PurifyCommand(r *Runner, nopol string) PurifyFunc {
	return func(ctx context.Context, dir, pkg, out string) ([]byte, error) {
		o, err := r.Run(ctx, dir, nopol, "purify", "-q", "-json", "-write", out, "-C", dir, pkg)
		if err != nil {
			return nil, err
		}
		if o.ExitCode != 0 {
			return nil, fmt.Errorf("nopol purify exited %d: %s", o.ExitCode, tail(o.Stderr, 500))
		}
		return o.Stdout, nil
	}
}

// PurifiedOptions configures CheckPurified.
type PurifiedOptions struct {
	Purify PurifyFunc
	// Runner runs the go commands (materialisation and test runs).
	Runner *Runner
	// Jobs is the number of fixed trees purified in parallel.
	Jobs     int
	Progress io.Writer
	Done     func(*PurifiedResult)
}

// PurifiedResult says whether the purified tests of one bug's package,
// written by 'nopol purify -write' on the fixed tree, keep the fault
// revealing power of the original tests: they all pass on the fixed tree,
// and on the buggy tree exactly the bug's failing tests have a failing
// fragment. One line of purified.jsonl.
type PurifiedResult struct {
	Bug     string `json:"bug"`
	Module  string `json:"module"`
	Version string `json:"version"`
	Package string `json:"package"`

	// Files is the number of purified test files written (0: every test
	// of the package was pure or could not be split; nothing to check).
	Files int `json:"files"`
	// SplitTests tests became Fragments test functions.
	SplitTests int `json:"split_tests"`
	Fragments  int `json:"fragments"`
	// WriteWarnings are the mismatches 'nopol purify -write' reported
	// when it verified the files on the fixed tree.
	WriteWarnings []string `json:"write_warnings,omitempty"`

	// FixedFailed are the test functions failing on the fixed tree with
	// the purified files (want none).
	FixedFailed []string `json:"fixed_failed,omitempty"`
	// FailingTests are the bug's failing tests; Revealed the original
	// tests with a failing test function on the buggy tree with the
	// purified files (want the same); ExtraFailed the failing fragments of
	// tests that pass on the buggy tree (want none).
	FailingTests []string `json:"failing_tests"`
	Revealed     []string `json:"revealed"`
	ExtraFailed  []string `json:"extra_failed,omitempty"`
	// FailingFragments of the FragmentsOfFailing fragments split from the
	// failing tests fail on the buggy tree: purification narrows the
	// failure down to them.
	FragmentsOfFailing int `json:"fragments_of_failing"`
	FailingFragments   int `json:"failing_fragments"`

	// Same is set when the purified tests have the same fault revealing
	// power: FixedFailed and ExtraFailed are empty, Revealed equals
	// FailingTests.
	Same bool `json:"same"`
	// Error is a failure of the check itself.
	Error   string  `json:"error,omitempty"`
	Seconds float64 `json:"seconds"`
}

// purifyOutput is the part of 'nopol purify -json' CheckPurified reads.
type purifyOutput struct {
	Written []struct {
		Path      string `json:"path"`
		Package   string `json:"package"`
		Fragments []struct {
			Test, Name string
		} `json:"fragments"`
		Mismatches []string `json:"mismatches"`
	} `json:"written"`
}

// CheckPurified purifies the tests of each bug's package on its fixed tree
// and runs the purified tests on the fixed and the buggy tree. Bugs with
// the same fixed tree and package share one purification.
func CheckPurified(ctx context.Context, opts PurifiedOptions, bugs []*Bug) []*PurifiedResult {
	// The bugs sharing one fixed tree and package share one purification.
	index := map[string]int{}
	var groups [][]*Bug
	for _, b := range bugs {
		key := strings.Join([]string{b.Module, b.Version, b.Local, b.Package}, "\x00")
		i, ok := index[key]
		if !ok {
			i = len(groups)
			index[key] = i
			groups = append(groups, nil)
		}
		groups[i] = append(groups[i], b)
	}
	var (
		mu   sync.Mutex
		out  []*PurifiedResult
		done int
	)
	forEach(ctx, len(groups), opts.Jobs, func(i int) {
		for _, r := range checkGroup(ctx, opts, groups[i]) {
			mu.Lock()
			out = append(out, r)
			done++
			if opts.Progress != nil {
				fmt.Fprintf(opts.Progress, "[%d/%d] purified %s: %s in %.1fs\n", done, len(bugs), r.Bug, r.Status(), r.Seconds)
			}
			if opts.Done != nil {
				opts.Done(r)
			}
			mu.Unlock()
		}
	})
	sort.Slice(out, func(i, j int) bool { return out[i].Bug < out[j].Bug })
	return out
}

// Status says the result in a few words.
func (r *PurifiedResult) Status() string {
	switch {
	case r.Error != "":
		return "error: " + r.Error
	case r.Files == 0:
		return "nothing written"
	case r.Same:
		return fmt.Sprintf("same fault revealing power (%d of %d fragments of the failing tests fail)", r.FailingFragments, r.FragmentsOfFailing)
	}
	var why []string
	if len(r.FixedFailed) > 0 {
		why = append(why, fmt.Sprintf("fail on the fixed tree: %v", r.FixedFailed))
	}
	if !slices.Equal(r.Revealed, r.FailingTests) {
		why = append(why, fmt.Sprintf("reveal %v, want %v", r.Revealed, r.FailingTests))
	}
	if len(r.ExtraFailed) > 0 {
		why = append(why, fmt.Sprintf("fragments of passing tests fail on the buggy tree: %v", r.ExtraFailed))
	}
	return "DIFFERENT: " + strings.Join(why, "; ")
}

// checkGroup purifies the fixed tree of bugs (one module version and
// package) once and checks each bug against it.
func checkGroup(ctx context.Context, opts PurifiedOptions, bugs []*Bug) []*PurifiedResult {
	start := time.Now()
	results := make([]*PurifiedResult, len(bugs))
	for i, b := range bugs {
		results[i] = &PurifiedResult{Bug: b.ID, Module: b.Module, Version: b.Version, Package: b.Package,
			FailingTests: slices.Sorted(slices.Values(b.FailingTests))}
	}
	fail := func(err error) []*PurifiedResult {
		for _, r := range results {
			r.Error = err.Error()
			r.Seconds = time.Since(start).Seconds()
		}
		return results
	}
	tmp, err := gotest.TempDir("nopol-bench-")
	if err != nil {
		return fail(err)
	}
	defer os.RemoveAll(tmp)
	fixed, written := filepath.Join(tmp, "fixed"), filepath.Join(tmp, "purified")
	if err := os.Mkdir(fixed, 0o755); err != nil {
		return fail(err)
	}
	b0 := bugs[0]
	if err := Materialise(ctx, opts.Runner, b0, fixed, false); err != nil {
		return fail(err)
	}
	data, err := opts.Purify(ctx, fixed, b0.pattern(), written)
	if err != nil {
		return fail(fmt.Errorf("purifying the fixed tree: %v", err))
	}
	var po purifyOutput
	if err := json.Unmarshal(data, &po); err != nil {
		return fail(fmt.Errorf("reading nopol purify's JSON: %v", err))
	}
	// The original test of every fragment of the bug's package.
	origin := map[string]string{}
	split := map[string]int{}
	var warnings []string
	files := 0
	for _, w := range po.Written {
		if filepath.Dir(w.Path) != filepath.Join(written, filepath.FromSlash(b0.Package)) {
			continue // another package (a pattern never matches more here)
		}
		files++
		for _, f := range w.Fragments {
			origin[f.Name] = f.Test
			split[f.Test]++
		}
		for _, m := range w.Mismatches {
			warnings = append(warnings, filepath.Base(w.Path)+": "+m)
		}
	}
	for _, r := range results {
		r.Files, r.SplitTests, r.Fragments, r.WriteWarnings = files, len(split), len(origin), warnings
	}
	if files == 0 {
		for _, r := range results {
			r.Seconds = time.Since(start).Seconds()
		}
		return results
	}
	if err := CopyTree(written, fixed); err != nil {
		return fail(err)
	}
	fixedRun, err := GoTest(ctx, opts.Runner, fixed, b0.Package, "", testTimeout)
	if err != nil {
		return fail(fmt.Errorf("testing the fixed tree: %v", err))
	}
	for _, r := range results {
		r.FixedFailed = fixedRun.Failed
		if fixedRun.BuildFailed {
			r.FixedFailed = append(r.FixedFailed, "(build failed: "+tail([]byte(fixedRun.Output), 200)+")")
		}
	}
	for i, b := range bugs {
		r := results[i]
		bugStart := time.Now()
		if err := checkBuggy(ctx, opts.Runner, b, written, origin, split, r); err != nil {
			r.Error = err.Error()
		}
		r.Seconds = time.Since(bugStart).Seconds()
		if i == 0 {
			r.Seconds = time.Since(start).Seconds() // the shared purification counts once
		}
	}
	return results
}

// checkBuggy runs the purified tests (under written) on b's buggy tree and
// fills in r.
func checkBuggy(ctx context.Context, runner *Runner, b *Bug, written string, origin map[string]string, split map[string]int, r *PurifiedResult) error {
	dir, remove, err := tempTree(ctx, runner, b, true)
	if err != nil {
		return err
	}
	defer remove()
	if err := CopyTree(written, dir); err != nil {
		return err
	}
	run, err := GoTest(ctx, runner, dir, b.Package, "", testTimeout)
	if err != nil {
		return fmt.Errorf("testing the buggy tree: %v", err)
	}
	if run.BuildFailed {
		return fmt.Errorf("the buggy tree with the purified tests does not build: %s", tail([]byte(run.Output), 300))
	}
	judgePurified(b, origin, split, run.Failed, r)
	return nil
}

// judgePurified fills in r from the test functions failing on the buggy
// tree with the purified tests (failed) and the original test of each
// fragment (origin; a name not in it is an unsplit test).
func judgePurified(b *Bug, origin map[string]string, split map[string]int, failed []string, r *PurifiedResult) {
	r.FailingTests = slices.Sorted(slices.Values(b.FailingTests))
	r.FragmentsOfFailing = 0
	wanted := map[string]bool{}
	for _, t := range b.FailingTests {
		wanted[t] = true
		if n, ok := split[t]; ok {
			r.FragmentsOfFailing += n
		} else {
			r.FragmentsOfFailing++
		}
	}
	revealed := map[string]bool{}
	r.Revealed, r.ExtraFailed, r.FailingFragments = nil, nil, 0
	for _, name := range failed {
		test, ok := origin[name]
		if !ok {
			test = name
		}
		if !wanted[test] {
			r.ExtraFailed = append(r.ExtraFailed, name)
			continue
		}
		r.FailingFragments++
		if !revealed[test] {
			revealed[test] = true
			r.Revealed = append(r.Revealed, test)
		}
	}
	sort.Strings(r.Revealed)
	r.Same = len(r.FixedFailed) == 0 && len(r.ExtraFailed) == 0 && slices.Equal(r.Revealed, r.FailingTests)
}

// ReadPurified reads purified.jsonl of dir; a later line for the same bug
// replaces an earlier one. The results are sorted by bug.
func ReadPurified(dir string) ([]*PurifiedResult, error) {
	out, err := readLastLines([]string{filepath.Join(dir, PurifiedFile)}, func(r *PurifiedResult) string { return r.Bug })
	if err != nil {
		return nil, err
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Bug < out[j].Bug })
	return out, nil
}

// PurifiedFile is the JSON lines file of CheckPurified's results.
const PurifiedFile = "purified.jsonl"

// WritePurifiedMarkdown writes the totals and one row per bug.
func WritePurifiedMarkdown(w io.Writer, results []*PurifiedResult) {
	var written, same, errs, warned, narrowed int
	for _, r := range results {
		switch {
		case r.Error != "":
			errs++
			continue
		case r.Files == 0:
			continue
		}
		written++
		if r.Same {
			same++
		}
		if len(r.WriteWarnings) > 0 {
			warned++
		}
		if r.Same && r.FailingFragments < r.FragmentsOfFailing {
			narrowed++
		}
	}
	fmt.Fprintf(w, "# Purified tests on the benchmark bugs\n\n")
	fmt.Fprintf(w, "`nopol bench purified`: the tests of each bug's package are purified on the fixed tree (`nopol purify -write`), then run on the fixed and the buggy tree.\n\n")
	fmt.Fprintf(w, "%d bugs; purified tests written for %d; same fault revealing power for %d of them; %d with write warnings; %d errors. ", len(results), written, same, warned, errs)
	fmt.Fprintf(w, "On %d bugs the failure is narrowed: only some fragments of the failing tests fail.\n\n", narrowed)
	fmt.Fprintf(w, "| bug | files | tests split → fragments | fragments of failing tests: failing / all | result |\n|---|---|---|---|---|\n")
	for _, r := range results {
		frag := "–"
		if r.Files > 0 && r.Error == "" {
			frag = fmt.Sprintf("%d / %d", r.FailingFragments, r.FragmentsOfFailing)
		}
		fmt.Fprintf(w, "| %s | %d | %d → %d | %s | %s |\n", r.Bug, r.Files, r.SplitTests, r.Fragments, frag, mdEscape(r.Status()))
	}
}
