package cli

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"time"

	"github.com/nopol-go/nopol/resilience"
)

func init() {
	Register(&Command{Name: "resilience", Short: "short-circuit testing of error handlers: which catch any error of their try", Run: runResilience})
}

const resilienceUsage = `Usage: nopol resilience [flags] [packages]

Resilience finds the try-catch pairs of the packages (default ./...) of the
module in the current directory (or -C dir): an error-producing call and a
branch of a handler its error reaches (err != nil, errors.Is, errors.As, a
sentinel, a type switch), and deferred recovers. It runs the tests once to
see how each pair is used (pink: the call returned no error; white: it
returned one and this branch ran; blue: another branch ran), then once per
pair and test that ran the call, with the call's error replaced by one the
branch handles. A pair is source-independent when every test that ran the
branch on an error of its own still passes, source-dependent when one
fails, unknown when no test ran the branch; purely resilient when every
test that ran the call passes. The table follows Cornu's thesis (ch. 3,
Table 3.1); the module is never written. A catch of one kind of error
(errors.Is, ==, errors.As) that is source-independent and ends its handler
is broadened to err != nil (catch stretching) and the package's tests run:
the patch is printed when they pass. With -purify, impure tests are split
first (B-Refactoring), so that the fragment running a catch is not one
that needs its try to succeed.

Exit codes: 0 the analysis ran, 2 bad input (usage, the packages do not
compile), 3 internal error or interrupted.

Flags:
`

func runResilience(ctx context.Context, env *Env, args []string) error {
	var (
		dir                string
		jsonOut, q, purify bool
		timeout            time.Duration
	)
	fs := flag.NewFlagSet("resilience", flag.ContinueOnError)
	fs.SetOutput(env.Stderr)
	fs.Usage = func() {
		fmt.Fprint(env.Stderr, resilienceUsage)
		fs.PrintDefaults()
	}
	fs.StringVar(&dir, "C", "", "run in `dir` instead of the current directory")
	fs.BoolVar(&jsonOut, "json", false, "print the report as JSON")
	fs.BoolVar(&q, "q", false, "print no progress")
	fs.BoolVar(&purify, "purify", false, "split impure tests first (B-Refactoring; see nopol purify)")
	fs.DurationVar(&timeout, "timeout", 10*time.Minute, "time limit of the whole analysis")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return ErrUsage
	}
	wd, err := workDir(env, dir)
	if err != nil {
		fmt.Fprintf(env.Stderr, "nopol resilience: %v\n", err)
		fs.Usage()
		return ErrUsage
	}
	if timeout <= 0 {
		fmt.Fprintf(env.Stderr, "nopol resilience: -timeout %s: want a positive duration\n", timeout)
		fs.Usage()
		return ErrUsage
	}
	opts := resilience.Options{Dir: wd, Patterns: fs.Args(), Timeout: timeout, Purify: purify}
	if !q {
		opts.Logf = func(format string, args ...any) { fmt.Fprintf(env.Stderr, "nopol: "+format+"\n", args...) }
	}
	rep, err := resilience.Analyze(ctx, opts)
	var ie *resilience.InputError
	switch {
	case errors.As(err, &ie):
		return Exit(ExitBadInput, err)
	case err != nil:
		return Exit(ExitInternal, err)
	}
	if jsonOut {
		enc := json.NewEncoder(env.Stdout)
		enc.SetIndent("", "  ")
		err = enc.Encode(struct {
			Packages []resilience.PackageSummary `json:"packages"`
			*resilience.Report
		}{rep.Summaries(), rep})
	} else {
		err = rep.WriteText(env.Stdout)
	}
	if err != nil {
		return Exit(ExitInternal, err)
	}
	return nil
}
