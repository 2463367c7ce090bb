// Package constituent is the protocol between instrumented test files, the
// runtime hook (collect/hookrt) and the readers of a test's output: which
// constituent of a test (a top-level statement, or an iteration of a
// top-level table loop; Cornu's thesis ch. 4) is running, and to which one
// a failure belongs. Package collect marks and runs tests with it; package
// purify analyses and splits tests with it.
//
// # Markers
//
// Mark rewrites a test file so that the running constituent is known at run
// time: NopolSegment(k) before the k-th top-level statement (from 0) and
// NopolIteration() at the start of each table loop iteration. Both are hook
// functions of the instrumented package (package collect provides them and
// records the constituent, Segment and Iteration, with every evaluation).
// NopolSegment(k) sets the iteration to 0; NopolIteration increments it, so
// iterations count from 1 and 0 is the loop's range expression (and any
// statement outside a loop). /*line*/ directives keep the original line
// numbers, so failure messages and stack traces point into the original
// source.
//
// # Attributing a failure
//
// The statement of a failure is static: ParseOutput finds the file:line of
// failure messages and panic frames, and Attribute maps it to the
// constituent whose original lines hold it. The iteration of a table loop
// is dynamic: when asked to, the hook prints Line at every
// marker, and ParseOutput, reading -test.v output in which testing writes
// failures as they happen, tags each location with the constituent running
// at the time. AttributeOutput combines both: run the failing test with
// collect.Run.PrintConstituents and pass its Output. A failure in a helper
// that does not call t.Helper is attributed through a later location (a
// panic's stack has the test's frame) or not at all.
package constituent
