package resilience

import (
	"slices"
	"testing"
)

// FuzzParseRun: any output of a test binary parses; events belong to
// tests that ran, and results to top-level tests.
func FuzzParseRun(f *testing.F) {
	f.Add("=== RUN   TestA\nnopol-res try 1 0\n--- PASS: TestA (0.01s)\n=== RUN   TestB\nnopol-res try 1 1\nnopol-res catch 2\n    b_test.go:9: bad\n--- FAIL: TestB (0.00s)\nFAIL\n")
	f.Add("=== RUN   TestP\n=== PAUSE TestP\n=== CONT  TestP\nnopol-res inject 3\n--- PASS: TestP (0.00s)\n")
	f.Add("nopol-res try 1 0\n--- PASS: TestX/sub (0.00s)\n")
	f.Fuzz(func(t *testing.T, out string) {
		r := parseRun(out)
		for test := range r.events {
			if !slices.Contains(r.order, test) {
				t.Errorf("events of %q, which never ran", test)
			}
		}
		for test := range r.passed {
			if test == "" {
				t.Errorf("a result without a test")
			}
		}
	})
}

func TestParseRun(t *testing.T) {
	r := parseRun("=== RUN   TestA\nnopol-res try 1 0\nnopol-res try 1 0\n--- PASS: TestA (0.01s)\n=== RUN   TestB\n=== RUN   TestB/sub\nnopol-res try 1 1\nnopol-res catch 2\n    b_test.go:9: bad\n    --- FAIL: TestB/sub (0.00s)\n--- FAIL: TestB (0.00s)\nFAIL\n")
	if !slices.Equal(r.order, []string{"TestA", "TestB"}) || !r.passed["TestA"] || r.passed["TestB"] {
		t.Errorf("order %q passed %v", r.order, r.passed)
	}
	if !slices.Equal(r.events["TestA"], []string{"try 1 0"}) || !slices.Equal(r.events["TestB"], []string{"try 1 1", "catch 2"}) {
		t.Errorf("events %q", r.events)
	}
	if r.failure != "b_test.go:9: bad" {
		t.Errorf("failure %q", r.failure)
	}
}
