//go:build unix

package main

import (
	"errors"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"
)

// chattyModule has a slow failing test whose forced runs loop without end,
// printing: the runs are killed at their time limit, and the repair as a
// whole runs into -timeout.
var chattyModule = map[string]string{
	"go.mod": "module example.com/chatty\n\ngo 1.22\n",
	"steps.go": `package chatty

import "fmt"

// Steps counts to n, saying each step.
func Steps(n int) int {
	steps := 0
	for i := 0; ; i++ {
		if i >= n {
			break
		}
		fmt.Println("step", i, "of", n, "- and a long line so that the output grows fast, fast, fast")
		steps++
	}
	return steps
}

// Fits reports whether n steps fit in bits: n < bits.
func Fits(n, bits int) bool {
	s := Steps(n)
	if s > bits {
		return false
	}
	return true
}
`,
	"steps_test.go": `package chatty

import (
	"testing"
	"time"
)

func TestFitsSlow(t *testing.T) {
	time.Sleep(12 * time.Second)
	if Fits(8, 8) {
		t.Error("Fits(8, 8)")
	}
}

func TestFitsSmall(t *testing.T) {
	if !Fits(3, 4) {
		t.Error("Fits(3, 4)")
	}
}
`,
}

// TestTimeoutBound: -timeout is a wall-clock bound, within 2s, while the
// tests nopol runs print without end; memory stays bounded.
func TestTimeoutBound(t *testing.T) {
	if testing.Short() {
		t.Skip("runs for the whole -timeout")
	}
	t.Parallel()
	// Six runs of TestFitsSlow (baseline, flakiness check, coverage, a
	// forced run, the snapshot, the suite of a candidate) take 72s: the
	// repair cannot end before the limit (with 2m it found s >= bits at
	// 1m52s once forced runs that spin ended at their evaluation limit).
	const limit = time.Minute
	bin, mod, tmp := nopolAndModule(t, chattyModule)
	cmd := exec.Command(bin, "fix", "-timeout", limit.String(), "-C", mod)
	cmd.Env = append(os.Environ(), "TMPDIR="+tmp, "GOFLAGS=-mod=mod", "GOTOOLCHAIN=local")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	start := time.Now()
	err := cmd.Run()
	took := time.Since(start)
	rss := int64(0)
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		rss = int64(ru.Maxrss) << 10 // KiB on Linux
	}
	t.Logf("ended after %v (-timeout %v), max RSS %d MiB", took, limit, rss>>20)
	if took > limit+2*time.Second {
		t.Errorf("nopol ran %v with -timeout %v: more than 2s over", took, limit)
	}
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 1 {
		t.Errorf("exit: %v, want status 1\n%s", err, stderr.String())
	}
	if !strings.Contains(stderr.String(), "timed out after "+limit.String()) {
		t.Errorf("no timeout reason:\n%s", stderr.String())
	}
	if rss > 512<<20 {
		t.Errorf("max RSS %d MiB", rss>>20)
	}
	if left := processesUnder(t, tmp, 3*time.Second); len(left) > 0 {
		t.Errorf("processes left running: %v", left)
	}
	if left, _ := nopolTemps(tmp); len(left) > 0 {
		t.Errorf("temp dirs left behind: %v", left)
	}
}
