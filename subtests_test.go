package nopol

import (
	"reflect"
	"testing"

	"github.com/nopol-go/nopol/collect"
)

func TestNarrowedTo(t *testing.T) {
	tests := []struct {
		name string
		res  collect.TestResult
		want []string
	}{
		{"leaves", collect.TestResult{FailedSubtests: []string{"T/a/b", "T/a", "T/c"}, PassedSubtests: 3}, []string{"T/a/b", "T/c"}},
		{"a failing parent of passing subtests", collect.TestResult{FailedSubtests: []string{"T/ab", "T/a"}, PassedSubtests: 1}, []string{"T/ab", "T/a"}},
		{"none passed", collect.TestResult{FailedSubtests: []string{"T/a"}}, nil},
		{"no subtests", collect.TestResult{PassedSubtests: 2}, nil},
		{"some not listed", collect.TestResult{FailedSubtests: []string{"T/a"}, PassedSubtests: 2, SubtestsCut: true}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := narrowedTo(tt.res); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("narrowedTo = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestPassedCases(t *testing.T) {
	tests := []struct {
		name string
		res  collect.TestResult
		subs []string
		want []string
	}{
		{"cases", collect.TestResult{PassedSubtests: 2, PassedPaths: []string{"T/a", "T/c"}}, []string{"T/b"}, []string{"T/a", "T/c"}},
		{"cut to the failing subtests' depth", collect.TestResult{PassedSubtests: 6, PassedPaths: []string{"T/a/x/1", "T/a/x", "T/a", "T/b/y", "T/c", "T/b"}}, []string{"T/b/z"}, []string{"T/a/x", "T/b/y", "T/c"}},
		{"failing subtests of two depths", collect.TestResult{PassedSubtests: 1, PassedPaths: []string{"T/a"}}, []string{"T/b/z", "T/c"}, nil},
		{"some not listed", collect.TestResult{PassedSubtests: 3, PassedPaths: []string{"T/a", "T/c"}}, []string{"T/b"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := passedCases(tt.res, tt.subs); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("passedCases = %q, want %q", got, tt.want)
			}
		})
	}
}
