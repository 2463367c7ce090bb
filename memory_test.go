package nopol

import (
	"runtime"
	"slices"
	"testing"

	"github.com/nopol-go/nopol/collect"
)

func TestTestMemory(t *testing.T) {
	half := physicalMemory() / 2
	if runtime.GOOS == "linux" && half <= 0 {
		t.Fatalf("physicalMemory() = %d on Linux", 2*half)
	}
	for _, tc := range []struct{ in, want int64 }{
		{0, half},
		{-1, 0},
		{2 << 30, 2 << 30},
	} {
		if got := testMemory(tc.in); got != tc.want {
			t.Errorf("testMemory(%d) = %d, want %d", tc.in, got, tc.want)
		}
	}
}

func TestOutOfMemory(t *testing.T) {
	results := []collect.TestResult{
		{Test: "TestGrow", Output: "runtime: out of memory: cannot allocate 100663296-byte block (226197504 in use)\nfatal error: out of memory\n"},
		{Test: "TestPanics", Output: "panic: runtime error: index out of range [3] with length 3\n"},
		{Test: "TestPasses", Passed: true, Output: "fatal error: out of memory (a message it prints)\n"},
	}
	if got := outOfMemory(results); !slices.Equal(got, []string{"TestGrow"}) {
		t.Errorf("outOfMemory = %v, want [TestGrow]", got)
	}
}
