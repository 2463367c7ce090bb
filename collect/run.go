package collect

import (
	"bufio"
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/nopol-go/nopol/internal/gotest"
)

// defaultRunTimeout is the per-run timeout when Run.Timeout is 0.
const defaultRunTimeout = 30 * time.Second

// testRunPattern returns the -test.run pattern selecting exactly test
// (and, if sub is not "", its subtest path "Test/a/b"; else, if subs is
// not empty, the subtests named at each depth of the paths subs).
func testRunPattern(test, sub string, subs []string) string {
	paths := []string{test}
	switch {
	case sub != "":
		paths = []string{sub}
	case len(subs) > 0:
		paths = subs
	}
	var levels [][]string
	for _, p := range paths {
		for i, name := range strings.Split(p, "/") {
			if i == 0 {
				name = test
			}
			if i == len(levels) {
				levels = append(levels, nil)
			}
			if !slices.Contains(levels[i], name) {
				levels[i] = append(levels[i], name)
			}
		}
	}
	parts := make([]string, len(levels))
	for i, names := range levels {
		parts[i] = exactlyOneOf(names)
	}
	return strings.Join(parts, "/")
}

// exactlyOneOf is the pattern that matches each of names, and nothing
// else: "^a$", or "^(a|b)$" (quoted, sorted).
func exactlyOneOf(names []string) string {
	quoted := make([]string, len(names))
	for i, n := range names {
		quoted[i] = regexp.QuoteMeta(n)
	}
	slices.Sort(quoted)
	if len(quoted) == 1 {
		return "^" + quoted[0] + "$"
	}
	return "^(" + strings.Join(quoted, "|") + ")$"
}

// Run executes r against the build.
func (b *Build) Run(ctx context.Context, r Run) (Result, error) {
	bin := b.Binaries[r.Package]
	if bin == "" {
		return Result{}, fmt.Errorf("running %s: no test binary for package %s", r.Test, r.Package)
	}
	if r.Mode == ModeSnapshot {
		sb, err := b.snapshotBinary(ctx, r.Package)
		if err != nil {
			return Result{}, fmt.Errorf("running %s: %w", r.Test, err)
		}
		if sb != "" {
			bin = sb
		}
	}
	dir, ctx, end, err := b.begin(ctx)
	if err != nil {
		return Result{}, fmt.Errorf("running %s: %w", r.Test, err)
	}
	defer end()
	out := filepath.Join(dir, "runs", strconv.FormatInt(b.runs.Add(1), 10)+".jsonl")
	defer removeRecords(out)

	timeout := r.Timeout
	if timeout <= 0 {
		timeout = defaultRunTimeout
	}
	name := r.Test
	if r.Subtest != "" {
		name = r.Subtest
	}
	limit := "-test.timeout=0"
	if r.StackOnTimeout {
		limit = "-test.timeout=" + stackTimeout(timeout).String()
	}
	pattern, after := b.Program.afterRun(r)
	args := []string{"-test.run=" + pattern, "-test.count=1", gotest.VerboseFlag, limit}
	if len(r.SkipSubtests) > 0 && after == "" {
		args = append(args, "-test.skip="+testRunPattern(r.Test, "", r.SkipSubtests))
	}
	if len(r.Gocheck) > 0 && after == "" {
		args = append(args, "-check.f="+exactlyOneOf(r.Gocheck))
	}
	if r.GocheckList && after == "" {
		args = append(args, "-check.list")
	}
	inv := &gotest.Invocation{
		Path:    bin,
		Args:    args,
		Dir:     b.Program.pkgDir(r.Package),
		Env:     append(runEnv(r, out), "NOPOL_AFTER="+after),
		Timeout: timeout,
		MaxRSS:  b.Program.memoryCap(r.MaxRSS),
	}
	if r.EvalLimit > 0 && r.Mode != ModeSnapshot {
		// The quiet sites of a cover run only count: the limit is
		// watched here, in the counts file.
		w := &countsWatch{name: countsFile(out), limit: r.EvalLimit}
		defer w.close()
		inv.Stop = w.over
	}
	o, err := b.runner.Run(ctx, inv)
	res := Result{
		Output:   string(o.Stdout) + string(o.Stderr),
		Duration: o.Duration,
		TimedOut: o.TimedOut,
		PeakRSS:  o.PeakRSS,
		CPU:      o.CPU,
	}
	if after != "" {
		res.Output = fromStart(res.Output, r.Test)
	}
	if strings.Contains(res.Output, HangLine) {
		res.Hung, res.TimedOut = true, true
	}
	if r.StackOnTimeout && strings.Contains(res.Output, testTimeoutLine) {
		res.TimedOut = true
	}
	var exit *gotest.ExitError
	switch {
	case err == nil:
		res.Passed = strings.Contains(res.Output, "--- PASS: "+name+" (")
	case gotest.IsTimeout(err):
	case gotest.IsStopped(err):
		res.Hung, res.TimedOut, res.OverMemory = true, true, o.OverMemory
	case errors.As(err, &exit):
		// A test run before this one may fail (Run.Before).
		res.Passed = after != "" && exit.Code == 1 && strings.Contains(res.Output, "--- PASS: "+name+" (")
	default:
		return res, fmt.Errorf("running %s of %s: %w", name, r.Package, err)
	}
	evals, reached, perr := readRecords(out)
	if perr != nil {
		return res, fmt.Errorf("running %s of %s: reading records: %w", name, r.Package, perr)
	}
	res.Evals, res.Reached = evals, reached
	if r.EvalLimit > 0 && !res.Hung && res.Evaluations() >= r.EvalLimit {
		// The counts file is watched every few milliseconds: a run
		// that reached the limit and ended before a look is as hung
		// as one stopped at the limit.
		res.Hung, res.TimedOut, res.Passed = true, true, false
	}
	return res, nil
}

// countsWatch watches a run's counts file (countsFile) for its
// evaluation limit: in cover mode the sites that are neither forced nor
// printed stay quiet under a limit, counting in the mapped file without a
// call, and the hook cannot check the limit at their evaluations. (A
// goroutine of the hook's own would show in the goroutine dumps and leak
// checks of the tests under repair.) Loud at every evaluation, a forced
// run of uniseg's line tests took twice as long.
type countsWatch struct {
	name  string
	limit int64
	f     *os.File
	buf   []byte
}

// over reports whether the counts of all sites sum to the limit; false
// while the file does not exist or is not yet sized.
func (w *countsWatch) over() bool {
	if w.f == nil {
		f, err := os.Open(w.name)
		if err != nil {
			return false
		}
		w.f = f
	}
	if w.buf == nil {
		// The hook sizes the file once, before its first count.
		fi, err := w.f.Stat()
		if err != nil {
			return false
		}
		n, ok := countsSites(fi.Size())
		if !ok {
			return false
		}
		w.buf = make([]byte, 16*n)
	}
	if _, err := w.f.ReadAt(w.buf, 0); err != nil {
		return false
	}
	var sum int64
	for i := 0; i < len(w.buf); i += 8 {
		sum += int64(binary.LittleEndian.Uint64(w.buf[i:]))
	}
	return sum >= w.limit
}

func (w *countsWatch) close() {
	if w.f != nil {
		w.f.Close()
	}
}

// Evaluations is the number of evaluations of all sites in the run (the
// sum of Reached).
func (res Result) Evaluations() int64 {
	var n int64
	for _, c := range res.Reached {
		n += int64(c[0] + c[1])
	}
	return n
}

// testTimeoutLine starts the panic of a test binary's -test.timeout.
const testTimeoutLine = "panic: test timed out after "

// stackTimeout is the -test.timeout of a run with Run.StackOnTimeout and
// Timeout d: a quarter earlier (at least 300ms), so that the binary has
// time to print its goroutines before it is killed.
func stackTimeout(d time.Duration) time.Duration {
	return d - max(d/4, 300*time.Millisecond)
}

// HangLine is what the hook prints when a run reaches its Run.EvalLimit,
// before it ends the process (exit status 3).
const HangLine = "nopol-hang: the evaluation limit was reached\n"

// runEnv returns the hook's environment for r, writing records to out.
func runEnv(r Run, out string) []string {
	mode := "cover"
	if r.Mode == ModeSnapshot {
		mode = "snapshot"
	}
	var force, ret, sites, flip []string
	for _, id := range sortedKeys(r.FlipEval) {
		for _, k := range r.FlipEval[id] {
			flip = append(flip, strconv.Itoa(id)+":"+strconv.Itoa(k))
		}
	}
	var preds []string
	for _, id := range sortedKeys(r.Predicates) {
		preds = append(preds, strconv.Itoa(id)+":"+r.Predicates[id].env())
	}
	var printEvals []string
	for _, id := range r.PrintEvals {
		printEvals = append(printEvals, strconv.Itoa(id))
	}
	for _, id := range sortedKeys(r.Force) {
		force = append(force, strconv.Itoa(id)+"="+strconv.FormatBool(r.Force[id]))
	}
	for _, id := range sortedKeys(r.ForceExit) {
		ret = append(ret, strconv.Itoa(id)+":"+strconv.Itoa(r.ForceExit[id]))
	}
	for _, id := range r.Sites {
		sites = append(sites, strconv.Itoa(id))
	}
	var segs []string
	switch {
	case len(r.ForceConstituents) > 0:
		for i, c := range r.ForceConstituents {
			if c.Segment >= 0 {
				seg := strconv.Itoa(c.Segment) + "." + strconv.Itoa(max(c.Iteration, -1))
				if i < len(r.ForceValues) {
					seg += "=" + strconv.FormatBool(r.ForceValues[i])
				}
				segs = append(segs, seg)
			}
		}
		if len(segs) == 0 {
			segs = []string{"none"} // no valid constituent: force nowhere
		}
	case r.ForceSegment >= 0:
		segs = []string{strconv.Itoa(r.ForceSegment) + "." + strconv.Itoa(max(r.ForceIteration, -1))}
	}
	return []string{
		"NOPOL_MODE=" + mode,
		"NOPOL_OUT=" + out,
		"NOPOL_COUNTS=" + countsFile(out),
		"NOPOL_FORCE=" + strings.Join(force, ","),
		"NOPOL_RETURN=" + strings.Join(ret, ","),
		"NOPOL_SITES=" + strings.Join(sites, ","),
		"NOPOL_FORCE_SEG=" + strings.Join(segs, ","),
		"NOPOL_CAND=",
		"NOPOL_FLIP=" + strings.Join(flip, ","),
		"NOPOL_PRED=" + strings.Join(preds, ","),
		"NOPOL_PRINT_EVALS=" + strings.Join(printEvals, ","),
		"NOPOL_PRINT_EVALS_MAX=" + strconv.Itoa(MaxPrintedEvals),
		"NOPOL_CAP=" + strconv.Itoa(recordCap(r)),
		"NOPOL_NOCALLS=" + map[bool]string{true: "1"}[r.NoCalls],
		"NOPOL_PRINT_CONSTITUENTS=" + map[bool]string{true: "1"}[r.PrintConstituents],
		"NOPOL_PRINT_REACH=" + map[bool]string{true: "1"}[r.PrintReach],
		"NOPOL_EVAL_LIMIT=" + strconv.FormatInt(r.EvalLimit, 10),
		"NOPOL_MAX_STACK=" + map[bool]string{true: strconv.Itoa(stackOnTimeoutMaxStack)}[r.StackOnTimeout],
	}
}

// recordCap is the NOPOL_CAP of run r: RecordCap, 0 for a cover run
// with Run.CountsOnly.
func recordCap(r Run) int {
	if r.CountsOnly && r.Mode != ModeSnapshot {
		return 0
	}
	return RecordCap
}

// stackOnTimeoutMaxStack is the stack limit of a goroutine, in bytes, in a
// run with Run.StackOnTimeout (the hook's default is 256 MB): a runaway
// recursion overflows within a fraction of a second even instrumented,
// with its stack printed. At the time limit instead, a goroutine still
// copying its stack of hundreds of megabytes is "running on other
// thread; stack unavailable" in the dump, and the recursion is unseen.
const stackOnTimeoutMaxStack = 32 << 20

func sortedKeys[V any](m map[int]V) []int {
	keys := make([]int, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Ints(keys)
	return keys
}

// record is one line of the hook's output.
type record struct {
	Site      int     `json:"s"`
	Outcome   bool    `json:"o"`
	Values    []Value `json:"v"`
	Segment   int     `json:"g"`
	Iteration int     `json:"i"`
	Count     int     `json:"n"`
}

// countsFile is the file of the evaluation counts of a run whose records
// go to out (NOPOL_COUNTS), little-endian int64: per site the false and
// true evaluations; then per site the same counts when the hook last
// wrote a record for them; then the test constituent running when the
// process ended (segment, iteration).
func countsFile(out string) string { return out + ".counts" }

// removeRecords removes the record and counts files of a run.
func removeRecords(out string) {
	os.Remove(out)
	os.Remove(countsFile(out))
}

// readRecords parses the hook's record file name and its counts file. A
// missing file means no site was reached. The counts (or, when the hook
// could not map them, count lines written at powers of two) raise
// Reached without adding evaluations, except those made since their
// site's last record: a quiet site writes its coverage records when the
// next test constituent starts, so its evaluations in the last one are
// only counted, and become one evaluation of that constituent.
func readRecords(name string) ([]Eval, map[int][2]int, error) {
	reached := map[int][2]int{}
	counted, unflushed := readCounts(countsFile(name))
	data, err := os.ReadFile(name)
	if err != nil && !os.IsNotExist(err) {
		return nil, nil, err
	}
	var evals []Eval
	evaluated := func(e Eval) {
		c := reached[e.Site]
		c[OutcomeIndex(e.Outcome)]++
		reached[e.Site] = c
		evals = append(evals, e)
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 64*1024), 64*1024*1024)
	for sc.Scan() {
		var rec record
		if err := json.Unmarshal(sc.Bytes(), &rec); err != nil {
			continue // a line cut by a kill
		}
		o := OutcomeIndex(rec.Outcome)
		if rec.Count > 0 {
			c := counted[rec.Site]
			c[o] = max(c[o], rec.Count)
			counted[rec.Site] = c
			continue
		}
		evaluated(Eval{
			Site:      rec.Site,
			Outcome:   rec.Outcome,
			Values:    rec.Values,
			Segment:   rec.Segment,
			Iteration: rec.Iteration,
		})
	}
	for _, e := range unflushed {
		evaluated(e)
	}
	return evals, mergeCounts(reached, counted), sc.Err()
}

// readCounts parses a counts file (see countsFile): the counts by site,
// and one evaluation per site and outcome counted since its last record,
// in the last constituent. A missing or malformed file counts nothing.
func readCounts(name string) (map[int][2]int, []Eval) {
	counted := map[int][2]int{}
	data, err := os.ReadFile(name)
	sites, ok := countsSites(int64(len(data)))
	if err != nil || !ok {
		return counted, nil
	}
	word := func(i int) int64 { return int64(binary.LittleEndian.Uint64(data[8*i:])) }
	n := int(sites)
	seg, iter := int(word(4*n)), int(word(4*n+1))
	var unflushed []Eval
	for id := range n {
		f, t := word(2*id), word(2*id+1)
		if f > 0 || t > 0 {
			counted[id] = [2]int{int(f), int(t)}
		}
		for o := range 2 {
			if word(2*id+o) > word(2*n+2*id+o) {
				unflushed = append(unflushed, Eval{Site: id, Outcome: o == 1, Segment: seg, Iteration: iter})
			}
		}
	}
	return counted, unflushed
}

// countsSites is the number of sites of a counts file of size bytes
// (see countsFile); false for a size no counts file has.
func countsSites(size int64) (int64, bool) {
	if size%8 != 0 || size < 16 || (size/8-2)%4 != 0 {
		return 0, false
	}
	return (size/8 - 2) / 4, true
}

// OutcomeIndex is the index of an outcome in a site's counts
// (Result.Reached): 0 false, 1 true.
func OutcomeIndex(v bool) int {
	if v {
		return 1
	}
	return 0
}

// mergeCounts raises the evaluations reached counts of lines to counted.
func mergeCounts(reached, counted map[int][2]int) map[int][2]int {
	for id, c := range counted {
		r := reached[id]
		r[0], r[1] = max(r[0], c[0]), max(r[1], c[1])
		reached[id] = r
	}
	return reached
}

// binaryRun is the outcome of a package's whole suite in its test binary.
type binaryRun struct {
	// tests are the results by top-level test, order the tests in order
	// of report.
	tests map[string]gotest.TestSummary
	order []string
	// passed reports that every run exited 0 and no test failed; output
	// holds the output of the runs that did not.
	passed   bool
	output   string
	timedOut bool
	// hung: a run reached the evaluation limit (HangLine) or the memory
	// cap (overMemory).
	hung, overMemory bool
}

// binarySuite runs the tests of package path in its test binary bin (with
// the extra environment env) with -test.v, one process per round: a
// crash keeps the tests after it from running, and the tests it only
// interrupted did not fail (gotest.ParseVerbose), so those run again in
// the next round, until every test has a result or a round adds none.
// timeout bounds each round.
func (prog *Program) binarySuite(ctx context.Context, runner *gotest.Runner, path, bin string, env []string, timeout time.Duration) (binaryRun, error) {
	return prog.binaryTests(ctx, runner, path, bin, env, timeout, 0, prog.Tests[path], false)
}

// binaryTests is binarySuite for the top-level tests names of the package
// only (all of them when names is the package's list); maxRSS, when > 0,
// caps each round's resident memory (gotest.Invocation.MaxRSS). With
// firstFailure, the run ends at the first test or subtest that fails
// (-test.failfast, and no round after it): the tests after it do not
// start and are not in the result, except the examples, which the testing
// package runs anyway, and the parallel subtests already started.
func (prog *Program) binaryTests(ctx context.Context, runner *gotest.Runner, path, bin string, env []string, timeout time.Duration, maxRSS int64, names []string, firstFailure bool) (binaryRun, error) {
	br := binaryRun{tests: map[string]gotest.TestSummary{}, passed: true}
	args := []string{"-test.count=1", gotest.VerboseFlag, "-test.timeout=0"}
	if firstFailure {
		args = append(args, "-test.failfast")
	}
	if prog.skip != "" {
		args = append(args, "-test.skip="+prog.skip)
	}
	run := ""
	if !slices.Equal(names, prog.Tests[path]) {
		run = namesPattern(names)
	}
	for round := 0; round < 20; round++ {
		a := args
		if run != "" {
			a = append(slices.Clip(args), "-test.run="+run)
		}
		out, err := runner.Run(ctx, &gotest.Invocation{Path: bin, Args: a, Dir: prog.pkgDir(path), Env: env, Timeout: timeout, MaxRSS: prog.memoryCap(maxRSS)})
		var exit *gotest.ExitError
		switch {
		case err == nil:
		case gotest.IsTimeout(err):
			br.timedOut = true
		case gotest.IsStopped(err): // past maxRSS
			br.timedOut, br.hung, br.overMemory = true, true, out.OverMemory
		case errors.As(err, &exit):
		default:
			return br, err
		}
		output := string(out.Stdout) + string(out.Stderr)
		if strings.Contains(output, HangLine) {
			br.timedOut, br.hung = true, true
		}
		failed, progress := false, false
		for _, t := range gotest.ParseVerbose(output, err != nil) {
			if t.Action == "" {
				continue
			}
			if _, ok := br.tests[t.Test]; ok {
				continue
			}
			br.tests[t.Test] = t
			br.order = append(br.order, t.Test)
			progress = true
			failed = failed || t.Action == "fail"
		}
		if err != nil || failed {
			br.passed = false
			br.output += output
		}
		if err == nil || br.timedOut || !progress || firstFailure && !br.passed {
			break
		}
		var left []string
		for _, name := range names {
			if _, ok := br.tests[name]; !ok {
				left = append(left, name)
			}
		}
		if len(left) == 0 {
			break
		}
		run = namesPattern(left)
	}
	return br, nil
}

// PackageRun is the outcome of a package's whole suite in the
// instrumented binary.
type PackageRun struct {
	// Tests are the results by top-level test name: "pass", "fail",
	// "skip", or "" for a test that never finished.
	Tests map[string]string
	// Reached are the sites reached.
	Reached  map[int]bool
	TimedOut bool
	Duration time.Duration
}

// RunPackage runs every test of package pkg in the instrumented binary, in
// cover mode, in one process (more after a crash), as `go test` runs them:
// this checks that instrumenting changes no test's outcome.
func (b *Build) RunPackage(ctx context.Context, pkg string, timeout time.Duration) (PackageRun, error) {
	bin := b.Binaries[pkg]
	if bin == "" {
		return PackageRun{}, fmt.Errorf("running %s: no test binary", pkg)
	}
	dir, ctx, end, err := b.begin(ctx)
	if err != nil {
		return PackageRun{}, fmt.Errorf("running %s: %w", pkg, err)
	}
	defer end()
	out := filepath.Join(dir, "runs", strconv.FormatInt(b.runs.Add(1), 10)+".jsonl")
	defer removeRecords(out)
	start := time.Now()
	br, err := b.Program.binarySuite(ctx, b.runner, pkg, bin, runEnv(Run{ForceSegment: -1}, out), timeout)
	if err != nil {
		return PackageRun{}, fmt.Errorf("running %s: %w", pkg, err)
	}
	pr := PackageRun{Tests: map[string]string{}, TimedOut: br.timedOut, Duration: time.Since(start)}
	for name, t := range br.tests {
		pr.Tests[name] = t.Action
	}
	_, reached, err := readRecords(out)
	if err != nil {
		return pr, fmt.Errorf("running %s: reading records: %w", pkg, err)
	}
	pr.Reached = map[int]bool{}
	for id := range reached {
		pr.Reached[id] = true
	}
	return pr, nil
}
