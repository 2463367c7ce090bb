//go:build !unix

package gotest

import (
	"os"
	"os/exec"
	"time"
)

// setProcessGroup kills only the process itself where process groups are
// not available.
func setProcessGroup(cmd *exec.Cmd, grace time.Duration) (exited func()) {
	cmd.Cancel = func() error { return cmd.Process.Kill() }
	return func() {}
}

// processAlive cannot tell here: every process counts as alive.
func processAlive(pid int) bool { return true }

// residentBytes cannot tell here: Invocation.MaxRSS caps nothing.
func residentBytes(pid int) int64 { return 0 }

// peakRSS cannot tell here.
func peakRSS(ps *os.ProcessState) int64 { return 0 }
