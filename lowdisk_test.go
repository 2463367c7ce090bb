package nopol

import (
	"strings"
	"testing"
)

// TestLowDisk: a repair does not start on a disk with less than minFree
// left, and says which disk and what to do.
func TestLowDisk(t *testing.T) {
	defer func(m uint64) { minFree = m }(minFree)
	minFree = 0
	if why := lowDisk(); why != "" {
		t.Errorf("lowDisk with no minimum: %q", why)
	}
	minFree = 1 << 62
	why := lowDisk()
	if !strings.Contains(why, "the temp dir") || !strings.Contains(why, "go clean -cache") {
		t.Errorf("lowDisk with a minimum of 4 EiB = %q, want the temp dir named and what to do", why)
	}
}
