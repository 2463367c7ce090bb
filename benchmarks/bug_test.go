package benchmarks

import (
	"go/parser"
	"go/token"
	"slices"
	"strings"
	"testing"
)

// TestDatasetFiles checks that every bug file is well-formed: it loads
// with no unknown field, passes Check, has a unique id, and its patch
// turns the fixed condition into the buggy one on the stated line.
func TestDatasetFiles(t *testing.T) {
	bugs, err := LoadBugs("bugs")
	if err != nil {
		t.Fatal(err)
	}
	if len(bugs) == 0 {
		t.Fatal("no bug files in bugs/")
	}
	mods := map[string]bool{}
	for _, m := range RealModules {
		mods[m] = true
	}
	same := map[string]string{}
	for _, b := range bugs {
		key := b.Module + " " + b.File + " " + b.Func + " " + b.BuggyCondition + " " + b.FixedCondition + " " + b.Mutation
		if other, ok := same[key]; ok {
			t.Errorf("%s: same fault as %s", b.ID, other)
		}
		same[key] = b.ID
		if err := b.Check(); err != nil {
			t.Error(err)
			continue
		}
		if b.Kind == KindExample || b.Local != "" {
			t.Errorf("%s: example bugs belong in testdata, not bugs/", b.ID)
		}
		if !mods[b.Module] {
			t.Errorf("%s: module %s is not one of RealModules", b.ID, b.Module)
		}
		if !slices.IsSorted(b.FailingTests) {
			t.Errorf("%s: failing_tests not sorted", b.ID)
		}
		fps, _ := ParsePatch(b.Patch)
		// The first removed line and, for a condition, the first added
		// line are (part of) the if statements.
		first := map[byte]string{}
		for _, h := range fps[0].Hunks {
			for _, l := range h.Lines {
				if _, ok := first[l[0]]; !ok {
					first[l[0]] = l[1:]
				}
			}
		}
		if !lineOfCond(first['-'], b.FixedCondition) {
			t.Errorf("%s: the patch removes %q, not part of the fixed condition %q", b.ID, first['-'], b.FixedCondition)
		}
		if b.Fault == FaultCondition && !lineOfCond(first['+'], b.BuggyCondition) {
			t.Errorf("%s: the patch adds %q, not part of the buggy condition %q", b.ID, first['+'], b.BuggyCondition)
		}
	}
}

// lineOfCond reports whether a patch line holds cond or is a part of an
// if statement with that condition (a guard's body, a line of a condition
// written on several lines).
func lineOfCond(line, cond string) bool {
	l, c := squash(line), squash(cond)
	return l != "" && (strings.Contains(l, c) || strings.Contains("if"+c+"{", l))
}

func squash(s string) string { return strings.Join(strings.Fields(s), "") }

func TestNormalizeCond(t *testing.T) {
	for _, c := range []struct{ a, b string }{
		{"a > b", "b < a"},
		{"x >= 1", "1 <= x"},
		{"x == nil", "nil == x"},
		{"!(a < b)", "a >= b"},
		{"!(a == b && c)", "a != b || !c"},
		{"((a)) != b", "b != a"},
		{"!!ok", "ok"},
		{"len(s) >= 2", "len(s) > 1"},
		{"0 >= len(s)", "len(s) < 1"},
		{"!(len(s) < 3)", "len(s) > 2"},
	} {
		if na, nb := NormalizeCond(c.a), NormalizeCond(c.b); na != nb {
			t.Errorf("NormalizeCond(%q) = %q, NormalizeCond(%q) = %q: want equal", c.a, na, c.b, nb)
		}
	}
	for _, c := range []struct{ a, b string }{
		{"a > b", "a >= b"},
		{"a && b", "a || b"},
		{"x < 1", "x < 2"},
		// x may be a float: x >= 2 is not x > 1.
		{"x >= 2", "x > 1"},
	} {
		if NormalizeCond(c.a) == NormalizeCond(c.b) {
			t.Errorf("NormalizeCond(%q) == NormalizeCond(%q)", c.a, c.b)
		}
	}
}

func TestPatchRoundTrip(t *testing.T) {
	old := []byte("package p\n\nfunc f(x int) int {\n\tif x > 0 {\n\t\treturn 1\n\t}\n\treturn 0\n}\n")
	new := []byte(strings.Replace(string(old), "x > 0", "x >= 0", 1))
	patch := MakePatch("p/f.go", old, new)
	if !strings.HasPrefix(patch, "--- a/p/f.go\n+++ b/p/f.go\n@@ ") {
		t.Fatalf("patch header:\n%s", patch)
	}
	fps, err := ParsePatch(patch)
	if err != nil || len(fps) != 1 || fps[0].Path != "p/f.go" {
		t.Fatalf("ParsePatch: %v %+v", err, fps)
	}
	got, err := fps[0].Apply(old)
	if err != nil || string(got) != string(new) {
		t.Fatalf("Apply: %v\n%s", err, got)
	}
	// A shifted file still takes the hunk; a changed context does not.
	got, err = fps[0].Apply(append([]byte("// header\n\n"), old...))
	if err != nil || !strings.Contains(string(got), "x >= 0") {
		t.Errorf("Apply on shifted file: %v", err)
	}
	if _, err := fps[0].Apply([]byte(strings.Replace(string(old), "return 1", "return 2", 1))); err == nil {
		t.Error("Apply on changed context: no error")
	}
}

func TestParseTestJSON(t *testing.T) {
	out := `{"Package":"p","Action":"run","Test":"TestA"}
{"Package":"p","Action":"pass","Test":"TestA"}
{"Package":"p","Action":"run","Test":"TestB"}
{"Package":"p","Action":"run","Test":"TestB/sub"}
{"Package":"p","Action":"fail","Test":"TestB/sub"}
{"Package":"p","Action":"fail","Test":"TestB"}
{"Package":"p","Action":"run","Test":"TestC"}
{"Package":"p","Action":"skip","Test":"TestD"}
`
	tr := parseTestJSON([]byte(out))
	if !slices.Equal(tr.Passed, []string{"TestA", "TestD"}) || !slices.Equal(tr.Failed, []string{"TestB", "TestC"}) {
		t.Errorf("passed %v failed %v", tr.Passed, tr.Failed)
	}
}

func parseSrc(t *testing.T, rel, src string) *srcFile {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, rel, src, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	return &srcFile{Rel: rel, Src: []byte(src), Fset: fset, AST: f}
}

func TestDiffFile(t *testing.T) {
	old := parseSrc(t, "p/f.go", `package p

func F(s []int, i int) int {
	if i > len(s) {
		return -1
	}
	return s[i]
}

func G(m map[string]int, k string) int {
	v := m[k]
	return v
}

func H(x int) bool {
	if x < 0 {
		return false
	}
	return true
}
`)
	new := parseSrc(t, "p/f.go", `package p

func F(s []int, i int) int {
	if i >= len(s) {
		return -1
	}
	return s[i]
}

func G(m map[string]int, k string) int {
	if m == nil {
		return 0
	}
	v := m[k]
	return v
}

func H(x int) bool {
	if x < 0 {
		return false
	}
	return x != 3
}
`)
	cands := diffFile(old, new)
	if len(cands) != 2 {
		t.Fatalf("got %d candidates, want 2: %+v", len(cands), cands)
	}
	c := cands[0]
	if c.Func != "F" || c.Fault != FaultCondition || c.Buggy != "i > len(s)" || c.Fixed != "i >= len(s)" {
		t.Errorf("candidate 0: %+v", c)
	}
	buggy := string(new.Src[:c.Start]) + c.Text + string(new.Src[c.End:])
	if !strings.Contains(buggy, "if i > len(s) {") {
		t.Errorf("reverting candidate 0:\n%s", buggy)
	}
	c = cands[1]
	if c.Func != "G" || c.Fault != FaultGuard || c.Fixed != "m == nil" {
		t.Errorf("candidate 1: %+v", c)
	}
	buggy = string(new.Src[:c.Start]) + c.Text + string(new.Src[c.End:])
	if !strings.Contains(buggy, "int {\n\tv := m[k]") {
		t.Errorf("reverting candidate 1:\n%s", buggy)
	}
}

func TestShortList(t *testing.T) {
	var bugs []*Bug
	for i, m := range []string{"a", "a", "b", "c", "c", "d", "e", "f"} {
		bugs = append(bugs, &Bug{ID: string(rune('a'+i)) + m, Module: m, Tests: 10 - i})
	}
	got := ShortList(bugs, 5)
	if len(got) != 5 {
		t.Fatalf("got %d bugs", len(got))
	}
	mods := map[string]bool{}
	for _, b := range got {
		mods[b.Module] = true
	}
	if len(mods) != 5 {
		t.Errorf("modules %v: want 5 distinct", mods)
	}
}

func TestSlug(t *testing.T) {
	for in, want := range map[string]string{
		"github.com/blang/semver/v4":      "semver-v4",
		"gopkg.in/yaml.v3":                "yaml.v3",
		"golang.org/x/mod":                "mod",
		"github.com/BurntSushi/toml":      "toml",
		"github.com/pelletier/go-toml/v2": "go-toml-v2",
	} {
		if got := slug(in); got != want {
			t.Errorf("slug(%s) = %s, want %s", in, got, want)
		}
	}
}

func TestStackFunctions(t *testing.T) {
	f := parseSrc(t, "p/f.go", "package p\n\nfunc A() {\n\tpanic(1)\n}\n\nfunc B() {\n\tif true {\n\t}\n}\n")
	out := []byte(`{"Action":"output","Output":"\t/tmp/x/p/f.go:4 +0x1d\n"}`)
	blocks := stackFunctions(out, "/tmp/x", []*srcFile{f})
	if !covered(blocks, "p/f.go", 4, 2) || covered(blocks, "p/f.go", 8, 2) {
		t.Errorf("blocks %v: want A covered, B not", blocks)
	}
}

// TestAudits: every audit names a bug of the dataset and a condition,
// and says how it was checked.
func TestAudits(t *testing.T) {
	audits, err := LoadAudits("audit.json")
	if err != nil {
		t.Fatal(err)
	}
	ids := map[string]bool{}
	for _, dir := range []string{"bugs", "validation", "dev"} {
		bugs, err := LoadBugs(dir)
		if err != nil {
			t.Fatal(err)
		}
		for _, b := range bugs {
			ids[b.ID] = true
		}
	}
	for _, a := range audits {
		if !ids[a.Bug] {
			t.Errorf("audit of %s: no such bug in bugs/, validation/ or dev/", a.Bug)
		}
		if _, err := parser.ParseExpr(a.Condition); err != nil {
			t.Errorf("audit of %s: condition %q does not parse", a.Bug, a.Condition)
		}
	}
	if _, err := LoadAudits("testdata/maxbug.json"); err == nil {
		t.Error("a bug file loads as audits")
	}
}
