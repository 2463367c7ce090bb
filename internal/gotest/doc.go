// Package gotest is the one place where nopol starts processes: the go
// command (go list, go test -json, go test -c -overlay) and compiled test
// binaries.
//
// # Running
//
// Every process runs under exec.CommandContext in its own process group
// (Setpgid on Unix); cancelling the context or reaching the per-run timeout
// sends SIGINT to the whole group, then SIGKILL after a second or as soon
// as the process has exited, so a test that forks a helper and hangs
// leaves nothing behind. WaitDelay bounds the wait for pipes held open by
// orphans. Every process gets a TMPDIR of its own (the go command a
// GOTMPDIR too) unless the caller sets one, removed when it exits: a test
// that leaves files in os.TempDir(), a test binary killed before its
// t.TempDir cleanup and a go command killed during a build (it does not
// remove its go-build work dir itself) leave nothing behind.
//
// # Temp dirs
//
// TempDir makes nopol's temp dirs (nopol-build-*, nopol-schema-*, ...)
// marked with the process id; the first call in a process removes the
// marked dirs of processes that no longer exist, so that a nopol killed
// before its deferred cleanup (SIGKILL, a test timeout panic) leaves
// nothing behind for long.
// On Linux every process also gets SIGKILL when nopol dies (the
// parent-death signal), and `go test` runs its test binaries through
// nopol's own executable (-exec), which sets that signal on them before
// exec: killing nopol with SIGKILL leaves no go command or test binary
// running.
//
// # Output
//
// What a process writes is kept up to a cap per stream (Invocation.MaxOutput):
// the head and the tail, with a line saying how much was cut, in time
// linear in the output, so that a test printing without end neither slows
// nopol down nor grows it.
//
// A timeout is reported as a *TimeoutError, distinct from a non-zero exit
// (*ExitError), whose text includes the tail of stderr.
//
// # Seam
//
// Runner.Exec, when set, replaces process creation, so callers can test
// their logic with canned outcomes and no processes.
//
// # Test output
//
// ParseEvents reads `go test -json` streams and Summarize turns them into
// per-top-level-test results (TestJSON reads the stream as it comes, with
// a Summarizer); ParseVerbose does the same for the -test.v=test2json
// output of a test binary run directly. Each test's output is capped. A
// crash is attributed to the test whose goroutine panicked
// (CrashedTests), not to every test that had not finished.
package gotest
