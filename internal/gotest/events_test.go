package gotest

import (
	"context"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"
)

func TestSummarize(t *testing.T) {
	stream := `{"Action":"start","Package":"m/a"}
{"Action":"run","Package":"m/a","Test":"TestB"}
{"Action":"output","Package":"m/a","Test":"TestB","Output":"=== RUN   TestB\n"}
{"Action":"run","Package":"m/a","Test":"TestB/x"}
{"Action":"output","Package":"m/a","Test":"TestB/x","Output":"    b_test.go:9: bad\n"}
{"Action":"fail","Package":"m/a","Test":"TestB/x","Elapsed":0}
{"Action":"fail","Package":"m/a","Test":"TestB","Elapsed":0.5}
{"Action":"run","Package":"m/a","Test":"TestA"}
{"Action":"pass","Package":"m/a","Test":"TestA","Elapsed":0}
{"Action":"run","Package":"m/a","Test":"TestS"}
{"Action":"skip","Package":"m/a","Test":"TestS","Elapsed":0}
{"Action":"fail","Package":"m/a","Elapsed":1}
{"ImportPath":"m/b [m/b.test]","Action":"build-output","Output":"b/b.go:3:1: syntax error\n"}
{"ImportPath":"m/b [m/b.test]","Action":"build-fail"}
{"Action":"start","Package":"m/b"}
{"Action":"output","Package":"m/b","Output":"FAIL\tm/b [build failed]\n"}
{"Action":"fail","Package":"m/b","Elapsed":0,"FailedBuild":"m/b [m/b.test]"}
not json
`
	events, err := ParseEvents([]byte(stream))
	if err != nil {
		t.Fatal(err)
	}
	got := Summarize(events)
	if len(got) != 2 {
		t.Fatalf("got %d packages", len(got))
	}
	a, b := got[0], got[1]
	var names, actions []string
	for _, tr := range a.Tests {
		names = append(names, tr.Test)
		actions = append(actions, tr.Action)
	}
	if !reflect.DeepEqual(names, []string{"TestB", "TestA", "TestS"}) || !reflect.DeepEqual(actions, []string{"fail", "pass", "skip"}) {
		t.Errorf("tests = %v %v", names, actions)
	}
	if a.Tests[0].Elapsed != 500*time.Millisecond || a.Tests[0].Output != "=== RUN   TestB\n    b_test.go:9: bad\n" {
		t.Errorf("TestB = %+v", a.Tests[0])
	}
	if a.Action != "fail" || a.BuildFailed {
		t.Errorf("m/a = %+v", a)
	}
	if !b.BuildFailed || b.Output == "" || b.Output[:4] != "b/b." {
		t.Errorf("m/b = %+v", b)
	}
}

func TestParseVerbose(t *testing.T) {
	out := `=== RUN   TestA
--- PASS: TestA (0.01s)
=== RUN   TestB
=== RUN   TestB/sub
    b_test.go:3: oops
--- FAIL: TestB (0.00s)
    --- FAIL: TestB/sub (0.00s)
=== RUN   TestP
=== PAUSE TestP
=== RUN   TestC
=== CONT  TestP
=== NAME  TestC
panic: boom
`
	got := ParseVerbose(out, true)
	// TestC was running when the panic was printed; the paused TestP
	// did not fail.
	want := map[string]string{"TestA": "pass", "TestB": "fail", "TestC": "fail", "TestP": ""}
	if len(got) != 4 {
		t.Fatalf("got %+v", got)
	}
	for _, s := range got {
		if want[s.Test] != s.Action {
			t.Errorf("%s: %q, want %q", s.Test, s.Action, want[s.Test])
		}
	}
	if got[0].Elapsed != 10*time.Millisecond {
		t.Errorf("elapsed = %v", got[0].Elapsed)
	}
	if got := ParseVerbose(out, false); got[3].Action != "" || got[3].Test != "TestC" {
		t.Errorf("not crashed: %s = %q", got[3].Test, got[3].Action)
	}
	if !strings.Contains(got[3].Output, "panic: boom") {
		t.Errorf("TestC output = %q", got[3].Output)
	}
}

func TestParseVerboseBinaryResult(t *testing.T) {
	// Under test2json framing the binary's last line, FAIL, is marked as
	// framing: it is not the last test's output.
	for _, out := range []string{
		"\x16=== RUN   TestA\n    a_test.go:3: oops\n\x16--- FAIL: TestA (0.00s)\n\x16FAIL\n",
		"\x16=== RUN   TestA\n    a_test.go:3: oops\n\x16--- FAIL: TestA (0.00s)\n",
	} {
		got := ParseVerbose(out, false)
		if len(got) != 1 || got[0].Action != "fail" {
			t.Fatalf("got %+v", got)
		}
		if want := "=== RUN   TestA\n    a_test.go:3: oops\n--- FAIL: TestA (0.00s)\n"; got[0].Output != want {
			t.Errorf("output %q, want %q", got[0].Output, want)
		}
	}
	// Unmarked, a FAIL line is the test's own output.
	got := ParseVerbose("\x16=== RUN   TestA\nFAIL\n\x16--- PASS: TestA (0.00s)\n", false)
	if len(got) != 1 || !strings.Contains(got[0].Output, "FAIL\n") {
		t.Errorf("got %+v", got)
	}
}

func TestTestJSONSeam(t *testing.T) {
	r := &Runner{Exec: func(ctx context.Context, inv *Invocation) (Outcome, error) {
		if inv.Path != "go" || inv.Args[0] != "test" || inv.Args[1] != "-json" {
			t.Errorf("invocation %s", inv)
		}
		// Failing tests: exit status 1 with events.
		return Outcome{ExitCode: 1, Stdout: []byte(`{"Action":"run","Package":"m","Test":"TestX"}` + "\n" + `{"Action":"fail","Package":"m","Test":"TestX","Elapsed":0.1}` + "\n")}, nil
	}}
	sums, _, err := r.TestJSON(context.Background(), "/m", time.Minute, nil, "./...")
	if err != nil || len(sums) != 1 || len(sums[0].Tests) != 1 || sums[0].Tests[0].Test != "TestX" || sums[0].Tests[0].Action != "fail" {
		t.Errorf("summaries %+v, err %v", sums, err)
	}
	r.Exec = func(ctx context.Context, inv *Invocation) (Outcome, error) {
		return Outcome{ExitCode: 2, Stderr: []byte("go: cannot find main module")}, nil
	}
	if _, _, err := r.TestJSON(context.Background(), "/m", time.Minute, nil, "./..."); err == nil || !strings.Contains(err.Error(), "cannot find main module") {
		t.Errorf("err = %v", err)
	}
}

func TestTestBinaryName(t *testing.T) {
	for path, want := range map[string]string{
		"example.com/m":        "m.test",
		"example.com/m/parser": "parser.test",
		"example.com/m/v2":     "m.test",
		"example.com/m/v1":     "v1.test",
		"m":                    "m.test",
		"gopkg.in/ini.v1":      "ini.v1.test",
	} {
		if got := TestBinaryName(path); got != want {
			t.Errorf("TestBinaryName(%q) = %q, want %q", path, got, want)
		}
	}
}

func TestList(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list")
	}
	pkgs, err := Default.List(context.Background(), ".", ".")
	if err != nil {
		t.Fatal(err)
	}
	if len(pkgs) != 1 || pkgs[0]["ImportPath"] != "github.com/nopol-go/nopol/internal/gotest" {
		t.Errorf("go list . = %v", pkgs)
	}
	// A failure's error carries the go command's stderr.
	_, err = Default.Go(context.Background(), ".", time.Minute, "list", "example.invalid/nope")
	if err == nil || !strings.Contains(err.Error(), "example.invalid/nope") {
		t.Errorf("err = %v", err)
	}
}

func TestSummarizeSubtests(t *testing.T) {
	event := func(action, test string) string {
		return `{"Action":"` + action + `","Package":"m","Test":"` + test + `"}` + "\n"
	}
	many := ""
	for i := range MaxListedSubtests + 1 {
		many += event("fail", "TestM/c"+strconv.Itoa(i))
	}
	tests := []struct {
		name   string
		stream string
		failed []string
		passed int
		cut    bool
	}{
		{"nested", event("pass", "TestT/a") + event("fail", "TestT/b/c") + event("fail", "TestT/b") + event("skip", "TestT/d") + event("fail", "TestT"), []string{"TestT/b/c", "TestT/b"}, 1, false},
		{"counted once", event("fail", "TestT/a") + event("fail", "TestT/a") + event("pass", "TestT/a") + event("fail", "TestT"), []string{"TestT/a"}, 1, false},
		{"no subtests", event("fail", "TestT"), nil, 0, false},
		{"too many", many + event("fail", "TestM"), nil, 0, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			events, err := ParseEvents([]byte(tt.stream))
			if err != nil {
				t.Fatal(err)
			}
			got := Summarize(events)[0].Tests[0]
			if tt.cut {
				if !got.SubtestsCut || len(got.FailedSubtests) != MaxListedSubtests {
					t.Errorf("cut = %v with %d listed, want cut with %d", got.SubtestsCut, len(got.FailedSubtests), MaxListedSubtests)
				}
				return
			}
			if !reflect.DeepEqual(got.FailedSubtests, tt.failed) || got.PassedSubtests != tt.passed || got.SubtestsCut {
				t.Errorf("failed %q, %d passed, cut %v; want %q, %d passed", got.FailedSubtests, got.PassedSubtests, got.SubtestsCut, tt.failed, tt.passed)
			}
		})
	}
}

// TestSummarizeElapsed: a test's time is what it reported or, for a test
// with parallel subtests, the time from its start (or the end of its
// pause) to its end event when longer: the subtests run after its
// function returns; a test whose crash killed the binary ran from its
// start to the package's last event.
func TestSummarizeElapsed(t *testing.T) {
	stream := `{"Time":"2026-12-02T10:00:00Z","Action":"start","Package":"m"}
{"Time":"2026-12-02T10:00:00.1Z","Action":"run","Package":"m","Test":"TestA"}
{"Time":"2026-12-02T10:00:00.25Z","Action":"pass","Package":"m","Test":"TestA","Elapsed":0.1}
{"Time":"2026-12-02T10:00:00.2Z","Action":"run","Package":"m","Test":"TestPar"}
{"Time":"2026-12-02T10:00:00.2Z","Action":"pause","Package":"m","Test":"TestPar"}
{"Time":"2026-12-02T10:00:00.2Z","Action":"run","Package":"m","Test":"TestSub"}
{"Time":"2026-12-02T10:00:00.2Z","Action":"run","Package":"m","Test":"TestSub/x"}
{"Time":"2026-12-02T10:00:00.2Z","Action":"pause","Package":"m","Test":"TestSub/x"}
{"Time":"2026-12-02T10:00:00.2Z","Action":"cont","Package":"m","Test":"TestSub/x"}
{"Time":"2026-12-02T10:00:01.2Z","Action":"fail","Package":"m","Test":"TestSub/x","Elapsed":1}
{"Time":"2026-12-02T10:00:01.7Z","Action":"fail","Package":"m","Test":"TestSub","Elapsed":0.03}
{"Time":"2026-12-02T10:00:01.7Z","Action":"cont","Package":"m","Test":"TestPar"}
{"Time":"2026-12-02T10:00:01.75Z","Action":"pass","Package":"m","Test":"TestPar","Elapsed":0.05}
{"Time":"2026-12-02T10:00:01.8Z","Action":"run","Package":"m","Test":"TestDeep"}
{"Time":"2026-12-02T10:00:03.6Z","Action":"output","Package":"m","Test":"TestDeep","Output":"runtime: goroutine stack exceeds 1000000000-byte limit\n"}
{"Time":"2026-12-02T10:00:03.8Z","Action":"output","Package":"m","Output":"FAIL\tm\t3.8s\n"}
{"Time":"2026-12-02T10:00:03.8Z","Action":"fail","Package":"m","Elapsed":3.8}
`
	events, err := ParseEvents([]byte(stream))
	if err != nil {
		t.Fatal(err)
	}
	got := Summarize(events)
	if len(got) != 1 || len(got[0].Tests) != 4 {
		t.Fatalf("got %+v", got)
	}
	for i, want := range []struct {
		action  string
		elapsed time.Duration
	}{
		{"pass", 100 * time.Millisecond}, // no parallel subtest: what it says
		{"pass", 50 * time.Millisecond},  // paused, not running
		{"fail", 1500 * time.Millisecond},
		{"", 2 * time.Second},
	} {
		if tr := got[0].Tests[i]; tr.Action != want.action || tr.Elapsed != want.elapsed {
			t.Errorf("%s: action %q elapsed %v, want %q %v", tr.Test, tr.Action, tr.Elapsed, want.action, want.elapsed)
		}
	}
}
