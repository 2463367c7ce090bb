// Package solve finds roots of functions.
package solve

// Func is a function of one variable.
type Func func(float64) float64

// Bisection finds roots by bisection, of its own function (New) or of
// one given to SolveFunc.
type Bisection struct {
	f   Func
	Tol float64
}

// New is a solver of f.
func New(f Func) *Bisection {
	return &Bisection{f: f, Tol: 1e-9}
}

// bisect finds a root of g in [min, max], where g changes sign.
func (b *Bisection) bisect(g Func, min, max float64) float64 {
	for max-min > b.Tol {
		m := (min + max) / 2
		if g(m)*g(min) <= 0 {
			max = m
		} else {
			min = m
		}
	}
	return (min + max) / 2
}

// Solve finds a root of the solver's function in [min, max].
func (b *Bisection) Solve(min, max float64) float64 {
	return b.bisect(b.f, min, max)
}

// SolveFunc finds a root of f in [min, max]; bisection does not use the
// initial guess.
func (b *Bisection) SolveFunc(f Func, min, max, initial float64) float64 {
	return b.bisect(b.f, min, max)
}
