package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"go/token"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/dave/dst/decorator"
	"github.com/nopol-go/nopol/collect"
	"github.com/nopol-go/nopol/internal/gotest"
	"github.com/nopol-go/nopol/internal/purify"
)

func init() {
	Register(&Command{Name: "purify", Short: "report test purity; split impure tests into pure ones", Run: runPurify})
}

const purifyUsage = `Usage: nopol purify [flags] [packages]

Purify runs every test of the packages (default ./...) of the module in the
current directory (or -C dir) once, recording which if conditions each
top-level statement of the test (and each iteration of a table loop)
evaluates to true and to false. It prints, per package, the tests that are
pure (each condition evaluated one way), impure but made of pure
constituents, and absolutely impure, and the conditions purely covered
before and after splitting tests into their constituents.

With -write dir, the test files holding impure tests are written under dir
(at their path relative to the module root; a relative dir is taken after
-C) with each impure test split into one test function per constituent.
The purified files are then run in place of the originals (through an
overlay) and any test whose fragments do not pass or fail as it did is
reported as a warning. The module is never written; dir must not be a
package directory of the module.

Flags:
`

// purifyFlags are the flags of nopol purify.
type purifyFlags struct {
	dir, write  string
	json, quiet bool
	timeout     time.Duration
}

func runPurify(ctx context.Context, env *Env, args []string) error {
	var f purifyFlags
	fs := flag.NewFlagSet("purify", flag.ContinueOnError)
	fs.SetOutput(env.Stderr)
	fs.Usage = func() {
		fmt.Fprint(env.Stderr, purifyUsage)
		fs.PrintDefaults()
	}
	fs.StringVar(&f.dir, "C", "", "run in `dir` instead of the current directory")
	fs.StringVar(&f.write, "write", "", "write purified test files under `dir`")
	fs.BoolVar(&f.json, "json", false, "print the report as JSON")
	fs.BoolVar(&f.quiet, "q", false, "print no progress")
	fs.DurationVar(&f.timeout, "timeout", time.Minute, "time limit of each test run")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return ErrUsage
	}
	dir := env.Dir
	if f.dir != "" {
		dir = f.dir
		if !filepath.IsAbs(dir) {
			dir = filepath.Join(env.Dir, dir)
		}
		if st, err := os.Stat(dir); err != nil || !st.IsDir() {
			fmt.Fprintf(env.Stderr, "nopol purify: -C %s: not a directory\n", f.dir)
			fs.Usage()
			return ErrUsage
		}
	}
	if f.timeout <= 0 {
		fmt.Fprintf(env.Stderr, "nopol purify: -timeout %s: want a positive duration\n", f.timeout)
		fs.Usage()
		return ErrUsage
	}
	progress := env.Stderr
	if f.quiet {
		progress = io.Discard
	}

	prog, err := collect.Load(ctx, dir, fs.Args())
	var le *collect.LoadError
	switch {
	case errors.As(err, &le):
		return Exit(ExitBadInput, err)
	case err != nil:
		return Exit(ExitInternal, err)
	}
	build, err := collect.Instrument(ctx, prog)
	if err != nil {
		return Exit(ExitInternal, err)
	}
	defer build.Close()
	sigs, tests, passed, err := coverSignatures(ctx, build, f.timeout, progress)
	if err != nil {
		return Exit(ExitInternal, err)
	}
	report := purify.Analyze(sigs, tests)

	var written []writtenFile
	if f.write != "" {
		out := f.write
		if !filepath.IsAbs(out) {
			out = filepath.Join(dir, out) // as go -C: after changing to dir
		}
		written, err = writePurified(ctx, build, report, out, progress)
		if err == nil {
			err = verifyPurified(ctx, written, passed, env.Stderr)
		}
		if err != nil {
			return Exit(ExitInternal, err)
		}
	}
	if f.json {
		enc := json.NewEncoder(env.Stdout)
		enc.SetIndent("", "  ")
		err = enc.Encode(struct {
			*purify.Report
			Written []writtenFile `json:"written,omitempty"`
		}{report, written})
	} else {
		err = report.WriteText(env.Stdout)
	}
	if err != nil {
		return Exit(ExitInternal, err)
	}
	return nil
}

// coverSignatures runs every top-level test of the build's packages once in
// ModeCover and returns the signatures of the evaluations of if conditions
// (Cond sites) by constituent, the tests run and whether each passed.
func coverSignatures(ctx context.Context, build *collect.Build, timeout time.Duration, progress io.Writer) ([]purify.Signature, []purify.TestID, map[purify.TestID]bool, error) {
	type key struct {
		id             purify.TestID
		site, seg, itr int
	}
	counts := map[key]*[2]int{}
	var tests []purify.TestID
	passed := map[purify.TestID]bool{}
	prog := build.Program
	pkgs := append([]string(nil), prog.Packages...)
	sort.Strings(pkgs)
	total := 0
	for _, pkg := range pkgs {
		for _, name := range prog.Tests[pkg] {
			if strings.HasPrefix(name, "Test") {
				total++
			}
		}
	}
	n := 0
	for _, pkg := range pkgs {
		for _, name := range prog.Tests[pkg] {
			if !strings.HasPrefix(name, "Test") {
				continue
			}
			n++
			id := purify.TestID{Package: pkg, Test: name}
			tests = append(tests, id)
			fmt.Fprintf(progress, "nopol: [%d/%d] %s %s\n", n, total, pkg, name)
			res, err := build.Run(ctx, collect.Run{
				Package: pkg, Test: name, Mode: collect.ModeCover,
				ForceSegment: -1, ForceIteration: -1, Timeout: timeout,
			})
			if err != nil {
				return nil, nil, nil, err
			}
			passed[id] = res.Passed
			if res.TimedOut {
				fmt.Fprintf(progress, "nopol: %s %s timed out after %s; its coverage is partial\n", pkg, name, timeout)
			}
			for _, e := range res.Evals {
				if e.Site < 0 || e.Site >= len(prog.Sites) || prog.Sites[e.Site].Kind != collect.Cond {
					continue // purity is about if conditions
				}
				k := key{id, e.Site, e.Segment, e.Iteration}
				c := counts[k]
				if c == nil {
					c = new([2]int)
					counts[k] = c
				}
				if e.Outcome {
					c[0]++
				} else {
					c[1]++
				}
			}
		}
	}
	sigs := make([]purify.Signature, 0, len(counts))
	for k, c := range counts {
		sigs = append(sigs, purify.Signature{
			Package: k.id.Package, Test: k.id.Test, Site: k.site,
			Segment: k.seg, Iteration: k.itr, Then: c[0], Else: c[1],
		})
	}
	return sigs, tests, passed, nil
}

// writtenFile is a purified test file written by -write.
type writtenFile struct {
	// Source is the original file, Path the purified one.
	Source string `json:"source"`
	Path   string `json:"path"`
	// Fragments are the new test functions; Unsplit the impure tests left
	// whole, with the reason.
	Fragments []purify.Fragment `json:"fragments"`
	Unsplit   []purify.Unsplit  `json:"unsplit,omitempty"`
	// Package is the import path of the test's package.
	Package string `json:"package"`
	// Mismatches are the differences between the outcomes of the
	// fragments, run in place of the original file, and of the original
	// tests: a failing fragment of a passing test, a failing test whose
	// fragments all pass, or the compiler's errors.
	Mismatches []string `json:"mismatches,omitempty"`
}

// writePurified splits the impure tests of the report in their files and
// writes the files under out, at their path relative to the module root.
func writePurified(ctx context.Context, build *collect.Build, report *purify.Report, out string, progress io.Writer) ([]writtenFile, error) {
	prog := build.Program
	impure := map[purify.TestID]bool{}
	for _, tp := range report.Tests {
		if tp.Class != purify.Pure {
			impure[tp.TestID] = true
		}
	}
	// The files holding impure tests, with their package.
	files := map[string]string{}
	for _, pkg := range prog.Packages {
		for _, c := range build.Constituents(pkg) {
			if impure[purify.TestID{Package: pkg, Test: c.Test}] && c.File != "" {
				files[c.File] = pkg
			}
		}
	}
	var names []string
	for f := range files {
		names = append(names, f)
	}
	sort.Strings(names)
	var written []writtenFile
	for _, file := range names {
		pkg := files[file]
		rel, err := filepath.Rel(prog.Dir, file)
		if err != nil || strings.HasPrefix(rel, "..") {
			return written, fmt.Errorf("writing purified tests: %s is outside the module", file)
		}
		target := filepath.Join(out, rel)
		if same, _ := sameFile(target, file); same {
			return written, fmt.Errorf("writing purified tests: -write %s would overwrite %s; choose a directory outside the module's packages", out, rel)
		}
		src, err := os.ReadFile(file)
		if err != nil {
			return written, fmt.Errorf("writing purified tests: %w", err)
		}
		dec := decorator.NewDecorator(token.NewFileSet())
		df, err := dec.ParseFile(file, src, 0)
		if err != nil {
			return written, fmt.Errorf("writing purified tests: parsing %s: %w", rel, err)
		}
		frags, unsplit := purify.Split(df, func(test string) bool {
			return impure[purify.TestID{Package: pkg, Test: test}]
		})
		if len(frags) == 0 {
			for _, u := range unsplit {
				fmt.Fprintf(progress, "nopol: %s not split: %s\n", u.Test, u.Reason)
			}
			continue
		}
		var buf bytes.Buffer
		if err := decorator.NewRestorer().Fprint(&buf, df); err != nil {
			return written, fmt.Errorf("writing purified tests: printing %s: %w", rel, err)
		}
		w := writtenFile{Source: file, Path: target, Package: pkg, Fragments: frags, Unsplit: unsplit}
		if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
			return written, fmt.Errorf("writing purified tests: %w", err)
		}
		if err := os.WriteFile(target, buf.Bytes(), 0o644); err != nil {
			return written, fmt.Errorf("writing purified tests: %w", err)
		}
		fmt.Fprintf(progress, "nopol: wrote %s: %d tests from %d\n", target, len(frags), countTests(frags))
		for _, u := range unsplit {
			fmt.Fprintf(progress, "nopol: %s not split: %s\n", u.Test, u.Reason)
		}
		written = append(written, w)
	}
	return written, nil
}

func countTests(frags []purify.Fragment) int {
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

// verifyPurified runs the tests of each package with purified files, the
// files replacing the originals through an overlay, and records in written
// where their outcomes differ from those of the original tests (passed);
// each difference is also printed to stderr as a warning.
func verifyPurified(ctx context.Context, written []writtenFile, passed map[purify.TestID]bool, stderr io.Writer) error {
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
	tmp, err := os.MkdirTemp("", "nopol-purify-")
	if err != nil {
		return fmt.Errorf("verifying purified tests: %w", err)
	}
	defer os.RemoveAll(tmp)
	for n, dir := range dirs {
		replace := map[string]string{}
		for _, i := range byDir[dir] {
			replace[written[i].Source] = written[i].Path
		}
		ov, err := json.Marshal(map[string]any{"Replace": replace})
		if err != nil {
			return err
		}
		ovFile := filepath.Join(tmp, fmt.Sprintf("overlay%d.json", n))
		if err := os.WriteFile(ovFile, ov, 0o644); err != nil {
			return fmt.Errorf("verifying purified tests: %w", err)
		}
		out, err := gotest.Default.Run(ctx, &gotest.Invocation{
			Path:    "go",
			Args:    []string{"test", "-json", "-count=1", "-vet=off", "-overlay", ovFile, "."},
			Dir:     dir,
			Timeout: 10 * time.Minute,
		})
		var exit *gotest.ExitError
		if err != nil && !errors.As(err, &exit) {
			return fmt.Errorf("verifying purified tests in %s: %w", dir, err)
		}
		events, _ := gotest.ParseEvents(out.Stdout)
		actions := map[string]string{}
		build := ""
		for _, p := range gotest.Summarize(events) {
			if p.BuildFailed {
				build += p.Output
			}
			for _, t := range p.Tests {
				actions[t.Test] = t.Action
			}
		}
		for _, i := range byDir[dir] {
			w := &written[i]
			if build != "" {
				w.Mismatches = append(w.Mismatches, "does not compile: "+strings.TrimSpace(build))
			} else {
				w.Mismatches = append(w.Mismatches, mismatches(w, actions, passed)...)
			}
			for _, m := range w.Mismatches {
				fmt.Fprintf(stderr, "nopol: warning: %s: %s (a nopol bug; please report it)\n", w.Path, m)
			}
		}
	}
	return nil
}

// mismatches compares the outcomes of w's fragments (actions) with those
// of the original tests.
func mismatches(w *writtenFile, actions map[string]string, passed map[purify.TestID]bool) []string {
	var out []string
	failed := map[string]bool{}
	var tests []string
	for _, fr := range w.Fragments {
		id := purify.TestID{Package: w.Package, Test: fr.Test}
		if _, seen := failed[fr.Test]; !seen {
			tests = append(tests, fr.Test)
			failed[fr.Test] = false
		}
		act := actions[fr.Name]
		if act == "fail" || act == "" {
			failed[fr.Test] = true
		}
		if passed[id] && act != "pass" && act != "skip" {
			if act == "" {
				act = "did not finish"
			}
			out = append(out, fmt.Sprintf("%s passes but its fragment %s: %s", fr.Test, fr.Name, act))
		}
	}
	for _, t := range tests {
		if !passed[purify.TestID{Package: w.Package, Test: t}] && !failed[t] {
			out = append(out, fmt.Sprintf("%s fails but none of its fragments does", t))
		}
	}
	return out
}
