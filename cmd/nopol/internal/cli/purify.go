package cli

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/nopol-go/nopol/collect"
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
		written, err = purifyTests(ctx, build, report, passed, out, progress, env.Stderr)
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
