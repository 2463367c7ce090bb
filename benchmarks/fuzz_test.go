package benchmarks

import (
	"go/parser"
	"strings"
	"testing"

	"github.com/nopol-go/nopol/internal/diff"
)

// FuzzPatchRoundTrip: a patch made by either diff writer parses and,
// applied to the old text, gives the new one.
func FuzzPatchRoundTrip(f *testing.F) {
	f.Add("package m\n\nfunc F(n int) bool {\n\tif n < 0 {\n\t\treturn true\n\t}\n\treturn false\n}\n", "package m\n\nfunc F(n int) bool {\n\tif n <= 0 {\n\t\treturn true\n\t}\n\treturn false\n}\n")
	f.Add("a\nb\nc\n", "a\nc\nd\n")
	f.Fuzz(func(t *testing.T, old, new string) {
		if !strings.HasSuffix(old, "\n") || !strings.HasSuffix(new, "\n") || old == new || strings.Contains(old+new, "\r") {
			return // the writers assume text files ending in a newline
		}
		for name, patch := range map[string]string{"MakePatch": MakePatch("m.go", []byte(old), []byte(new)), "diff.Unified": diff.Unified("m.go", []byte(old), []byte(new))} {
			fps, err := ParsePatch(patch)
			if err != nil {
				t.Fatalf("%s: ParsePatch: %v\n%s", name, err, patch)
			}
			if len(fps) != 1 || fps[0].Path != "m.go" {
				t.Fatalf("%s: file patches %+v", name, fps)
			}
			got, err := fps[0].Apply([]byte(old))
			if err != nil {
				t.Fatalf("%s: Apply: %v\n%s", name, err, patch)
			}
			if string(got) != new {
				t.Fatalf("%s: applied gives %q, want %q\n%s", name, got, new, patch)
			}
		}
	})
}

// FuzzParsePatch: any text is parsed or refused, never a panic; what
// parses applies or is refused.
func FuzzParsePatch(f *testing.F) {
	f.Add("--- a/m.go\n+++ b/m.go\n@@ -1,2 +1,2 @@\n a\n-b\n+c\n", "a\nb\n")
	f.Add("@@ -0,0 +1 @@\n+x\n", "")
	f.Fuzz(func(t *testing.T, patch, src string) {
		fps, err := ParsePatch(patch)
		if err != nil {
			return
		}
		for _, fp := range fps {
			fp.Apply([]byte(src))
		}
	})
}

// FuzzNormalizeCond: a condition that parses normalises to a parsable
// expression, and normalising that again changes nothing.
func FuzzNormalizeCond(f *testing.F) {
	for _, s := range []string{"a > b", "!(x <= 3 && y != nil)", "!!ok", "(n) >= len(s) || s[n] == '_'", "a+b > c"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, cond string) {
		n := NormalizeCond(cond)
		if _, err := parser.ParseExpr(cond); err != nil {
			return // returned trimmed
		}
		if _, err := parser.ParseExpr(n); err != nil {
			t.Fatalf("NormalizeCond(%q) = %q does not parse: %v", cond, n, err)
		}
		if again := NormalizeCond(n); again != n {
			t.Fatalf("NormalizeCond not idempotent: %q -> %q -> %q", cond, n, again)
		}
	})
}
