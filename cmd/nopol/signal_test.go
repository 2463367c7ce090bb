//go:build unix

package main

import (
	"bufio"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
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
	if testing.Short() {
		t.Skip("builds nopol and runs test binaries")
	}
	work := t.TempDir()
	bin := filepath.Join(work, "nopol")
	build := exec.Command("go", "build", "-o", bin, ".")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	mod := filepath.Join(work, "m")
	for name, src := range slowModule {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(mod, name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(mod, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	before, err := treeSum(mod)
	if err != nil {
		t.Fatal(err)
	}
	tmp := filepath.Join(work, "tmp")
	if err := os.Mkdir(tmp, 0o755); err != nil {
		t.Fatal(err)
	}

	for _, after := range []string{"coverage:", "site 1/"} {
		t.Run(strings.TrimSuffix(after, ":"), func(t *testing.T) {
			cmd := exec.Command(bin, "fix", "-v", "-C", mod)
			cmd.Env = append(os.Environ(), "TMPDIR="+tmp, "GOFLAGS=-mod=mod", "GOTOOLCHAIN=local")
			stderr, err := cmd.StderrPipe()
			if err != nil {
				t.Fatal(err)
			}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			var log strings.Builder
			sc := bufio.NewScanner(stderr)
			sent := false
			for sc.Scan() {
				log.WriteString(sc.Text() + "\n")
				if !sent && strings.Contains(sc.Text(), after) {
					if during, _ := nopolTemps(tmp); len(during) == 0 {
						t.Errorf("no nopol-* temp dir in %s while running: the check below proves nothing", tmp)
					}
					if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
						t.Fatal(err)
					}
					sent = true
					time.AfterFunc(30*time.Second, func() { cmd.Process.Kill() })
				}
			}
			err = cmd.Wait()
			if !sent {
				t.Fatalf("nopol ended before %q:\n%s", after, log.String())
			}
			var ee *exec.ExitError
			if !errors.As(err, &ee) || ee.ExitCode() != 3 {
				t.Errorf("exit: %v, want status 3\n%s", err, log.String())
			}
			if !strings.Contains(log.String(), "nopol: interrupted") {
				t.Errorf("no interruption message:\n%s", log.String())
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
