package nopol

import (
	"maps"
	"slices"
	"testing"

	"github.com/nopol-go/nopol/collect"
)

// TestPrintedSites checks which sites come first for a printed message:
// the condition of a branch whose message a failing test printed, taken
// in its run, with the sites of the functions the condition calls; not a
// branch not taken, nor one whose message only a passing test printed;
// none when too many branches were printed.
func TestPrintedSites(t *testing.T) {
	cond := func(id, line int, msg string, callees ...collect.Callee) collect.Site {
		return collect.Site{ID: id, Kind: collect.Cond, File: "/m/p.go", Line: line, FuncLines: [2]int{line - 1, line + 5},
			Then: &collect.Branch{Messages: []string{msg}}, Callees: callees}
	}
	sites := []collect.Site{
		cond(0, 10, "number %q: cannot have leading zeroes", collect.Callee{File: "/m/p.go", Line: 30}),
		cond(1, 20, "the branch was not taken"),
		cond(2, 40, "only a passing test printed this"),
		{ID: 3, Kind: collect.Cond, File: "/m/p.go", Line: 31, FuncLines: [2]int{30, 35}},  // in the callee
		{ID: 4, Kind: collect.Guard, File: "/m/p.go", Line: 32, FuncLines: [2]int{30, 35}}, // in the callee
		{ID: 5, Kind: collect.Cond, File: "/m/q.go", Line: 31, FuncLines: [2]int{30, 35}},  // another file
	}
	fail, pass := testKey{"p", "TestFail"}, testKey{"p", "TestPass"}
	cover := map[testKey]collect.Result{
		fail: {Output: `p_test.go:9: number "0xDEAD": cannot have leading zeroes; the branch was not taken`,
			Reached: map[int][2]int{0: {0, 1}, 1: {1, 0}, 2: {0, 1}}},
		pass: {Passed: true, Output: "only a passing test printed this", Reached: map[int][2]int{2: {0, 1}}},
	}
	r := &repairer{prog: &collect.Program{Sites: sites}, failing: []testKey{fail}, cover: cover}
	if got := slices.Sorted(maps.Keys(r.printedSites())); !slices.Equal(got, []int{0, 3, 4}) {
		t.Errorf("printedSites = %v, want [0 3 4]", got)
	}
	var many []collect.Site
	for id := range maxPrinted + 1 {
		many = append(many, cond(id, 10*(id+1), "number %q: cannot have leading zeroes"))
	}
	reached := map[int][2]int{}
	for id := range many {
		reached[id] = [2]int{0, 1}
	}
	r.prog.Sites, r.cover[fail] = many, collect.Result{Output: cover[fail].Output, Reached: reached}
	if got := r.printedSites(); len(got) != 0 {
		t.Errorf("printedSites with %d printed branches = %v, want none", len(many), got)
	}
}
