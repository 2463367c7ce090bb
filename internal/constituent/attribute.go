package constituent

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"github.com/nopol-go/nopol/internal/gotest"
)

// Location is a file:line found in a test's output, with the test
// constituent that was running when the line was printed, if the output
// carries constituent markers (see Line).
type Location struct {
	File string
	Line int
	// Panic reports a frame of a panic's stack trace rather than a failure
	// message (t.Error, t.Fatal, ...).
	Panic bool
	// Segment and Iteration are those of the last constituent line printed
	// before this location; -1 when there was none.
	Segment, Iteration int
	// Eval is the last evaluation printed before this location (see
	// EvalLine), 0 when there was none.
	Eval int
	// Reached is the number of ReachLines printed before this location:
	// Reach(output)[:Reached] are the sites run before it.
	Reached int
}

// Line is the line the hook prints to standard output when a
// constituent starts, when asked to: NopolSegment(k) prints
// Line(k, 0), the i-th NopolIteration() of that segment prints
// Line(k, i). In verbose mode (-test.v) the testing package
// writes failure messages to standard output as they are reported, so
// ParseOutput attributes each failure to the constituent running at the
// time: this is how the failing iteration of a table-driven test is found.
func Line(segment, iteration int) string {
	return fmt.Sprintf("%s%d %d\n", Prefix, segment, iteration)
}

// Prefix starts every Line; the hook
// (collect/hookrt) writes it as a literal, checked by collect's tests.
const Prefix = "nopol-constituent "

// EvalPrefix starts every EvalLine, written by the hook as a literal too.
const EvalPrefix = "nopol-eval "

// ReachPrefix starts every ReachLine, written by the hook as a literal.
const ReachPrefix = "nopol-reach "

// RecoveredPrefix starts every line of the stack of a panic that a
// deferred function of the instrumented code recovered, printed by the
// hook (as a literal) in runs with reach lines: ParseOutput reads the
// rest of the line as if the panic had ended the test.
const RecoveredPrefix = "nopol-recovered "

// ReachLine is the line the hook prints to standard output at the first
// evaluation of a site when asked to (collect.Run.PrintReach).
func ReachLine(site int) string {
	return fmt.Sprintf("%s%d\n", ReachPrefix, site)
}

// Reach returns the sites of the ReachLines of output, in order.
func Reach(output string) []int {
	var out []int
	for line := range strings.Lines(output) {
		if m := reachRE.FindStringSubmatch(strings.TrimRight(line, "\r\n")); m != nil {
			n, _ := strconv.Atoi(m[1])
			out = append(out, n)
		}
	}
	return out
}

// EvalLine is the line the hook prints to standard output at the k-th
// evaluation of a site whose evaluations are printed
// (collect.Run.PrintEvals): a failure printed after it happened after
// that evaluation.
func EvalLine(site, k int) string {
	return fmt.Sprintf("%s%d %d\n", EvalPrefix, site, k)
}

var (
	// "    foo_test.go:12: message" (t.Error and friends, indented by
	// subtest depth).
	messageRE = regexp.MustCompile(`^\s+([^\s:]+\.go):(\d+): `)
	// "\t/abs/path/foo_test.go:12 +0x1d" (a goroutine stack frame;
	// GOTRACEBACK=system, testscript's default, adds " fp=0x… sp=0x…
	// pc=0x…").
	frameRE = regexp.MustCompile(`^\s+(\S+\.go):(\d+)(?: \+0x[0-9a-f]+)?(?: fp=0x[0-9a-f]+ sp=0x[0-9a-f]+ pc=0x[0-9a-f]+)?\s*$`)
	// "parserc.go:792" then "  in yaml_parser_split_stem_comment": a
	// frame of the stack gocheck (gopkg.in/check.v1) prints for a panic
	// it recovered in a suite's test, its file relative to the package.
	gocheckFrameRE = regexp.MustCompile(`^(\S+\.go):(\d+)$`)
	gocheckFuncRE  = regexp.MustCompile(`^  in \S+$`)
	// The hook's constituent line.
	constituentRE = regexp.MustCompile(`^` + regexp.QuoteMeta(Prefix) + `(\d+) (\d+)$`)
	// The hook's evaluation line.
	evalRE = regexp.MustCompile(`^` + regexp.QuoteMeta(EvalPrefix) + `\d+ (\d+)$`)
	// The hook's reach line.
	reachRE = regexp.MustCompile(`^` + regexp.QuoteMeta(ReachPrefix) + `(\d+)$`)
)

// ParseOutput returns the locations reported in the output of a go test
// run, in order: failure messages ("    foo_test.go:12: message") and
// frames of panic stack traces ("\t/dir/foo_test.go:12 +0x1d", or as
// gocheck prints them: "foo.go:12" then "  in F"; or after
// RecoveredPrefix, from a panic the code recovered). Frames of
// the Go runtime and of package testing are left out, and so are the
// messages of a verbose run's (sub)tests reported passed or skipped
// (t.Log).
func ParseOutput(output string) []Location {
	var (
		locs    []Location
		tests   []string // per location, the test printing it ("" unknown)
		current string
		passed  = map[string]bool{}
	)
	seg, iter, eval, reached := -1, -1, 0, 0
	var gocheckFrame []string // the previous line, when it may be a gocheck frame
	// stack is where the frames of the stack being read start in locs. A
	// frame of the runtime's panic drops the frames read before it in
	// that stack: those of deferred calls running when it panicked
	// again (yaml.v3's handleErr recovers, then re-panics what it does
	// not handle), above the place of the first panic.
	stack := 0
	frame := func(file, line string) {
		if isRuntimeFrame(file) {
			if strings.HasSuffix(filepath.ToSlash(file), "runtime/panic.go") {
				locs, tests = locs[:stack], tests[:stack]
			}
			return
		}
		n, _ := strconv.Atoi(line)
		locs = append(locs, Location{File: file, Line: n, Panic: true, Segment: seg, Iteration: iter, Eval: eval, Reached: reached})
		tests = append(tests, current)
	}
	for _, line := range strings.Split(output, "\n") {
		line = strings.TrimRight(line, "\r")
		line, _ = strings.CutPrefix(line, RecoveredPrefix)
		// A stack a test printed (debug.Stack() in its message) is
		// indented.
		if strings.HasPrefix(strings.TrimLeft(line, " \t"), "goroutine ") || strings.HasPrefix(line, "... Panic: ") {
			stack = len(locs)
		}
		prev := gocheckFrame
		gocheckFrame = gocheckFrameRE.FindStringSubmatch(line)
		if prev != nil && gocheckFuncRE.MatchString(line) {
			frame(prev[1], prev[2])
			continue
		}
		if f, ok := gotest.ParseFraming(line); ok {
			switch f.Verb {
			case "RUN", "NAME", "CONT":
				current = f.Test
			case "PASS", "SKIP":
				passed[f.Test] = true
			}
			continue
		}
		if strings.HasPrefix(line, "nopol-") {
			if m := constituentRE.FindStringSubmatch(line); m != nil {
				seg, _ = strconv.Atoi(m[1])
				iter, _ = strconv.Atoi(m[2])
				continue
			}
			if m := evalRE.FindStringSubmatch(line); m != nil {
				eval, _ = strconv.Atoi(m[1])
				continue
			}
			if reachRE.MatchString(line) {
				reached++
				continue
			}
		}
		if m := messageRE.FindStringSubmatch(line); m != nil {
			n, _ := strconv.Atoi(m[2])
			locs = append(locs, Location{File: m[1], Line: n, Segment: seg, Iteration: iter, Eval: eval, Reached: reached})
			tests = append(tests, current)
			continue
		}
		if m := frameRE.FindStringSubmatch(line); m != nil {
			frame(m[1], m[2])
		}
	}
	// A message of a (sub)test that passed is a t.Log, not a failure.
	out := locs[:0]
	for i, l := range locs {
		if l.Panic || tests[i] == "" || !passed[tests[i]] {
			out = append(out, l)
		}
	}
	return out
}

// isRuntimeFrame reports whether a stack frame's file belongs to the Go
// runtime or package testing.
func isRuntimeFrame(file string) bool {
	f := filepath.ToSlash(file)
	return strings.Contains(f, "/src/runtime/") || strings.Contains(f, "/src/internal/runtime/") || strings.Contains(f, "/src/testing/") ||
		strings.HasPrefix(f, "runtime/") || strings.HasPrefix(f, "internal/runtime/") || strings.HasPrefix(f, "testing/")
}

// Attribute returns the segment of test whose original source lines hold
// file:line. file may be a base name (as in failure messages) or a path (as
// in stack traces); it matches a constituent's File by base name when
// either is a base name, exactly otherwise.
func Attribute(cons []Constituent, test, file string, line int) (segment int, ok bool) {
	for _, c := range cons {
		if c.Test == test && sameFile(c.File, file) && c.StartLine <= line && line <= c.EndLine {
			return c.Segment, true
		}
	}
	return 0, false
}

// AttributeOutput attributes the failure of test reported in output to a
// constituent: the first location in output (see ParseOutput) that lies in
// one of test's constituents. The iteration is the one printed by the hook
// before the failure, 0 when the output has no constituent lines or the
// segment is not a table loop.
func AttributeOutput(cons []Constituent, test, output string) (segment, iteration int, ok bool) {
	for _, l := range ParseOutput(output) {
		seg, ok := Attribute(cons, test, l.File, l.Line)
		if !ok {
			continue
		}
		iter := 0
		if l.Segment == seg && l.Iteration > 0 {
			iter = l.Iteration
		}
		return seg, iter, true
	}
	return 0, 0, false
}

func sameFile(a, b string) bool {
	if a == b {
		return true
	}
	if !strings.ContainsAny(a, `/\`) || !strings.ContainsAny(b, `/\`) {
		return filepath.Base(filepath.FromSlash(a)) == filepath.Base(filepath.FromSlash(b))
	}
	return filepath.Clean(a) == filepath.Clean(b)
}
