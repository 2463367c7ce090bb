//go:build unix

package gotest

import "syscall"

// FreeBytes is the space an unprivileged user may still write on the
// filesystem of path; ok is false when it cannot tell.
func FreeBytes(path string) (free uint64, ok bool) {
	var st syscall.Statfs_t
	if err := syscall.Statfs(path, &st); err != nil {
		return 0, false
	}
	return uint64(st.Bavail) * uint64(st.Bsize), true
}
