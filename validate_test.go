package nopol

import (
	"testing"

	"github.com/nopol-go/nopol/collect"
)

func TestAcceptable(t *testing.T) {
	ignored := map[string]bool{"TestLeftOut": true}
	tests := []struct {
		name    string
		ignored map[string]bool
		sr      collect.SuiteResult
		want    bool
	}{
		{"passes", nil, collect.SuiteResult{Passed: true}, true},
		{"fails, nothing left out", nil, collect.SuiteResult{Failed: []string{"TestA"}}, false},
		{"only a left-out test fails", ignored, collect.SuiteResult{Failed: []string{"TestLeftOut/case"}}, true},
		{"another test fails too", ignored, collect.SuiteResult{Failed: []string{"TestLeftOut", "TestB"}}, false},
		{"a test of another package fails", ignored, collect.SuiteResult{Failed: []string{"TestLeftOut"}, FailedElsewhere: []string{"example.com/m/api.TestB"}}, false},
		{"a left-out test of another package fails", ignored, collect.SuiteResult{FailedElsewhere: []string{"example.com/m/api.TestLeftOut/sub"}}, true},
		{"a prefix of a left-out name is not it", ignored, collect.SuiteResult{FailedElsewhere: []string{"example.com/m/api.TestLeftOutToo"}}, false},
		{"timeout", ignored, collect.SuiteResult{TimedOut: true, Failed: []string{"TestLeftOut"}}, false},
		{"fails without names", ignored, collect.SuiteResult{}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := &repairer{ignored: tt.ignored}
			if got := r.acceptable(tt.sr); got != tt.want {
				t.Errorf("acceptable(%+v) = %v, want %v", tt.sr, got, tt.want)
			}
		})
	}
}
