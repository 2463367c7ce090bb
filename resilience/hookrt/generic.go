package hookrt

// The wrappers of tries returning values and an error: generic, added to
// the packages whose Go version has generics (1.18).

// NopolResInj2 wraps a try returning a value and an error.
func NopolResInj2[A any](a A, err error) func(int, func(int) error) (A, error) {
	return func(try int, errFor func(int) error) (A, error) {
		if e, ok := nopolResInjected(try, errFor); ok {
			var za A
			return za, e
		}
		nopolResReturned(try, err)
		return a, err
	}
}

// NopolResInj3 wraps a try returning two values and an error.
func NopolResInj3[A, B any](a A, b B, err error) func(int, func(int) error) (A, B, error) {
	return func(try int, errFor func(int) error) (A, B, error) {
		if e, ok := nopolResInjected(try, errFor); ok {
			var za A
			var zb B
			return za, zb, e
		}
		nopolResReturned(try, err)
		return a, b, err
	}
}

// NopolResInj4 wraps a try returning three values and an error.
func NopolResInj4[A, B, C any](a A, b B, c C, err error) func(int, func(int) error) (A, B, C, error) {
	return func(try int, errFor func(int) error) (A, B, C, error) {
		if e, ok := nopolResInjected(try, errFor); ok {
			var za A
			var zb B
			var zc C
			return za, zb, zc, e
		}
		nopolResReturned(try, err)
		return a, b, c, err
	}
}

// NopolResSkip is the function a try calls: f, or when an error is
// injected at try, a function of the same type returning zero values
// without running (the thesis' injection skips the try):
// NopolResInj2(NopolResSkip(id, f)(args))(id, errFor).
func NopolResSkip[F any](try int, f F) F {
	if stub, ok := nopolResStub(try, f); ok {
		return stub.(F)
	}
	return f
}
