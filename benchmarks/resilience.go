package benchmarks

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/nopol-go/nopol/resilience"
)

// ResilienceRow is the resilience analysis of one module, without and
// with purified tests.
type ResilienceRow struct {
	Module, Version string
	// Plain and Purified sum the packages' summaries of the two analyses.
	Plain, Purified resilience.PackageSummary
	// Runs and Time are the plain analysis's test runs (1 per package +
	// one per pair and test) and time; PurifiedRuns and PurifiedTime the
	// purified one's.
	Runs, PurifiedRuns int
	Time, PurifiedTime time.Duration
	// Skipped are the packages the analysis left out, with why.
	Skipped []string `json:",omitempty"`
	// Error is why the module could not be analysed.
	Error string `json:",omitempty"`
}

// Resilience analyses module@version in a temp dir, once as it is and,
// when purify is set, once with its impure tests split; timeout bounds
// each analysis.
func Resilience(ctx context.Context, r *Runner, module, version string, timeout time.Duration, purify bool, progress io.Writer) ResilienceRow {
	row := ResilienceRow{Module: module, Version: version}
	fail := func(format string, args ...any) ResilienceRow {
		row.Error = fmt.Sprintf(format, args...)
		fmt.Fprintf(progress, "resilience %s@%s: %s\n", module, version, firstLine(row.Error))
		return row
	}
	dir, err := ModuleTree(ctx, r, module, version, "nopol-resilience-bench-")
	if dir != "" {
		defer os.RemoveAll(dir)
	}
	if err != nil {
		return fail("%v", err)
	}
	logf := func(format string, args ...any) {
		fmt.Fprintf(progress, "resilience %s: "+format+"\n", append([]any{module}, args...)...)
	}
	for _, pur := range []bool{false, true} {
		if pur && !purify {
			break
		}
		rep, err := resilience.Analyze(ctx, resilience.Options{Dir: dir, Timeout: timeout, Purify: pur, Logf: logf})
		if err != nil {
			return fail("%v", err)
		}
		var sum resilience.PackageSummary
		for _, s := range rep.Summaries() {
			sum.Add(s)
		}
		if pur {
			row.Purified, row.PurifiedRuns, row.PurifiedTime = sum, rep.Runs, rep.Time
		} else {
			row.Plain, row.Runs, row.Time, row.Skipped = sum, rep.Runs, rep.Time, rep.Skipped
		}
	}
	return row
}

// ResilienceTable renders rows as Markdown, in the layout of the thesis'
// Table 3.1, with the percentages of the executed pairs.
func ResilienceTable(rows []ResilienceRow) string {
	var b strings.Builder
	b.WriteString("| module | pairs | catch-all | executed | purely resilient | source-independent | source-dependent | unknown | unknown, purified | propagating | recovering: SI / SD / unknown | stretchable (suite passes) | runs, purified runs | time, purified |\n")
	b.WriteString("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|---:|---:|\n")
	var total ResilienceRow
	pct := func(n, of int) string {
		if of == 0 {
			return fmt.Sprint(n)
		}
		return fmt.Sprintf("%d (%.0f%%)", n, 100*float64(n)/float64(of))
	}
	line := func(name string, r ResilienceRow) {
		p := r.Plain
		pur := "–"
		if r.PurifiedRuns > 0 {
			pur = pct(r.Purified.Unknown, r.Purified.Executed)
		}
		rc := p.Recovering
		fmt.Fprintf(&b, "| %s | %d | %s | %d | %s | %s | %s | %s | %s | %s | %d: %s / %s / %s | %d (%d) | %d, %d | %s, %s |\n", name, p.Pairs, pct(p.CatchAll, p.Pairs), p.Executed,
			pct(p.PurelyResilient, p.Executed), pct(p.SourceIndependent, p.Executed), pct(p.SourceDependent, p.Executed),
			pct(p.Unknown, p.Executed), pur, pct(p.Propagating, p.Executed),
			rc.Executed, pct(rc.SourceIndependent, rc.Executed), pct(rc.SourceDependent, rc.Executed), pct(rc.Unknown, rc.Executed),
			p.Stretchable, p.Stretched, r.Runs, r.PurifiedRuns, r.Time.Round(time.Second), r.PurifiedTime.Round(time.Second))
	}
	for _, r := range rows {
		if r.Error != "" {
			fmt.Fprintf(&b, "| %s@%s | %s |\n", r.Module, r.Version, firstLine(r.Error))
			continue
		}
		line(r.Module+"@"+r.Version, r)
		total.Plain.Add(r.Plain)
		total.Purified.Add(r.Purified)
		total.Runs += r.Runs
		total.PurifiedRuns += r.PurifiedRuns
		total.Time += r.Time
		total.PurifiedTime += r.PurifiedTime
	}
	line("**total**", total)
	return b.String()
}
