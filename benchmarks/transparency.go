package benchmarks

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/nopol-go/nopol/collect"
)

// Transparency: instrumenting must change no test's outcome. For each
// module of a list, the check runs the whole suite plain (`go test -json`)
// and instrumented (each package's instrumented test binary, in cover
// mode, as `go test` runs it), and compares the outcome of every top-level
// test. A difference is run again, plain and instrumented, alone: a test
// whose plain runs disagree is flaky (reported, not counted as a
// difference); one whose instrumented run still differs is a nopol bug.

// TransparencyRow is the check of one module.
type TransparencyRow struct {
	Module, Version string
	// Packages with tests, their top-level tests (not skipped), and the
	// sites instrumented and reached.
	Packages, Tests, Sites, Reached int
	// Same counts the tests with the same outcome; Differ names the
	// others ("pkg.TestX: pass plain, fail instrumented"); Flaky the
	// tests whose plain runs disagree.
	Same   int
	Differ []string
	Flaky  []string
	// Plain and Instrumented are the times of the two suite runs, Build
	// the time to instrument and compile.
	Plain, Instrumented, Build time.Duration
	// Error is why the module could not be checked.
	Error string `json:",omitempty"`
}

// ReadModuleList reads "module version" lines; # starts a comment.
func ReadModuleList(r io.Reader) ([][2]string, error) {
	var out [][2]string
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		line, _, _ := strings.Cut(sc.Text(), "#")
		f := strings.Fields(line)
		switch len(f) {
		case 0:
			continue
		case 2:
			out = append(out, [2]string{f[0], f[1]})
		default:
			return nil, fmt.Errorf("module list: %q: want \"module version\"", sc.Text())
		}
	}
	return out, sc.Err()
}

// Transparency checks module@version in a temp dir; timeout bounds each
// suite run of a package.
func Transparency(ctx context.Context, r *Runner, module, version string, timeout time.Duration, progress io.Writer) TransparencyRow {
	row := TransparencyRow{Module: module, Version: version}
	fail := func(format string, args ...any) TransparencyRow {
		row.Error = fmt.Sprintf(format, args...)
		fmt.Fprintf(progress, "transparency %s@%s: %s\n", module, version, firstLine(row.Error))
		return row
	}
	dir, err := ModuleTree(ctx, r, module, version, "nopol-transparency-")
	if dir != "" {
		defer os.RemoveAll(dir)
	}
	if err != nil {
		return fail("%v", err)
	}
	prog, err := collect.Load(ctx, dir, []string{"./..."})
	if err != nil {
		return fail("%v", err)
	}
	row.Packages, row.Sites = len(prog.Packages), len(prog.Sites)
	start := time.Now()
	base, err := collect.Baseline(ctx, prog, timeout)
	row.Plain = time.Since(start)
	if err != nil {
		return fail("plain run: %v", err)
	}
	b, err := collect.Instrument(ctx, prog)
	if err != nil {
		return fail("instrumenting: %v", err)
	}
	defer b.Close()
	row.Build = b.BuildTime
	start = time.Now()
	inst := map[string]collect.PackageRun{}
	reached := map[int]bool{}
	for _, p := range prog.Packages {
		pr, err := b.RunPackage(ctx, p, timeout)
		if err != nil {
			return fail("instrumented run: %v", err)
		}
		inst[p] = pr
		for id := range pr.Reached {
			reached[id] = true
		}
	}
	row.Reached = len(reached)
	row.Instrumented = time.Since(start)
	var differ []collect.TestResult
	for _, t := range base {
		if t.Skipped {
			continue
		}
		row.Tests++
		if want, got := outcome(t), inst[t.Package].Tests[t.Test]; got == want {
			row.Same++
			continue
		}
		differ = append(differ, t)
	}
	// Differences: run again alone, plain several times, instrumented
	// once.
	for _, t := range differ {
		got := inst[t.Package].Tests[t.Test]
		counts, err := collect.Rerun(ctx, prog, nil, []collect.TestID{{Package: t.Package, Test: t.Test}}, 3, timeout)
		if err != nil {
			return fail("running %s again: %v", t.Test, err)
		}
		c := counts[collect.TestID{Package: t.Package, Test: t.Test}]
		if c.Passes > 0 && (c.Fails > 0 || !t.Passed) {
			row.Flaky = append(row.Flaky, t.Package+"."+t.Test)
			row.Same++ // not a difference of the instrumentation
			continue
		}
		alone, err := b.Run(ctx, collect.Run{Package: t.Package, Test: t.Test, Mode: collect.ModeCover, ForceSegment: -1, Timeout: timeout})
		if err != nil {
			return fail("running %s instrumented: %v", t.Test, err)
		}
		if alone.Passed == t.Passed {
			// Alone it agrees: the whole-suite difference is an
			// interaction the plain run did not show. Still a difference.
			got += " (alone: same as plain)"
		}
		row.Differ = append(row.Differ, fmt.Sprintf("%s.%s: %s plain, %q instrumented", t.Package, t.Test, outcome(t), got))
	}
	sort.Strings(row.Differ)
	sort.Strings(row.Flaky)
	fmt.Fprintf(progress, "transparency %s@%s: %d/%d tests the same, %d flaky, %d sites (%d reached); plain %s, instrumented %s\n",
		module, version, row.Same, row.Tests, len(row.Flaky), row.Sites, row.Reached, row.Plain.Round(time.Millisecond), row.Instrumented.Round(time.Millisecond))
	return row
}

func outcome(t collect.TestResult) string {
	switch {
	case t.Skipped:
		return "skip"
	case t.Passed:
		return "pass"
	}
	return "fail"
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

// TransparencyTable renders rows as a Markdown table with a total line.
func TransparencyTable(rows []TransparencyRow) string {
	var b strings.Builder
	b.WriteString("| module | version | packages | tests | same | differ | flaky | sites | reached | plain | instrumented | build |\n")
	b.WriteString("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n")
	var tests, same, differ, flaky, checked int
	for _, r := range rows {
		if r.Error != "" {
			fmt.Fprintf(&b, "| %s | %s | not checked: %s |||||||||\n", r.Module, r.Version, mdEscape(firstLine(r.Error)))
			continue
		}
		checked++
		tests += r.Tests
		same += r.Same
		differ += len(r.Differ)
		flaky += len(r.Flaky)
		fmt.Fprintf(&b, "| %s | %s | %d | %d | %d | %d | %d | %d | %d | %.1fs | %.1fs | %.1fs |\n", r.Module, r.Version, r.Packages, r.Tests, r.Same,
			len(r.Differ), len(r.Flaky), r.Sites, r.Reached, r.Plain.Seconds(), r.Instrumented.Seconds(), r.Build.Seconds())
	}
	fmt.Fprintf(&b, "| **%d modules checked** | | | **%d** | **%d** | **%d** | %d | | | | | |\n", checked, tests, same, differ, flaky)
	for _, r := range rows {
		for _, d := range r.Differ {
			fmt.Fprintf(&b, "\n- differs: %s@%s %s", r.Module, r.Version, d)
		}
		for _, f := range r.Flaky {
			fmt.Fprintf(&b, "\n- flaky (plain runs disagree): %s@%s %s", r.Module, r.Version, f)
		}
	}
	b.WriteString("\n")
	return b.String()
}

// TransparencyList is the default module list, benchmarks/transparency.txt
// relative to the bugs dir's parent.
func TransparencyList(bugsDir string) string {
	return filepath.Join(filepath.Dir(bugsDir), "transparency.txt")
}
