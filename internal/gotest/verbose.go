package gotest

import (
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// ParseVerbose reads the -test.v output of a test binary run directly and
// returns one summary per top-level test, in order of first appearance,
// in time linear in the output; each test's output is capped (head and
// tail). Subtests are counted under -test.v=test2json only (their result
// lines are framed; plain -test.v indents them).
//
// Under -test.v=test2json (VerboseFlag) framing lines are found after a
// test's output without a newline too, and the binary's own result line
// (PASS or FAIL, marked as framing) belongs to no test: the last test of
// a run would otherwise carry a FAIL line that it does not carry in a
// run of more tests.
//
// A test that started but has no result line (the binary panicked, exited
// or was killed) gets Action "" unless crashed is true and the crash is
// its own: the test whose goroutine panicked (named by the stack trace, or
// by "created by" for a goroutine it started), the tests a test timeout
// lists as running, or else the test that was running when the panic was
// printed. Those get "fail"; the other unfinished tests (paused parallel
// tests, tests waiting for their subtests) did not fail: they are left
// for the caller to run again. See CrashedTests.
func ParseVerbose(output string, crashed bool) []TestSummary {
	var out []TestSummary
	var texts []capText
	index := map[string]int{}
	get := func(name string) int {
		i, ok := index[name]
		if !ok {
			i = len(out)
			index[name] = i
			out = append(out, TestSummary{Test: name})
			texts = append(texts, capText{})
		}
		return i
	}
	var current, atPanic string
	var crash capText // the output from the first panic on
	panicked := false
	handle := func(line string, framing bool) {
		fr, isFraming := ParseFraming(line)
		switch {
		case framing && isFraming && !fr.Result():
			top, _, _ := strings.Cut(fr.Test, "/")
			current = top
			if top != "" {
				texts[get(top)].add(line)
			}
			return
		case framing && isFraming && !fr.Indented:
			name, dur := fr.Test, fr.Elapsed
			if top, _, sub := strings.Cut(name, "/"); sub {
				// A subtest's result (not indented under test2json).
				i := get(top)
				texts[i].add(line)
				out[i].addSubtest(name, strings.ToLower(fr.Verb))
				current = top
				return
			}
			i := get(name)
			out[i].Action = strings.ToLower(fr.Verb)
			out[i].Elapsed = parseParenDuration(dur)
			texts[i].add(line)
			current = name
			return
		case !panicked && (strings.HasPrefix(line, "panic: ") || strings.HasPrefix(line, "fatal error: ")):
			atPanic, panicked = current, true
		}
		if panicked {
			crash.add(line)
		}
		if current != "" {
			texts[get(current)].add(line)
		}
	}
	for len(output) > 0 {
		line := output
		if i := strings.IndexByte(output, '\n'); i >= 0 {
			line, output = output[:i+1], output[i+1:]
		} else {
			output = ""
		}
		if !strings.Contains(line, testFraming) {
			// Plain -test.v: framing lines are known by their start.
			handle(line, true)
			continue
		}
		// -test.v=test2json: a framing line starts at a marker, maybe
		// after output without a newline; the rest is output.
		parts := strings.Split(line, testFraming)
		if parts[0] != "" {
			handle(parts[0]+"\n", false)
		}
		for _, p := range parts[1:] {
			if p == "PASS\n" || p == "FAIL\n" {
				current = ""
				continue
			}
			handle(p, true)
		}
	}
	for i := range out {
		out[i].Output = texts[i].String()
	}
	if !crashed {
		return out
	}
	culprits := CrashedTests(crash.String())
	if len(culprits) == 0 && atPanic != "" {
		culprits = []string{atPanic}
	}
	known := false
	for _, c := range culprits {
		if _, ok := index[c]; ok {
			known = true
		}
	}
	for i := range out {
		if out[i].Action != "" {
			continue
		}
		// Without a culprit among the unfinished tests, each of them
		// may be it.
		if !known || slices.Contains(culprits, out[i].Test) {
			out[i].Action = "fail"
		}
	}
	return out
}

// CrashedTests returns the top-level tests that a crash printed in output
// is attributed to: the tests listed as running by a test timeout
// ("panic: test timed out after ..."), or the test function on the stack
// of the goroutine that panicked first, or the test that started that
// goroutine ("created by pkg.TestX"). It returns nil when output holds no
// crash or no test can be named.
func CrashedTests(output string) []string {
	if i := strings.Index(output, "panic: test timed out after "); i >= 0 {
		var names []string
		rest := output[i:]
		if j := strings.Index(rest, "running tests:\n"); j >= 0 {
			for _, line := range strings.Split(rest[j+len("running tests:\n"):], "\n") {
				f := strings.Fields(line)
				if len(f) == 0 || !strings.HasPrefix(line, "\t") {
					break
				}
				top, _, _ := strings.Cut(f[0], "/")
				if !slices.Contains(names, top) {
					names = append(names, top)
				}
			}
		}
		return names
	}
	p := strings.Index(output, "\npanic: ")
	if strings.HasPrefix(output, "panic: ") {
		p = 0
	}
	if f := strings.Index(output, "fatal error: "); p < 0 || (f >= 0 && f < p) {
		p = f
	}
	if p < 0 {
		return nil
	}
	rest := output[p:]
	g := strings.Index(rest, "\ngoroutine ")
	if g < 0 {
		return nil
	}
	rest = rest[g+1:]
	if end := strings.Index(rest, "\n\n"); end >= 0 {
		rest = rest[:end]
	}
	var createdBy string
	for _, line := range strings.Split(rest, "\n")[1:] {
		if strings.HasPrefix(line, "\t") {
			continue
		}
		if after, ok := strings.CutPrefix(line, "created by "); ok {
			createdBy = after
			continue
		}
		if name := testOfFrame(line); name != "" {
			return []string{name}
		}
	}
	if name := testOfFrame(createdBy); name != "" {
		return []string{name}
	}
	return nil
}

// RunawayDepth is how many frames of one call line make a goroutine's
// stack a runaway recursion. Go prints at most 50 frames at each end of
// a deep stack.
const RunawayDepth = 20

// Recursing returns the top-level tests whose goroutines, in a crash's
// goroutine dump printed in output (a stack overflow, a test timeout),
// repeat one call line at least RunawayDepth times: a recursion that
// would not have ended. A test that hangs in such a recursion is a test
// that fails, not one too slow for the time limit.
func Recursing(output string) []string {
	var names []string
	for _, g := range goroutines(output) {
		calls := map[string]int{}
		deepest := 0
		for _, line := range g.lines {
			if call, ok := frameCall(line); ok {
				calls[call]++
				deepest = max(deepest, calls[call])
			}
		}
		if deepest >= RunawayDepth && g.test != "" && !slices.Contains(names, g.test) {
			names = append(names, g.test)
		}
	}
	return names
}

// Spinning returns the top-level tests that a test timeout printed in
// output found busy: a goroutine of theirs was running or runnable, not
// parked on a channel, a lock or a sleep, when the time limit struck (the
// timeout's own goroutine aside). Such a test spins in a loop that does
// not end, or computes longer than the limit; a test that waits forever
// is not one of them. A busy goroutine whose stack the runtime could not
// print (it ran on another thread) counts for every test the timeout
// names as running.
func Spinning(output string) []string {
	if !strings.Contains(output, "panic: test timed out after ") {
		return nil
	}
	var names []string
	add := func(name string) {
		if name != "" && !slices.Contains(names, name) {
			names = append(names, name)
		}
	}
	for _, g := range goroutines(output) {
		if g.state != "running" && g.state != "runnable" || strings.Contains(g.block, "testing.(*M).startAlarm") {
			continue
		}
		if g.test != "" {
			add(g.test)
			continue
		}
		if strings.Contains(g.block, "stack unavailable") {
			for _, name := range CrashedTests(output) {
				add(name)
			}
		}
	}
	return names
}

// goroutine is one goroutine of a dump: its state ("running", "chan
// receive"), its lines after the header, and the top-level test it runs
// for (the first test function on its stack, or the one that created it).
type goroutine struct {
	block, state, test string
	lines              []string
}

// goroutines splits the goroutine dump printed in output into its
// goroutines.
func goroutines(output string) []goroutine {
	var out []goroutine
	for _, block := range strings.Split(output, "\n\n") {
		block = strings.TrimSpace(block)
		if !strings.HasPrefix(block, "goroutine ") {
			continue
		}
		header, rest, _ := strings.Cut(block, "\n")
		g := goroutine{block: block, lines: strings.Split(rest, "\n")}
		if _, st, ok := strings.Cut(header, " ["); ok {
			st, _, _ = strings.Cut(st, "]")
			g.state, _, _ = strings.Cut(st, ",") // "select, 2 minutes"
		}
		for _, line := range g.lines {
			if _, ok := frameCall(line); ok {
				continue
			}
			if name := testOfFrame(strings.TrimPrefix(line, "created by ")); name != "" {
				g.test = name
				break
			}
		}
		out = append(out, g)
	}
	return out
}

// frameCall returns the file and line of a stack frame's call line,
// "\t/dir/a.go:12 +0x1d"; false for any other line.
func frameCall(line string) (string, bool) {
	rest, ok := strings.CutPrefix(line, "\t")
	if !ok {
		return "", false
	}
	if i := strings.IndexByte(rest, ' '); i >= 0 {
		rest = rest[:i]
	}
	file, num, ok := strings.Cut(rest, ".go:")
	if !ok || file == "" || num == "" || strings.Trim(num, "0123456789") != "" {
		return "", false
	}
	return rest, true
}

// testOfFrame returns the test a stack frame's function belongs to:
// "example.com/m.TestX(0xc0)" and "example.com/m.TestX.func1()" give
// TestX; other functions give "".
func testOfFrame(frame string) string {
	if i := strings.IndexByte(frame, ' '); i >= 0 {
		frame = frame[:i] // "pkg.TestX in goroutine 7"
	}
	if i := strings.LastIndex(frame, "("); i > 0 && strings.HasSuffix(frame, ")") {
		frame = frame[:i]
	}
	if i := strings.LastIndexByte(frame, '/'); i >= 0 {
		frame = frame[i+1:]
	}
	parts := strings.Split(frame, ".")
	if len(parts) < 2 {
		return ""
	}
	name := parts[1]
	if name == "TestMain" {
		return ""
	}
	for _, prefix := range []string{"Test", "Example", "Fuzz"} {
		if IsTestName(name, prefix) {
			return name
		}
	}
	return ""
}

// IsTestName reports whether name is prefix followed by nothing or a
// non-lowercase rune, as `go test` requires of the names of tests
// ("Test"), fuzz tests ("Fuzz") and examples ("Example").
func IsTestName(name, prefix string) bool {
	if !strings.HasPrefix(name, prefix) {
		return false
	}
	if len(name) == len(prefix) {
		return true
	}
	r, _ := utf8.DecodeRuneInString(name[len(prefix):])
	return !unicode.IsLower(r)
}

// Framing is a framing line of a verbose test run: "=== RUN   TestX/sub"
// (Verb RUN, CONT, NAME or PAUSE) or "--- PASS: TestX/sub (0.01s)" (Verb
// PASS, FAIL or SKIP, with Elapsed "(0.01s)").
type Framing struct {
	Verb, Test, Elapsed string
	// Indented reports leading spaces (a subtest's result in plain -v).
	Indented bool
}

// Result reports whether f is a test's result line.
func (f Framing) Result() bool { return f.Verb == "PASS" || f.Verb == "FAIL" || f.Verb == "SKIP" }

// ParseFraming recognises a framing line (without or with its leading
// testFraming byte, which ParseVerbose has removed from the output it
// returns).
func ParseFraming(line string) (Framing, bool) {
	trim := strings.TrimLeft(line, " ")
	f := Framing{Indented: len(trim) != len(line)}
	trim = strings.TrimPrefix(trim, testFraming)
	for _, verb := range []string{"=== RUN   ", "=== CONT  ", "=== NAME  ", "=== PAUSE "} {
		if strings.HasPrefix(trim, verb) {
			f.Verb, f.Test = strings.TrimSpace(verb[4:]), strings.TrimSpace(trim[len(verb):])
			return f, true
		}
	}
	for _, verb := range []string{"--- PASS: ", "--- FAIL: ", "--- SKIP: "} {
		if strings.HasPrefix(trim, verb) {
			f.Verb = verb[4:8]
			f.Test, f.Elapsed, _ = strings.Cut(strings.TrimSpace(trim[len(verb):]), " ")
			return f, true
		}
	}
	return Framing{}, false
}

// testFraming is the byte the testing package writes before each framing
// line ("=== RUN", "--- PASS: ...") under -test.v=test2json, so that a
// framing line printed after output without a newline is still found.
const testFraming = "\x16"

// VerboseFlag is the flag to give test binaries whose output ParseVerbose
// reads.
const VerboseFlag = "-test.v=test2json"

// parseParenDuration parses "(0.12s)".
func parseParenDuration(s string) time.Duration {
	s = strings.TrimSuffix(strings.TrimPrefix(s, "("), ")")
	s = strings.TrimSuffix(s, "s")
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return 0
	}
	return time.Duration(f * float64(time.Second))
}
