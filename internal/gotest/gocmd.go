package gotest

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Go runs the go command in dir with args and returns its stdout; a
// failure's error includes stderr.
func (r *Runner) Go(ctx context.Context, dir string, timeout time.Duration, args ...string) ([]byte, error) {
	out, err := r.Run(ctx, &Invocation{Path: "go", Args: args, Dir: dir, Timeout: timeout})
	return out.Stdout, err
}

// List runs `go list -e -json args...` in dir and decodes each package
// as a generic JSON object.
func (r *Runner) List(ctx context.Context, dir string, args ...string) ([]map[string]any, error) {
	out, err := r.Run(ctx, &Invocation{Path: "go", Args: append([]string{"list", "-e", "-json"}, args...), Dir: dir, MaxOutput: -1})
	if err != nil {
		return nil, err
	}
	dec := json.NewDecoder(strings.NewReader(string(out.Stdout)))
	var pkgs []map[string]any
	for dec.More() {
		var p map[string]any
		if err := dec.Decode(&p); err != nil {
			return nil, fmt.Errorf("decoding go list output: %w", err)
		}
		pkgs = append(pkgs, p)
	}
	return pkgs, nil
}

// BuildTest compiles the test binary of the package pattern pkg (as seen
// from dir) to out with `go test -c`, using overlay when it is not "", and
// the extra build flags. Compiler errors are in the returned error.
func (r *Runner) BuildTest(ctx context.Context, dir, pkg, overlay, out string, flags ...string) error {
	args := []string{"test", "-c", "-vet=off", "-o", out}
	if overlay != "" {
		args = append(args, "-overlay", overlay)
	}
	args = append(append(args, flags...), pkg)
	_, err := r.Run(ctx, &Invocation{Path: "go", Args: args, Dir: dir})
	if err != nil {
		return fmt.Errorf("building test binary of %s: %w", pkg, err)
	}
	return nil
}

// BuildTests compiles the test binaries of several packages in one go
// command, into outDir (`go test -c -o outDir/`), where each binary is
// named after its package's last import path element (see
// TestBinaryName). The names must be distinct. flags are extra build
// flags.
func (r *Runner) BuildTests(ctx context.Context, dir string, pkgs []string, overlay, outDir string, flags ...string) error {
	args := []string{"test", "-c", "-vet=off", "-o", strings.TrimSuffix(outDir, "/") + "/"}
	if overlay != "" {
		args = append(args, "-overlay", overlay)
	}
	args = append(append(args, flags...), pkgs...)
	_, err := r.Run(ctx, &Invocation{Path: "go", Args: args, Dir: dir})
	if err != nil {
		return fmt.Errorf("building test binaries: %w", err)
	}
	return nil
}

// TestBinaryName is the file name `go test -c -o dir/` gives the test
// binary of the package with import path path: its last element, or the
// one before a major version suffix (example.com/m/v2 gives m.test).
func TestBinaryName(path string) string {
	elem := path[strings.LastIndex(path, "/")+1:]
	if i := strings.LastIndex(path, "/"); i >= 0 && isVersionElement(elem) {
		dir := path[:i]
		elem = dir[strings.LastIndex(dir, "/")+1:]
	}
	return elem + ".test"
}

// isVersionElement reports whether s is a major version suffix v2, v3...
func isVersionElement(s string) bool {
	if len(s) < 2 || s[0] != 'v' || s[1] == '0' || s == "v1" {
		return false
	}
	for i := 1; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// maxAddressSpaceEnv, set beside the -exec wrapper's own variable
// (Runner.TestMemory), is the address-space limit in bytes the wrapper
// gives the test binary (Linux).
const maxAddressSpaceEnv = "NOPOL_EXEC_MAX_AS"

// TestJSON runs `go test -json -count=1 [extra...] pkgs...` in dir (the
// -count of extra instead, if it has one) and
// returns the summaries of its event stream, read as it comes (in linear
// time, each test's output capped). A non-zero exit with events is not an
// error: failing tests are in the summaries.
func (r *Runner) TestJSON(ctx context.Context, dir string, timeout time.Duration, extra []string, pkgs ...string) ([]PackageSummary, Outcome, error) {
	args := []string{"test", "-json"}
	if !slices.ContainsFunc(extra, func(a string) bool { return strings.HasPrefix(a, "-count=") }) {
		args = append(args, "-count=1")
	}
	args = append(args, extra...)
	var env []string
	if flag, e, ok := execWrapper(); ok {
		args, env = append(args, flag), []string{e}
		if r.TestMemory > 0 {
			env = append(env, maxAddressSpaceEnv+"="+strconv.FormatInt(r.TestMemory, 10))
		}
	}
	args = append(args, pkgs...)
	var sum Summarizer
	lw := &lineWriter{fn: sum.AddLine}
	out, err := r.Run(ctx, &Invocation{Path: "go", Args: args, Dir: dir, Env: env, Timeout: timeout, Stdout: lw, MaxOutput: 1 << 20})
	lw.Close()
	sums := sum.Summaries()
	if err != nil {
		if _, ok := err.(*ExitError); ok && len(sums) > 0 {
			return sums, out, nil
		}
		return sums, out, err
	}
	return sums, out, nil
}
