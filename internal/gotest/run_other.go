//go:build !unix

package gotest

import (
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
