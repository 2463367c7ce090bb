package nopol

import (
	"fmt"
	"testing"

	"github.com/nopol-go/nopol/angelic"
	"github.com/nopol-go/nopol/collect"
	"github.com/nopol-go/nopol/internal/constituent"
)

// TestSplitIterations: a failing table-driven test's spectrum keeps the
// sites of its failing iterations and of its other segments; each other
// iteration of the loop becomes a passing spectrum of its own; failures
// outside table iterations leave the spectrum whole. A condition's
// outcomes (site 3) are split the same way.
func TestSplitIterations(t *testing.T) {
	evals := []collect.Eval{
		{Site: 1, Segment: 0},               // setup, before the loop
		{Site: 2, Segment: 1, Iteration: 1}, // a passing iteration
		{Site: 3, Segment: 1, Iteration: 1, Outcome: true},
		{Site: 3, Segment: 1, Iteration: 2}, // the failing iteration
		{Site: 4, Segment: 1, Iteration: 2},
		{Site: 2, Segment: 1, Iteration: 3},
	}
	sp := angelic.Spectrum{Test: "TestT", Reached: []int{1, 2, 3, 4}, Took: map[int][2]bool{3: {true, true}}}
	res := collect.Result{Evals: evals}
	for _, tc := range []struct {
		name string
		frs  []angelic.Constituent
		want string
	}{
		{"one failing iteration", []angelic.Constituent{{Segment: 1, Iteration: 2}},
			"[{TestT false [1 3 4] map[3:[true false]]} {TestT (iteration 1) true [2 3] map[3:[false true]]} {TestT (iteration 3) true [2] map[]}]"},
		{"failure outside iterations", []angelic.Constituent{{Segment: 2}},
			"[{TestT false [1 2 3 4] map[3:[true true]]}]"},
		{"not split", nil, "[{TestT false [1 2 3 4] map[3:[true true]]}]"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := fmt.Sprint(splitIterations(sp, res, tc.frs))
			if got != tc.want {
				t.Errorf("got %s, want %s", got, tc.want)
			}
		})
	}
}

// TestInterruptedConds: the conditions on the line of the innermost frame
// of a failing test's panic were interrupted, reached or not in the run
// (a table's passing iterations evaluate them too); a panic in a call
// made elsewhere, or no panic, interrupts none.
func TestInterruptedConds(t *testing.T) {
	r := &repairer{prog: &collect.Program{Dir: "/m", Sites: []collect.Site{
		{Kind: collect.Cond, File: "/m/decode.go", Line: 321, Original: "cleaned[start] == '0' && isDigit(cleaned[start+1])"},
		{Kind: collect.Guard, File: "/m/decode.go", Line: 321, Original: "if cleaned[start] == '0' && … {"},
		{Kind: collect.Cond, File: "/m/decode.go", Line: 330, Original: "a &&\n\tb[9] > 0"},
		{Kind: collect.Cond, File: "/m/other.go", Line: 321, Original: "x"},
	}}}
	k := testKey{pkg: "example.com/m", name: "TestFloats"}
	stack := func(file string, line int) string {
		return "--- FAIL: TestFloats (0.00s)\npanic: runtime error: index out of range [1] with length 1 [recovered]\n\n" +
			"goroutine 7 [running]:\nexample.com/m.parseFloat({0x1, 0x1})\n\t" + fmt.Sprintf("%s:%d", file, line) + " +0x39f\n" +
			"example.com/m.TestFloats(0xc000)\n\t/m/decode_test.go:12 +0x4d\n"
	}
	for _, tc := range []struct {
		output  string
		reached map[int][2]int
		want    string
	}{
		{stack("/m/decode.go", 321), nil, "map[0:true]"},
		{stack("/m/decode.go", 321), map[int][2]int{0: {3, 2}}, "map[0:true]"},
		{stack("/m/decode.go", 331), nil, "map[2:true]"},
		{stack("/m/decode.go", 400), nil, "map[]"},
		{"--- FAIL: TestFloats (0.00s)\n    decode_test.go:12: got 1\n", nil, "map[]"},
	} {
		got := fmt.Sprint(r.interruptedConds(r.panicStack(k, collect.Result{Output: tc.output, Reached: tc.reached})))
		if got != tc.want {
			t.Errorf("%q: interrupted %s, want %s", tc.output, got, tc.want)
		}
	}
}

// TestRunawayEntries checks that a failing test whose stack repeats a
// call line (a stack overflow, the runtime out of memory, or the stacks
// its test timeout printed)
// puts the guard at the recursive function's entry first, with the
// condition of the if around the repeated call (not one after it), and that a
// short stack, or a run that neither overflowed nor timed out, does not.
func TestRunawayEntries(t *testing.T) {
	r := &repairer{prog: &collect.Program{Dir: "/m", Sites: []collect.Site{
		{Kind: collect.Guard, File: "/m/graph.go", Line: 19, FuncLines: [2]int{18, 24}, Original: "*out = append(*out, n.Name)"},
		{Kind: collect.Guard, File: "/m/graph.go", Line: 18, FuncLines: [2]int{18, 24}, Original: "seen[n] = true"},
		{Kind: collect.Cond, File: "/m/graph.go", Line: 17, FuncLines: [2]int{16, 24}, Original: "n == nil"},
		{Kind: collect.Guard, File: "/m/graph.go", Line: 12, FuncLines: [2]int{10, 14}, Original: "walk(n, seen, &out)"},
		{Kind: collect.Cond, File: "/m/graph.go", Line: 20, FuncLines: [2]int{18, 24}, Original: "len(n.Out) > 0 && !seen[n]"},
		{Kind: collect.Guard, File: "/m/graph.go", Line: 21, FuncLines: [2]int{18, 24}, Original: "walk(n.Out[0], seen, out)", Holds: []string{"!seen[n]", "len(n.Out) > 0"}},
		{Kind: collect.Cond, File: "/m/graph.go", Line: 22, FuncLines: [2]int{18, 24}, Original: "seen[n]"},
	}}, opts: Options{Kinds: KindCond | KindGuard}}
	k := testKey{pkg: "example.com/m", name: "TestCycle"}
	stack := func(head string, depth int) string {
		s := head + "\n\ngoroutine 6 [running]:\n"
		for range depth {
			s += "example.com/m.walk(0x1, 0x2, 0x3)\n\t/m/graph.go:21 +0x10b\n"
		}
		return s + "example.com/m.Reach(0x1)\n\t/m/graph.go:12 +0x5c\nexample.com/m.TestCycle(0xc000)\n\t/m/graph_test.go:34 +0x4d\n"
	}
	for _, tc := range []struct {
		name string
		res  collect.Result
		want string
	}{
		{"stack overflow", collect.Result{Output: stack("runtime: goroutine stack exceeds 1000000000-byte limit\nfatal error: stack overflow", 90)}, "[1 4]"},
		{"out of memory", collect.Result{Output: stack("runtime: out of memory: cannot allocate 4194304-byte block (7272628224 in use)\nfatal error: out of memory", 90)}, "[1 4]"},
		{"test timeout", collect.Result{Output: stack("panic: test timed out after 1s", 90), TimedOut: true}, "[1 4]"},
		{"a short stack", collect.Result{Output: stack("panic: test timed out after 1s", 5), TimedOut: true}, "[]"},
		{"a panic", collect.Result{Output: stack("panic: boom", 90)}, "[]"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := fmt.Sprint(r.runawayEntries(k, tc.res)); got != tc.want {
				t.Errorf("runawayEntries = %s, want %s", got, tc.want)
			}
		})
	}
	ranked := []angelic.Suspicion{{Site: 0}, {Site: 2}, {Site: 1}, {Site: 3}}
	if got := fmt.Sprint(sitesFirst(ranked, map[int]bool{1: true})); got != fmt.Sprint([]angelic.Suspicion{{Site: 1}, {Site: 0}, {Site: 2}, {Site: 3}}) {
		t.Errorf("sitesFirst = %s", got)
	}
}

// TestBranchBounds: a panic out of range in a statement of an if's
// then-branch gives that if's condition the bounds checks of the
// statement's constant indexes, conjoined first; a statement in no
// branch, or indexing with a variable only, gives none.
func TestBranchBounds(t *testing.T) {
	r := &repairer{prog: &collect.Program{Dir: "/m", Sites: []collect.Site{
		{ID: 0, Kind: collect.Cond, File: "/m/key.go", Func: "Key.MustFloat64", Line: 270, Original: "err != nil"},
		{ID: 1, Kind: collect.Cond, File: "/m/key.go", Func: "Key.MustFloat64", Line: 276, Original: "err != nil || k.strict"},
		{ID: 2, Kind: collect.Guard, File: "/m/key.go", Func: "Key.MustFloat64", Line: 277, Original: "k.value = format(defaultVal[0], parts[i])", Holds: []string{"err != nil || k.strict"}},
		{ID: 3, Kind: collect.Guard, File: "/m/key.go", Func: "Key.MustFloat64", Line: 280, Original: "return defaultVal[0]"},
		{ID: 4, Kind: collect.Guard, File: "/m/key.go", Func: "Key.MustFloat64", Line: 283, Original: "return parts[i]", Holds: []string{"err != nil"}},
	}}}
	k := testKey{pkg: "example.com/m", name: "TestKey"}
	stack := func(line int) []constituent.Location {
		return r.panicStack(k, collect.Result{Output: "--- FAIL: TestKey (0.00s)\npanic: runtime error: index out of range [0] with length 0 [recovered]\n\n" +
			"goroutine 7 [running]:\nexample.com/m.(*Key).MustFloat64(...)\n\t" + fmt.Sprintf("/m/key.go:%d", line) + " +0x39f\n" +
			"example.com/m.TestKey(0xc000)\n\t/m/key_test.go:12 +0x4d\n"})
	}
	for _, tc := range []struct {
		line int
		want string
	}{
		{277, "1 [len(defaultVal) > 0 && (err != nil || k.strict)]"},
		{280, "0 []"},
		{283, "0 []"},
	} {
		id, checks := r.branchBoundsOf(stack(tc.line))
		var srcs []string
		for _, c := range checks {
			r.branchBounds = map[int][]string{id: {c}}
			srcs = append(srcs, r.branchBoundsClauses(r.prog.Sites[id])...)
		}
		if got := fmt.Sprint(id, " ", srcs); got != tc.want {
			t.Errorf("line %d: %s, want %s", tc.line, got, tc.want)
		}
	}
}
