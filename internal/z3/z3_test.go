//go:build cgo

package z3

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"os"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"
)

func TestCheck(t *testing.T) {
	tests := []struct {
		name string
		f    func(c *Context) Expr
		want Result
	}{
		{"sat", func(c *Context) Expr {
			x := c.Const("x", c.IntSort())
			return c.And(x.Gt(c.Int(3)), x.Lt(c.Int(5)))
		}, Sat},
		{"unsat", func(c *Context) Expr {
			x := c.Const("x", c.IntSort())
			return c.And(x.Gt(c.Int(3)), x.Lt(c.Int(4)))
		}, Unsat},
		{"real between", func(c *Context) Expr {
			x := c.Const("x", c.RealSort())
			return c.And(x.Gt(c.Real(big.NewRat(3, 1))), x.Lt(c.Real(big.NewRat(4, 1))))
		}, Sat},
		{"distinct bools", func(c *Context) Expr {
			a, b, d := c.Const("a", c.BoolSort()), c.Const("b", c.BoolSort()), c.Const("d", c.BoolSort())
			return c.Distinct(a, b, d)
		}, Unsat},
		{"implies ite", func(c *Context) Expr {
			p := c.Const("p", c.BoolSort())
			x := c.Const("x", c.IntSort())
			return c.And(p.Implies(x.Eq(c.Int(1))), p, c.Ite(p, x, c.Int(7)).Ne(c.Int(1)))
		}, Unsat},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := NewContext()
			defer c.Close()
			s := c.NewSolver()
			defer s.Close()
			s.Assert(tt.f(c))
			got, err := s.Check(context.Background())
			if err != nil || got != tt.want {
				t.Fatalf("Check = %v, %v; want %v", got, err, tt.want)
			}
		})
	}
}

func TestModel(t *testing.T) {
	c := NewContext()
	defer c.Close()
	x := c.Const("x", c.IntSort())
	y := c.Const("y", c.IntSort())
	r := c.Const("r", c.RealSort())
	p := c.Const("p", c.BoolSort())
	unused := c.Const("unused", c.IntSort())
	s := c.NewSolver()
	defer s.Close()
	s.Assert(
		x.Add(y).Eq(c.Int(10)),
		x.Sub(y).Eq(c.Int(-4)),
		r.Mul(c.Int(3)).Eq(c.Real(big.NewRat(-1, 1))),
		p.Iff(x.Gt(c.Int(2))),
	)
	if res, err := s.Check(context.Background()); res != Sat {
		t.Fatalf("Check = %v, %v", res, err)
	}
	m := s.Model()
	defer m.Close()
	if v, err := m.Int(x); err != nil || v != 3 {
		t.Errorf("x = %d, %v; want 3", v, err)
	}
	if v, err := m.Int(y); err != nil || v != 7 {
		t.Errorf("y = %d, %v; want 7", v, err)
	}
	if v, err := m.Real(r); err != nil || v.Cmp(big.NewRat(-1, 3)) != 0 {
		t.Errorf("r = %v, %v; want -1/3", v, err)
	}
	if v, err := m.Bool(p); err != nil || !v {
		t.Errorf("p = %v, %v; want true", v, err)
	}
	// Model completion gives a value to a constant no assertion mentions.
	if _, err := m.Int(unused); err != nil {
		t.Errorf("unused: %v", err)
	}
	if v, err := m.Int(x.Mul(c.Int(5))); err != nil || v != 15 {
		t.Errorf("5x = %d, %v; want 15", v, err)
	}
}

// hard asserts a pigeonhole problem that takes Z3 far longer than the
// tests wait: n+1 pigeons in n holes.
func hard(c *Context, s *Solver, n int) {
	var ps []Expr
	for i := 0; i <= n; i++ {
		p := c.Const("p"+strconv.Itoa(i), c.IntSort())
		s.Assert(p.Ge(c.Int(0)), p.Lt(c.Int(int64(n))))
		ps = append(ps, p)
	}
	for i := range ps {
		for j := i + 1; j < len(ps); j++ {
			s.Assert(ps[i].Ne(ps[j]))
		}
	}
}

func TestCancel(t *testing.T) {
	c := NewContext()
	defer c.Close()
	s := c.NewSolver()
	defer s.Close()
	hard(c, s, 14)
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	start := time.Now()
	res, err := s.Check(ctx)
	took := time.Since(start)
	var ue *UnknownError
	if res != Unknown || !errors.As(err, &ue) || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Check = %v, %v; want unknown wrapping the deadline", res, err)
	}
	if took > 2*time.Second {
		t.Errorf("Check returned after %v, want promptly after 100ms", took)
	}
	// A done context stops the next check before it starts.
	if res, err := s.Check(ctx); res != Unknown || !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("second Check = %v, %v", res, err)
	}
}

func TestTimeout(t *testing.T) {
	c := NewContext()
	defer c.Close()
	s := c.NewSolver()
	defer s.Close()
	hard(c, s, 14)
	s.SetTimeout(100 * time.Millisecond)
	start := time.Now()
	res, err := s.Check(context.Background())
	took := time.Since(start)
	var ue *UnknownError
	if res != Unknown || !errors.As(err, &ue) || ue.Err != nil {
		t.Fatalf("Check = %v, %v; want unknown from the solver's timeout", res, err)
	}
	if !strings.Contains(ue.Reason, "timeout") && !strings.Contains(ue.Reason, "canceled") {
		t.Errorf("reason %q, want a timeout", ue.Reason)
	}
	if took > 2*time.Second {
		t.Errorf("Check returned after %v, want about 100ms", took)
	}
	// The solver stays usable after a timeout.
	s.SetTimeout(0)
	c2 := NewContext()
	defer c2.Close()
	s2 := c2.NewSolver()
	defer s2.Close()
	s2.Assert(c2.Const("x", c2.IntSort()).Gt(c2.Int(1)))
	if res, err := s2.Check(context.Background()); res != Sat {
		t.Errorf("fresh Check = %v, %v", res, err)
	}
}

// TestInterruptLeavesContextUsable checks that an interruption, during a
// check or between checks, does not make later checks fail.
func TestInterruptLeavesContextUsable(t *testing.T) {
	c := NewContext()
	defer c.Close()
	s := c.NewSolver()
	hard(c, s, 14)
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if res, err := s.Check(ctx); res != Unknown {
		t.Fatalf("hard Check = %v, %v; want unknown", res, err)
	}
	s.Close()
	s2 := c.NewSolver()
	defer s2.Close()
	s2.Assert(c.Const("x", c.IntSort()).Gt(c.Int(1)))
	if res, err := s2.Check(context.Background()); res != Sat {
		t.Errorf("Check after an interrupted check = %v, %v; want sat", res, err)
	}
	c.Interrupt()
	if res, err := s2.Check(context.Background()); res != Sat {
		t.Errorf("Check after an interrupt between checks = %v, %v; want sat", res, err)
	}
}

func TestInterruptAfterClose(t *testing.T) {
	c := NewContext()
	c.Close()
	c.Interrupt() // must not crash
	c.Close()
}

// rss returns the resident set size in KiB, or 0 where /proc is missing.
func rss() int {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			n, _ := strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(rest), " kB"))
			return n
		}
	}
	return 0
}

func solveOnce(i int) error {
	c := NewContext()
	defer c.Close()
	s := c.NewSolver()
	defer s.Close()
	s.SetTimeout(time.Second)
	x := c.Const("x", c.IntSort())
	y := c.Const("y", c.RealSort())
	s.Assert(x.Gt(c.Int(int64(i))), x.Lt(c.Int(int64(i)+3)), y.Gt(c.Real(big.NewRat(int64(i), 7))))
	if res, err := s.Check(context.Background()); res != Sat {
		return fmt.Errorf("query %d: %v, %v", i, res, err)
	}
	m := s.Model()
	defer m.Close()
	v, err := m.Int(x)
	if err != nil || v <= int64(i) {
		return fmt.Errorf("query %d: x = %d, %v", i, v, err)
	}
	return nil
}

// TestNoLeak runs create/solve/close cycles and checks that the resident
// memory does not keep growing. The goroutine is locked to one OS thread
// so that Z3 allocates from one malloc arena, and growth is measured over
// a second window after a first one: allocators settle on a plateau (the
// first window may still grow under load, as other threads' arenas fill),
// a leak grows in both.
func TestNoLeak(t *testing.T) {
	if testing.Short() {
		t.Skip("slow")
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	const cycles = 1500
	window := func(from int) int {
		for i := from; i < from+cycles; i++ {
			if err := solveOnce(i); err != nil {
				t.Fatal(err)
			}
		}
		return rss()
	}
	start := rss()
	mid := window(0)
	end := window(cycles)
	t.Logf("RSS %d KiB -> %d KiB -> %d KiB over two windows of %d contexts", start, mid, end, cycles)
	if mid > 0 && end-mid > 16*1024 {
		t.Errorf("RSS grew by %d KiB over the second %d contexts", end-mid, cycles)
	}
}

// TestResourceLimit checks that a resource limit stops a check with a
// reason, again on each later check of the same solver.
func TestResourceLimit(t *testing.T) {
	c := NewContext()
	defer c.Close()
	s := c.NewSolver()
	defer s.Close()
	hard(c, s, 14)
	s.SetResourceLimit(2000000)
	for i := range 2 {
		start := time.Now()
		res, err := s.Check(context.Background())
		n, _ := s.Statistic("rlimit count")
		t.Logf("check %d: %v, %v after %v, rlimit count %v", i, res, err, time.Since(start), n)
		var ue *UnknownError
		if res != Unknown || !errors.As(err, &ue) || ue.Err != nil {
			t.Fatalf("check %d = %v, %v; want unknown from the resource limit", i, res, err)
		}
		if took := time.Since(start); took < time.Millisecond || took > 5*time.Second {
			t.Errorf("check %d took %v", i, took)
		}
		if n, ok := s.Statistic("rlimit count"); !ok || n < 1000000 {
			t.Errorf("rlimit count = %v, %v after check %d", n, ok, i)
		}
	}
}
