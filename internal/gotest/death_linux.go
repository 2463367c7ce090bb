package gotest

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"
)

// On Linux every process nopol starts gets SIGKILL when nopol dies, even
// by SIGKILL (the parent-death signal); a `go test` run passes it on to
// the test binaries it starts by running them through nopol's own
// executable (-exec), which sets the signal and execs the binary: when
// nopol dies the go command dies, and with it the test binary.

// dieWithParentEnv is set in the environment of the go command by a test
// run; a binary that links this package and starts with it set is the
// -exec wrapper.
const dieWithParentEnv = "NOPOL_EXEC_DIE_WITH_PARENT"

func init() {
	if os.Getenv(dieWithParentEnv) != "1" || len(os.Args) < 2 {
		return
	}
	os.Unsetenv(dieWithParentEnv)
	if v := os.Getenv(maxAddressSpaceEnv); v != "" {
		os.Unsetenv(maxAddressSpaceEnv)
		if err := lowerAddressSpace(v); err != nil {
			os.Stderr.WriteString("nopol exec wrapper: the memory cap: " + err.Error() + "\n")
		}
	}
	if _, _, e := syscall.RawSyscall(syscall.SYS_PRCTL, syscall.PR_SET_PDEATHSIG, uintptr(syscall.SIGKILL), 0); e != 0 {
		os.Stderr.WriteString("nopol exec wrapper: prctl: " + e.Error() + "\n")
	}
	if os.Getppid() == 1 {
		os.Exit(1) // the go command is gone already
	}
	err := syscall.Exec(os.Args[1], os.Args[1:], os.Environ())
	os.Stderr.WriteString("nopol exec wrapper: " + os.Args[1] + ": " + err.Error() + "\n")
	os.Exit(1)
}

// lowerAddressSpace lowers the soft RLIMIT_AS of this process, which
// the exec keeps, to v bytes; a lower limit stays.
func lowerAddressSpace(v string) error {
	n, err := strconv.ParseUint(v, 10, 64)
	if err != nil || n == 0 {
		return fmt.Errorf("%s=%q: want a number of bytes", maxAddressSpaceEnv, v)
	}
	var lim syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_AS, &lim); err != nil {
		return err
	}
	if lim.Cur <= n {
		return nil
	}
	lim.Cur = n
	return syscall.Setrlimit(syscall.RLIMIT_AS, &lim)
}

// setDeathSignal makes the process get SIGKILL when nopol dies.
func setDeathSignal(attr *syscall.SysProcAttr) { attr.Pdeathsig = syscall.SIGKILL }

// execWrapper returns the go test flag and environment that run test
// binaries through this executable so that they die with the go command.
func execWrapper() (flag, env string, ok bool) {
	exe, err := os.Executable()
	if err != nil {
		return "", "", false
	}
	if strings.ContainsAny(exe, " \t'\"") {
		if strings.Contains(exe, "'") {
			return "", "", false
		}
		exe = "'" + exe + "'"
	}
	return "-exec=" + exe, dieWithParentEnv + "=1", true
}
