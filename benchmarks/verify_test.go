package benchmarks

import (
	"context"
	"os"
	"testing"
	"time"
)

// TestVerifyShort verifies at most 5 small bugs of the dataset against the
// module proxy. It needs the network and a few minutes, so it runs only
// with NOPOL_BENCH_NETWORK=1 (the full check is 'nopol bench verify').
func TestVerifyShort(t *testing.T) {
	if os.Getenv("NOPOL_BENCH_NETWORK") != "1" {
		t.Skip("set NOPOL_BENCH_NETWORK=1 to verify 5 bugs from the module proxy")
	}
	bugs, err := LoadBugs("bugs")
	if err != nil {
		t.Fatal(err)
	}
	bugs = ShortList(bugs, 5)
	for _, v := range Verify(context.Background(), &Runner{Timeout: 5 * time.Minute}, bugs, 1, nil) {
		if !v.OK {
			t.Errorf("%s: %s", v.ID, v.Problem)
		}
	}
}
