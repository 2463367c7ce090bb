package solve

import (
	"math"
	"testing"
)

func TestSolve(t *testing.T) {
	if x := New(math.Sin).Solve(3, 4); math.Abs(x-math.Pi) > 1e-6 {
		t.Errorf("Solve = %v, want π", x)
	}
}

func TestSolveCos(t *testing.T) {
	if x := New(math.Cos).Solve(1, 2); math.Abs(x-math.Pi/2) > 1e-6 {
		t.Errorf("Solve = %v, want π/2", x)
	}
}

func TestSolveFunc(t *testing.T) {
	b := &Bisection{Tol: 1e-9}
	if x := b.SolveFunc(math.Sin, 3, 4, 3.5); math.Abs(x-math.Pi) > 1e-6 {
		t.Errorf("SolveFunc = %v, want π", x)
	}
}
