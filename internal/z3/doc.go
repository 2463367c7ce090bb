// Package z3 is a small cgo binding to the Z3 SMT solver (libz3), with only
// what package synth needs: Bool, Int and Real terms, linear arithmetic,
// comparisons, boolean connectives, an incremental solver and models.
//
// # Lifetime
//
// A [Context] owns every term, solver and model made from it. It is created
// by [NewContext] and must be released with [Context.Close], which frees the
// C memory at once: a program making thousands of queries creates one
// Context per problem (or per query) and closes it, so nothing accumulates.
// Terms ([Expr], [Sort]) are plain handles valid until their Context is
// closed; [Solver] and [Model] hold a reference count that their Close drops
// (closing the Context drops it too).
//
// # Concurrency
//
// A Context is not safe for concurrent use, with one exception:
// [Context.Interrupt] may be called from any goroutine, also while
// [Solver.Check] runs, and after Close (it then does nothing). Check wires
// this to its context.Context with context.AfterFunc, so cancelling the
// context stops a running query promptly.
//
// # Bounds
//
// [Solver.SetTimeout] bounds each check by wall-clock time;
// [Solver.SetResourceLimit] bounds it by Z3's resource counter (parameter
// rlimit), which does not depend on the machine's load, so a search bounded
// that way gives the same answers on a busy machine. [Solver.Statistic]
// reads the counter ("rlimit count", global to the Context) after a check.
//
// # Results
//
// [Solver.Check] returns [Sat] or [Unsat] with a nil error. When Z3 gives up
// (timeout, interruption, incompleteness) it returns [Unknown] and an
// [*UnknownError] carrying Z3's reason; when the Go context was done, the
// error also wraps the context's error.
package z3
