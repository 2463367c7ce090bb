//go:build !linux

package gotest

// setDeathSignal does nothing where a parent-death signal is not
// available: a process nopol starts dies with its process group on every
// path nopol controls, not when nopol is killed by SIGKILL.
func setDeathSignal(attr any) {}

// execWrapper is not available: test binaries run by `go test` are not
// wrapped.
func execWrapper() (flag, env string, ok bool) { return "", "", false }
