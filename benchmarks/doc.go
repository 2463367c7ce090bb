// Package benchmarks holds the bug dataset of nopol (one JSON file per bug
// under bugs/) and the harness behind 'nopol bench'.
//
// # Bugs as data
//
// A [Bug] names a module version on the Go module proxy (the fixed tree), a
// unified diff that turns the fixed tree into the buggy one, the failing
// tests, and the developer's condition. No third-party source is stored: a
// bug is materialised into a temp dir from the module cache ('go mod
// download -json'), made writable, and patched.
//
// Real bugs are mined from consecutive releases ([Mine]): a function whose
// if condition changed, or which gained a guard, has that one change
// reverted in the newer release; the bug is kept when the package still
// compiles, some test fails, and the whole package suite passes on the
// release. Seeded bugs ([Seed]) are single mutations of conditions kept when
// one to five tests fail. [Verify] re-checks bugs in fresh materialisations.
//
// # Running tools
//
// [Bench] materialises each bug, runs a repair tool in a subprocess with a
// time and memory limit, re-validates the patch in a fresh copy (whole
// package suite) and judges it plausible and correct. The tools are nopol
// itself ('nopol fix -json -q -C dir') and a jMutRepair-style mutation
// baseline ([MutationRepair]).
//
// # Subprocesses
//
// Every process is started by [Runner] through internal/gotest
// (exec.CommandContext, its own process group killed on timeout or cancel,
// WaitDelay), with an address-space limit applied through a /bin/sh
// wrapper ('ulimit -v') so no cgroup is needed.
package benchmarks
