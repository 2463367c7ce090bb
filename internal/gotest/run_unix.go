//go:build unix

package gotest

import (
	"bytes"
	"os"
	"os/exec"
	"runtime"
	"strconv"
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

// residentBytes is the resident memory of process pid in bytes, from
// /proc/pid/statm (Linux); 0 where that cannot be read.
func residentBytes(pid int) int64 {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/statm")
	if err != nil {
		return 0
	}
	fields := bytes.Fields(data)
	if len(fields) < 2 {
		return 0
	}
	pages, err := strconv.ParseInt(string(fields[1]), 10, 64)
	if err != nil {
		return 0
	}
	return pages * int64(os.Getpagesize())
}

// peakRSS is the most resident memory of a finished process in bytes:
// its rusage's ru_maxrss, which Darwin counts in bytes and the other
// systems in kilobytes.
func peakRSS(ps *os.ProcessState) int64 {
	ru, ok := ps.SysUsage().(*syscall.Rusage)
	if !ok {
		return 0
	}
	if runtime.GOOS == "darwin" || runtime.GOOS == "ios" {
		return int64(ru.Maxrss)
	}
	return int64(ru.Maxrss) * 1024
}
