package hookrt

import (
	"testing"
)

// The cost of one evaluation of a quiet site (see NopolQ): the hooks as
// the instrumented code calls them, outside cover mode (forced, snapshot
// and plain runs) and in cover mode (one call that counts).
// go test -bench . ./collect/hookrt

var sink bool

// inModes runs the benchmark body as a plain run and as a cover run.
func inModes(b *testing.B, body func(b *testing.B)) {
	for _, mode := range []struct {
		name string
		mode int
	}{{"plain", 0}, {"cover", 1}} {
		b.Run(mode.name, func(b *testing.B) {
			defer func(m int) { nopolMode = m }(nopolMode)
			nopolMode = mode.mode
			body(b)
		})
	}
}

func BenchmarkQuietCond(b *testing.B) {
	inModes(b, func(b *testing.B) {
		x := 0
		for i := 0; i < b.N; i++ {
			x++
			sink = NopolQ(0) && NopolV(0, bool(x > 3)) || !NopolQ(0) && NopolCond(0, func() bool { return bool(x > 3) }, "", nil)
		}
	})
}

func BenchmarkQuietGuard(b *testing.B) {
	inModes(b, func(b *testing.B) {
		n := 0
		for i := 0; i < b.N; i++ {
			if nopolG := NopolGuard(0, "", nil); nopolG == 0 {
				n++
			}
		}
		sink = n > 0
	})
}

// TestQuiet checks that without a hook environment every site is quiet
// and that a quiet site's hooks return the condition's value and run
// the statement.
func TestQuiet(t *testing.T) {
	if !NopolQ(0) {
		t.Fatal("site 0 is not quiet without NOPOL_MODE")
	}
	for _, v := range []bool{false, true} {
		if got := NopolQ(0) && NopolV(0, v) || !NopolQ(0) && NopolCond(0, func() bool { return v }, "", nil); got != v {
			t.Errorf("condition %v evaluates to %v", v, got)
		}
	}
	if g := NopolGuard(0, "", nil); g != 0 {
		t.Errorf("NopolGuard = %d, want 0 (run the statement)", g)
	}
}
