package benchmarks

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func loadMaxBug(t *testing.T) *Bug {
	t.Helper()
	b, err := LoadBug(filepath.Join("testdata", "maxbug.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := b.Check(); err != nil {
		t.Fatal(err)
	}
	return b
}

// inProcess runs the mutation baseline in the test process when the
// harness starts 'nopol bench mutrepair', and real go commands otherwise.
func inProcess(t *testing.T) *Runner {
	real := &Runner{}
	return &Runner{Exec: func(ctx context.Context, dir string, args []string) (Output, error) {
		if args[0] != "nopol-under-test" {
			return real.Run(ctx, dir, args...)
		}
		if len(args) < 7 || args[1] != "bench" || args[2] != "mutrepair" || args[4] != "-C" {
			t.Fatalf("unexpected tool command %q", args)
		}
		res, err := MutationRepair(ctx, MutationOptions{Dir: args[5], Package: args[6], MaxSites: 5, Runner: real})
		if err != nil {
			return Output{ExitCode: 2, Stderr: []byte(err.Error())}, nil
		}
		data, _ := json.Marshal(res)
		return Output{Stdout: data}, nil
	}}
}

func TestVerifyExample(t *testing.T) {
	b := loadMaxBug(t)
	vs := Verify(context.Background(), &Runner{}, []*Bug{b}, 1, nil)
	if !vs[0].OK {
		t.Fatalf("verify: %s", vs[0].Problem)
	}
	if len(vs[0].FlakyUnderFix) > 0 {
		t.Errorf("flaky under the fix: %v, want none", vs[0].FlakyUnderFix)
	}
	// TestAlt fails on the buggy tree, passes one run of the fixed tree
	// and fails the second run in a process: a failing test flaky under
	// the fix, kept and reported.
	ar, err := os.ReadFile(b.Local)
	if err != nil {
		t.Fatal(err)
	}
	ar = append(ar, []byte("-- alt_test.go --\npackage maxbug\n\nimport \"testing\"\n\nvar runs int\n\nfunc TestAlt(t *testing.T) {\n\truns++\n\tif Max(1, 2) != 2 || runs == 2 {\n\t\tt.Fatal(\"buggy, or the second run\")\n\t}\n}\n")...)
	alt := *b
	alt.Local = filepath.Join(t.TempDir(), "alt.txtar")
	alt.FailingTests = []string{"TestAlt", "TestMax"}
	if err := os.WriteFile(alt.Local, ar, 0o644); err != nil {
		t.Fatal(err)
	}
	vs = Verify(context.Background(), &Runner{}, []*Bug{&alt}, 1, nil)
	if !vs[0].OK || strings.Join(vs[0].FlakyUnderFix, " ") != "TestAlt" {
		t.Errorf("verify of a bug with a failing test flaky under the fix: %+v", vs[0])
	}
	broken := *b
	broken.FailingTests = []string{"TestAbs"}
	vs = Verify(context.Background(), &Runner{}, []*Bug{&broken}, 1, nil)
	if vs[0].OK || !strings.Contains(vs[0].Problem, "TestMax") {
		t.Fatalf("verify of a wrong failing-test list: %+v", vs[0])
	}
}

func TestBenchMutationExample(t *testing.T) {
	b := loadMaxBug(t)
	r := inProcess(t)
	// The go test commands the harness runs, in order.
	var goTests [][]string
	inner := r.Exec
	r.Exec = func(ctx context.Context, dir string, args []string) (Output, error) {
		if len(args) > 1 && args[0] == "go" && args[1] == "test" {
			goTests = append(goTests, args)
		}
		return inner(ctx, dir, args)
	}
	var progress bytes.Buffer
	var done []*Result
	results := Bench(context.Background(), BenchOptions{
		Tool: ToolMutation, Nopol: "nopol-under-test", Jobs: 1, Runner: r, Progress: &progress,
		Done: func(r *Result) { done = append(done, r) },
	}, []*Bug{b})
	res := results[0]
	if res.Error != "" {
		t.Fatalf("error: %s", res.Error)
	}
	if !res.Patched || !res.Plausible || !res.Correct || res.Judgement != "identical" || res.Condition != "a > b" {
		t.Fatalf("result %+v, want a correct patch a > b", res)
	}
	// The package's test build comes first, untimed, then the timed
	// plain run of every test.
	if len(goTests) < 2 || !slices.Contains(goTests[0], "^$") || slices.Contains(goTests[1], "-run") {
		t.Errorf("go test commands %q: want the build (-run ^$) first, then a plain run", goTests)
	}
	if res.GoTestSeconds <= 0 {
		t.Errorf("go_test_s = %v, want the plain run's time", res.GoTestSeconds)
	}
	if res.Phases["localize"] <= 0 || len(done) != 1 || !strings.Contains(progress.String(), "correct (identical)") {
		t.Errorf("phases %v, done %d, progress %q", res.Phases, len(done), progress.String())
	}

	// Interrupted (Ctrl-C in nopol bench) during the second bug's repair:
	// only the first bug's result, in the return and through Done.
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	second := *b
	second.ID += "-2"
	r.Exec = func(ctx context.Context, dir string, args []string) (Output, error) {
		if len(done) == 2 && slices.Contains(args, "mutrepair") {
			cancel()
		}
		return inner(ctx, dir, args)
	}
	done = done[:1]
	results = Bench(ctx, BenchOptions{
		Tool: ToolMutation, Nopol: "nopol-under-test", Jobs: 1, Runner: r,
		Done: func(r *Result) { done = append(done, r) },
	}, []*Bug{b, &second})
	if len(results) != 1 || results[0].Bug != b.ID || len(done) != 2 {
		t.Errorf("interrupted at the second bug: results %v, done %d; want the first bug's only", results, len(done))
	}

	// Reports from the JSON lines.
	dir := t.TempDir()
	data, _ := json.Marshal(res)
	nopolRes := *res
	nopolRes.Tool, nopolRes.Correct, nopolRes.Plausible, nopolRes.Patched = ToolNopol, false, false, false
	data2, _ := json.Marshal(&nopolRes)
	os.WriteFile(filepath.Join(dir, "results-mutation.jsonl"), append(data, '\n'), 0o644)
	os.WriteFile(filepath.Join(dir, "results-nopol.jsonl"), append(data2, '\n'), 0o644)
	if err := WriteReports(dir); err != nil {
		t.Fatal(err)
	}
	md, _ := os.ReadFile(filepath.Join(dir, "results.md"))
	for _, want := range []string{"| mutation | 1 | 1 | 1 | 1 (1 + 0 + 0) | 0 |", "| nopol | 1 | 0 | 0 | 0 (0 + 0 + 0) | 0 |", "| maxbug | example | condition | `a > b` |"} {
		if !strings.Contains(string(md), want) {
			t.Errorf("results.md lacks %q:\n%s", want, md)
		}
	}
	svg, _ := os.ReadFile(filepath.Join(dir, "fixed-over-time.svg"))
	if !bytes.Contains(svg, []byte("mutation (1)")) || !bytes.Contains(svg, []byte("nopol (0)")) {
		t.Errorf("plot lacks a line per tool:\n%s", svg)
	}
	csv, _ := os.ReadFile(filepath.Join(dir, "results.csv"))
	if n := bytes.Count(csv, []byte("\n")); n != 3 {
		t.Errorf("results.csv has %d lines, want 3", n)
	}
}

func TestAgreeOnStates(t *testing.T) {
	b := loadMaxBug(t)
	for _, c := range []struct {
		cond string
		// tool is the tool's condition, cond when "".
		tool string
		want bool
	}{
		{"b < a", "", true},   // same values everywhere
		{"a >= b", "", true},  // differs only when a == b, which no test reaches
		{"a != b", "", false}, // differs on Max(1, 2)
		// The tool's condition is not at the bug's if (its patch is
		// elsewhere): no agreement, whatever the values there.
		{"b < a", "a > b && a != 0", false},
	} {
		dir := maxBugWith(t, b, c.cond)
		if got := agreeOnStates(context.Background(), &Runner{}, dir, b, cmp.Or(c.tool, c.cond)); got != c.want {
			t.Errorf("agreeOnStates(%s) = %v, want %v", c.cond, got, c.want)
		}
	}
}

// maxBugWith materialises the maxbug tree with cond in place of Max's
// condition, in a new temporary directory.
func maxBugWith(t *testing.T, b *Bug, cond string) string {
	t.Helper()
	dir := t.TempDir()
	if err := Materialise(context.Background(), &Runner{}, b, dir, false); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, "max.go")
	src, _ := os.ReadFile(p)
	os.WriteFile(p, bytes.Replace(src, []byte("a > b"), []byte(cond), 1), 0o644)
	return dir
}

func TestDecide(t *testing.T) {
	b := loadMaxBug(t)
	audits := []Audit{{Bug: b.ID, Condition: "a >= b", ByHand: "correct", How: "read", Why: "Max returns a or b, equal"}}
	for _, c := range []struct {
		cond      string
		audits    []Audit
		correct   bool
		judgement string
	}{
		{"a > b", nil, true, "identical"},
		{"a-b > 0", nil, true, "equivalent"},
		{"!(a <= b) && a == a", nil, true, "equivalent"},
		{"a >= b", nil, false, "states"}, // agrees on the suite's states only
		{"a >= b", audits, true, "audited"},
		{"a != b", audits, false, ""},
	} {
		dir := maxBugWith(t, b, c.cond)
		res := &Result{Condition: c.cond, Plausible: true}
		decide(context.Background(), &Runner{}, dir, b, res, c.audits, func() bool {
			return agreeOnStates(context.Background(), &Runner{}, dir, b, c.cond)
		})
		if res.Correct != c.correct || res.Judgement != c.judgement {
			t.Errorf("decide(%s) = %v (%s), want %v (%s)", c.cond, res.Correct, res.Judgement, c.correct, c.judgement)
		}
	}
}

func TestSummarizeTimes(t *testing.T) {
	var results []*Result
	for i := 1; i <= 20; i++ {
		results = append(results, &Result{Bug: fmt.Sprintf("b%02d", i), Tool: "mutation", RepairSeconds: float64(i)})
		results = append(results, &Result{Bug: fmt.Sprintf("b%02d", i), Tool: "nopol", RepairSeconds: float64(2 * i), Plausible: i <= 4, Correct: i <= 3})
	}
	sums := Summarize(results)
	if len(sums) != 2 || sums[0].Tool != "mutation" || sums[1].Tool != "nopol" {
		t.Fatalf("summaries = %+v", sums)
	}
	if m, p := sums[0].BugMedianSeconds, sums[0].BugP95Seconds; m != 10 || p != 19 {
		t.Errorf("mutation median, p95 = %v, %v; want 10, 19", m, p)
	}
	if m := sums[1].MedianSeconds; m != 6 {
		t.Errorf("nopol median of plausible = %v, want 6", m)
	}
	var b strings.Builder
	WriteMarkdown(&b, results)
	if want := "nopol / mutation: correct 3 / 0, plausible 4 / 0, median time per bug 2.00x, p95 2.00x."; !strings.Contains(b.String(), want) {
		t.Errorf("markdown lacks %q:\n%s", want, b.String())
	}
}

func TestSummarizeGoTestRatios(t *testing.T) {
	results := []*Result{
		// Patched: ratios 2, 4, 9 (median 4).
		{Bug: "a", Tool: "nopol", Patched: true, RepairSeconds: 4, GoTestSeconds: 2},
		{Bug: "b", Tool: "nopol", Patched: true, RepairSeconds: 8, GoTestSeconds: 2},
		{Bug: "c", Tool: "nopol", Patched: true, RepairSeconds: 18, GoTestSeconds: 2},
		// Unpatched: ratios 10 and 30 (median 20); one unmeasured, one a
		// harness error: neither counts.
		{Bug: "d", Tool: "nopol", RepairSeconds: 10, GoTestSeconds: 1},
		{Bug: "e", Tool: "nopol", RepairSeconds: 60, GoTestSeconds: 2},
		{Bug: "f", Tool: "nopol", RepairSeconds: 500},
		{Bug: "g", Tool: "nopol", RepairSeconds: 500, GoTestSeconds: 1, Error: "materialising: no network"},
	}
	s := Summarize(results)[0]
	if s.PatchedRatio != 4 || s.UnpatchedRatio != 20 {
		t.Errorf("ratios patched, unpatched = %v, %v; want 4, 20", s.PatchedRatio, s.UnpatchedRatio)
	}
	if q := results[5].GoTestRatio(); q != 0 {
		t.Errorf("ratio without a go test time = %v, want 0", q)
	}
	var b strings.Builder
	WriteMarkdown(&b, results)
	if want := "| 4.0× / 20.0× |"; !strings.Contains(b.String(), want) {
		t.Errorf("markdown lacks %q:\n%s", want, b.String())
	}
}

func TestFlakyUnderFix(t *testing.T) {
	b := loadMaxBug(t)
	// TestAlt fails the first of its runs in a process and passes the
	// others: flaky on every tree, and its last run passes.
	ar, err := os.ReadFile(b.Local)
	if err != nil {
		t.Fatal(err)
	}
	ar = append(ar, []byte("-- alt_test.go --\npackage maxbug\n\nimport \"testing\"\n\nvar runs int\n\nfunc TestAlt(t *testing.T) {\n\truns++\n\tif runs == 1 {\n\t\tt.Fatal(\"first run\")\n\t}\n}\n")...)
	local := filepath.Join(t.TempDir(), "alt.txtar")
	if err := os.WriteFile(local, ar, 0o644); err != nil {
		t.Fatal(err)
	}
	alt := *b
	alt.Local = local
	dir := t.TempDir()
	if err := Materialise(context.Background(), &Runner{}, &alt, dir, true); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		failed []string
		want   string
	}{
		{[]string{"TestAlt"}, "TestAlt"},
		// TestMax fails on the buggy tree and never on the fixed one.
		{[]string{"TestMax"}, ""},
		{[]string{"TestAlt", "TestMax"}, ""},
	} {
		got := flakyUnderFix(context.Background(), &Runner{}, &alt, dir, &TestRun{Failed: c.failed})
		if strings.Join(got, " ") != c.want {
			t.Errorf("flakyUnderFix(%v) = %v, want %q", c.failed, got, c.want)
		}
	}
}

func TestWritePrecision(t *testing.T) {
	results := []*Result{
		{Bug: "a", Tool: "nopol", Kind: "real", Fault: "condition", Plausible: true, Correct: true, Confidence: "high", Tier: "first"},
		{Bug: "b", Tool: "nopol", Kind: "real", Fault: "condition", Plausible: true, Confidence: "high", Tier: "deeper"},
		{Bug: "c", Tool: "nopol", Kind: "seeded", Fault: "condition", Plausible: true, Correct: true, Confidence: "low"},
		{Bug: "d", Tool: "nopol", Kind: "seeded", Fault: "condition"}, // no patch: not counted
		{Bug: "a", Tool: "mutation", Kind: "real", Fault: "condition", Plausible: true, Correct: true},
	}
	var b bytes.Buffer
	writePrecision(&b, results)
	for _, want := range []string{
		"| mutation | confidence none | 1 | 1 | 100.0% |",
		"| nopol | confidence high | 2 | 1 | 50.0% |",
		"| nopol | confidence low | 1 | 1 | 100.0% |",
		"| nopol | kind real condition | 2 | 1 | 50.0% |",
		"| nopol | kind seeded | 1 | 1 | 100.0% |",
		"| nopol | tier deeper | 1 | 0 | 0.0% |",
		"| nopol | tier first | 1 | 1 | 100.0% |",
	} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("precision table lacks %q:\n%s", want, b.String())
		}
	}
	if strings.Contains(b.String(), "mutation | tier") {
		t.Errorf("a tier counted for a tool that reports none:\n%s", b.String())
	}
	if strings.Contains(b.String(), "| nopol | kind seeded | 2 |") {
		t.Errorf("a bug without a patch counted:\n%s", b.String())
	}
}

func TestWriteWithheld(t *testing.T) {
	results := []*Result{
		{Bug: "a", Tool: "nopol", Withheld: &WithheldJudged{Condition: "x > 1", Plausible: true, Correct: true}},
		{Bug: "b", Tool: "nopol", Withheld: &WithheldJudged{Condition: "y == 2", Plausible: true}},
		{Bug: "c", Tool: "nopol", Plausible: true, Patched: true, Correct: true, Condition: "z"},
	}
	var b bytes.Buffer
	writeWithheld(&b, results)
	if want := "nopol withheld 2 speculative patches on bugs it left unpatched; judged as if printed, 1 would be correct."; !strings.Contains(b.String(), want) {
		t.Errorf("got %q, want %q", b.String(), want)
	}
	for r, want := range map[*Result]string{
		results[0]: "— (withheld `x > 1`, correct)",
		results[1]: "— (withheld `y == 2`, plausible)",
	} {
		if got := cell(r); got != want {
			t.Errorf("cell(%s) = %q, want %q", r.Bug, got, want)
		}
	}
}
