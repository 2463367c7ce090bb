// Package resilience is short-circuit testing of Go error handlers, the
// resilience analysis of Cornu's thesis (ch. 3; Cornu et al., IST 2015)
// rendered for Go.
//
// # Try-catch pairs in Go
//
// Go has no exceptions. What the thesis calls a try-catch pair is, in Go,
// an error-producing call (the try) and one branch of a handler that its
// error value reaches (the catch):
//
//	v, err := parse(s)       // the try
//	if errors.Is(err, io.EOF) {
//		return v, nil        // a catch of kind Is, target io.EOF
//	} else if err != nil {
//		return nil, fmt.Errorf("parsing: %w", err) // a catch-all that propagates
//	}
//
// [Pairs] finds them in a type-checked file: the error variable of each
// branch of an if/else-if chain (err != nil, err == nil with an else,
// errors.Is, errors.As, a comparison with a sentinel) or of a switch (a
// type switch on the error, a tagless switch of such conditions) is
// followed back to the call that produced it, through assignments, :=
// redeclarations and wrapping (fmt.Errorf with %w, which keeps the error
// reachable through errors.Is and errors.As). A function with a deferred
// call of recover is a pair too: its try is the body after the defer.
//
// Each pair says whether its branch propagates the error (returns it,
// wrapped or not, or panics with it) or recovers from it: Java's implicit
// propagation has no handler, so propagating branches are reported apart
// from the recovering ones; and whether it is the last branch of its
// chain, where broadening it to every error (catch stretching) changes no
// other branch.
//
// # Short-circuit testing
//
// [Analyze] runs each package's tests once plainly, recording per test and
// pair whether the try ran without an error (pink), raised one that this
// branch caught (white) or that another branch caught (blue); then, for
// each pair and each test that ran its try, once more with an error the
// branch handles injected at the try (a fresh error for a catch-all, the
// target of errors.Is or ==, a value of the type of errors.As or of a
// type switch, a panic for a recover). As the thesis' injection at the
// start of the try block, the call is skipped: the function it calls is
// replaced, for that run, by one returning zero values (NopolResSkip);
// its arguments are still evaluated. Where it cannot be (a generic
// function instantiated by inference, a package before Go 1.18), the call
// runs and its results are replaced (Pair.InjectedAfter).
//
// A pair is source-independent when every white test passes with the
// injection (at least one white test), source-dependent when one fails,
// unknown otherwise; purely resilient when every test that ran its try
// passes with it. Propagating pairs are counted apart.
//
// # Catch stretching
//
// A source-independent catch of one kind of error that ends its handler
// is broadened and kept when the package's suite still passes: an if
// condition or a tagless switch's case becomes err != nil, a type
// switch's case `case error:`, a case of `switch err` `default:` when nil
// has its own case ([Stretch]).
//
// testdata/thesis.txtar renders the examples of the thesis' chapter 3 in
// Go, classified as the thesis classifies them.
package resilience
