package gotest

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"testing"
)

// TestSweepStale checks that a marked temp dir of a process that no
// longer exists is removed, and that the dirs of live processes and
// unmarked dirs are kept.
func TestSweepStale(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no process check")
	}
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	dead := exec.Command("true")
	if err := dead.Run(); err != nil {
		t.Skip("no true command")
	}
	dirs := map[string]string{
		"nopol-build-dead":  strconv.Itoa(dead.Process.Pid),
		"nopol-build-self":  strconv.Itoa(os.Getpid()),
		"nopol-gotmp-live":  strconv.Itoa(os.Getppid()),
		"nopol-bench-plain": "",
		"other-dead":        strconv.Itoa(dead.Process.Pid),
	}
	for name, pid := range dirs {
		if err := os.MkdirAll(filepath.Join(tmp, name, "bin"), 0o755); err != nil {
			t.Fatal(err)
		}
		if pid != "" {
			os.WriteFile(filepath.Join(tmp, name, pidFile), []byte(pid), 0o644)
		}
	}
	made, err := TempDir("nopol-build-")
	if err != nil {
		t.Fatal(err)
	}
	if data, err := os.ReadFile(filepath.Join(made, pidFile)); err != nil || string(data) != strconv.Itoa(os.Getpid()) {
		t.Errorf("pid file of a new dir: %q, %v", data, err)
	}
	sweepStale()
	for name := range dirs {
		_, err := os.Stat(filepath.Join(tmp, name))
		if gone := os.IsNotExist(err); gone != (name == "nopol-build-dead") {
			t.Errorf("%s: removed %v", name, gone)
		}
	}
	if _, err := os.Stat(made); err != nil {
		t.Errorf("the new dir was swept: %v", err)
	}
}

func TestFreeBytes(t *testing.T) {
	free, ok := FreeBytes(t.TempDir())
	if !ok || free == 0 {
		t.Errorf("FreeBytes(temp dir) = %d, %v; want some space", free, ok)
	}
	if _, ok := FreeBytes("/no/such/dir/nopol"); ok {
		t.Errorf("FreeBytes of a missing dir: ok")
	}
}
