package gotest

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
)

// pidFile is the file in each of nopol's temp dirs naming the process
// that made it.
const pidFile = ".nopol-pid"

var sweepOnce sync.Once

// TempDir creates a new temp dir in os.TempDir() whose name starts with
// prefix (which must start with "nopol-"), marked with this process's id.
// The caller removes it. The first call in a process also removes the
// marked nopol-* temp dirs left behind by processes that no longer exist
// (killed before they could clean up: SIGKILL, a test binary's timeout
// panic).
func TempDir(prefix string) (string, error) {
	sweepOnce.Do(sweepStale)
	dir, err := os.MkdirTemp("", prefix)
	if err != nil {
		return "", err
	}
	if err := os.WriteFile(filepath.Join(dir, pidFile), []byte(strconv.Itoa(os.Getpid())), 0o644); err != nil {
		os.RemoveAll(dir)
		return "", err
	}
	return dir, nil
}

// sweepStale removes the nopol-* temp dirs whose marking process is gone.
// Unmarked dirs are left alone.
func sweepStale() {
	dirs, _ := filepath.Glob(filepath.Join(os.TempDir(), "nopol-*"))
	for _, dir := range dirs {
		data, err := os.ReadFile(filepath.Join(dir, pidFile))
		if err != nil {
			continue
		}
		pid, err := strconv.Atoi(strings.TrimSpace(string(data)))
		if err != nil || pid <= 0 || pid == os.Getpid() || processAlive(pid) {
			continue
		}
		os.RemoveAll(dir)
	}
}
