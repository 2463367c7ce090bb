package z3

/*
#cgo LDFLAGS: -lz3
#include <stdlib.h>
#include <z3.h>

static void nopolIgnoreError(Z3_context c, Z3_error_code e) {}

static Z3_context nopolMkContext(void) {
	Z3_config cfg = Z3_mk_config();
	Z3_set_param_value(cfg, "model", "true");
	Z3_context c = Z3_mk_context(cfg);
	Z3_del_config(cfg);
	Z3_set_error_handler(c, nopolIgnoreError);
	return c;
}
*/
import "C"

import (
	"fmt"
	"math/big"
	"runtime"
	"sync"
	"unsafe"
)

// Context is a Z3 context: the owner of all terms, solvers and models made
// from it. Create it with NewContext and release it with Close.
type Context struct {
	// mu guards c against Close while Interrupt runs on another goroutine.
	mu sync.Mutex
	c  C.Z3_context

	// Sorts, made once.
	boolSort, intSort, realSort Sort
}

// NewContext creates a Z3 context. The caller must Close it.
func NewContext() *Context {
	ctx := &Context{c: C.nopolMkContext()}
	ctx.boolSort = Sort{C.Z3_mk_bool_sort(ctx.c)}
	ctx.intSort = Sort{C.Z3_mk_int_sort(ctx.c)}
	ctx.realSort = Sort{C.Z3_mk_real_sort(ctx.c)}
	return ctx
}

// Close deletes the C context and everything made from it. Closing twice
// is allowed; using a term, solver or model of a closed context is not.
func (ctx *Context) Close() {
	ctx.mu.Lock()
	defer ctx.mu.Unlock()
	if ctx.c != nil {
		C.Z3_del_context(ctx.c)
		ctx.c = nil
	}
}

// Interrupt asks a running query of ctx to stop (it then returns Unknown).
// It is safe to call from any goroutine, and after Close.
func (ctx *Context) Interrupt() {
	ctx.do(func(c C.Z3_context) { C.Z3_interrupt(c) })
}

// do runs f on the C context under the lock, unless ctx is closed.
func (ctx *Context) do(f func(C.Z3_context)) {
	ctx.mu.Lock()
	defer ctx.mu.Unlock()
	if ctx.c != nil {
		f(ctx.c)
	}
}

// check panics on a Z3 error: all the term builders are used with
// well-sorted arguments, so an error there is a bug in the caller.
func (ctx *Context) check(op string) {
	if code := C.Z3_get_error_code(ctx.c); code != C.Z3_OK {
		panic(fmt.Sprintf("z3: %s: %s", op, C.GoString(C.Z3_get_error_msg(ctx.c, code))))
	}
}

// Sort is the type of a term: Bool, Int or Real.
type Sort struct{ s C.Z3_sort }

// BoolSort returns the bool sort of ctx; IntSort and RealSort the
// integer and real sorts.
func (ctx *Context) BoolSort() Sort { return ctx.boolSort }
func (ctx *Context) IntSort() Sort  { return ctx.intSort }
func (ctx *Context) RealSort() Sort { return ctx.realSort }

// Expr is a term of a Context. The zero Expr is not a term.
type Expr struct {
	ctx *Context
	a   C.Z3_ast
}

func (ctx *Context) expr(a C.Z3_ast, op string) Expr {
	ctx.check(op)
	return Expr{ctx, a}
}

// Const makes an uninterpreted constant (a variable) of sort s.
func (ctx *Context) Const(name string, s Sort) Expr {
	cs := C.CString(name)
	defer C.free(unsafe.Pointer(cs))
	sym := C.Z3_mk_string_symbol(ctx.c, cs)
	return ctx.expr(C.Z3_mk_const(ctx.c, sym, s.s), "const")
}

// Bool makes the literal true or false.
func (ctx *Context) Bool(b bool) Expr {
	if b {
		return ctx.expr(C.Z3_mk_true(ctx.c), "true")
	}
	return ctx.expr(C.Z3_mk_false(ctx.c), "false")
}

// Int makes an Int numeral.
func (ctx *Context) Int(v int64) Expr {
	return ctx.expr(C.Z3_mk_int64(ctx.c, C.int64_t(v), ctx.intSort.s), "int")
}

// Real makes a Real numeral of the exact value r.
func (ctx *Context) Real(r *big.Rat) Expr {
	neg := r.Sign() < 0
	abs := new(big.Rat).Abs(r)
	cs := C.CString(abs.RatString())
	defer C.free(unsafe.Pointer(cs))
	e := ctx.expr(C.Z3_mk_numeral(ctx.c, cs, ctx.realSort.s), "real")
	if neg {
		e = ctx.expr(C.Z3_mk_unary_minus(ctx.c, e.a), "neg")
	}
	return e
}

// asts converts terms to a C array; the slice holds C pointers only, so it
// may be passed to C.
func asts(xs []Expr) (*C.Z3_ast, C.uint) {
	if len(xs) == 0 {
		return nil, 0
	}
	a := make([]C.Z3_ast, len(xs))
	for i, x := range xs {
		a[i] = x.a
	}
	return &a[0], C.uint(len(a))
}

// And is the conjunction of xs (true when xs is empty).
func (ctx *Context) And(xs ...Expr) Expr {
	if len(xs) == 0 {
		return ctx.Bool(true)
	}
	p, n := asts(xs)
	e := ctx.expr(C.Z3_mk_and(ctx.c, n, p), "and")
	runtime.KeepAlive(xs)
	return e
}

// Or is the disjunction of xs (false when xs is empty).
func (ctx *Context) Or(xs ...Expr) Expr {
	if len(xs) == 0 {
		return ctx.Bool(false)
	}
	p, n := asts(xs)
	e := ctx.expr(C.Z3_mk_or(ctx.c, n, p), "or")
	runtime.KeepAlive(xs)
	return e
}

// Distinct says that xs are pairwise different.
func (ctx *Context) Distinct(xs ...Expr) Expr {
	if len(xs) < 2 {
		return ctx.Bool(true)
	}
	p, n := asts(xs)
	e := ctx.expr(C.Z3_mk_distinct(ctx.c, n, p), "distinct")
	runtime.KeepAlive(xs)
	return e
}

// Add is the sum of xs, of one arithmetic sort.
func (ctx *Context) Add(xs ...Expr) Expr {
	p, n := asts(xs)
	e := ctx.expr(C.Z3_mk_add(ctx.c, n, p), "add")
	runtime.KeepAlive(xs)
	return e
}

// Ite is "if cond then x else y".
func (ctx *Context) Ite(cond, x, y Expr) Expr {
	return ctx.expr(C.Z3_mk_ite(ctx.c, cond.a, x.a, y.a), "ite")
}

// Not is the negation of the Bool term x.
func (x Expr) Not() Expr { return x.ctx.expr(C.Z3_mk_not(x.ctx.c, x.a), "not") }

// Implies is x ⇒ y.
func (x Expr) Implies(y Expr) Expr { return x.ctx.expr(C.Z3_mk_implies(x.ctx.c, x.a, y.a), "implies") }

// Iff is x ⇔ y for Bool terms; for others use Eq.
func (x Expr) Iff(y Expr) Expr { return x.ctx.expr(C.Z3_mk_iff(x.ctx.c, x.a, y.a), "iff") }

// Eq is x = y, for terms of the same sort.
func (x Expr) Eq(y Expr) Expr { return x.ctx.expr(C.Z3_mk_eq(x.ctx.c, x.a, y.a), "eq") }

// Ne is x ≠ y.
func (x Expr) Ne(y Expr) Expr { return x.ctx.Distinct(x, y) }

// Lt compares arithmetic terms of the same sort, as Le, Gt and Ge do.
func (x Expr) Lt(y Expr) Expr { return x.ctx.expr(C.Z3_mk_lt(x.ctx.c, x.a, y.a), "lt") }
func (x Expr) Le(y Expr) Expr { return x.ctx.expr(C.Z3_mk_le(x.ctx.c, x.a, y.a), "le") }
func (x Expr) Gt(y Expr) Expr { return x.ctx.expr(C.Z3_mk_gt(x.ctx.c, x.a, y.a), "gt") }
func (x Expr) Ge(y Expr) Expr { return x.ctx.expr(C.Z3_mk_ge(x.ctx.c, x.a, y.a), "ge") }

// Add is x + y.
func (x Expr) Add(y Expr) Expr { return x.ctx.Add(x, y) }

// Sub is x - y.
func (x Expr) Sub(y Expr) Expr {
	a := [2]C.Z3_ast{x.a, y.a}
	return x.ctx.expr(C.Z3_mk_sub(x.ctx.c, 2, &a[0]), "sub")
}

// Mul is x * y. Keep one side a numeral: the solver is used for linear
// arithmetic.
func (x Expr) Mul(y Expr) Expr {
	a := [2]C.Z3_ast{x.a, y.a}
	return x.ctx.expr(C.Z3_mk_mul(x.ctx.c, 2, &a[0]), "mul")
}

// String renders x in SMT-LIB syntax.
func (x Expr) String() string {
	if x.ctx == nil {
		return "<nil>"
	}
	return C.GoString(C.Z3_ast_to_string(x.ctx.c, x.a))
}
