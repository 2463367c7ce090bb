package collect

import (
	"context"
	"strings"
	"testing"
)

func TestRunBefore(t *testing.T) {
	f := instrument(t, "after")
	const pkg = "example.com/after/mode"
	pick := f.site(t, Cond, "mode.go", 8)
	for _, name := range []string{"TestSet", "TestBroken", "TestAfter"} {
		if !f.prog.Marked(pkg, name) {
			t.Fatalf("%s is not marked", name)
		}
	}
	before := []string{"TestSet", "TestBroken"}
	tests := []struct {
		name   string
		run    Run
		after  []string // Program.RunAfter, when not nil
		passed bool
		// reached is the site's evaluations (false, true) the run counts.
		reached [2]int
	}{
		{"alone", Run{Test: "TestAfter", Force: map[int]bool{pick: false}}, nil, false, [2]int{}},
		{"after the tests before it", Run{Test: "TestAfter", Force: map[int]bool{pick: false}, Before: before}, nil, true, [2]int{1, 0}},
		{"after them by RunAfter", Run{Test: "TestAfter", Force: map[int]bool{pick: false}}, before, true, [2]int{1, 0}},
		{"Before wins over RunAfter", Run{Test: "TestAfter", Force: map[int]bool{pick: false}, Before: []string{"TestBroken"}}, before, false, [2]int{}},
		{"snapshot", Run{Test: "TestAfter", Mode: ModeSnapshot, Sites: []int{pick}, Force: map[int]bool{pick: false}, Before: before}, nil, true, [2]int{1, 0}},
		{"unforced", Run{Test: "TestAfter", Before: before}, nil, false, [2]int{0, 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			id := TestID{Package: pkg, Test: "TestAfter"}
			f.prog.RunAfter(id, tt.after)
			defer f.prog.RunAfter(id, nil)
			tt.run.Package, tt.run.ForceSegment = pkg, -1
			res, err := f.build.Run(context.Background(), tt.run)
			if err != nil {
				t.Fatal(err)
			}
			if res.Passed != tt.passed {
				t.Fatalf("passed = %v, want %v; output:\n%s", res.Passed, tt.passed, res.Output)
			}
			if res.Reached[pick] != tt.reached {
				t.Errorf("reached = %v, want %v (TestSet's evaluation is not counted)", res.Reached[pick], tt.reached)
			}
			if strings.Contains(res.Output, "TestBroken fails") {
				t.Errorf("the output holds what a test before it printed:\n%s", res.Output)
			}
			if tt.run.Mode == ModeSnapshot && (len(res.Evals) != 1 || res.Evals[0].Outcome) {
				t.Errorf("evals = %+v, want TestAfter's one evaluation, forced false", res.Evals)
			}
		})
	}
}
