package benchmarks

import (
	"slices"
	"strings"
	"testing"
)

func TestJudgePurified(t *testing.T) {
	// TestA was split into three fragments, TestB into two; TestC is whole.
	origin := map[string]string{"TestA_1": "TestA", "TestA_2": "TestA", "TestA_3": "TestA", "TestB_1": "TestB", "TestB_2": "TestB"}
	split := map[string]int{"TestA": 3, "TestB": 2}
	tests := []struct {
		name        string
		failing     []string // the bug's failing tests
		fixedFailed []string
		failed      []string // failing on the buggy tree, purified
		same        bool
		revealed    []string
		extra       []string
		frags       [2]int // failing fragments, fragments of the failing tests
	}{
		{"one fragment reveals", []string{"TestA"}, nil, []string{"TestA_2"}, true, []string{"TestA"}, nil, [2]int{1, 3}},
		{"unsplit test reveals", []string{"TestC"}, nil, []string{"TestC"}, true, []string{"TestC"}, nil, [2]int{1, 1}},
		{"two tests, order of failing tests ignored", []string{"TestC", "TestA"}, nil, []string{"TestA_1", "TestA_3", "TestC"}, true, []string{"TestA", "TestC"}, nil, [2]int{3, 4}},
		{"no fragment fails", []string{"TestA"}, nil, nil, false, nil, nil, [2]int{0, 3}},
		{"a passing test's fragment fails", []string{"TestA"}, nil, []string{"TestA_1", "TestB_2"}, false, []string{"TestA"}, []string{"TestB_2"}, [2]int{1, 3}},
		{"fails on the fixed tree", []string{"TestA"}, []string{"TestB_1"}, []string{"TestA_1"}, false, []string{"TestA"}, nil, [2]int{1, 3}},
		{"one of two failing tests revealed", []string{"TestA", "TestB"}, nil, []string{"TestB_1"}, false, []string{"TestB"}, nil, [2]int{1, 5}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := &PurifiedResult{Files: 1, FixedFailed: tc.fixedFailed}
			judgePurified(&Bug{FailingTests: tc.failing}, origin, split, tc.failed, r)
			if r.Same != tc.same || !slices.Equal(r.Revealed, tc.revealed) || !slices.Equal(r.ExtraFailed, tc.extra) {
				t.Errorf("same %v revealed %v extra %v, want %v %v %v", r.Same, r.Revealed, r.ExtraFailed, tc.same, tc.revealed, tc.extra)
			}
			if got := [2]int{r.FailingFragments, r.FragmentsOfFailing}; got != tc.frags {
				t.Errorf("fragments failing/of failing %v, want %v", got, tc.frags)
			}
			if st := r.Status(); tc.same != strings.HasPrefix(st, "same") {
				t.Errorf("status %q for same=%v", st, tc.same)
			}
		})
	}
}
