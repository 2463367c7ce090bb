package cli

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"time"

	"github.com/nopol-go/nopol/collect"
	"github.com/nopol-go/nopol/purify"
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
	dir, err := workDir(env, f.dir)
	if err != nil {
		fmt.Fprintf(env.Stderr, "nopol purify: %v\n", err)
		fs.Usage()
		return ErrUsage
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

	out := f.write
	if out != "" {
		out = within(dir, out) // as go -C: after changing to dir
	}
	res, err := purify.Purify(ctx, purify.Options{Dir: dir, Patterns: fs.Args(), Timeout: f.timeout, Write: out, Progress: progress, Warnings: env.Stderr})
	var le *collect.LoadError
	switch {
	case errors.As(err, &le):
		return Exit(ExitBadInput, err)
	case err != nil:
		return Exit(ExitInternal, err)
	}
	if f.json {
		enc := json.NewEncoder(env.Stdout)
		enc.SetIndent("", "  ")
		err = enc.Encode(res)
	} else {
		err = res.WriteText(env.Stdout)
	}
	if err != nil {
		return Exit(ExitInternal, err)
	}
	return nil
}
