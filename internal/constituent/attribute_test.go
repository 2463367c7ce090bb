package constituent

import (
	"fmt"
	"github.com/nopol-go/nopol/internal/txtartest"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dave/dst/decorator"
	"github.com/rogpeppe/go-internal/txtar"
)

func TestParseOutput(t *testing.T) {
	tests := []struct {
		name, output string
		want         []Location
	}{
		{
			name:   "message",
			output: "=== RUN   TestA\n    a_test.go:12: Abs(2) = 3\n--- FAIL: TestA (0.00s)\n",
			want:   []Location{{File: "a_test.go", Line: 12, Segment: -1, Iteration: -1}},
		},
		{
			name:   "subtest message is indented deeper",
			output: "        a_test.go:7: bad\n",
			want:   []Location{{File: "a_test.go", Line: 7, Segment: -1, Iteration: -1}},
		},
		{
			name: "panic frames without runtime and testing",
			output: "panic: assignment to entry in nil map [recovered]\n" +
				"goroutine 7 [running]:\n" +
				"testing.tRunner.func1.2({0x5, 0x6})\n" +
				"\t/usr/local/go/src/testing/testing.go:1734 +0x21c\n" +
				"panic({0x5, 0x6})\n" +
				"\t/usr/local/go/src/runtime/panic.go:792 +0x132\n" +
				"example.com/abs.TestPanic(0xc000)\n" +
				"\t/tmp/m/abs_test.go:22 +0x5c\n",
			want: []Location{{File: "/tmp/m/abs_test.go", Line: 22, Panic: true, Segment: -1, Iteration: -1}},
		},
		{
			// goldmark's testutil prints debug.Stack() for a case that
			// panicked: its message stays, the frames before the
			// runtime's panic go.
			name: "a recovered panic's stack in a message",
			output: "--- FAIL: TestLinkify (0.00s)\n" +
				"    testutil.go:207: case 8\n" +
				"        runtime error: index out of range [4] with length 4\n" +
				"        goroutine 17 [running]:\n" +
				"        runtime/debug.Stack()\n" +
				"        \t/usr/local/go/src/runtime/debug/stack.go:26 +0x5e\n" +
				"        example.com/g/testutil.DoTestCase.func1()\n" +
				"        \t/tmp/g/testutil/testutil.go:207 +0x3d9\n" +
				"        panic({0x61d980?, 0x31876a7c5a0?})\n" +
				"        \t/usr/local/go/src/runtime/panic.go:860 +0x13a\n" +
				"        example.com/g/extension.(*linkifyParser).Parse(0x3187)\n" +
				"        \t/tmp/g/extension/linkify.go:226 +0x5a5\n",
			want: []Location{
				{File: "testutil.go", Line: 207, Segment: -1, Iteration: -1},
				{File: "/tmp/g/extension/linkify.go", Line: 226, Panic: true, Segment: -1, Iteration: -1},
			},
		},
		{
			name: "frames of GOTRACEBACK=system",
			output: "fatal error: stack overflow\n" +
				"goroutine 18 gp=0x3fbabb2a61e0 m=2 mp=0x3fbabb1de808 [running]:\n" +
				"runtime.mapassign_fast64ptr(0x55f0a0, 0x3fbafb30bf20, 0x3fbabb292fc0)\n" +
				"\t/usr/local/go/src/internal/runtime/maps/runtime_fast64.go:400 +0xe5 fp=0x3fbadb30c3b8 sp=0x3fbadb30c358 pc=0x4108a5\n" +
				"example.com/graph.walk(0x3fbabb292fc0, 0x3fbafb30bf20, 0x3fbafb30be38)\n" +
				"\t/tmp/m/graph.go:18 +0x33 fp=0x3fbadb30c428 sp=0x3fbadb30c3b8 pc=0x52e333\n",
			want: []Location{{File: "/tmp/m/graph.go", Line: 18, Panic: true, Segment: -1, Iteration: -1}},
		},
		{
			name: "frames of a panic gocheck recovered",
			output: "PANIC: decode_test.go:975: S.TestDecoderErrors\n\n" +
				"... Panic: runtime error: invalid memory address or nil pointer dereference (PC=0x48D339)\n\n" +
				"/usr/local/go/src/runtime/panic.go:860\n  in gopanic\n" +
				"yaml.go:294\n  in handleErr\n" +
				"/usr/local/go/src/runtime/panic.go:860\n  in gopanic\n" +
				"/usr/local/go/src/runtime/signal_unix.go:931\n  in sigpanic\n" +
				"parserc.go:792\n  in yaml_parser_split_stem_comment\n" +
				"decode_test.go:978\n  in S.TestDecoderErrors\n" +
				"yaml.go:12\n",
			want: []Location{{File: "parserc.go", Line: 792, Panic: true, Segment: -1, Iteration: -1},
				{File: "decode_test.go", Line: 978, Panic: true, Segment: -1, Iteration: -1}},
		},
		{
			name: "a deferred call that panics again is above the first panic",
			output: "panic: boom [recovered]\n\tpanic: boom\n\n" +
				"goroutine 7 [running]:\n" +
				"example.com/m.handle(0xc000)\n\t/tmp/m/m.go:30 +0x5c\n" +
				"panic({0x5, 0x6})\n\t/usr/local/go/src/runtime/panic.go:792 +0x132\n" +
				"example.com/m.parse(0xc000)\n\t/tmp/m/m.go:12 +0x5c\n",
			want: []Location{{File: "/tmp/m/m.go", Line: 12, Panic: true, Segment: -1, Iteration: -1}},
		},
		{
			name:   "constituent lines give the running iteration",
			output: "nopol-constituent 1 0\nnopol-constituent 1 1\nnopol-constituent 1 2\n    a_test.go:9: bad\nnopol-constituent 1 3\n",
			want:   []Location{{File: "a_test.go", Line: 9, Segment: 1, Iteration: 2}},
		},
		{
			name: "evaluation lines give the evaluation a failure followed",
			output: EvalLine(4, 1) + EvalLine(4, 2) + "    a_test.go:9: bad\n" + EvalLine(4, 3) +
				"panic: boom\n\t/tmp/m/a.go:3 +0x5c\n",
			want: []Location{{File: "a_test.go", Line: 9, Segment: -1, Iteration: -1, Eval: 2},
				{File: "/tmp/m/a.go", Line: 3, Panic: true, Segment: -1, Iteration: -1, Eval: 3}},
		},
		{
			name: "messages of passing subtests are logs, not failures",
			output: "\x16=== RUN   TestA\n\x16=== RUN   TestA/ok\n    a_test.go:5: just a log\n" +
				"\x16--- PASS: TestA/ok (0.00s)\n\x16=== NAME  TestA\n\x16=== RUN   TestA/bad\n    a_test.go:6: wrong\n" +
				"\x16--- FAIL: TestA/bad (0.00s)\n\x16=== NAME  TestA\n    a_test.go:8: wrong too\n",
			want: []Location{{File: "a_test.go", Line: 6, Segment: -1, Iteration: -1},
				{File: "a_test.go", Line: 8, Segment: -1, Iteration: -1}},
		},
		{
			name:   "no location",
			output: "--- FAIL: TestA (0.00s)\nFAIL\n",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := ParseOutput(tc.output)
			if fmt.Sprint(got) != fmt.Sprint(tc.want) {
				t.Errorf("ParseOutput = %+v, want %+v", got, tc.want)
			}
		})
	}
}

func TestAttribute(t *testing.T) {
	cons := []Constituent{
		{Test: "TestA", Segment: 0, File: "/m/a_test.go", StartLine: 5, EndLine: 7},
		{Test: "TestA", Segment: 1, Loop: true, File: "/m/a_test.go", StartLine: 8, EndLine: 12},
		{Test: "TestB", Segment: 0, File: "/m/a_test.go", StartLine: 15, EndLine: 15},
	}
	tests := []struct {
		name, test, file string
		line             int
		want             int
		ok               bool
	}{
		{"base name", "TestA", "a_test.go", 6, 0, true},
		{"full path", "TestA", "/m/a_test.go", 12, 1, true},
		{"other test", "TestB", "a_test.go", 15, 0, true},
		{"line of another test", "TestA", "a_test.go", 15, 0, false},
		{"other file", "TestA", "/n/a_test.go", 6, 0, false},
		{"between statements", "TestA", "a_test.go", 13, 0, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := Attribute(cons, tc.test, tc.file, tc.line)
			if got != tc.want || ok != tc.ok {
				t.Errorf("Attribute(%s, %s:%d) = %d, %v, want %d, %v", tc.test, tc.file, tc.line, got, ok, tc.want, tc.ok)
			}
		})
	}
}

// TestAttributeRun marks the test files of testdata/run archives, runs
// each failing test with go test -v and checks that the failure is
// attributed to the constituent the archive's "want" section names: the
// line directives keep original lines, the hook's constituent lines give
// the iteration.
func TestAttributeRun(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go test")
	}
	txtartest.EachArchive(t, "run", func(t *testing.T, file string, ar *txtar.Archive) {
		dir := t.TempDir()
		var cons []Constituent
		for _, f := range ar.Files {
			path := filepath.Join(dir, f.Name)
			data := f.Data
			if strings.HasSuffix(f.Name, "_test.go") {
				dec := decorator.NewDecorator(token.NewFileSet())
				df, err := dec.ParseFile(path, f.Data, 0)
				if err != nil {
					t.Fatal(err)
				}
				qual := ""
				if strings.HasSuffix(df.Name.Name, "_test") {
					qual = strings.TrimSuffix(df.Name.Name, "_test")
				}
				cons = append(cons, Mark(dec, df, qual, nil)...)
				var b strings.Builder
				if err := decorator.NewRestorer().Fprint(&b, df); err != nil {
					t.Fatal(err)
				}
				data = []byte(b.String())
			}
			if err := os.WriteFile(path, data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		for _, line := range strings.Split(strings.TrimSpace(string(txtartest.Section(t, ar, "want"))), "\n") {
			var test string
			var seg, iter int
			if _, err := fmt.Sscan(line, &test, &seg, &iter); err != nil {
				t.Fatalf("want line %q: %v", line, err)
			}
			out := txtartest.GoTest(t, dir, "-v", "-count=1", "-run", "^"+test+"$")
			gs, gi, ok := AttributeOutput(cons, test, out)
			if !ok || gs != seg || gi != iter {
				t.Errorf("%s: AttributeOutput = %d, %d, %v, want %d, %d\noutput:\n%s", test, gs, gi, ok, seg, iter, out)
			}
		}
	})
}
