package collect

import (
	"context"
	"reflect"
	"strings"
	"testing"
	"time"
)

func TestSubtests(t *testing.T) {
	f := instrument(t, "subtests")
	const pkg = "example.com/subtests/sign"
	base, err := Baseline(context.Background(), f.prog, time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	var table TestResult
	for _, r := range base {
		if r.Test == "TestTable" {
			table = r
		}
	}
	wantFailed := []string{"TestTable/minus_one_(x*)", "TestTable/nested/minus", "TestTable/nested"}
	if !reflect.DeepEqual(table.FailedSubtests, wantFailed) || table.PassedSubtests != 4 || table.SubtestsCut {
		t.Fatalf("baseline of TestTable: failed %q, %d passed, cut %v; want %q, 4 passed", table.FailedSubtests, table.PassedSubtests, table.SubtestsCut, wantFailed)
	}
	tests := []struct {
		name     string
		subtests []string
		skip     []string
		passed   bool
		ran      []string // the subtests that ran
	}{
		{"whole", nil, nil, false, []string{"one", "zero", "minus_one_(x*)", "two", "nested", "nested/ok", "nested/minus"}},
		{"failing leaves", []string{"TestTable/minus_one_(x*)", "TestTable/nested/minus"}, nil, false, []string{"minus_one_(x*)", "nested", "nested/minus"}},
		{"a passing one", []string{"TestTable/two"}, nil, true, []string{"two"}},
		{"metacharacters quoted", []string{"TestTable/minus_one_(x*)"}, nil, false, []string{"minus_one_(x*)"}},
		{"the failing ones skipped", nil, []string{"TestTable/minus_one_(x*)", "TestTable/nested"}, true, []string{"one", "zero", "two"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := f.build.Run(context.Background(), Run{Package: pkg, Test: "TestTable", Subtests: tt.subtests, SkipSubtests: tt.skip, Mode: ModeCover, ForceSegment: -1})
			if err != nil {
				t.Fatal(err)
			}
			if res.Passed != tt.passed {
				t.Errorf("passed = %v, want %v; output:\n%s", res.Passed, tt.passed, res.Output)
			}
			var ran []string
			for _, line := range strings.Split(res.Output, "\n") {
				// Verbose lines may start with test2json's marker.
				if _, name, ok := strings.Cut(line, "=== RUN   TestTable/"); ok {
					ran = append(ran, name)
				}
			}
			if !reflect.DeepEqual(ran, tt.ran) {
				t.Errorf("ran %q, want %q", ran, tt.ran)
			}
		})
	}
}

func TestTestRunPattern(t *testing.T) {
	tests := []struct {
		test, sub string
		subs      []string
		want      string
	}{
		{"TestA", "", nil, "^TestA$"},
		{"TestA", "TestA/x.y", nil, "^TestA$/^x\\.y$"},
		{"TestA", "", []string{"TestA/b/c", "TestA/a"}, "^TestA$/^(a|b)$/^c$"},
		{"TestA", "TestA/s", []string{"TestA/b"}, "^TestA$/^s$"},
	}
	for _, tt := range tests {
		if got := testRunPattern(tt.test, tt.sub, tt.subs); got != tt.want {
			t.Errorf("testRunPattern(%q, %q, %q) = %q, want %q", tt.test, tt.sub, tt.subs, got, tt.want)
		}
	}
}
