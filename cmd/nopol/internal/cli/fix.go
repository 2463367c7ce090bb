package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/nopol-go/nopol"
	"github.com/nopol-go/nopol/report"
)

func init() {
	Register(&Command{Name: "fix", Short: "repair failing tests by changing one if condition or adding a guard", Run: runFix})
}

const fixUsage = `Usage: nopol fix [flags] [packages]

Fix looks for a change of one if condition, or one added guard, that makes
the failing tests of the module in the current directory (or -C dir) pass
without breaking the passing ones, and prints it as a unified diff. The
packages (default ./...) are those whose tests are run and whose code may
be changed. The module is never written unless -apply is given.

A failing test that fails whichever value a condition is forced to, because
its statements need the condition true in one place and false in another,
is split into fragments (its top-level statements and table-loop
iterations): the value is forced in the failing ones only, one value in
them all, or each its own (found one fragment at a time, in the order they
fail: a row that panics hides the rows after it). -purify=false forces
values per whole test.

A guard either wraps a statement (strategy skip) or leaves before it, in
this order: a guard the file writes elsewhere after the same statement as
the one before the site (or first in a loop with the same header, or
over values of the same type, its loop variable renamed; or before the
same statement, its string literals aside, when the exit repeats them:
the site's literals replace them), its exit and
condition as written there (twin-guard), continue (in a loop), a return statement of the same function
reused as written (reuse-return), a guarded return of a sibling (a
function of the same file and receiver whose name is one word away:
unmarshalLocalDate for unmarshalLocalTime) with that word replaced in its
strings and names, and a parameter (or a field of one: vi.High) it reads
replaced by the function's parameter of its type whose name its uses
point to (AddRetract's vi.High is AddExclude's vers: isCanonicalVersion's
parameter is vers), its guard's condition tried with it (sibling-return),
the zero values (zero-values), zero
values with a sentinel error the function uses (error-sentinel) or a new
error (error-new), the result of the package's function with the same
result types whose name has every word of the function's (or the
reverse), called with in-scope variables
(delegate: "return e.isMarshalerArrayOfTables(v)" in isArrayOfTables), an in-scope value of the result type
(in-scope-value), break, and where a failing test expects a panic (it
recovers one, or asserts one), a panic: the function's own as written (panic), else a new one
naming the function (panic-new). Skipping, twin guards and the zero values are
searched with the conditions; then, after the mutation fallback, the twin
guards of the first ten guard sites that have one, each validated as
written whether or not its site is angelic; the other exits after them. Where a failing test panics with a
nil dereference, NpeFix's replacements come last: before the
panicking statement (or its caller's), "if x == nil { x = v }", v an
in-scope value of x's type (nil-in-scope-value) or a new instance, for an
interface a type of the package implementing it (nil-new-instance).
-strategies restricts them all. With -screen, before the other exits are
searched, the first exit of each guard site (up to 200) is forced in the
whole of the failing tests, and the sites where a failing test then
passes take turns with the others (off by default: on the benchmarks it
found the right places and wrong conditions there).

When a failing test panics with an index or a slice out of range while
a condition is evaluated, that condition with the bounds check the runtime
made ("len(b) > i+1 &&" before the clause that reads b[i+1]) is validated
first. When one panics with a nil dereference, before any site is
searched, the nil check the runtime made is validated where it panicked:
joined to the condition there ("tok == nil ||" where its branch leaves,
"tok != nil &&" otherwise), else as a guard before the statement
("if tok == nil { exit }" with its first exits, or "if tok != nil { stmt }").

When no synthesized condition passes the suite (most often because the
condition must change value within one test, as a flipped comparison in a
loop, which no angelic value fits), the original conditions of the ten most
suspicious sites are mutated: negated, each comparison operator replaced,
each && and || swapped, each of their operands and each ! dropped, a !
added to each of their boolean operands; last, one operand replaced by a
parameter of the function that its body never reads, of the operand's type
(a function that takes a value and ignores it was meant to read it). The
mutants are validated as candidates: first those whose changed comparison
the file writes in another condition (as written, or with one name in
place of another), then the others, fewest changes first, an equality
made an ordering last. -mutants=false turns this off.

A plausible patch (one that passes the whole suite) that rests on a guess
the tests do not check is withheld: a condition that shares none of the
original's variables, a new error the function never returns (error-new),
a new panic where the function never panics (panic-new), a synthesized
condition far from the original where a condition over other values fits
the recorded states as well. The search goes on; if
nothing else passes, nopol exits 1 and says what it withheld and why
(-json: "withheld"). -speculative prints such a patch instead.

Tests that pass and fail on identical runs (flaky) are found by running
the failing tests again, and a test that fails with a candidate but passed
before on the original code: they are listed, never repaired, and their
failures do not reject a candidate, unless a flaky test, run again with
the patch, passes much less often than on the original code (never, after
half its runs; or less often than chance explains 1 time in 1000). A test still running after a third of
-timeout in the plain run is named as hanging (exit 2); -skip leaves it out.

Exit status: 0 a patch was found, 1 no patch was found, 2 bad input (usage,
the module does not compile, a bad package pattern, no failing test, every
failing test flaky, a test that hangs, a test binary that fails before its
tests), 3 internal or environment error (the temp dir, the go command, less
than 1 GiB free on the disk of the temp dir or of Go's build cache), or
interrupted. With -json, stdout always holds one JSON object, with an
"error" field on exit 2 and 3.

Flags:
`

// minTestMemory is the least -mem, in MiB: the Go runtime reserves
// address space as it starts (700 MiB did not do).
const minTestMemory = 1024

// fixFlags are the flags of nopol fix.
type fixFlags struct {
	dir, run, skip, tags, kind, backend string
	strategies, format                  string
	timeout                             time.Duration
	effort                              float64
	sites, mem                          int
	apply, json, quiet, v               bool
	purify, mutants, perEval, screen    bool
	speculative                         bool
}

func (f *fixFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.dir, "C", "", "run in `dir` instead of the current directory")
	fs.StringVar(&f.run, "run", "", "repair only the failing tests matching `regexp`")
	fs.StringVar(&f.skip, "skip", "", "leave the top-level tests matching `regexp` out of every run (go test -skip)")
	fs.StringVar(&f.tags, "tags", "", "comma-separated build `tags` for every build and run (go build -tags)")
	fs.StringVar(&f.kind, "kind", "all", "repairs to try: cond (change a condition), guard (add a guard) or all")
	fs.StringVar(&f.strategies, "strategies", "", "comma-separated guard `strategies` to try (default all): skip, twin-guard, continue, reuse-return,\nsibling-return, zero-values, error-sentinel, error-new, delegate, in-scope-value, break, panic,\npanic-new, nil-in-scope-value, nil-new-instance")
	fs.StringVar(&f.backend, "synth", "", "synthesis backend: z3 or enum (default: z3 when built with it)")
	fs.DurationVar(&f.timeout, "timeout", 10*time.Minute, "time limit of the whole repair")
	fs.Float64Var(&f.effort, "effort", 2, "the later tiers (other exits, per-evaluation values, more guard sites) start a site\nonly while they did less than `n` times the first tier's work, counted in test runs\n(a hung run 21, a whole suite 10; at least 200); -1: no bound but -timeout")
	fs.IntVar(&f.mem, "mem", 0, "cap each test process at `MiB` of memory (a go test binary's address space; an instrumented\nrun's resident memory): a test that allocates without end crashes there; 0: half of the\nmachine's memory, -1: no cap")
	fs.IntVar(&f.sites, "sites", 20, "search the `n` most suspicious sites (conditions and guards; as many again for the guards' other exits; last, the conditions and guards of the n sites after them)")
	fs.BoolVar(&f.apply, "apply", false, "write the patch into the module")
	fs.BoolVar(&f.json, "json", false, "print the result as JSON instead of a diff (-format json)")
	fs.StringVar(&f.format, "format", report.Diff, "output `format`: "+strings.Join(report.Formats, ", ")+"\n(diff: for git apply; sarif: SARIF 2.1.0 with the fix; rdjsonl: reviewdog's diagnostics\nwith a suggestion; github: the Markdown of a review comment with a suggestion block)")
	fs.BoolVar(&f.quiet, "q", false, "print no progress")
	fs.BoolVar(&f.v, "v", false, "print every test run")
	fs.BoolVar(&f.mutants, "mutants", true, "when synthesis finds no patch, validate mutants of the most suspicious conditions")
	fs.BoolVar(&f.perEval, "pereval", true, "last, at conditions where a failing test fails under every constant value,\nnegate one evaluation at a time, or force an observed predicate at every\nevaluation (per-evaluation angelic values)")
	fs.BoolVar(&f.screen, "screen", false, "before the guards' other exits, force the first exit of each guard site (up to 200)\nin the failing tests and search the sites where a failing test then passes in turn with the others")
	fs.BoolVar(&f.speculative, "speculative", false, "print a plausible patch even when it rests on a guess the tests do not check\n(by default it is withheld and the search goes on)")
	fs.BoolVar(&f.purify, "purify", true, "split a failing test that fails under both forced values into fragments\n(top-level statements, table-loop iterations) and force the angelic value in the failing ones")
}

// fixOptions checks the flags and turns them into repair options; a
// usage problem is reported as a message for the user.
func (f *fixFlags) options(env *Env, patterns []string) (nopol.Options, error) {
	opts := nopol.Options{Patterns: patterns, Backend: f.backend, Timeout: f.timeout, Verbose: f.v, NoPurify: !f.purify, NoMutants: !f.mutants, NoPerEval: !f.perEval, Screen: f.screen, MaxSites: f.sites, Effort: f.effort, Speculative: f.speculative}
	if f.effort == 0 {
		return opts, fmt.Errorf("-effort 0: want a positive factor, or -1 for no bound")
	}
	var ok bool
	if opts.Kinds, ok = nopol.ParseKinds(f.kind); !ok {
		return opts, fmt.Errorf("-kind %q: want cond, guard or all", f.kind)
	}
	if f.strategies != "" {
		for _, st := range strings.Split(f.strategies, ",") {
			st = strings.TrimSpace(st)
			if !slices.Contains(nopol.Strategies, st) {
				return opts, fmt.Errorf("-strategies: unknown strategy %q; want some of %s", st, strings.Join(nopol.Strategies, ", "))
			}
			opts.Strategies = append(opts.Strategies, st)
		}
	}
	if f.run != "" {
		re, err := regexp.Compile(f.run)
		if err != nil {
			return opts, fmt.Errorf("-run: %v", err)
		}
		opts.Run = re
	}
	if f.skip != "" {
		re, err := regexp.Compile(f.skip)
		if err != nil {
			return opts, fmt.Errorf("-skip: %v", err)
		}
		opts.Skip = re
	}
	opts.Tags = strings.FieldsFunc(f.tags, func(r rune) bool { return r == ',' || r == ' ' })
	if f.sites <= 0 {
		return opts, fmt.Errorf("-sites %d: want a positive number", f.sites)
	}
	switch {
	case f.mem >= minTestMemory:
		opts.TestMemory = int64(f.mem) << 20
	case f.mem < -1:
		return opts, fmt.Errorf("-mem %d: want a number of MiB, 0 for half of the machine's memory, or -1 for no cap", f.mem)
	case f.mem > 0 && f.mem < minTestMemory:
		return opts, fmt.Errorf("-mem %d: want at least %d MiB: a Go test binary does not start with less address space", f.mem, minTestMemory)
	case f.mem == -1:
		opts.TestMemory = -1
	}
	if f.timeout <= 0 {
		return opts, fmt.Errorf("-timeout %s: want a positive duration", f.timeout)
	}
	if f.quiet && f.v {
		return opts, errors.New("-q and -v contradict each other")
	}
	if f.format == "" {
		f.format = report.Diff
	}
	if f.json {
		if f.format != report.Diff && f.format != report.JSON {
			return opts, fmt.Errorf("-json and -format %s contradict each other", f.format)
		}
		f.format = report.JSON
	}
	if !slices.Contains(report.Formats, f.format) {
		return opts, fmt.Errorf("-format %q: want one of %s", f.format, strings.Join(report.Formats, ", "))
	}
	dir, err := workDir(env, f.dir)
	if err != nil {
		return opts, err
	}
	opts.Dir = dir
	if !f.quiet {
		opts.Logf = func(format string, args ...any) {
			fmt.Fprintf(env.Stderr, "nopol: "+format+"\n", args...)
		}
	}
	return opts, nil
}

func runFix(ctx context.Context, env *Env, args []string) error {
	var f fixFlags
	fs := flag.NewFlagSet("fix", flag.ContinueOnError)
	fs.SetOutput(env.Stderr)
	fs.Usage = func() {
		fmt.Fprint(env.Stderr, fixUsage)
		fs.PrintDefaults()
	}
	f.register(fs)
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return ErrUsage // the flag package printed the problem and the usage
	}
	opts, err := f.options(env, fs.Args())
	if err != nil {
		fmt.Fprintf(env.Stderr, "nopol fix: %v\n", err)
		fs.Usage()
		return ErrUsage
	}
	res, err := nopol.Repair(ctx, opts)
	if err != nil {
		code := ExitInternal
		var ie *nopol.InputError
		if errors.As(err, &ie) {
			code = ExitBadInput
		}
		if f.format == report.JSON {
			if jerr := report.Write(env.Stdout, report.JSON, res, report.Options{Error: fixError(code, err)}); jerr != nil {
				return Exit(ExitInternal, jerr)
			}
		}
		return Exit(code, err)
	}
	if !f.quiet && len(res.StillFailing) > 0 {
		fmt.Fprintf(env.Stderr, "nopol: with the patch the suite still fails %s (failing only after the tests before it, left out of the verdict)\n", strings.Join(res.StillFailing, ", "))
	}
	if !f.quiet && len(res.Flaky) > 0 {
		fmt.Fprintf(env.Stderr, "nopol: flaky tests, left out of every verdict: %s\n", strings.Join(res.Flaky, ", "))
	}
	if err := report.Write(env.Stdout, f.format, res, report.Options{ToolVersion: version()}); err != nil {
		return Exit(ExitInternal, err)
	}
	if !res.Patched {
		return Exit(ExitNoPatch, fmt.Errorf("no patch found: %s", res.Reason))
	}
	if !f.quiet {
		split := ""
		if res.Site.Purified {
			split = fmt.Sprintf("; failing tests split, angelic value forced in %d fragments", len(res.Site.Fragments))
		}
		style := res.Style
		if res.Strategy != "" {
			style += ", strategy " + res.Strategy
		}
		fmt.Fprintf(env.Stderr, "nopol: patch: %s:%d `%s` -> `%s` (%s%s; candidates validated: %d, test runs: %d, %s)\n",
			res.File, res.Site.Line, oneLine(res.Site.Original), res.Condition, style, split, len(res.Candidates), res.Runs, res.Total.Round(time.Millisecond))
		if res.Explanation != nil {
			for _, line := range strings.Split(strings.TrimSuffix(res.Explanation.String(), "\n"), "\n") {
				fmt.Fprintf(env.Stderr, "nopol:   %s\n", line)
			}
		}
	}
	if f.apply {
		if err := applyPatch(res); err != nil {
			return Exit(ExitInternal, err)
		}
		if !f.quiet {
			fmt.Fprintf(env.Stderr, "nopol: wrote %s\n", res.File)
		}
	}
	return nil
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// fixError is the JSON error of a run that ended with exit status 2 or 3.
func fixError(code int, err error) *report.Error {
	kind := "internal"
	var ee *nopol.EnvError
	switch {
	case code == ExitBadInput:
		kind = "input"
	case errors.As(err, &ee):
		kind = "environment"
	case errors.Is(err, context.Canceled):
		kind = "interrupted"
	}
	return &report.Error{ExitCode: code, Kind: kind, Message: err.Error()}
}

// applyPatch writes the patched file in place, keeping its mode.
func applyPatch(res *nopol.Result) error {
	path := filepath.Join(res.Dir, filepath.FromSlash(res.File))
	st, err := os.Stat(path)
	if err != nil {
		return fmt.Errorf("applying the patch: %w", err)
	}
	tmp := path + ".nopol.tmp"
	if err := os.WriteFile(tmp, res.Source, st.Mode().Perm()); err != nil {
		return fmt.Errorf("applying the patch to %s: %w", res.File, err)
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("applying the patch to %s: %w", res.File, err)
	}
	return nil
}
