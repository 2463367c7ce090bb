package purify

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"go/token"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/dave/dst/decorator"
	"github.com/nopol-go/nopol/collect"
	"github.com/nopol-go/nopol/internal/gotest"
)

// WrittenFile is a purified test file written by Purify (Options.Write).
type WrittenFile struct {
	// Source is the original file, Path the purified one; Package the
	// import path of the tests' package.
	Source  string `json:"source"`
	Path    string `json:"path"`
	Package string `json:"package"`
	// Fragments are the new test functions; Prefix the tests split in
	// Prefix mode (their Minimal fragments did not behave as the
	// test); Unsplit the impure tests left whole, with the reason.
	Fragments []Fragment `json:"fragments"`
	Prefix    []string   `json:"prefix,omitempty"`
	Unsplit   []Unsplit  `json:"unsplit,omitempty"`
	// Mismatches are the differences left between the outcomes of the
	// fragments, run in place of the original file, and of the original
	// tests: a failing fragment of a passing test, a failing test whose
	// fragments all pass, or the compiler's errors.
	Mismatches []string `json:"mismatches,omitempty"`

	data []byte   // the purified source
	bad  []string // the tests with mismatches
}

// purifyRounds bounds the split-and-verify rounds: Minimal, then Prefix
// for the tests whose fragments misbehaved, then Keep for those still
// misbehaving, then a last check.
const purifyRounds = 4

// purifyTests splits the impure tests of the report, runs the purified
// files in place of the originals, splits the tests whose fragments do not
// pass or fail as the test did again in a safer mode (Prefix, then
// not at all), and writes the final files under out, at their path
// relative to the module root. Differences left are warnings on stderr.
func purifyTests(ctx context.Context, build *collect.Build, report *Report, passed map[TestID]bool, out string, progress, stderr io.Writer) ([]WrittenFile, error) {
	modes := map[TestID]Mode{}
	for _, tp := range report.Tests {
		if tp.Class != Pure {
			modes[tp.TestID] = Minimal
		}
	}
	tmp, err := os.MkdirTemp("", "nopol-purify-")
	if err != nil {
		return nil, fmt.Errorf("writing purified tests: %w", err)
	}
	defer os.RemoveAll(tmp)
	var written []WrittenFile
	for round := 1; round <= purifyRounds; round++ {
		written, err = splitFiles(build, modes, out)
		if err != nil {
			return nil, err
		}
		if err := verifyPurified(ctx, written, passed, filepath.Join(tmp, fmt.Sprint(round))); err != nil {
			return nil, err
		}
		demoted := 0
		for _, w := range written {
			for _, t := range w.bad {
				id := TestID{Package: w.Package, Test: t}
				if round == purifyRounds {
					continue
				}
				switch modes[id] {
				case Minimal:
					modes[id] = Prefix
					demoted++
				case Prefix:
					modes[id] = Keep
					demoted++
				}
			}
		}
		if demoted == 0 {
			break
		}
		fmt.Fprintf(progress, "nopol: round %d: %d tests to split more safely\n", round, demoted)
	}
	for _, w := range written {
		if err := os.MkdirAll(filepath.Dir(w.Path), 0o755); err != nil {
			return nil, fmt.Errorf("writing purified tests: %w", err)
		}
		if err := os.WriteFile(w.Path, w.data, 0o644); err != nil {
			return nil, fmt.Errorf("writing purified tests: %w", err)
		}
		fmt.Fprintf(progress, "nopol: wrote %s: %d tests from %d\n", w.Path, len(w.Fragments), countTests(w.Fragments))
		for _, u := range w.Unsplit {
			fmt.Fprintf(progress, "nopol: %s not split: %s\n", u.Test, u.Reason)
		}
		for _, m := range w.Mismatches {
			fmt.Fprintf(stderr, "nopol: warning: %s: %s\n", w.Path, m)
		}
	}
	return written, nil
}

// splitFiles splits the tests of the build's test files by modes and
// returns the files with fragments, their target path under out.
func splitFiles(build *collect.Build, modes map[TestID]Mode, out string) ([]WrittenFile, error) {
	prog := build.Program
	// The files holding impure tests, with their package.
	files := map[string]string{}
	for _, pkg := range prog.Packages {
		for _, c := range build.Constituents(pkg) {
			if _, ok := modes[TestID{Package: pkg, Test: c.Test}]; ok && c.File != "" {
				files[c.File] = pkg
			}
		}
	}
	var names []string
	for f := range files {
		names = append(names, f)
	}
	sort.Strings(names)
	var written []WrittenFile
	for _, file := range names {
		pkg := files[file]
		rel, err := filepath.Rel(prog.Dir, file)
		if err != nil || strings.HasPrefix(rel, "..") {
			return nil, fmt.Errorf("writing purified tests: %s is outside the module", file)
		}
		target := filepath.Join(out, rel)
		if same, _ := sameFile(target, file); same {
			return nil, fmt.Errorf("writing purified tests: -write %s would overwrite %s; choose a directory outside the module's packages", out, rel)
		}
		src, err := os.ReadFile(file)
		if err != nil {
			return nil, fmt.Errorf("writing purified tests: %w", err)
		}
		dec := decorator.NewDecorator(token.NewFileSet())
		df, err := dec.ParseFile(file, src, 0)
		if err != nil {
			return nil, fmt.Errorf("writing purified tests: parsing %s: %w", rel, err)
		}
		w := WrittenFile{Source: file, Path: target, Package: pkg}
		var kept []Unsplit
		frags, unsplit := Split(df, func(test string) Mode {
			m, ok := modes[TestID{Package: pkg, Test: test}]
			switch {
			case !ok:
				return Keep
			case m == Keep:
				kept = append(kept, Unsplit{Test: test, Reason: "its fragments did not pass and fail as it did"})
			case m == Prefix:
				w.Prefix = append(w.Prefix, test)
			}
			return m
		})
		if len(frags) == 0 {
			continue
		}
		var buf bytes.Buffer
		if err := decorator.NewRestorer().Fprint(&buf, df); err != nil {
			return nil, fmt.Errorf("writing purified tests: printing %s: %w", rel, err)
		}
		w.Fragments, w.Unsplit, w.data = frags, append(kept, unsplit...), buf.Bytes()
		written = append(written, w)
	}
	return written, nil
}

func countTests(frags []Fragment) int {
	seen := map[string]bool{}
	for _, f := range frags {
		seen[f.Test] = true
	}
	return len(seen)
}

// sameFile reports whether a and b are the same file.
func sameFile(a, b string) (bool, error) {
	if filepath.Clean(a) == filepath.Clean(b) {
		return true, nil
	}
	sa, err := os.Stat(a)
	if err != nil {
		return false, err
	}
	sb, err := os.Stat(b)
	if err != nil {
		return false, err
	}
	return os.SameFile(sa, sb), nil
}

// verifyPasses bounds the go test runs per package in one verification:
// a fragment that makes the test binary exit stops the fragments after
// it, which run again without it.
const verifyPasses = 8

// verifyPurified runs the tests of each package with purified files, the
// files (written under tmp) replacing the originals through an overlay,
// and records in written where their outcomes differ from those of the
// original tests (passed).
func verifyPurified(ctx context.Context, written []WrittenFile, passed map[TestID]bool, tmp string) error {
	byDir := map[string][]int{}
	var dirs []string
	for i, w := range written {
		d := filepath.Dir(w.Source)
		if byDir[d] == nil {
			dirs = append(dirs, d)
		}
		byDir[d] = append(byDir[d], i)
	}
	sort.Strings(dirs)
	if err := os.MkdirAll(tmp, 0o755); err != nil {
		return fmt.Errorf("verifying purified tests: %w", err)
	}
	for n, dir := range dirs {
		replace := map[string]string{}
		var frags []string
		for k, i := range byDir[dir] {
			path := filepath.Join(tmp, fmt.Sprintf("%d_%d_%s", n, k, filepath.Base(written[i].Source)))
			if err := os.WriteFile(path, written[i].data, 0o644); err != nil {
				return fmt.Errorf("verifying purified tests: %w", err)
			}
			replace[written[i].Source] = path
			for _, fr := range written[i].Fragments {
				frags = append(frags, fr.Name)
			}
		}
		ov, err := json.Marshal(map[string]any{"Replace": replace})
		if err != nil {
			return err
		}
		ovFile := filepath.Join(tmp, fmt.Sprintf("overlay%d.json", n))
		if err := os.WriteFile(ovFile, ov, 0o644); err != nil {
			return fmt.Errorf("verifying purified tests: %w", err)
		}
		actions, build, err := runFragments(ctx, dir, ovFile, frags)
		if err != nil {
			return err
		}
		for _, i := range byDir[dir] {
			w := &written[i]
			w.Mismatches, w.bad = nil, nil
			if build != "" {
				w.Mismatches = []string{"does not compile: " + strings.TrimSpace(build)}
				for _, fr := range w.Fragments {
					if len(w.bad) == 0 || w.bad[len(w.bad)-1] != fr.Test {
						w.bad = append(w.bad, fr.Test)
					}
				}
				continue
			}
			for _, m := range mismatches(w, actions, passed) {
				w.Mismatches = append(w.Mismatches, m.msg)
				if m.test != "" && (len(w.bad) == 0 || w.bad[len(w.bad)-1] != m.test) {
					w.bad = append(w.bad, m.test)
				}
			}
		}
	}
	return nil
}

// runFragments runs the tests of the package in dir with the overlay until
// every fragment of frags ran or verifyPasses runs were made, and returns
// each test's action ("" for a test that started and did not finish: it
// made the binary exit) and the compiler's errors if it does not build.
func runFragments(ctx context.Context, dir, overlay string, frags []string) (map[string]string, string, error) {
	actions := map[string]string{}
	for pass := 0; pass < verifyPasses; pass++ {
		args := []string{"test", "-json", "-count=1", "-vet=off", "-overlay", overlay}
		if pass > 0 {
			var left []string
			for _, f := range frags {
				if _, ran := actions[f]; !ran {
					left = append(left, regexp.QuoteMeta(f))
				}
			}
			if len(left) == 0 {
				break
			}
			args = append(args, "-run", "^("+strings.Join(left, "|")+")$")
		}
		out, err := gotest.Default.Run(ctx, &gotest.Invocation{
			Path: "go", Args: append(args, "."), Dir: dir, Timeout: 10 * time.Minute,
		})
		var exit *gotest.ExitError
		if err != nil && !errors.As(err, &exit) {
			return nil, "", fmt.Errorf("verifying purified tests in %s: %w", dir, err)
		}
		events, _ := gotest.ParseEvents(out.Stdout)
		before := len(actions)
		for _, p := range gotest.Summarize(events) {
			if p.BuildFailed {
				return nil, p.Output, nil
			}
			for _, t := range p.Tests {
				actions[t.Test] = t.Action
			}
		}
		if len(actions) == before {
			break // no progress
		}
	}
	return actions, "", nil
}

// mismatch is a difference between a test and its fragments.
type mismatch struct{ test, msg string }

// mismatches compares the outcomes of w's fragments (actions) with those
// of the original tests. A fragment that never ran is reported without a
// test to blame.
func mismatches(w *WrittenFile, actions map[string]string, passed map[TestID]bool) []mismatch {
	var out []mismatch
	failed := map[string]bool{}
	var tests []string
	for _, fr := range w.Fragments {
		id := TestID{Package: w.Package, Test: fr.Test}
		if _, seen := failed[fr.Test]; !seen {
			tests = append(tests, fr.Test)
			failed[fr.Test] = false
		}
		act, ran := actions[fr.Name]
		if !ran {
			out = append(out, mismatch{"", fmt.Sprintf("%s not verified: the test binary exited before it ran", fr.Name)})
			failed[fr.Test] = true // unknown: do not blame the test either way
			continue
		}
		if act == "fail" || act == "" {
			failed[fr.Test] = true
		}
		if passed[id] && act != "pass" && act != "skip" {
			if act == "" {
				act = "made the test binary exit"
			}
			out = append(out, mismatch{fr.Test, fmt.Sprintf("%s passes but its fragment %s: %s", fr.Test, fr.Name, act)})
		}
	}
	for _, t := range tests {
		if !passed[TestID{Package: w.Package, Test: t}] && !failed[t] {
			out = append(out, mismatch{t, t + " fails but none of its fragments does"})
		}
	}
	return out
}
