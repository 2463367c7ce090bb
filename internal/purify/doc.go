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
// constituents of their own.
//
// # Markers
//
// Mark rewrites a test file so that the running constituent is known at run
// time: NopolSegment(k) before the k-th top-level statement and
// NopolIteration() at the start of each table loop iteration. Both are hook
// functions of the instrumented package (package collect provides them and
// records the constituent, Segment and Iteration, with every evaluation).
// /*line*/ directives keep the original line numbers, so failure messages
// and stack traces point into the original source.
//
// # Attributing a failure
//
// The statement of a failure is static: ParseOutput finds the file:line of
// failure messages and panic frames, and Attribute maps it to the
// constituent whose original lines hold it. The iteration of a table loop
// is dynamic: when asked to, the hook prints ConstituentLine at every
// marker, and ParseOutput, reading -test.v output in which testing writes
// failures as they happen, tags each location with the constituent running
// at the time. AttributeOutput combines both. A failure in a helper that
// does not call t.Helper is attributed through a later location (a panic's
// stack has the test's frame) or not at all.
//
// # Purity analysis
//
// Analyze takes execution signatures per site, test and constituent (how
// often the condition was true and false) and classifies tests as in the
// thesis: pure, impure without impure constituent (splitting makes them
// pure), and absolutely impure; and sites as purely covered before and
// after purification.
//
// # Purified test files
//
// Split rewrites impure tests into one test function per constituent, each
// with the earlier statements it depends on as setup, and per-iteration
// tests for table loops whose table is a literal.
package purify
