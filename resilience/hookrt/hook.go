// Package hookrt is the runtime of the resilience analysis: the generator
// renames its package and adds it, through the overlay, to every package
// whose try-catch pairs are instrumented. Its exported names start with
// NopolRes so that they do not clash with the package's own, and are
// exported so that an external test package can call NopolResBegin.
//
// The protocol with the driver: NOPOL_RES_TRY and NOPOL_RES_PAIR select
// the try where an error is injected and the pair it is made for (none
// when unset). Events go to stdout as lines "nopol-res <event>", each once
// per top-level test (NopolResBegin starts a test): "try <id> <0|1>" when
// a try returns (1: with an error), "catch <pair>" when a catch branch
// starts, "inject <pair>" when an error is injected.
package hookrt

import (
	nopolreserrors "errors"
	nopolresos "os"
	nopolresreflect "reflect"
	nopolresstrconv "strconv"
	nopolressync "sync"
)

var (
	nopolResOnce nopolressync.Once
	nopolResTry  = -1 // the try to inject at
	nopolResPair = -1 // the pair the error is made for
	nopolResMu   nopolressync.Mutex
	// nopolResSeen holds, per event, the test (nopolResGen) it was
	// printed in.
	nopolResSeen = map[string]int{}
	nopolResGen  int
)

func nopolResInit() {
	nopolResOnce.Do(func() {
		if v, err := nopolresstrconv.Atoi(nopolresos.Getenv("NOPOL_RES_TRY")); err == nil {
			nopolResTry = v
		}
		if v, err := nopolresstrconv.Atoi(nopolresos.Getenv("NOPOL_RES_PAIR")); err == nil {
			nopolResPair = v
		}
	})
}

// NopolResBegin starts a top-level test: every event is printed again.
func NopolResBegin() {
	nopolResMu.Lock()
	nopolResGen++
	nopolResMu.Unlock()
}

// nopolResEvent prints ev once per test.
func nopolResEvent(ev string) {
	nopolResMu.Lock()
	if g, ok := nopolResSeen[ev]; ok && g == nopolResGen {
		nopolResMu.Unlock()
		return
	}
	nopolResSeen[ev] = nopolResGen
	nopolResMu.Unlock()
	nopolresos.Stdout.WriteString("nopol-res " + ev + "\n")
}

// nopolResInjected is the error the catch of the selected pair handles:
// what errFor returns for it, or a fresh error; ok is false when nothing is
// injected at try.
func nopolResInjected(try int, errFor func(pair int) error) (err error, ok bool) {
	nopolResInit()
	if try != nopolResTry || nopolResPair < 0 {
		return nil, false
	}
	nopolResEvent("inject " + nopolresstrconv.Itoa(nopolResPair))
	if errFor != nil {
		if e := errFor(nopolResPair); e != nil {
			return e, true
		}
	}
	return NopolResError(), true
}

// nopolResStub is, when an error is injected at try, a function of f's
// type that returns zero values without doing anything (see
// NopolResSkip); ok is false otherwise.
func nopolResStub(try int, f interface{}) (stub interface{}, ok bool) {
	nopolResInit()
	if try != nopolResTry || nopolResPair < 0 {
		return nil, false
	}
	t := nopolresreflect.TypeOf(f)
	return nopolresreflect.MakeFunc(t, func([]nopolresreflect.Value) []nopolresreflect.Value {
		out := make([]nopolresreflect.Value, t.NumOut())
		for i := range out {
			out[i] = nopolresreflect.Zero(t.Out(i))
		}
		return out
	}).Interface(), true
}

// NopolResError is a fresh error, as a catch-all handles.
func NopolResError() error { return nopolreserrors.New("nopol: injected error") }

// nopolResReturned records that try returned, with an error or not.
func nopolResReturned(try int, err error) {
	ev := "try " + nopolresstrconv.Itoa(try)
	if err != nil {
		ev += " 1"
	} else {
		ev += " 0"
	}
	nopolResEvent(ev)
}

// NopolResCatch records that the catch branch of pair starts.
func NopolResCatch(pair int) {
	nopolResEvent("catch " + nopolresstrconv.Itoa(pair))
}

// NopolResPanic panics at the start of the try of a Recover pair when
// that pair is selected.
func NopolResPanic(try int) {
	nopolResInit()
	if try == nopolResTry && nopolResPair >= 0 {
		nopolResEvent("inject " + nopolresstrconv.Itoa(nopolResPair))
		panic(NopolResError())
	}
	nopolResEvent("try " + nopolresstrconv.Itoa(try) + " 0")
}

// NopolResRecovered records what the recover of a Recover pair stopped:
// the try ended with an error (a panic) and the catch ran. It returns r.
func NopolResRecovered(try, pair int, r interface{}) interface{} {
	if r != nil {
		nopolResEvent("try " + nopolresstrconv.Itoa(try) + " 1")
		NopolResCatch(pair)
	}
	return r
}

// NopolResErr is err, or the error injected at try (a statement after
// the try's assignment sets its error variable to it, where the package
// cannot use the generic wrappers of generic.go).
func NopolResErr(try int, err error, errFor func(int) error) error {
	if e, ok := nopolResInjected(try, errFor); ok {
		return e
	}
	nopolResReturned(try, err)
	return err
}

// NopolResInj1 wraps a try returning an error: NopolResInj1(call)(id, errFor).
func NopolResInj1(err error) func(int, func(int) error) error {
	return func(try int, errFor func(int) error) error {
		if e, ok := nopolResInjected(try, errFor); ok {
			return e
		}
		nopolResReturned(try, err)
		return err
	}
}
