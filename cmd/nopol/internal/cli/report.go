package cli

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/nopol-go/nopol"
	"github.com/nopol-go/nopol/report"
)

func init() {
	Register(&Command{Name: "report", Short: "render a saved nopol fix -json result in another format (sarif, rdjsonl, github, diff)", Run: runReportCmd})
}

const reportUsage = `Usage: nopol report [-format F] [result.json]

Report reads the result nopol fix -json printed (from the file, or
standard input) and renders it in another format, as nopol fix -format
would have: one repair, several outputs (a SARIF file to upload, reviewdog
diagnostics to post). Exit status: 0 the result has a patch, 1 it has none
(hints are still rendered), 2 bad input.

Flags:
`

func runReportCmd(ctx context.Context, env *Env, args []string) error {
	fs := flag.NewFlagSet("report", flag.ContinueOnError)
	fs.SetOutput(env.Stderr)
	fs.Usage = func() {
		fmt.Fprint(env.Stderr, reportUsage)
		fs.PrintDefaults()
	}
	format := fs.String("format", report.SARIF, "output `format`: "+strings.Join(report.Formats, ", "))
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return ErrUsage
	}
	if !slices.Contains(report.Formats, *format) || fs.NArg() > 1 {
		fmt.Fprintf(env.Stderr, "nopol report: want one of -format %s and at most one file\n", strings.Join(report.Formats, ", "))
		fs.Usage()
		return ErrUsage
	}
	var in io.Reader = os.Stdin
	name := "standard input"
	if fs.NArg() == 1 {
		name = fs.Arg(0)
		f, err := os.Open(within(env.Dir, name))
		if err != nil {
			return Exit(ExitBadInput, fmt.Errorf("report: %w", err))
		}
		defer f.Close()
		in = f
	}
	var res nopol.Result
	dec := json.NewDecoder(in)
	if err := dec.Decode(&res); err != nil {
		return Exit(ExitBadInput, fmt.Errorf("report: reading %s: %v; want the JSON nopol fix -json prints", name, err))
	}
	if err := report.Write(env.Stdout, *format, &res, report.Options{ToolVersion: version()}); err != nil {
		return Exit(ExitInternal, err)
	}
	if !res.Patched {
		return Exit(ExitNoPatch, fmt.Errorf("no patch in %s: %s", name, res.Reason))
	}
	return nil
}
