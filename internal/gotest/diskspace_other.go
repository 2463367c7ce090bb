//go:build !unix

package gotest

// FreeBytes cannot tell the free space here.
func FreeBytes(path string) (free uint64, ok bool) { return 0, false }
