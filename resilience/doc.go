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
// chain, where broadening its predicate to err != nil (catch stretching)
// changes no other branch.
//
// # What comes next
//
// The dynamic half of the analysis (usages from a plain run, injection of
// a matching error at the try while each test that runs it runs,
// classification into source-independent, source-dependent and purely
// resilient, and stretching) builds on these pairs; see issue 16.
package resilience
