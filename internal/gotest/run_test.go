package gotest

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestRunOutcomes(t *testing.T) {
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh")
	}
	tests := []struct {
		name       string
		script     string
		timeout    time.Duration
		wantCode   int
		wantErr    func(error) bool
		wantStdout string
	}{
		{"ok", "echo hi", 0, 0, func(err error) bool { return err == nil }, "hi\n"},
		{"exit", "echo out; echo boom >&2; exit 3", 0, 3, func(err error) bool {
			var ee *ExitError
			return errors.As(err, &ee) && ee.Code == 3 && strings.Contains(err.Error(), "boom")
		}, "out\n"},
		{"timeout", "echo started; sleep 30", 300 * time.Millisecond, -1, IsTimeout, "started\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, err := Default.Run(context.Background(), &Invocation{Path: "sh", Args: []string{"-c", tt.script}, Timeout: tt.timeout})
			if !tt.wantErr(err) {
				t.Fatalf("err = %v", err)
			}
			if out.ExitCode != tt.wantCode {
				t.Errorf("exit code = %d, want %d", out.ExitCode, tt.wantCode)
			}
			if string(out.Stdout) != tt.wantStdout {
				t.Errorf("stdout = %q, want %q", out.Stdout, tt.wantStdout)
			}
			if (tt.timeout > 0) != out.TimedOut {
				t.Errorf("TimedOut = %v", out.TimedOut)
			}
		})
	}
}

// TestStop: Invocation.Stop, once true, has the process killed before
// its timeout (here, when the process has written a file, as the hook
// writes its counts); a process it never stops ends as it would.
func TestStop(t *testing.T) {
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh")
	}
	for _, tc := range []struct {
		name, script string
		stopped      bool
	}{
		{"stopped", `echo started; touch "$MARK"; sleep 30`, true},
		{"never", `echo started; sleep 0.1`, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			mark := filepath.Join(t.TempDir(), "mark")
			stop := func() bool {
				_, err := os.Stat(mark)
				return err == nil
			}
			out, err := Default.Run(context.Background(), &Invocation{Path: "sh", Args: []string{"-c", tc.script}, Env: []string{"MARK=" + mark}, Timeout: 20 * time.Second, Stop: stop})
			if IsStopped(err) != tc.stopped || out.Stopped != tc.stopped || out.TimedOut || (!tc.stopped && err != nil) {
				t.Errorf("err = %v, Stopped = %v, TimedOut = %v; want stopped %v, not timed out", err, out.Stopped, out.TimedOut, tc.stopped)
			}
			if string(out.Stdout) != "started\n" {
				t.Errorf("stdout = %q, want the output before the stop", out.Stdout)
			}
		})
	}
}

// TestTimeoutKillsGroup checks that a process which spawns a child and
// sleeps forever is killed together with the child.
func TestTimeoutKillsGroup(t *testing.T) {
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh")
	}
	start := time.Now()
	out, err := Default.Run(context.Background(), &Invocation{
		Path:    "sh",
		Args:    []string{"-c", "sleep 1000 & echo $!; while :; do sleep 1; done"},
		Timeout: 500 * time.Millisecond,
	})
	if !IsTimeout(err) {
		t.Fatalf("err = %v, want timeout", err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("took %v to return", d)
	}
	pid, perr := strconv.Atoi(strings.TrimSpace(string(out.Stdout)))
	if perr != nil {
		t.Fatalf("child pid: %v (stdout %q)", perr, out.Stdout)
	}
	deadline := time.Now().Add(3 * time.Second)
	for {
		if err := syscall.Kill(pid, 0); errors.Is(err, syscall.ESRCH) {
			return
		}
		if zombie(pid) {
			return
		}
		if time.Now().After(deadline) {
			syscall.Kill(pid, syscall.SIGKILL)
			t.Fatalf("child %d still alive after timeout", pid)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// zombie reports whether pid is dead but not yet reaped.
func zombie(pid int) bool {
	data, err := exec.Command("ps", "-o", "stat=", "-p", strconv.Itoa(pid)).Output()
	return err == nil && strings.HasPrefix(strings.TrimSpace(string(data)), "Z")
}

func TestContextCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(200*time.Millisecond, cancel)
	_, err := Default.Run(ctx, &Invocation{Path: "sleep", Args: []string{"30"}})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	if IsTimeout(err) {
		t.Errorf("cancellation reported as timeout")
	}
}

func TestSeam(t *testing.T) {
	var got []string
	r := &Runner{Exec: func(ctx context.Context, inv *Invocation) (Outcome, error) {
		got = append(got, inv.String())
		if inv.Args[0] == "slow" {
			return Outcome{TimedOut: true, ExitCode: -1}, nil
		}
		return Outcome{Stdout: []byte("x"), ExitCode: 1, Stderr: []byte("bad")}, nil
	}}
	if _, err := r.Run(context.Background(), &Invocation{Path: "p", Args: []string{"slow"}, Timeout: time.Second}); !IsTimeout(err) {
		t.Errorf("slow: err = %v", err)
	}
	_, err := r.Run(context.Background(), &Invocation{Path: "p", Args: []string{"fast"}})
	var ee *ExitError
	if !errors.As(err, &ee) || !strings.Contains(err.Error(), "bad") {
		t.Errorf("fast: err = %v", err)
	}
	if strings.Join(got, ";") != "p slow;p fast" {
		t.Errorf("calls = %q", got)
	}
}

// TestCancelGoLeavesNoTemp checks that cancelling `go test -c` in the
// middle of a build leaves nothing in TMPDIR. The go command dies on
// SIGINT during a build without removing its work dir, so that dir must be
// inside one of gotest's own.
func TestCancelGoLeavesNoTemp(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command")
	}
	if testing.Short() {
		t.Skip("builds with an empty cache")
	}
	cache := t.TempDir()
	mod := t.TempDir()
	os.WriteFile(filepath.Join(mod, "go.mod"), []byte("module m\n\ngo 1.22\n"), 0o644)
	os.WriteFile(filepath.Join(mod, "m_test.go"), []byte("package m\n\nimport (\n\t\"net/http\"\n\t\"testing\"\n)\n\nfunc TestM(t *testing.T) { _ = http.Get }\n"), 0o644)
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	ctx, cancel := context.WithCancel(context.Background())
	// Cancel once the go command has made its work dir.
	go func() {
		defer cancel()
		for start := time.Now(); time.Since(start) < 20*time.Second; time.Sleep(10 * time.Millisecond) {
			if workDirs(tmp) > 0 {
				time.Sleep(200 * time.Millisecond)
				return
			}
		}
	}()
	_, err := Default.Run(ctx, &Invocation{
		Path: "go",
		Args: []string{"test", "-c", "-o", filepath.Join(mod, "m.test"), "."},
		Dir:  mod,
		Env:  []string{"GOCACHE=" + cache, "GOFLAGS=-mod=mod", "GOWORK=off"},
	})
	cancel()
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want cancelled (was the build too fast?)", err)
	}
	if es, _ := os.ReadDir(tmp); len(es) > 0 {
		t.Errorf("left in TMPDIR: %d go-build dirs, %d entries (%s...)", workDirs(tmp), len(es), es[0].Name())
	}
}

// TestTempLeftByProcessRemoved checks that what a process leaves in its
// os.TempDir() (a test that never cleans up) is removed when it exits.
func TestTempLeftByProcessRemoved(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	out, err := Default.Run(context.Background(), &Invocation{
		Path: "sh",
		Args: []string{"-c", `mkdir "$TMPDIR/left" && echo x > "$TMPDIR/left/f" && echo "$TMPDIR"`},
	})
	if err != nil {
		t.Fatal(err)
	}
	got := strings.TrimSpace(string(out.Stdout))
	if filepath.Dir(got) != tmp || got == tmp {
		t.Errorf("process TMPDIR = %q, want a dir of its own in %s", got, tmp)
	}
	if es, _ := os.ReadDir(tmp); len(es) > 0 {
		t.Errorf("left in TMPDIR: %s", es[0].Name())
	}
}

// workDirs counts the go-build dirs under dir, at any depth.
func workDirs(dir string) int {
	n := 0
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.IsDir() && strings.HasPrefix(d.Name(), "go-build") {
			n++
		}
		return nil
	})
	return n
}

// TestMaxRSS runs this test binary again as a process that allocates
// (and touches) memory: 400 MB, or 50 MB and then sleeps. Under a cap of
// 200 MB the first is killed at the cap, long before it ends by itself;
// the second ends on its own, and its peak is told.
func TestMaxRSS(t *testing.T) {
	if mb := os.Getenv("NOPOL_TEST_ALLOC_MB"); mb != "" {
		n, _ := strconv.Atoi(mb)
		var keep [][]byte
		for range n {
			b := make([]byte, 1<<20)
			for i := range b {
				b[i] = 1
			}
			keep = append(keep, b)
			time.Sleep(5 * time.Millisecond)
		}
		time.Sleep(200 * time.Millisecond)
		fmt.Println("allocated", len(keep))
		os.Exit(0)
	}
	if residentBytes(os.Getpid()) == 0 {
		t.Skip("resident memory cannot be read here")
	}
	for _, tc := range []struct {
		mb   string
		over bool
	}{
		{"400", true},
		{"50", false},
	} {
		t.Run(tc.mb, func(t *testing.T) {
			out, err := Default.Run(context.Background(), &Invocation{
				Path:    os.Args[0],
				Args:    []string{"-test.run=^TestMaxRSS$"},
				Env:     []string{"NOPOL_TEST_ALLOC_MB=" + tc.mb},
				Timeout: time.Minute,
				MaxRSS:  200 << 20,
			})
			if out.OverMemory != tc.over || out.Stopped != tc.over || IsStopped(err) != tc.over {
				t.Fatalf("OverMemory %v, Stopped %v, err %v; want over the cap: %v\n%s", out.OverMemory, out.Stopped, err, tc.over, out.Stdout)
			}
			if tc.over {
				if strings.Contains(string(out.Stdout), "allocated") || out.Duration > 30*time.Second {
					t.Errorf("not stopped at the cap: %s in %v", out.Stdout, out.Duration)
				}
				return
			}
			if err != nil || !strings.Contains(string(out.Stdout), "allocated 50") {
				t.Errorf("err %v, output %q; want the process to end by itself", err, out.Stdout)
			}
			if out.PeakRSS < 50<<20 || out.PeakRSS > 200<<20 {
				t.Errorf("peak %d bytes, want about 50 MB", out.PeakRSS)
			}
		})
	}
}
