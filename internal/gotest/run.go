package gotest

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Invocation is one process to run.
type Invocation struct {
	// Path is the program (looked up in PATH when it has no slash); Args
	// its arguments, without the program name.
	Path string
	Args []string
	// Dir is the working directory; Env is appended to os.Environ().
	Dir string
	Env []string
	// Timeout kills the process group after this long; 0 means no limit
	// beyond the context.
	Timeout time.Duration
	// Stdout and Stderr, when set, also receive the output as it comes,
	// whole.
	Stdout, Stderr io.Writer
	// MaxOutput caps each of Outcome.Stdout and Outcome.Stderr: the head
	// and the tail are kept, with a line saying how much was cut between
	// them. 0 means DefaultMaxOutput, a negative value no cap.
	MaxOutput int
	// Stop, when set, is called every StopEvery while the process runs
	// (and may be called once more as it ends); once it returns true the
	// process group is killed, as at Timeout, and Outcome.Stopped is set.
	Stop func() bool
	// MaxRSS, when > 0, caps the process's resident memory in bytes:
	// once it holds more (read every StopEvery, where the system tells:
	// Linux's /proc), the process group is killed, as at Timeout, and
	// Outcome.Stopped and Outcome.OverMemory are set. A test that
	// allocates without end (a recursion that allocates at each call)
	// then ends at the cap, not when the machine's memory or the
	// address-space limit runs out, seconds later or never.
	MaxRSS int64
}

// StopEvery is how often Invocation.Stop is called.
const StopEvery = 5 * time.Millisecond

// String renders the command line for messages.
func (inv *Invocation) String() string {
	return strings.Join(append([]string{inv.Path}, inv.Args...), " ")
}

// Outcome is what a finished (or killed) process produced.
type Outcome struct {
	Stdout, Stderr []byte
	// ExitCode is the exit status, -1 when killed or not started.
	ExitCode int
	// TimedOut reports that Invocation.Timeout killed the process.
	TimedOut bool
	// Stopped reports that Invocation.Stop had the process killed, or
	// Invocation.MaxRSS (OverMemory then).
	Stopped    bool
	OverMemory bool
	// PeakRSS is the most resident memory the process (and the children
	// it waited for) held, in bytes; 0 where the system does not tell.
	PeakRSS  int64
	Duration time.Duration
	// CPU is the processor time (user and system) the process spent;
	// 0 when it was not started or the system does not tell.
	CPU time.Duration
}

// ExitError reports a process that exited with a non-zero status.
type ExitError struct {
	Cmd    string
	Code   int
	Stderr string
}

func (e *ExitError) Error() string {
	msg := fmt.Sprintf("running %s: exit status %d", e.Cmd, e.Code)
	if s := strings.TrimSpace(tail(e.Stderr, 4000)); s != "" {
		msg += ":\n" + s
	}
	return msg
}

// TimeoutError reports a process killed because it ran longer than its
// timeout. It is not a failure of the program under test as such: callers
// decide what a timeout means.
type TimeoutError struct {
	Cmd     string
	Timeout time.Duration
}

func (e *TimeoutError) Error() string {
	return fmt.Sprintf("running %s: timed out after %v", e.Cmd, e.Timeout)
}

// StopError reports a process killed because its Invocation.Stop said
// so.
type StopError struct {
	Cmd string
}

func (e *StopError) Error() string {
	return fmt.Sprintf("running %s: stopped", e.Cmd)
}

// IsStopped reports whether err is or wraps a *StopError.
func IsStopped(err error) bool {
	var s *StopError
	return errors.As(err, &s)
}

// IsTimeout reports whether err is or wraps a *TimeoutError.
func IsTimeout(err error) bool {
	var t *TimeoutError
	return errors.As(err, &t)
}

// Runner runs invocations. The zero value runs real processes.
type Runner struct {
	// Exec, when set, is called instead of starting a process. It returns
	// the outcome the process would have had; Run derives the error from
	// it as for a real process.
	Exec func(ctx context.Context, inv *Invocation) (Outcome, error)
	// WaitDelay bounds the wait for I/O after the process is killed;
	// 0 means 2s.
	WaitDelay time.Duration
	// GoEnv is added to the environment of every go command run (before
	// Invocation.Env), such as GOFLAGS with build tags.
	GoEnv []string
	// TestMemory, when > 0, caps the memory of each test binary that a
	// `go test` run (TestJSON) starts: the -exec wrapper lowers its
	// address-space limit (RLIMIT_AS) to that many bytes before it execs
	// the binary (Linux only; a lower limit already set stays). A test
	// that allocates past it dies with the runtime's "fatal error:
	// out of memory", a crash of that test, instead of taking
	// the machine's memory. The go command and the compiler are not
	// capped.
	TestMemory int64
}

// WithTestMemory returns a runner like r whose `go test` runs cap each
// test binary's memory at n bytes (Runner.TestMemory; 0: no cap).
func (r *Runner) WithTestMemory(n int64) *Runner {
	c := *r
	c.TestMemory = max(n, 0)
	return &c
}

// WithTags returns a runner like r whose go commands use the build tags
// (GOFLAGS=-tags=..., after the GOFLAGS of the environment); r itself
// when there are none.
func (r *Runner) WithTags(tags []string) *Runner {
	if len(tags) == 0 {
		return r
	}
	c := *r
	flags := strings.TrimSpace(os.Getenv("GOFLAGS") + " -tags=" + strings.Join(tags, ","))
	c.GoEnv = append(slices.Clip(r.GoEnv), "GOFLAGS="+flags)
	return &c
}

// Default is the runner used by the package-level helpers.
var Default = &Runner{}

// Run runs inv and waits for it. It returns the outcome in every case where
// the process was started, with a nil error on exit status 0, an *ExitError
// on another status, a *TimeoutError when inv.Timeout ran out, a
// *StopError when inv.Stop had it killed, and the
// context's error when ctx was cancelled.
func (r *Runner) Run(ctx context.Context, inv *Invocation) (Outcome, error) {
	if err := ctx.Err(); err != nil {
		return Outcome{ExitCode: -1}, err
	}
	if r != nil && len(r.GoEnv) > 0 && isGoCommand(inv.Path) {
		c := *inv
		c.Env = append(slices.Clip(r.GoEnv), inv.Env...)
		inv = &c
	}
	var out Outcome
	var err error
	if r != nil && r.Exec != nil {
		out, err = r.Exec(ctx, inv)
		if inv.Stdout != nil {
			inv.Stdout.Write(out.Stdout)
		}
		if inv.Stderr != nil {
			inv.Stderr.Write(out.Stderr)
		}
		if err != nil {
			return out, err
		}
	} else {
		out, err = r.start(ctx, inv)
		if err != nil {
			return out, err
		}
	}
	switch {
	case out.Stopped:
		return out, &StopError{Cmd: inv.String()}
	case out.TimedOut:
		return out, &TimeoutError{Cmd: inv.String(), Timeout: inv.Timeout}
	case ctx.Err() != nil:
		return out, fmt.Errorf("running %s: %w", inv.String(), ctx.Err())
	case out.ExitCode != 0:
		return out, &ExitError{Cmd: inv.String(), Code: out.ExitCode, Stderr: string(out.Stderr)}
	}
	return out, nil
}

func (r *Runner) start(ctx context.Context, inv *Invocation) (Outcome, error) {
	runCtx := ctx
	var cancel context.CancelFunc
	if inv.Timeout > 0 {
		runCtx, cancel = context.WithTimeout(ctx, inv.Timeout)
	} else {
		runCtx, cancel = context.WithCancel(ctx)
	}
	defer cancel()

	cmd := exec.CommandContext(runCtx, inv.Path, inv.Args...)
	cmd.Dir = inv.Dir
	cmd.Env = append(os.Environ(), inv.Env...)
	stdout, stderr := newCapBuffer(inv.MaxOutput), newCapBuffer(inv.MaxOutput)
	cmd.Stdout = stdout
	cmd.Stderr = stderr
	if inv.Stdout != nil {
		cmd.Stdout = io.MultiWriter(stdout, inv.Stdout)
	}
	if inv.Stderr != nil {
		cmd.Stderr = io.MultiWriter(stderr, inv.Stderr)
	}
	cmd.WaitDelay = 2 * time.Second
	if r != nil && r.WaitDelay > 0 {
		cmd.WaitDelay = r.WaitDelay
	}
	// The group gets SIGINT, then SIGKILL after the grace, well before
	// WaitDelay would kill the process alone.
	exited := setProcessGroup(cmd, min(interruptGrace, cmd.WaitDelay/2))
	if !hasEnv(inv.Env, "TMPDIR") {
		// Every process gets a temp dir of our own, removed below even if
		// the process was killed before it could clean up: a test that
		// leaves files in os.TempDir(), or is killed before its
		// t.TempDir cleanup, leaves nothing behind, and the go command's
		// work dirs (go-build*) go there too.
		tmp, err := TempDir("nopol-tmp-")
		if err != nil {
			return Outcome{ExitCode: -1}, fmt.Errorf("running %s: %w", inv.String(), err)
		}
		defer os.RemoveAll(tmp)
		cmd.Env = append(cmd.Env, "TMPDIR="+tmp)
		if isGoCommand(inv.Path) && !hasEnv(inv.Env, "GOTMPDIR") {
			cmd.Env = append(cmd.Env, "GOTMPDIR="+tmp)
		}
	}

	start := time.Now()
	var stopped, overMemory atomic.Bool
	var watching sync.WaitGroup
	done := make(chan struct{})
	err := cmd.Start()
	if err == nil && (inv.Stop != nil || inv.MaxRSS > 0) {
		pid := cmd.Process.Pid
		watching.Add(1)
		go func() {
			defer watching.Done()
			tick := time.NewTicker(StopEvery)
			defer tick.Stop()
			for {
				select {
				case <-done:
					return
				case <-runCtx.Done():
					return
				case <-tick.C:
					over := inv.MaxRSS > 0 && residentBytes(pid) > inv.MaxRSS
					if over || (inv.Stop != nil && inv.Stop()) {
						overMemory.Store(over)
						stopped.Store(true)
						cancel()
						return
					}
				}
			}
		}()
	}
	if err == nil {
		err = cmd.Wait()
	}
	close(done)
	watching.Wait()
	exited()
	out := Outcome{
		Stdout:   stdout.Bytes(),
		Stderr:   stderr.Bytes(),
		ExitCode: -1,
		Duration: time.Since(start),
	}
	if cmd.ProcessState != nil {
		out.ExitCode = cmd.ProcessState.ExitCode()
		out.PeakRSS = peakRSS(cmd.ProcessState)
		out.CPU = cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
	}
	if stopped.Load() && ctx.Err() == nil {
		out.Stopped, out.OverMemory = true, overMemory.Load()
		return out, nil
	}
	if runCtx.Err() != nil && ctx.Err() == nil && inv.Timeout > 0 {
		out.TimedOut = true
		return out, nil
	}
	if ctx.Err() != nil {
		return out, nil // Run reports the context's error
	}
	if err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) || errors.Is(err, exec.ErrWaitDelay) {
			return out, nil
		}
		return out, fmt.Errorf("running %s: %w", inv.String(), err)
	}
	return out, nil
}

// interruptGrace is how long a cancelled process group has between SIGINT
// and SIGKILL.
const interruptGrace = time.Second

// isGoCommand reports whether path names the go command.
func isGoCommand(path string) bool {
	return path == "go" || filepath.Base(path) == "go" || filepath.Base(path) == "go.exe"
}

// hasEnv reports whether env sets the variable name.
func hasEnv(env []string, name string) bool {
	for _, kv := range env {
		if strings.HasPrefix(kv, name+"=") {
			return true
		}
	}
	return false
}

func tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return "..." + s[len(s)-n:]
}
