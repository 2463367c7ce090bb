package z3

/*
#include <stdlib.h>
#include <z3.h>
*/
import "C"

import (
	"context"
	"fmt"
	"math/big"
	"runtime"
	"time"
	"unsafe"
)

// Result is the outcome of a satisfiability check.
type Result int8

// The outcomes of Solver.Check.
const (
	Unknown Result = iota
	Sat
	Unsat
)

func (r Result) String() string {
	switch r {
	case Sat:
		return "sat"
	case Unsat:
		return "unsat"
	}
	return "unknown"
}

// UnknownError reports a check that ended without an answer: Reason is
// Z3's explanation ("timeout", "canceled", ...). Err is the Go context's
// error when the check was stopped by it.
type UnknownError struct {
	Reason string
	Err    error
}

func (e *UnknownError) Error() string {
	if e.Err != nil {
		return "z3: unknown (" + e.Reason + "): " + e.Err.Error()
	}
	return "z3: unknown (" + e.Reason + ")"
}

// Unwrap returns the context error that stopped the check, if any.
func (e *UnknownError) Unwrap() error { return e.Err }

// Solver is an incremental Z3 solver. Create it with Context.NewSolver and
// release it with Close (or by closing its Context).
type Solver struct {
	ctx *Context
	s   C.Z3_solver
}

// NewSolver makes a solver for quantifier-free formulas, with a fixed
// random seed so that the same assertions give the same models.
func (ctx *Context) NewSolver() *Solver {
	s := C.Z3_mk_simple_solver(ctx.c)
	ctx.check("mk_solver")
	C.Z3_solver_inc_ref(ctx.c, s)
	sv := &Solver{ctx: ctx, s: s}
	sv.setUint("random_seed", 0)
	sv.setUint("arith.solver", 2)
	return sv
}

// Close releases the solver. Closing twice is allowed.
func (s *Solver) Close() {
	if s.s != nil && s.ctx.c != nil {
		C.Z3_solver_dec_ref(s.ctx.c, s.s)
	}
	s.s = nil
}

func (s *Solver) setUint(name string, v uint) {
	c := s.ctx.c
	p := C.Z3_mk_params(c)
	C.Z3_params_inc_ref(c, p)
	cs := C.CString(name)
	C.Z3_params_set_uint(c, p, C.Z3_mk_string_symbol(c, cs), C.uint(v))
	C.free(unsafe.Pointer(cs))
	C.Z3_solver_set_params(c, s.s, p)
	C.Z3_params_dec_ref(c, p)
	s.ctx.check("set_params " + name)
}

// SetTimeout bounds each later Check to d (at least one millisecond);
// zero or less removes the bound.
func (s *Solver) SetTimeout(d time.Duration) {
	ms := uint(d / time.Millisecond)
	if d <= 0 {
		ms = ^uint(0) >> 32 // Z3's "no timeout" is UINT_MAX
	} else if ms == 0 {
		ms = 1
	}
	s.setUint("timeout", ms)
}

// SetResourceLimit bounds each later Check to n units of Z3's resource
// counter (parameter rlimit); unlike a timeout, the bound does not depend
// on the machine's speed or load, so a bounded search stays deterministic.
// Zero removes the bound.
func (s *Solver) SetResourceLimit(n uint) { s.setUint("rlimit", n) }

// Statistic returns the value of the statistic key ("rlimit count",
// "conflicts", ...) after the last Check, and whether Z3 reported it.
func (s *Solver) Statistic(key string) (float64, bool) {
	c := s.ctx.c
	st := C.Z3_solver_get_statistics(c, s.s)
	C.Z3_stats_inc_ref(c, st)
	defer C.Z3_stats_dec_ref(c, st)
	n := int(C.Z3_stats_size(c, st))
	for i := range n {
		if C.GoString(C.Z3_stats_get_key(c, st, C.uint(i))) != key {
			continue
		}
		if C.Z3_stats_is_uint(c, st, C.uint(i)) {
			return float64(C.Z3_stats_get_uint_value(c, st, C.uint(i))), true
		}
		return float64(C.Z3_stats_get_double_value(c, st, C.uint(i))), true
	}
	return 0, false
}

// Assert adds the Bool terms fs to the solver.
func (s *Solver) Assert(fs ...Expr) {
	for _, f := range fs {
		C.Z3_solver_assert(s.ctx.c, s.s, f.a)
	}
	s.ctx.check("assert")
}

// Push opens a scope; Pop(n) removes the assertions of the last n scopes.
func (s *Solver) Push()      { C.Z3_solver_push(s.ctx.c, s.s) }
func (s *Solver) Pop(n uint) { C.Z3_solver_pop(s.ctx.c, s.s, C.uint(n)) }

// Check decides the assertions. It returns Unknown with an *UnknownError
// when Z3 gives up, runs out of time, or ctx is done (then the error wraps
// ctx.Err()); ctx's cancellation interrupts a running check.
func (s *Solver) Check(ctx context.Context) (Result, error) {
	if err := ctx.Err(); err != nil {
		return Unknown, &UnknownError{Reason: "canceled", Err: err}
	}
	stop := context.AfterFunc(ctx, s.ctx.Interrupt)
	r := C.Z3_solver_check(s.ctx.c, s.s)
	stop()
	runtime.KeepAlive(s)
	switch r {
	case C.Z3_L_TRUE:
		return Sat, nil
	case C.Z3_L_FALSE:
		return Unsat, nil
	}
	reason := C.GoString(C.Z3_solver_get_reason_unknown(s.ctx.c, s.s))
	return Unknown, &UnknownError{Reason: reason, Err: ctx.Err()}
}

// Model returns the model of the last Check that returned Sat. The caller
// should Close it.
func (s *Solver) Model() *Model {
	m := C.Z3_solver_get_model(s.ctx.c, s.s)
	s.ctx.check("get_model")
	C.Z3_model_inc_ref(s.ctx.c, m)
	return &Model{ctx: s.ctx, m: m}
}

// Model is an assignment satisfying a solver's assertions.
type Model struct {
	ctx *Context
	m   C.Z3_model
}

// Close releases the model. Closing twice is allowed.
func (m *Model) Close() {
	if m.m != nil && m.ctx.c != nil {
		C.Z3_model_dec_ref(m.ctx.c, m.m)
	}
	m.m = nil
}

// eval evaluates x in m with model completion: constants the model leaves
// open get a default value.
func (m *Model) eval(x Expr) (C.Z3_ast, error) {
	var out C.Z3_ast
	if !C.Z3_model_eval(m.ctx.c, m.m, x.a, true, &out) {
		return nil, fmt.Errorf("z3: cannot evaluate %s", x)
	}
	return out, nil
}

// Bool evaluates the Bool term x in m.
func (m *Model) Bool(x Expr) (bool, error) {
	v, err := m.eval(x)
	if err != nil {
		return false, err
	}
	switch C.Z3_get_bool_value(m.ctx.c, v) {
	case C.Z3_L_TRUE:
		return true, nil
	case C.Z3_L_FALSE:
		return false, nil
	}
	return false, fmt.Errorf("z3: %s is not a Bool value", x)
}

// Int evaluates the Int term x in m; it fails when the value does not fit
// an int64.
func (m *Model) Int(x Expr) (int64, error) {
	v, err := m.eval(x)
	if err != nil {
		return 0, err
	}
	var i C.int64_t
	if !C.Z3_get_numeral_int64(m.ctx.c, v, &i) {
		return 0, fmt.Errorf("z3: value of %s is not an int64", x)
	}
	return int64(i), nil
}

// Real evaluates the Int or Real term x in m, exactly.
func (m *Model) Real(x Expr) (*big.Rat, error) {
	v, err := m.eval(x)
	if err != nil {
		return nil, err
	}
	if !C.Z3_is_numeral_ast(m.ctx.c, v) {
		return nil, fmt.Errorf("z3: value of %s is not a numeral", x)
	}
	s := C.GoString(C.Z3_get_numeral_string(m.ctx.c, v))
	r, ok := new(big.Rat).SetString(s)
	if !ok {
		return nil, fmt.Errorf("z3: numeral %q", s)
	}
	return r, nil
}
