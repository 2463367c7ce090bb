//go:build unix

package main

import (
	"bufio"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// slowModule has a failing test and slow passing ones, so that the repair
// is still running when it is interrupted.
var slowModule = map[string]string{
	"go.mod": "module example.com/slow\n\ngo 1.22\n",
	"slow.go": `package slow

// Max returns the larger of a and b.
func Max(a, b int) int {
	if a < b {
		return a
	}
	return b
}
`,
	"slow_test.go": `package slow

import (
	"testing"
	"time"
)

func TestMaxFirst(t *testing.T) {
	time.Sleep(300 * time.Millisecond)
	if Max(1, 2) != 2 {
		t.Error("Max(1, 2)")
	}
}

func TestMaxSecond(t *testing.T) {
	time.Sleep(300 * time.Millisecond)
	if Max(3, 3) != 3 {
		t.Error("Max(3, 3)")
	}
}

func TestMaxSlow(t *testing.T) {
	time.Sleep(300 * time.Millisecond)
}
`,
}

// TestInterrupt sends SIGINT to a running nopol fix and checks that it
// stops promptly, leaves the module as it was and removes its temp dirs.
func TestInterrupt(t *testing.T) {
	bin, mod, tmp, before := slowRepair(t)

	for _, tc := range []struct {
		sig   syscall.Signal
		after string
	}{
		{syscall.SIGINT, "coverage:"},
		{syscall.SIGINT, "site 1/"},
		{syscall.SIGTERM, "coverage:"},
		{syscall.SIGTERM, "baseline: running"},
		{syscall.SIGKILL, "baseline: running"},
		{syscall.SIGKILL, "coverage:"},
	} {
		t.Run(tc.sig.String()+"/"+strings.Fields(tc.after)[0], func(t *testing.T) {
			log, took, err := signalAfter(t, bin, mod, tmp, []string{"fix", "-v"}, tc.after, 300*time.Millisecond, tc.sig, func() {
				if !tempAppears(tmp, 3*time.Second) {
					t.Errorf("no nopol-* temp dir in %s while running: the check below proves nothing", tmp)
				}
				if tc.sig == syscall.SIGKILL && !processAppears(t, tmp, 3*time.Second) {
					t.Errorf("no process under %s while running: the check below proves nothing", tmp)
				}
			})
			t.Logf("ended %v after %v", took, tc.sig)
			if tc.sig == syscall.SIGKILL {
				// Everything nopol started dies with it: the go command
				// and the test binaries it runs, and those nopol runs.
				if left := processesUnder(t, tmp, 5*time.Second); len(left) > 0 {
					t.Errorf("processes left running after SIGKILL: %v", left)
				}
				gotmp, _ := nopolTemps(tmp)
				for _, d := range gotmp {
					os.RemoveAll(d) // swept by the next run; not this test's subject
				}
				return
			}
			if took > 3*time.Second {
				t.Errorf("nopol took %v to end after %v, want at most 2s (3s with the machine's load)", took, tc.sig)
			}
			var ee *exec.ExitError
			if !errors.As(err, &ee) || ee.ExitCode() != 3 {
				t.Errorf("exit: %v, want status 3\n%s", err, log)
			}
			if !strings.Contains(log, "nopol: interrupted") {
				t.Errorf("no interruption message:\n%s", log)
			}
			if got, err := treeSum(mod); err != nil || got != before {
				t.Errorf("the module changed (%v)", err)
			}
			if left, _ := nopolTemps(tmp); len(left) > 0 {
				t.Errorf("temp dirs left behind: %v", left)
			}
		})
	}
}

// TestReaderGone closes the pipe nopol writes its progress to, as `nopol
// fix -v | head -1` does, and checks that nopol then stops as interrupted
// rather than dying of SIGPIPE: its temp dirs removed, the module as it
// was.
func TestReaderGone(t *testing.T) {
	bin, mod, tmp, before := slowRepair(t)
	cmd, stderr := startNopol(t, bin, mod, tmp, []string{"fix", "-v"})
	sc := bufio.NewScanner(stderr)
	for sc.Scan() && !strings.Contains(sc.Text(), "baseline: running") {
	}
	if !tempAppears(tmp, 3*time.Second) {
		t.Errorf("no nopol-* temp dir in %s while running: the check below proves nothing", tmp)
	}
	stderr.Close() // the reader is gone: nopol's next progress line fails
	timer := time.AfterFunc(60*time.Second, func() { cmd.Process.Kill() })
	defer timer.Stop()
	err := cmd.Wait()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 3 {
		t.Errorf("exit: %v, want status 3 (interrupted), not a death by SIGPIPE", err)
	}
	if left, _ := nopolTemps(tmp); len(left) > 0 {
		t.Errorf("temp dirs left behind: %v", left)
	}
	if got, err := treeSum(mod); err != nil || got != before {
		t.Errorf("the module changed (%v)", err)
	}
}

// processesUnder polls /proc for up to wait for processes whose command
// line or working directory mentions dir, and returns those still there.
func processesUnder(t *testing.T, dir string, wait time.Duration) []string {
	var found []string
	eventually(wait, func() bool {
		found = processesNow(t, dir)
		return len(found) == 0
	})
	return found
}

// processesNow lists the processes whose command line or working
// directory mentions dir.
func processesNow(t *testing.T, dir string) []string {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		t.Skip("no /proc")
	}
	var found []string
	for _, e := range entries {
		if _, err := strconv.Atoi(e.Name()); err != nil {
			continue
		}
		cmdline, _ := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		cwd, _ := os.Readlink(filepath.Join("/proc", e.Name(), "cwd"))
		line := strings.ReplaceAll(string(cmdline), "\x00", " ")
		if strings.Contains(line, dir) || strings.HasPrefix(cwd, filepath.Dir(dir)) {
			found = append(found, e.Name()+": "+line)
		}
	}
	return found
}

// processAppears waits up to wait for a process under dir (see
// processesUnder): between two test runs there is none for a moment.
func processAppears(t *testing.T, dir string, wait time.Duration) bool {
	return eventually(wait, func() bool { return len(processesNow(t, dir)) > 0 })
}

// tempAppears waits up to wait for a nopol-* temp dir in dir: the
// instrumented build makes its own beside the baseline, so the progress
// line "baseline: running" can come before it.
func tempAppears(dir string, wait time.Duration) bool {
	return eventually(wait, func() bool {
		during, _ := nopolTemps(dir)
		return len(during) > 0
	})
}

// eventually polls cond every 20ms for up to wait and reports whether it
// held.
func eventually(wait time.Duration, cond func() bool) bool {
	for deadline := time.Now().Add(wait); ; time.Sleep(20 * time.Millisecond) {
		if cond() {
			return true
		}
		if time.Now().After(deadline) {
			return false
		}
	}
}

// nopolAndModule builds nopol and writes the module files into a temp
// dir; it returns the binary, the module's dir and an empty dir for
// TMPDIR.
func nopolAndModule(t *testing.T, files map[string]string) (bin, mod, tmp string) {
	work := t.TempDir()
	bin = filepath.Join(work, "nopol")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	mod = filepath.Join(work, "m")
	for name, src := range files {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(mod, name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(mod, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	tmp = filepath.Join(work, "tmp")
	if err := os.Mkdir(tmp, 0o755); err != nil {
		t.Fatal(err)
	}
	return bin, mod, tmp
}

// hugeModule has a failing test that prints 100 MB.
var hugeModule = map[string]string{
	"go.mod": "module example.com/huge\n\ngo 1.22\n",
	"max.go": "package huge\n\n// Max returns the larger of a and b.\nfunc Max(a, b int) int {\n\tif a < b {\n\t\treturn a\n\t}\n\treturn b\n}\n",
	"max_test.go": `package huge

import (
	"bytes"
	"os"
	"testing"
)

func TestMax(t *testing.T) {
	line := append(bytes.Repeat([]byte("x"), 1<<20-1), '\n')
	for range 100 {
		os.Stdout.Write(line)
	}
	if Max(1, 2) != 2 {
		t.Error("Max(1, 2)")
	}
}
`,
}

// TestInterruptMidParse sends SIGTERM while nopol reads the 100 MB a test
// prints: it ends within 2s, with exit status 3, and leaves nothing.
func TestInterruptMidParse(t *testing.T) {
	if testing.Short() {
		t.Skip("builds nopol and runs test binaries")
	}
	bin, mod, tmp := nopolAndModule(t, hugeModule)
	for _, after := range []string{"baseline: running", "coverage:"} {
		t.Run(strings.Fields(after)[0], func(t *testing.T) {
			// The test prints its 100 MB within the next second or two
			// (after the build, for the baseline).
			log, took, err := signalAfter(t, bin, mod, tmp, []string{"fix"}, after, 1500*time.Millisecond, syscall.SIGTERM, func() {})
			t.Logf("ended %v after SIGTERM", took)
			if took > 3*time.Second {
				t.Errorf("nopol took %v to end after SIGTERM, want at most 2s (3s with the machine's load)", took)
			}
			var ee *exec.ExitError
			if !errors.As(err, &ee) || ee.ExitCode() != 3 {
				t.Errorf("exit: %v, want status 3\n%s", err, log)
			}
			if left := processesUnder(t, tmp, 3*time.Second); len(left) > 0 {
				t.Errorf("processes left running: %v", left)
			}
			if left, _ := nopolTemps(tmp); len(left) > 0 {
				t.Errorf("temp dirs left behind: %v", left)
			}
		})
	}
}

// signalAfter runs nopol with args on mod, waits for a progress line
// containing after, then wait, calls check, and sends sig. It returns
// nopol's stderr, the time from the signal to its end, and Wait's error.
func signalAfter(t *testing.T, bin, mod, tmp string, args []string, after string, wait time.Duration, sig syscall.Signal, check func()) (string, time.Duration, error) {
	t.Helper()
	cmd, stderr := startNopol(t, bin, mod, tmp, args)
	var log strings.Builder
	sc := bufio.NewScanner(stderr)
	var sent time.Time
	for sc.Scan() {
		log.WriteString(sc.Text() + "\n")
		if sent.IsZero() && strings.Contains(sc.Text(), after) {
			time.Sleep(wait) // let the phase start its processes
			check()
			if err := cmd.Process.Signal(sig); err != nil {
				t.Fatal(err)
			}
			sent = time.Now()
			time.AfterFunc(30*time.Second, func() { cmd.Process.Kill() })
		}
	}
	err := cmd.Wait()
	if sent.IsZero() {
		t.Fatalf("nopol ended before %q:\n%s", after, log.String())
	}
	return log.String(), time.Since(sent), err
}

// slowRepair builds nopol and writes slowModule (see nopolAndModule); it
// also returns the module's checksum before the run.
func slowRepair(t *testing.T) (bin, mod, tmp, before string) {
	t.Helper()
	if testing.Short() {
		t.Skip("builds nopol and runs test binaries")
	}
	bin, mod, tmp = nopolAndModule(t, slowModule)
	before, err := treeSum(mod)
	if err != nil {
		t.Fatal(err)
	}
	return bin, mod, tmp, before
}

// startNopol starts nopol with args on mod, its temp dirs in tmp, and
// returns the running command and its stderr.
func startNopol(t *testing.T, bin, mod, tmp string, args []string) (*exec.Cmd, io.ReadCloser) {
	t.Helper()
	cmd := exec.Command(bin, append(args, "-C", mod)...)
	cmd.Env = append(os.Environ(), "TMPDIR="+tmp, "GOFLAGS=-mod=mod", "GOTOOLCHAIN=local")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	return cmd, stderr
}
