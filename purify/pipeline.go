package purify

import (
	"context"
	"fmt"
	"io"
	"sort"
	"strings"
	"time"

	"github.com/nopol-go/nopol/collect"
)

// Options configure Purify.
type Options struct {
	// Dir is a directory of the module; Patterns select its packages
	// (nil: ./...).
	Dir      string
	Patterns []string
	// Timeout bounds each test run.
	Timeout time.Duration
	// Write, when set, is the directory purified test files are written
	// under, at their paths relative to the module root.
	Write string
	// Progress receives one line per step; Warnings the differences left
	// between purified files' fragments and the tests. nil is silent.
	Progress, Warnings io.Writer
}

// Result is the outcome of Purify: the purity report, and the purified
// files written, if asked.
type Result struct {
	*Report
	Written []WrittenFile `json:"written,omitempty"`
}

// Purify runs B-Refactoring end to end on the module at opts.Dir: it
// instruments the packages, runs every top-level test once recording which
// constituent evaluates each if condition which way, classifies tests and
// sites (Analyze), and with opts.Write splits the impure tests into
// purified test files, checks that their fragments pass or fail as the
// tests did, and writes them. Errors loading the module are
// *collect.LoadError.
func Purify(ctx context.Context, opts Options) (*Result, error) {
	progress, warnings := opts.Progress, opts.Warnings
	if progress == nil {
		progress = io.Discard
	}
	if warnings == nil {
		warnings = io.Discard
	}
	prog, err := collect.Load(ctx, opts.Dir, opts.Patterns)
	if err != nil {
		return nil, err
	}
	build, err := collect.Instrument(ctx, prog)
	if err != nil {
		return nil, err
	}
	defer build.Close()
	sigs, tests, passed, err := coverSignatures(ctx, build, opts.Timeout, progress)
	if err != nil {
		return nil, err
	}
	res := &Result{Report: Analyze(sigs, tests)}
	if opts.Write != "" {
		res.Written, err = purifyTests(ctx, build, res.Report, passed, opts.Write, progress, warnings)
		if err != nil {
			return nil, err
		}
	}
	return res, nil
}

// coverSignatures runs every top-level test of the build's packages once in
// ModeCover and returns the signatures of the evaluations of if conditions
// (Cond sites) by constituent, the tests run and whether each passed.
func coverSignatures(ctx context.Context, build *collect.Build, timeout time.Duration, progress io.Writer) ([]Signature, []TestID, map[TestID]bool, error) {
	type key struct {
		id             TestID
		site, seg, itr int
	}
	counts := map[key]*[2]int{}
	var tests []TestID
	passed := map[TestID]bool{}
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
			id := TestID{Package: pkg, Test: name}
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
	sigs := make([]Signature, 0, len(counts))
	for k, c := range counts {
		sigs = append(sigs, Signature{
			Package: k.id.Package, Test: k.id.Test, Site: k.site,
			Segment: k.seg, Iteration: k.itr, Then: c[0], Else: c[1],
		})
	}
	return sigs, tests, passed, nil
}
