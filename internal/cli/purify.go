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
(at their path relative to the module root) with each impure test split
into one test function per constituent. The module is never written; dir
must not be a package directory of the module.

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
	sigs, tests, err := coverSignatures(ctx, build, f.timeout, progress)
	if err != nil {
		return Exit(ExitInternal, err)
	}
	report := purify.Analyze(sigs, tests)

	var written []writtenFile
	if f.write != "" {
		out := f.write
		if !filepath.IsAbs(out) {
			out = filepath.Join(env.Dir, out)
		}
		written, err = writePurified(ctx, build, report, out, progress)
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
	for _, w := range written {
		if w.Error != "" {
			return Exit(ExitInternal, fmt.Errorf("purifying %s: the purified file does not compile (a nopol bug; please report it):\n%s", w.Source, w.Error))
		}
	}
	return nil
}

// coverSignatures runs every top-level test of the build's packages once in
// ModeCover and returns the signatures of the evaluations of if conditions
// (Cond sites) by constituent, and the tests run.
func coverSignatures(ctx context.Context, build *collect.Build, timeout time.Duration, progress io.Writer) ([]purify.Signature, []purify.TestID, error) {
	type key struct {
		id             purify.TestID
		site, seg, itr int
	}
	counts := map[key]*[2]int{}
	var tests []purify.TestID
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
				return nil, nil, err
			}
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
	return sigs, tests, nil
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
	// Error is the compiler's message when the purified file does not
	// compile in place of the original.
	Error string `json:"error,omitempty"`
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
		w := writtenFile{Source: file, Path: target, Fragments: frags, Unsplit: unsplit}
		w.Error = compiles(ctx, file, buf.Bytes())
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

// compiles builds the tests of the package of file with src in place of file (through an
// overlay in a temp dir) and returns the compiler's message, "" when it
// compiles.
func compiles(ctx context.Context, file string, src []byte) string {
	tmp, err := os.MkdirTemp("", "nopol-purify-")
	if err != nil {
		return err.Error()
	}
	defer os.RemoveAll(tmp)
	repl := filepath.Join(tmp, filepath.Base(file))
	if err := os.WriteFile(repl, src, 0o644); err != nil {
		return err.Error()
	}
	ov, _ := json.Marshal(map[string]any{"Replace": map[string]string{file: repl}})
	ovFile := filepath.Join(tmp, "overlay.json")
	if err := os.WriteFile(ovFile, ov, 0o644); err != nil {
		return err.Error()
	}
	_, err = gotest.Default.Run(ctx, &gotest.Invocation{
		Path:    "go",
		Args:    []string{"test", "-overlay", ovFile, "-count=1", "-run", "^$", "-vet=off", "."},
		Dir:     filepath.Dir(file),
		Timeout: 5 * time.Minute,
	})
	if err != nil {
		return err.Error()
	}
	return ""
}
