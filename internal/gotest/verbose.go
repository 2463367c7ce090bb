package gotest

import (
	"strconv"
	"strings"
	"time"
)

// ParseVerbose reads the -test.v output of a test binary run directly and
// returns one summary per top-level test, in order of first appearance. A
// test that started but has no result line (the binary panicked, exited or
// was killed) gets Action "fail" when crashed is true, "" otherwise.
func ParseVerbose(output string, crashed bool) []TestSummary {
	var out []TestSummary
	index := map[string]int{}
	get := func(name string) *TestSummary {
		i, ok := index[name]
		if !ok {
			i = len(out)
			index[name] = i
			out = append(out, TestSummary{Test: name})
		}
		return &out[i]
	}
	var current string
	for _, line := range strings.SplitAfter(output, "\n") {
		trim := strings.TrimLeft(line, " ")
		indented := len(trim) != len(line)
		switch {
		case strings.HasPrefix(trim, "=== RUN   "), strings.HasPrefix(trim, "=== CONT  "),
			strings.HasPrefix(trim, "=== NAME  "), strings.HasPrefix(trim, "=== PAUSE "):
			name := strings.TrimSpace(trim[len("=== RUN   "):])
			top, _, _ := strings.Cut(name, "/")
			current = top
			get(top).Output += line
			continue
		case !indented && (strings.HasPrefix(trim, "--- PASS: ") || strings.HasPrefix(trim, "--- FAIL: ") || strings.HasPrefix(trim, "--- SKIP: ")):
			rest := trim[len("--- PASS: "):]
			name, dur, _ := strings.Cut(strings.TrimSpace(rest), " ")
			t := get(name)
			t.Action = strings.ToLower(trim[4:8])
			t.Elapsed = parseParenDuration(dur)
			t.Output += line
			current = name
			continue
		}
		if current != "" {
			get(current).Output += line
		}
	}
	if crashed {
		for i := range out {
			if out[i].Action == "" {
				out[i].Action = "fail"
			}
		}
	}
	return out
}

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
