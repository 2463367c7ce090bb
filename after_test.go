package nopol

import (
	"strings"
	"testing"
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
