package benchmarks

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/nopol-go/nopol/internal/gotest"
)

// Runner starts every subprocess of the harness through internal/gotest
// (exec.CommandContext, Setpgid, the process group killed on timeout or
// cancel, WaitDelay) and adds an address-space limit.
type Runner struct {
	// Timeout bounds one command (0: none besides ctx).
	Timeout time.Duration
	// MemLimit is the RLIMIT_AS of the command in bytes (0: none). It is
	// applied by running the command through /bin/sh -c 'ulimit -v N;
	// exec "$@"', which needs no cgroup; children inherit the limit, so
	// it bounds each process of the group, not their sum.
	MemLimit int64
	// Env is added to the environment of every command.
	Env []string
	// Exec, when set, is used instead of starting a process (tests).
	Exec func(ctx context.Context, dir string, args []string) (Output, error)
}

// Output is what a finished command produced.
type Output struct {
	Stdout, Stderr []byte
	// ExitCode is the exit status (-1 when killed by a signal).
	ExitCode int
	// TimedOut is set when the command was killed at its timeout.
	TimedOut bool
	Duration time.Duration
}

// ErrTimeout is wrapped by errors of commands killed at their timeout.
var ErrTimeout = errors.New("timed out")

// Run runs args in dir. A non-zero exit is not an error (see ExitCode);
// errors are failures to start, a timeout, or a cancelled ctx.
func (r *Runner) Run(ctx context.Context, dir string, args ...string) (Output, error) {
	if r.Exec != nil {
		return r.Exec(ctx, dir, args)
	}
	argv := args
	if r.MemLimit > 0 {
		kb := strconv.FormatInt(r.MemLimit/1024, 10)
		argv = append([]string{"/bin/sh", "-c", "ulimit -v " + kb + " && exec \"$@\"", "sh"}, args...)
	}
	inv := &gotest.Invocation{Path: argv[0], Args: argv[1:], Dir: dir, Env: append(append([]string{}, goEnv...), r.Env...), Timeout: r.Timeout}
	o, err := (&gotest.Runner{WaitDelay: 5 * time.Second}).Run(ctx, inv)
	out := Output{Stdout: o.Stdout, Stderr: o.Stderr, ExitCode: o.ExitCode, TimedOut: o.TimedOut, Duration: o.Duration}
	var exitErr *gotest.ExitError
	switch {
	case err == nil || errors.As(err, &exitErr):
		return out, nil
	case gotest.IsTimeout(err):
		return out, fmt.Errorf("%s: %w after %v", strings.Join(args, " "), ErrTimeout, out.Duration.Round(time.Millisecond))
	}
	return out, err
}

// tail returns the last n bytes of b as a string, for error messages.
func tail(b []byte, n int) string {
	if len(b) > n {
		b = b[len(b)-n:]
	}
	return strings.TrimSpace(string(b))
}
