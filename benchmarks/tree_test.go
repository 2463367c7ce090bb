package benchmarks

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// A test that fails in one run of a candidate bug and passes in the next
// is not a failing test of the bug: try keeps only the tests that fail in
// every one of its runs. TestOnce fails in the first run only (a marker
// file stands for a timing race).
func TestTryKeepsOnlyTestsFailingEveryRun(t *testing.T) {
	const once = `
func TestOnce(t *testing.T) {
	if _, err := os.Stat("ran-once"); err != nil {
		os.WriteFile("ran-once", nil, 0o644)
		t.Fatal("first run")
	}
}
`
	tests := []struct {
		name       string
		tests      string
		wantFailed []string
	}{
		{"a bug and a chance failure", once + `
func TestAlways(t *testing.T) {
	if Two() != 2 {
		t.Fatal("Two")
	}
}
`, []string{"TestAlways"}},
		{"a chance failure only", once, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			files := map[string]string{
				"go.mod":    "module example.com/m\n\ngo 1.22\n",
				"m.go":      "package m\n\nfunc Two() int { return 2 }\n",
				"m_test.go": "package m\n\nimport (\n\t\"os\"\n\t\"testing\"\n)\n\nvar _ = os.Stat\n" + tc.tests,
			}
			for name, text := range files {
				if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			tr := &tree{Dir: dir, runner: &Runner{}}
			buggy := []byte("package m\n\nfunc Two() int { return 3 }\n")
			got, err := tr.try(context.Background(), "m.go", buggy)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got.Failed, tc.wantFailed) {
				t.Errorf("Failed = %v, want %v (output: %s)", got.Failed, tc.wantFailed, got.Output)
			}
			src, err := os.ReadFile(filepath.Join(dir, "m.go"))
			if err != nil || string(src) != files["m.go"] {
				t.Errorf("m.go after try = %q, %v; want it restored", src, err)
			}
		})
	}
}
