package nopol

import (
	"slices"
	"testing"
)

func TestRunsGocheck(t *testing.T) {
	for _, tt := range []struct {
		name string
		src  string
		line int
		want bool
	}{
		{"dot import", "package p\nimport (\n\t\"testing\"\n\t. \"gopkg.in/check.v1\"\n)\nfunc Test(t *testing.T) { TestingT(t) }\n", 6, true},
		{"named import", "package p\nimport (\n\t\"testing\"\n\tgc \"gopkg.in/check.v1\"\n)\nfunc Test(t *testing.T) { gc.TestingT(t) }\n", 6, true},
		{"default name", "package p\nimport (\n\t\"testing\"\n\t\"gopkg.in/check.v1\"\n)\nfunc Test(t *testing.T) {\n\tcheck.TestingT(t)\n}\n", 6, true},
		{"another test of the file", "package p\nimport (\n\t\"testing\"\n\t. \"gopkg.in/check.v1\"\n)\nfunc Test(t *testing.T) { TestingT(t) }\nfunc TestPlain(t *testing.T) {}\n", 7, false},
		{"a TestingT of another package", "package p\nimport (\n\t\"testing\"\n\t\"example.com/check\"\n)\nfunc Test(t *testing.T) { check.TestingT(t) }\n", 6, false},
		{"does not parse", "package p\nfunc Test(", 2, false},
	} {
		if got := runsGocheck([]byte(tt.src), tt.line); got != tt.want {
			t.Errorf("%s: runsGocheck = %v, want %v", tt.name, got, tt.want)
		}
	}
}

func TestFailedGocheck(t *testing.T) {
	const sep = "----------------------------------------------------------------------\n"
	for _, tt := range []struct {
		name, output string
		want         []string
	}{
		{"failed and panicked", sep + "FAIL: encode_test.go:510: S.TestEncoder\n\nobtained ...\n" + sep + "PANIC: node_test.go:12: S.TestNode\n\n... Panic: boom\nOOPS: 32 passed, 1 FAILED, 1 PANICKED\n--- FAIL: Test (0.02s)\n", []string{"S.TestEncoder", "S.TestNode"}},
		{"carriage returns", "FAIL: a_test.go:1: S.TestA\r\nOOPS: 3 passed, 1 FAILED\r\n", []string{"S.TestA"}},
		{"a failure cut from the output", "FAIL: a_test.go:1: S.TestA\nOOPS: 3 passed, 2 FAILED\n", nil},
		{"a fixture failed", "FAIL: a_test.go:1: S.SetUpTest\nOOPS: 3 passed, 1 FIXTURE-PANICKED, 2 MISSED\n", nil},
		{"none passed", "FAIL: a_test.go:1: S.TestA\nOOPS: 0 passed, 1 FAILED\n", nil},
		{"no summary", "FAIL: a_test.go:1: S.TestA\n", nil},
		{"a plain test", "--- FAIL: TestA (0.00s)\n    a_test.go:3: bad\n", nil},
	} {
		if got := failedGocheck(tt.output); !slices.Equal(got, tt.want) {
			t.Errorf("%s: failedGocheck = %q, want %q", tt.name, got, tt.want)
		}
	}
}
