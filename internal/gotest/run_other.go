//go:build !unix

package gotest

import "os/exec"

// setProcessGroup kills only the process itself where process groups are
// not available.
func setProcessGroup(cmd *exec.Cmd) {
	cmd.Cancel = func() error { return cmd.Process.Kill() }
}
