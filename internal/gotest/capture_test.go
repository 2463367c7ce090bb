package gotest

import (
	"bytes"
	"fmt"
	"os"
	"reflect"
	"strings"
	"testing"
)

func TestCapBuffer(t *testing.T) {
	for _, tc := range []struct {
		name   string
		max    int
		writes []string
		want   string
	}{
		{"under the cap", 8, []string{"ab", "cd"}, "abcd"},
		{"exactly the cap", 8, []string{"abcdefgh"}, "abcdefgh"},
		{"cut in one write", 8, []string{"abcdefghijkl"}, "ab\n" + CutMarker + "4 bytes of output]\nghijkl"},
		{"cut over writes", 8, []string{"abc", "def", "ghi", "jkl"}, "ab\n" + CutMarker + "4 bytes of output]\nghijkl"},
		{"ring wraps", 8, []string{"ab", "cdefg", "h", "ijklm", "nop"}, "ab\n" + CutMarker + "8 bytes of output]\nkl" + "mnop"},
		{"no cap", -1, []string{"abc", "def"}, "abcdef"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := newCapBuffer(tc.max)
			for _, w := range tc.writes {
				b.Write([]byte(w))
			}
			if got := string(b.Bytes()); got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}

func FuzzCapBuffer(f *testing.F) {
	f.Add([]byte("hello, world"), uint8(5), uint8(3))
	f.Fuzz(func(t *testing.T, data []byte, max, step uint8) {
		if max == 0 || step == 0 {
			return
		}
		b := newCapBuffer(int(max))
		for i := 0; i < len(data); i += int(step) {
			b.Write(data[i:min(len(data), i+int(step))])
		}
		got := b.Bytes()
		if len(data) <= int(max) {
			if !bytes.Equal(got, data) {
				t.Fatalf("got %q, want %q", got, data)
			}
			return
		}
		head, tail := int(max)/4, int(max)-int(max)/4
		want := string(data[:head]) + fmt.Sprintf("\n%s%d bytes of output]\n", CutMarker, len(data)-head-tail) + string(data[len(data)-tail:])
		if string(got) != want {
			t.Fatalf("got %q, want %q", got, want)
		}
	})
}

func TestLineWriter(t *testing.T) {
	var lines []string
	w := &lineWriter{fn: func(l []byte) { lines = append(lines, string(l)) }}
	long := strings.Repeat("x", maxLine+10)
	for _, s := range []string{"a", "b\nc\n", "\n", long, "\nend"} {
		w.Write([]byte(s))
	}
	w.Close()
	want := []string{"ab", "c", "", long[:maxLine], "end"}
	if !reflect.DeepEqual(lines, want) {
		t.Errorf("lines = %d %q...", len(lines), lines[0])
	}
}

func TestRecursing(t *testing.T) {
	deep := func(test string, frames int) string {
		var b strings.Builder
		b.WriteString("goroutine 7 [sleep]:\ntime.Sleep(0xf4240)\n\t/usr/lib/go/src/runtime/time.go:363 +0x165\n")
		for range frames {
			b.WriteString("example.com/g.walk(0xc000010030, 0xc00001e0c0)\n\t/w/m/graph.go:25 +0x8f\n")
		}
		b.WriteString("...additional frames elided...\n")
		fmt.Fprintf(&b, "example.com/g.%s(0xc000003a40)\n\t/w/m/graph_test.go:33 +0x10a\ntesting.tRunner(0xc000003a40, 0x5a1b88)\n\t/usr/lib/go/src/testing/testing.go:1934 +0xea\ncreated by testing.(*T).Run in goroutine 1\n\t/usr/lib/go/src/testing/testing.go:1997 +0x44b\n", test)
		return b.String()
	}
	head := "panic: test timed out after 3s\n\trunning tests:\n\t\tTestCycle (3s)\n\n"
	for _, tc := range []struct {
		name, output string
		want         []string
	}{
		{"a timeout deep in one call line", head + deep("TestCycle", 50), []string{"TestCycle"}},
		{"beside another goroutine", head + "goroutine 1 [chan receive]:\ntesting.(*T).Run(0xc000003880)\n\t/usr/lib/go/src/testing/testing.go:2005 +0x485\n\n" + deep("TestCycle", 50), []string{"TestCycle"}},
		{"a subtest's goroutine", head + strings.Replace(deep("TestCycle.func1", 50), "created by testing.(*T).Run", "created by example.com/g.TestCycle", 1), []string{"TestCycle"}},
		{"a shallow recursion hangs", head + deep("TestCycle", RunawayDepth-1), nil},
		{"a stack overflow", "runtime: goroutine stack exceeds 1000000000-byte limit\nfatal error: stack overflow\n\n" + deep("TestDeep", 100), []string{"TestDeep"}},
		{"no test on the stack", head + "goroutine 9 [running]:\n" + strings.Repeat("example.com/g.f()\n\t/w/m/g.go:3 +0x1\n", 30), nil},
		{"no goroutines", "--- FAIL: TestX (0.00s)\n", nil},
	} {
		if got := Recursing(tc.output); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: got %q, want %q", tc.name, got, tc.want)
		}
	}
}

// readTestdata returns the text of testdata/name.
func readTestdata(t *testing.T, name string) string {
	t.Helper()
	data, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

func TestSpinning(t *testing.T) {
	head := "panic: test timed out after 3s\n\trunning tests:\n\t\tTestLoop (3s)\n\n"
	alarm := "goroutine 7 [running]:\ntesting.(*M).startAlarm.func1()\n\t/usr/lib/go/src/testing/testing.go:2802 +0x354\ncreated by time.goFunc\n\t/usr/lib/go/src/time/sleep.go:215 +0x2d\n\n"
	for _, tc := range []struct {
		name, output string
		want         []string
	}{
		{"a loop, preempted", readTestdata(t, "spin-timeout.out"), []string{"TestSpin"}},
		{"a test that waits forever", readTestdata(t, "wait-timeout.out"), nil},
		{"a loop on another thread", head + alarm + "goroutine 8 [running]:\n\tgoroutine running on other thread; stack unavailable\ncreated by testing.(*T).Run in goroutine 1\n\t/usr/lib/go/src/testing/testing.go:2101 +0x4c5\n", []string{"TestLoop"}},
		{"a loop in a subtest", head + alarm + "goroutine 9 [runnable]:\nexample.com/g.loop(...)\n\t/w/m/g.go:7\nexample.com/g.TestLoop.func1(0x1)\n\t/w/m/g_test.go:20 +0x8\ntesting.tRunner(0x1, 0x2)\n\t/usr/lib/go/src/testing/testing.go:2036 +0xea\ncreated by testing.(*T).Run in goroutine 8\n", []string{"TestLoop"}},
		{"a long wait", head + alarm + "goroutine 9 [select, 2 minutes]:\nexample.com/g.TestLoop(0x1)\n\t/w/m/g_test.go:20 +0x8\n", nil},
		{"the alarm alone", head + alarm, nil},
		{"a panic, no timeout", "panic: boom\n\ngoroutine 9 [running]:\nexample.com/g.TestLoop(0x1)\n\t/w/m/g_test.go:20 +0x8\n", nil},
	} {
		if got := Spinning(tc.output); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: got %q, want %q", tc.name, got, tc.want)
		}
	}
}

func TestCrashedTests(t *testing.T) {
	for _, tc := range []struct {
		name, output string
		want         []string
	}{
		{"parallel panic", readTestdata(t, "parallel-panic.out"), []string{"TestB"}},
		{"goroutine of a subtest", readTestdata(t, "goroutine-panic.out"), []string{"TestD"}},
		{"test timeout", "panic: test timed out after 1s\n\trunning tests:\n\t\tTestHang (1s)\n\t\tTestSlow/sub (1s)\n\ngoroutine 1 [running]:\n", []string{"TestHang", "TestSlow"}},
		{"no crash", "--- FAIL: TestX (0.00s)\n", nil},
		{"no test on the stack", "panic: x\n\ngoroutine 1 [running]:\nmain.main()\n\t/x.go:1\n", nil},
	} {
		if got := CrashedTests(tc.output); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: got %q, want %q", tc.name, got, tc.want)
		}
	}
}

// TestParseVerboseParallelPanic: when a parallel test panics, only it
// failed; the tests it interrupted are unfinished, to be run again.
func TestParseVerboseParallelPanic(t *testing.T) {
	data, err := os.ReadFile("testdata/parallel-panic.out")
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, s := range ParseVerbose(string(data), true) {
		got[s.Test] = s.Action
	}
	want := map[string]string{"TestA": "", "TestB": "fail", "TestC": ""}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
}

// TestParseVerboseHuge: a test that printed far more than the cap keeps its
// result and a bounded output that says what was cut.
func TestParseVerboseHuge(t *testing.T) {
	var b strings.Builder
	b.WriteString("=== RUN   TestBig\n")
	for b.Len() < 4*maxTestOutput {
		b.WriteString("    big_test.go:9: a line of output\n")
	}
	b.WriteString("    big_test.go:12: the failure\n--- FAIL: TestBig (0.50s)\n=== RUN   TestOK\n--- PASS: TestOK (0.00s)\n")
	got := ParseVerbose(b.String(), false)
	if len(got) != 2 || got[0].Action != "fail" || got[1].Action != "pass" {
		t.Fatalf("got %+v", got)
	}
	out := got[0].Output
	if len(out) > maxTestOutput+100 || !strings.Contains(out, CutMarker) || !strings.Contains(out, "the failure") {
		t.Errorf("output of %d bytes, cut %v", len(out), strings.Contains(out, CutMarker))
	}
}

func BenchmarkParseVerbose(b *testing.B) {
	var sb strings.Builder
	for i := 0; sb.Len() < 16<<20; i++ {
		fmt.Fprintf(&sb, "=== RUN   Test%d\n    x_test.go:3: some output line of a test\n--- PASS: Test%d (0.00s)\n", i%50, i%50)
	}
	out := sb.String()
	b.SetBytes(int64(len(out)))
	for b.Loop() {
		ParseVerbose(out, true)
	}
}

func FuzzParseVerbose(f *testing.F) {
	for _, name := range []string{"parallel-panic.out", "goroutine-panic.out", "spin-timeout.out", "wait-timeout.out"} {
		data, err := os.ReadFile("testdata/" + name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(string(data), true)
	}
	f.Add("=== RUN   TestA\n--- PASS: TestA (0.01s)\n=== RUN   TestB\n=== PAUSE TestB\n=== CONT  TestB\npanic: x\n", false)
	f.Add("panic: test timed out after 1s\n\ngoroutine 7 [running]:\n"+strings.Repeat("m.f()\n\t/m/f.go:3 +0x1\n", RunawayDepth)+"m.TestF(0x1)\n\t/m/f_test.go:9 +0x1\n", true)
	f.Fuzz(func(t *testing.T, out string, crashed bool) {
		seen := map[string]bool{}
		for _, s := range ParseVerbose(out, crashed) {
			if seen[s.Test] {
				t.Fatalf("test %q twice", s.Test)
			}
			seen[s.Test] = true
			switch s.Action {
			case "", "pass", "fail", "skip":
			default:
				t.Fatalf("action %q", s.Action)
			}
			if len(s.Output) > maxTestOutput+100 {
				t.Fatalf("output of %d bytes", len(s.Output))
			}
		}
		CrashedTests(out)
		for _, name := range Recursing(out) {
			if name == "" || !strings.Contains(out, name) {
				t.Fatalf("Recursing named %q, which the output does not", name)
			}
		}
		for _, name := range Spinning(out) {
			if name == "" || !strings.Contains(out, name) {
				t.Fatalf("Spinning named %q, which the output does not", name)
			}
		}
	})
}

func FuzzSummarizer(f *testing.F) {
	f.Add([]byte(`{"Action":"run","Package":"m","Test":"TestA"}` + "\n" + `{"Action":"output","Package":"m","Test":"TestA/x","Output":"hi\n"}` + "\n" + `{"Action":"fail","Package":"m","Test":"TestA","Elapsed":0.5}` + "\nnot json\n"))
	f.Add([]byte(`{"ImportPath":"m [m.test]","Action":"build-output","Output":"x.go:1: bad\n"}` + "\n" + `{"Action":"fail","Package":"m","FailedBuild":"m [m.test]"}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var s Summarizer
		w := &lineWriter{fn: s.AddLine}
		w.Write(data)
		w.Close()
		for _, p := range s.Summaries() {
			if p.Package == "" {
				t.Fatal("a summary without a package")
			}
			for _, tr := range p.Tests {
				if strings.Contains(tr.Test, "/") {
					t.Fatalf("subtest %q summarized as a top-level test", tr.Test)
				}
			}
		}
	})
}

// TestParseVerboseTest2JSON: under -test.v=test2json, a result printed
// after output without a newline is found, and "=== NAME" without a name
// makes no test.
func TestParseVerboseTest2JSON(t *testing.T) {
	out := "\x16=== RUN   TestNoNL\nno newline\x16--- PASS: TestNoNL (0.00s)\n\x16=== NAME  \n\x16=== RUN   TestNext\n\x16=== RUN   TestNext/x\nagain\x16--- FAIL: TestNext/x (0.00s)\n\x16=== NAME  TestNext\n\x16--- FAIL: TestNext (0.01s)\n\x16=== NAME  \n\x16FAIL\n"
	got := ParseVerbose(out, false)
	if len(got) != 2 || got[0].Test != "TestNoNL" || got[0].Action != "pass" || got[1].Test != "TestNext" || got[1].Action != "fail" {
		t.Fatalf("got %+v", got)
	}
	if !strings.Contains(got[0].Output, "no newline") || strings.Contains(got[0].Output+got[1].Output, "\x16") {
		t.Errorf("outputs %q %q", got[0].Output, got[1].Output)
	}
}

// TestParseVerboseSubtests: under -test.v=test2json, the subtests' result
// lines (framed, not indented) count for their top-level test, as in
// Summarize; the order is the binary's.
func TestParseVerboseSubtests(t *testing.T) {
	const m = "\x16"
	out := m + "=== RUN   TestTable\n" +
		m + "=== RUN   TestTable/a\n" +
		m + "--- PASS: TestTable/a (0.00s)\n" +
		m + "=== RUN   TestTable/b\n" +
		"    x_test.go:9: wrong\n" +
		m + "--- FAIL: TestTable/b (0.00s)\n" +
		m + "=== RUN   TestTable/c\n" +
		m + "=== RUN   TestTable/c/d\n" +
		"    x_test.go:9: wrong\n" +
		m + "--- FAIL: TestTable/c/d (0.00s)\n" +
		m + "--- FAIL: TestTable/c (0.00s)\n" +
		m + "--- FAIL: TestTable (0.00s)\n" +
		m + "=== RUN   TestOK\n" +
		m + "--- PASS: TestOK (0.00s)\n" +
		m + "FAIL\n"
	got := ParseVerbose(out, false)
	if len(got) != 2 {
		t.Fatalf("got %+v", got)
	}
	table, ok := got[0], got[1]
	if table.Action != "fail" || !reflect.DeepEqual(table.FailedSubtests, []string{"TestTable/b", "TestTable/c/d", "TestTable/c"}) || table.PassedSubtests != 1 {
		t.Errorf("TestTable: action %q, failed subtests %q, %d passed; want fail, [TestTable/b TestTable/c/d TestTable/c], 1", table.Action, table.FailedSubtests, table.PassedSubtests)
	}
	if ok.Action != "pass" || len(ok.FailedSubtests) != 0 || ok.PassedSubtests != 0 {
		t.Errorf("TestOK: %+v", ok)
	}
}
