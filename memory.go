package nopol

import (
	"bufio"
	"os"
	"strconv"
	"strings"

	"github.com/nopol-go/nopol/collect"
)

// testMemory is the memory cap of each test process for
// Options.TestMemory n: n when positive, none when negative, half of the
// machine's memory when 0 (none where the machine does not tell).
func testMemory(n int64) int64 {
	switch {
	case n > 0:
		return n
	case n < 0:
		return 0
	}
	return physicalMemory() / 2
}

// physicalMemory is the machine's memory in bytes (MemTotal of
// /proc/meminfo), 0 where it cannot be read.
func physicalMemory() int64 {
	f, err := os.Open("/proc/meminfo")
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		// MemTotal:       24522396 kB
		rest, ok := strings.CutPrefix(sc.Text(), "MemTotal:")
		if !ok {
			continue
		}
		kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
		if err != nil {
			return 0
		}
		return kb * 1024
	}
	return 0
}

// outOfMemoryLine is what the Go runtime prints when an allocation
// fails, at the address-space limit of Options.TestMemory among others
// (after "runtime: out of memory: cannot allocate N-byte block").
const outOfMemoryLine = "fatal error: out of memory"

// outOfMemory names the tests of results that failed running out of
// memory.
func outOfMemory(results []collect.TestResult) []string {
	var out []string
	for _, t := range results {
		if !t.Passed && !t.Skipped && strings.Contains(t.Output, outOfMemoryLine) {
			out = append(out, t.Test)
		}
	}
	return out
}
