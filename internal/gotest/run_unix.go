//go:build unix

package gotest

import (
	"os/exec"
	"syscall"
	"time"
)

// setProcessGroup puts the command in a new process group and makes
// cancellation stop the whole group: SIGINT first, so that the go command
// removes its work dir and a test binary can exit, then SIGKILL to the
// group after grace or as soon as the process has exited, for whatever is
// left (children that ignore SIGINT). The returned function must be called
// once the command has been waited for.
func setProcessGroup(cmd *exec.Cmd, grace time.Duration) (exited func()) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	setDeathSignal(cmd.SysProcAttr)
	done := make(chan struct{})
	cmd.Cancel = func() error {
		if cmd.Process == nil {
			return nil
		}
		pid := cmd.Process.Pid
		// A negative pid signals the process group.
		if err := syscall.Kill(-pid, syscall.SIGINT); err != nil {
			return cmd.Process.Kill()
		}
		go func() {
			t := time.NewTimer(grace)
			defer t.Stop()
			select {
			case <-done:
			case <-t.C:
			}
			syscall.Kill(-pid, syscall.SIGKILL)
		}()
		return nil
	}
	return func() { close(done) }
}

// processAlive reports whether a process with this id exists (a reused id
// counts as alive).
func processAlive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || err == syscall.EPERM
}
