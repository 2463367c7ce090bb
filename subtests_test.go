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
