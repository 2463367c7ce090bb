package nopol

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/nopol-go/nopol/collect"
)

func TestSameFailure(t *testing.T) {
	suite := "=== RUN   TestFprint\n    color_test.go:512: want \"\\x1b[31mfoobar\\x1b[0m\"\n         got: \"\\x1b[31mfoobar\"\n--- FAIL: TestFprint (0.00s)\n"
	tests := []struct {
		name  string
		alone string
		same  bool
	}{
		{"the same, framed for test2json, with hook lines and another time",
			"\x16=== RUN   TestFprint\nnopol-constituent 0 0\n    color_test.go:512: want \"\\x1b[31mfoobar\\x1b[0m\"\n         got: \"\\x1b[31mfoobar\"\n\x16--- FAIL: TestFprint (0.02s)\n", true},
		{"another message", "=== RUN   TestFprint\n    color_test.go:512: want \"\\x1b[31mfoobar\\x1b[0m\"\n         got: \"foobar\"\n--- FAIL: TestFprint (0.00s)\n", false},
		{"a message less", "=== RUN   TestFprint\n    color_test.go:512: want \"\\x1b[31mfoobar\\x1b[0m\"\n--- FAIL: TestFprint (0.00s)\n", false},
		{"no message", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := sameFailure(suite, tt.alone); got != tt.same {
				t.Errorf("sameFailure = %v, want %v (messages %q and %q)", got, tt.same, failureMessages(suite), failureMessages(tt.alone))
			}
		})
	}
	// A panic's stack names the files where each binary was built.
	plain := "=== RUN   TestP\n--- FAIL: TestP (0.00s)\npanic: runtime error: index out of range [3] with length 3 [recovered]\n\ngoroutine 7 [running]:\nexample.com/m.Get(...)\n\t/home/u/m/m.go:5 +0x1d\n"
	instrumented := "=== RUN   TestP\n--- FAIL: TestP (0.00s)\npanic: runtime error: index out of range [3] with length 3 [recovered]\n\ngoroutine 9 [running]:\nexample.com/m.Get(...)\n\t/tmp/nopol-123/m/m.go:5 +0x2f\n"
	if !sameFailure(plain, instrumented) {
		t.Error("the stacks of the same panic make two failures differ")
	}
	if sameFailure(plain, strings.Replace(instrumented, "[3]", "[4]", 1)) {
		t.Error("two panics with different messages are the same failure")
	}
	// Addresses and times differ from run to run.
	if !sameFailure("    x_test.go:3: p = 0xc000012345 after 1.5ms (0.01s)", "    x_test.go:3: p = 0xc0000abcde after 1.5ms (2.30s)") {
		t.Error("an address or a time makes two failures differ")
	}
}

// TestOwnTime checks the time a failing test's runs are given: its
// baseline time, but for a gocheck suite narrowed to its failing tests
// once covered, the longer of the narrowed run's time and their share of
// the baseline time.
func TestOwnTime(t *testing.T) {
	k := testKey{"p", "Test"}
	ms := func(n int) time.Duration { return time.Duration(n) * time.Millisecond }
	for _, tc := range []struct {
		name          string
		failing, rest int
		cover         *collect.Result
		want          time.Duration
	}{
		{"not gocheck", 0, 0, &collect.Result{Duration: ms(50)}, ms(1400)},
		{"gocheck, not covered yet", 4, 96, nil, ms(1400)},
		{"gocheck, every test failing", 4, 0, &collect.Result{Duration: ms(50)}, ms(1400)},
		{"gocheck, covered", 4, 96, &collect.Result{Duration: ms(50)}, ms(56)},
		{"gocheck, a fast narrowed run", 4, 96, &collect.Result{Duration: ms(10)}, ms(56)},
		{"gocheck, a slow narrowed run", 4, 96, &collect.Result{Duration: ms(300)}, ms(300)},
		{"gocheck, a narrowed run slower than the suite", 4, 96, &collect.Result{Duration: ms(2000)}, ms(1400)},
		{"gocheck, the narrowed run timed out", 4, 96, &collect.Result{Duration: ms(50), TimedOut: true}, ms(1400)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := &repairer{
				elapsed:   map[testKey]time.Duration{k: ms(1400)},
				checks:    map[testKey][]string{},
				checkRest: map[testKey][]string{},
				cover:     map[testKey]collect.Result{},
			}
			for i := range tc.failing {
				r.checks[k] = append(r.checks[k], fmt.Sprintf("S.TestF%d", i))
			}
			for i := range tc.rest {
				r.checkRest[k] = append(r.checkRest[k], fmt.Sprintf("S.TestP%d", i))
			}
			if tc.cover != nil {
				r.cover[k] = *tc.cover
			}
			if got := r.ownTime(k); got != tc.want {
				t.Errorf("ownTime = %v, want %v", got, tc.want)
			}
		})
	}
}
