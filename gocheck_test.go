package nopol

import "testing"

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
