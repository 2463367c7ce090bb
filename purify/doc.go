// Package purify splits tests into pure constituents (Cornu's thesis ch. 4,
// B-Refactoring), so that an angelic value can be forced, and an example
// collected, per constituent instead of per test.
//
// # Impure tests
//
// A test is pure on an if condition when it evaluates the condition one way
// only. Most tests are not: one statement drives the then branch, the next
// the else branch, and forcing the condition for the whole test cannot say
// which outcome the test needs. Go's table-driven tests loop over cases in
// one function and are even less pure. The constituents of a test are its
// top-level statements; a top-level table loop's iterations are
// constituents of their own. Subtests (t.Run) are not looked into: the
// statement holding the call is the constituent.
//
// # Constituents at run time
//
// Marking test files with the running constituent, and attributing a
// failure to a constituent, is the protocol shared with the runtime hook
// of package collect: package internal/constituent owns it (collect needs
// it, and this package needs collect).
//
// # Purity analysis
//
// Analyze takes execution signatures per site, test and constituent (how
// often the condition was true and false) and classifies tests as in the
// thesis: pure, impure without impure constituent (splitting makes them
// pure), and absolutely impure (a constituent evaluates a condition both
// ways); and sites as purely covered before (every test reaching it is pure
// on it) and after purification (no test is absolutely impure on it).
// Report.WriteText prints the table of Tables 4.3 and 4.5 of the thesis per
// package; Report.WriteJSON the whole report.
//
// # Repairing with constituents
//
// For a failing test T and a site s, Reaching lists the constituents of T
// evaluating s. The failing constituent (AttributeOutput) is the one whose
// angelic value is searched, forcing s only while it runs
// (collect.Run.ForceSegment, ForceIteration); every other constituent of T
// that evaluates s one way gives examples with its actual values, like a
// passing test. A constituent evaluating s both ways is absolutely impure:
// it gives no single needed outcome.
//
// # Purified test files
//
// Split rewrites impure tests into one test function per constituent, each
// with the earlier statements it depends on as setup (declarations of what
// it uses, statements that may change those variables or package state),
// and per-iteration tests for table loops over a slice or array literal.
// The dependency analysis is syntactic and errs on the side of including a
// statement: a fragment must pass or fail as the original test did, which
// nopol purify -write checks by running the purified files.
package purify
