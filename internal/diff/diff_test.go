package diff

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func TestUnified(t *testing.T) {
	tests := []struct {
		name     string
		old, new string
		want     string
	}{
		{"equal", "a\nb\n", "a\nb\n", ""},
		{"change in the middle", "1\n2\n3\n4\n5\n6\n7\n8\n9\n", "1\n2\n3\n4\nX\n6\n7\n8\n9\n",
			"--- a/f.go\n+++ b/f.go\n@@ -2,7 +2,7 @@\n 2\n 3\n 4\n-5\n+X\n 6\n 7\n 8\n"},
		{"insert at start", "a\nb\n", "z\na\nb\n",
			"--- a/f.go\n+++ b/f.go\n@@ -1,2 +1,3 @@\n+z\n a\n b\n"},
		{"two hunks", "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n", "X\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\nY\n",
			"--- a/f.go\n+++ b/f.go\n@@ -1,4 +1,4 @@\n-1\n+X\n 2\n 3\n 4\n@@ -9,4 +9,4 @@\n 9\n 10\n 11\n-12\n+Y\n"},
		{"no final newline", "a\nb", "a\nc",
			"--- a/f.go\n+++ b/f.go\n@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+c\n\\ No newline at end of file\n"},
		{"empty old", "", "a\n", "--- a/f.go\n+++ b/f.go\n@@ -0,0 +1 @@\n+a\n"},
	}
	for _, tc := range tests {
		if got := Unified("f.go", []byte(tc.old), []byte(tc.new)); got != tc.want {
			t.Errorf("%s:\ngot\n%s\nwant\n%s", tc.name, got, tc.want)
		}
	}
}

// TestApplies checks that patch(1) or git apply accepts the diffs and
// reproduces the new text.
func TestApplies(t *testing.T) {
	git, err := exec.LookPath("git")
	if err != nil {
		t.Skip("no git")
	}
	old := "package p\n\nfunc f(n int) bool {\n\tif n <= 0 {\n\t\treturn true\n\t}\n\tx := 1\n\tx++\n\treturn x > n\n}\n"
	new := strings.Replace(old, "n <= 0", "n < 0", 1)
	new = strings.Replace(new, "\tx++\n", "\tif n > 2 {\n\t\tx++\n\t}\n", 1)
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "f.go"), []byte(old), 0o644); err != nil {
		t.Fatal(err)
	}
	d := Unified("f.go", []byte(old), []byte(new))
	cmd := exec.Command(git, "apply", "-")
	cmd.Dir = dir
	cmd.Stdin = strings.NewReader(d)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git apply: %v\n%s\n%s", err, out, d)
	}
	got, _ := os.ReadFile(filepath.Join(dir, "f.go"))
	if string(got) != new {
		t.Errorf("applied:\n%s\nwant\n%s", got, new)
	}
}
