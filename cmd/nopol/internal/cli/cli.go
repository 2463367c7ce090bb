// Package cli implements the nopol command line: one file per subcommand,
// each registering itself, and the mapping from errors to exit codes.
package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
)

// Exit codes of the nopol command.
const (
	ExitOK       = 0 // a patch was found (fix), or the command succeeded
	ExitNoPatch  = 1 // the command ran and found nothing (no patch)
	ExitBadInput = 2 // usage error, module does not compile, no failing test, flaky test
	ExitInternal = 3 // nopol itself failed
)

// Env is what a subcommand reads and writes besides its arguments.
type Env struct {
	// Stdout receives machine-readable output only; Stderr progress and
	// messages.
	Stdout, Stderr io.Writer
	// Dir is the working directory the command runs in.
	Dir string
}

// Command is a subcommand.
type Command struct {
	// Name is the word after nopol; Short a one-line description.
	Name, Short string
	// Run executes the command. Errors are mapped to exit codes by
	// ExitCode: wrap them in *ExitError to choose one.
	Run func(ctx context.Context, env *Env, args []string) error
}

var commands = map[string]*Command{}

// Register adds a subcommand; called from init in the command's file.
func Register(c *Command) { commands[c.Name] = c }

// ExitError carries the exit code for an error.
type ExitError struct {
	Code int
	Err  error
}

func (e *ExitError) Error() string { return e.Err.Error() }
func (e *ExitError) Unwrap() error { return e.Err }

// Exit wraps err with code; Exit(code, nil) is nil.
func Exit(code int, err error) error {
	if err == nil {
		return nil
	}
	return &ExitError{Code: code, Err: err}
}

// ErrUsage marks usage errors (exit 2 after the help text was printed).
var ErrUsage = errors.New("usage")

// ExitCode maps the error of a command to the process exit code.
func ExitCode(err error) int {
	if err == nil {
		return ExitOK
	}
	var ee *ExitError
	if errors.As(err, &ee) {
		return ee.Code
	}
	if errors.Is(err, flag.ErrHelp) {
		return ExitOK // help was asked for, and printed
	}
	if errors.Is(err, ErrUsage) {
		return ExitBadInput
	}
	return ExitInternal
}

// Main runs the nopol command with args (without the program name) and
// returns the exit code; it prints errors as "nopol: <err>".
func Main(ctx context.Context, env *Env, args []string) int {
	if len(args) == 2 && args[0] == "help" {
		// nopol help fix: the command's own help, on stdout.
		c, ok := commands[args[1]]
		if !ok {
			fmt.Fprintf(env.Stderr, "nopol help: unknown command %q\n", args[1])
			usage(env.Stderr)
			return ExitBadInput
		}
		return ExitCode(c.Run(ctx, &Env{Stdout: env.Stdout, Stderr: env.Stdout, Dir: env.Dir}, []string{"-h"}))
	}
	if len(args) == 0 || args[0] == "help" || args[0] == "-h" || args[0] == "--help" {
		if len(args) == 0 {
			usage(env.Stderr)
			return ExitBadInput
		}
		usage(env.Stdout)
		return ExitOK
	}
	c, ok := commands[args[0]]
	if !ok {
		fmt.Fprintf(env.Stderr, "nopol: unknown command %q\n", args[0])
		usage(env.Stderr)
		return ExitBadInput
	}
	err := c.Run(ctx, env, args[1:])
	code := ExitCode(err)
	if err != nil && !errors.Is(err, flag.ErrHelp) && !errors.Is(err, ErrUsage) && !errors.Is(err, ErrSilent) {
		fmt.Fprintf(env.Stderr, "nopol: %v\n", err)
	}
	return code
}

// ErrSilent marks an error whose message was already printed (its exit
// code still counts).
var ErrSilent = errors.New("silent")

func usage(w io.Writer) {
	fmt.Fprintln(w, "nopol repairs faulty if conditions and missing guards in Go programs.")
	fmt.Fprintln(w, "\nUsage: nopol <command> [flags] [arguments]\n\nCommands:")
	var names []string
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-8s %s\n", n, commands[n].Short)
	}
	fmt.Fprintln(w, "\nRun 'nopol help <command>' for a command's flags.")
}

// within is path made absolute relative to dir, as the go command reads
// paths after -C dir; an absolute path stays as it is.
func within(dir, path string) string {
	if filepath.IsAbs(path) {
		return path
	}
	return filepath.Join(dir, path)
}

// workDir is the directory a command runs in: env.Dir, or -C dir (given
// as c) made absolute, which must be a directory.
func workDir(env *Env, c string) (string, error) {
	if c == "" {
		return env.Dir, nil
	}
	dir := within(env.Dir, c)
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return "", fmt.Errorf("-C %s: not a directory", c)
	}
	return dir, nil
}
