package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"github.com/nopol-go/nopol/internal/txtartest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nopol-go/nopol"
	"github.com/nopol-go/nopol/report"
	"github.com/rogpeppe/go-internal/txtar"
)

func TestFixUsage(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"fix", "-kind", "loop"}, ExitBadInput, `-kind "loop": want cond, guard or all`},
		{[]string{"fix", "-run", "("}, ExitBadInput, "-run: error parsing regexp"},
		{[]string{"fix", "-q", "-v"}, ExitBadInput, "-q and -v contradict"},
		{[]string{"fix", "-C", "nowhere"}, ExitBadInput, "-C nowhere: not a directory"},
		{[]string{"fix", "-timeout", "0s"}, ExitBadInput, "want a positive duration"},
		{[]string{"fix", "-sites", "0"}, ExitBadInput, "-sites 0: want a positive number"},
		{[]string{"fix", "-effort", "0"}, ExitBadInput, "-effort 0: want a positive factor, or -1 for no bound"},
		{[]string{"fix", "-bogus"}, ExitBadInput, "flag provided but not defined"},
		{[]string{"fix", "-h"}, ExitOK, "Usage: nopol fix"}, // help asked for
		{[]string{"fix", "-synth", "nope", "-q"}, ExitBadInput, `nopol: synthesis backend "nope" is not available`},
	}
	for _, tc := range tests {
		var stdout, stderr bytes.Buffer
		code := Main(context.Background(), &Env{Stdout: &stdout, Stderr: &stderr, Dir: dir}, tc.args)
		if code != tc.code {
			t.Errorf("%q: exit %d, want %d\n%s", tc.args, code, tc.code, stderr.String())
		}
		if !strings.Contains(stderr.String(), tc.msg) {
			t.Errorf("%q: stderr lacks %q:\n%s", tc.args, tc.msg, stderr.String())
		}
		if stdout.Len() != 0 {
			t.Errorf("%q: stdout %q", tc.args, stdout.String())
		}
	}
}

func TestFixOptions(t *testing.T) {
	dir := t.TempDir()
	var stderr bytes.Buffer
	f := fixFlags{dir: ".", run: "^TestA$", kind: "cond", timeout: time.Minute, sites: 20, effort: 2, quiet: true}
	opts, err := f.options(&Env{Dir: dir, Stderr: &stderr}, []string{"./a"})
	if err != nil {
		t.Fatal(err)
	}
	if opts.Dir != dir || opts.Effort != 2 || opts.Kinds != nopol.KindCond || opts.Run.String() != "^TestA$" || opts.Logf != nil || opts.Patterns[0] != "./a" {
		t.Errorf("options %+v", opts)
	}
	if !opts.NoMutants || !opts.NoPurify {
		t.Errorf("-mutants=false -purify=false: NoMutants %v NoPurify %v", opts.NoMutants, opts.NoPurify)
	}
	f.quiet, f.mutants, f.purify = false, true, true
	opts, _ = f.options(&Env{Dir: dir, Stderr: &stderr}, nil)
	if opts.Logf == nil {
		t.Fatal("no progress without -q")
	}
	opts.Logf("site %d/%d", 1, 2)
	if stderr.String() != "nopol: site 1/2\n" {
		t.Errorf("progress on stderr: %q", stderr.String())
	}
	if opts.NoMutants || opts.NoPurify || opts.Speculative {
		t.Errorf("NoMutants %v NoPurify %v Speculative %v by default", opts.NoMutants, opts.NoPurify, opts.Speculative)
	}
	f.speculative = true
	if opts, _ = f.options(&Env{Dir: dir, Stderr: &stderr}, nil); !opts.Speculative {
		t.Error("-speculative: Speculative false")
	}
}

func TestWriteJSONAndApply(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "a.go")
	if err := os.WriteFile(file, []byte("package a\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	res := &nopol.Result{Module: "example.com/a", Dir: dir, Patched: true, File: "a.go", Source: []byte("package b\n"),
		Phases: []nopol.Phase{{Name: "load", Duration: 1500 * time.Microsecond}}, Total: 2 * time.Second,
		Condition:  "a >= 1 && b < 2",
		Candidates: []nopol.CandidateReport{{Condition: "a >= 1 && b < 2", Passed: true, Duration: time.Second}}}
	var buf bytes.Buffer
	if err := report.Write(&buf, report.JSON, res, report.Options{}); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(buf.String(), `"a >= 1 && b < 2"`); n != 2 {
		t.Errorf("conditions escaped or missing (%d):\n%s", n, buf.String())
	}
	if !strings.Contains(buf.String(), `"ms": 1000`) {
		t.Errorf("no candidate time:\n%s", buf.String())
	}
	var got struct {
		Module  string
		Patched bool
		Phases  []struct {
			Name string
			MS   float64
		}
		TotalMS float64 `json:"total_ms"`
	}
	if err := json.Unmarshal(buf.Bytes(), &got); err != nil {
		t.Fatalf("%v\n%s", err, buf.String())
	}
	if got.Module != "example.com/a" || !got.Patched || got.Phases[0].MS != 1.5 || got.TotalMS != 2000 {
		t.Errorf("json %+v\n%s", got, buf.String())
	}
	if err := applyPatch(res); err != nil {
		t.Fatal(err)
	}
	src, _ := os.ReadFile(file)
	st, _ := os.Stat(file)
	if string(src) != "package b\n" || st.Mode().Perm() != 0o600 {
		t.Errorf("applied %q mode %v", src, st.Mode())
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("leftover files: %v", entries)
	}
}

// TestWriteJSONError: after an error, -json still prints one object, with
// the error, the schema version and empty lists, never null.
func TestWriteJSONError(t *testing.T) {
	for _, tc := range []struct {
		name string
		res  *nopol.Result
		err  error
		code int
		kind string
	}{
		{"no result", nil, &nopol.InputError{Msg: "testing m: all 3 tests pass"}, ExitBadInput, "input"},
		{"environment", &nopol.Result{Module: "m"}, &nopol.EnvError{Msg: "making a temp dir"}, ExitInternal, "environment"},
		{"interrupted", &nopol.Result{}, fmt.Errorf("interrupted: %w", context.Canceled), ExitInternal, "interrupted"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := report.Write(&buf, report.JSON, tc.res, report.Options{Error: fixError(tc.code, tc.err)}); err != nil {
				t.Fatal(err)
			}
			if strings.Contains(buf.String(), "null") {
				t.Errorf("null in the output:\n%s", buf.String())
			}
			var got struct {
				SchemaVersion int `json:"schema_version"`
				Tests         []any
				Error         report.Error
			}
			if err := json.Unmarshal(buf.Bytes(), &got); err != nil {
				t.Fatalf("%v\n%s", err, buf.String())
			}
			if got.SchemaVersion != report.SchemaVersion || got.Tests == nil || got.Error.ExitCode != tc.code || got.Error.Kind != tc.kind || got.Error.Message != tc.err.Error() {
				t.Errorf("got %+v\n%s", got, buf.String())
			}
		})
	}
}

// TestFixPurify is the acceptance test of test purification: the three
// Commons Lang renderings of the B-Refactoring study have one impure
// failing test each, which fails under both forced values as a whole.
// nopol fix repairs them (purification is on by default), splitting the
// test into fragments; with -purify=false it finds no patch (the
// mutation fallback and the per-evaluation tier off, as they can repair
// some of them another way).
func TestFixPurify(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the examples' tests")
	}
	for _, name := range []string{"factoriallog", "mid", "packagename"} {
		dir, err := filepath.Abs(filepath.Join("..", "..", "..", "..", "examples", name))
		if err != nil {
			t.Fatal(err)
		}
		want, err := os.ReadFile(filepath.Join(dir, "want.diff"))
		if err != nil {
			t.Fatal(err)
		}
		t.Run(name, func(t *testing.T) {
			res, stderr := fixPatch(t, dir)
			if res.Diff != string(want) {
				t.Errorf("patch:\n%s\nwant:\n%s", res.Diff, want)
			}
			if !res.Site.Purified || len(res.Site.Fragments) == 0 {
				t.Errorf("site purified=%v, fragments %+v; want the failing test split", res.Site.Purified, res.Site.Fragments)
			}
			if !strings.Contains(stderr, "split into fragments") {
				t.Errorf("the progress does not say the test was split:\n%s", stderr)
			}
			// The mutation fallback would find factoriallog's n < 0.
			fixNoPatch(t, dir, "split into fragments", "-purify=false", "-mutants=false", "-pereval=false")
		})
	}
}

// TestFixMutation is the acceptance test of the mutation fallback: the
// modules of testdata/mutation have a condition that must change value
// within one test (a flipped == in a loop), which no angelic value fits.
// nopol fix repairs them with a mutant of the original condition, the
// diff in the archive's want.diff; with -mutants=false it finds no patch.
func TestFixMutation(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs test binaries")
	}
	txtartest.EachArchive(t, "mutation", func(t *testing.T, file string, ar *txtar.Archive) {
		dir := t.TempDir()
		var want string
		for _, f := range ar.Files {
			switch {
			case f.Name == "want.diff":
				want = string(f.Data)
			case isModuleFile(f.Name):
				writeFile(t, filepath.Join(dir, f.Name), f.Data)
			}
		}
		res, stderr := fixPatch(t, dir)
		if res.Diff != want {
			t.Errorf("patch:\n%s\nwant:\n%s", res.Diff, want)
		}
		if res.Site.Method != "mutation" {
			t.Errorf("found by %q, want mutation", res.Site.Method)
		}
		for _, s := range res.Sites {
			if s.Method == "synthesis" && len(s.Needs) > 0 {
				t.Errorf("site %d is angelic (%v): synthesis had a chance", s.ID, s.Needs)
			}
		}
		for _, msg := range []string{"mutation: no angelic site; trying", "found by the mutation fallback"} {
			if !strings.Contains(stderr, msg) {
				t.Errorf("stderr lacks %q:\n%s", msg, stderr)
			}
		}
		// Without the mutants, the per-evaluation search forces the
		// condition's negation, an observed predicate, at every
		// evaluation, and synthesis finds the same patch; without it
		// too, nothing does.
		var stdout, stderr2 bytes.Buffer
		if code := Main(context.Background(), &Env{Stdout: &stdout, Stderr: &stderr2, Dir: dir}, []string{"fix", "-json", "-mutants=false"}); code != ExitOK {
			t.Fatalf("-mutants=false: exit %d, want %d (a patch)\n%s", code, ExitOK, stderr2.String())
		}
		var alone nopol.Result
		if err := json.Unmarshal(stdout.Bytes(), &alone); err != nil {
			t.Fatal(err)
		}
		if alone.Diff != want || alone.Site.Method != "per-evaluation" {
			t.Errorf("-mutants=false: patch by %q:\n%s\nwant by per-evaluation:\n%s", alone.Site.Method, alone.Diff, want)
		}
		fixNoPatch(t, dir, "mutant", "-mutants=false", "-pereval=false")
	})
}

// fixPatch runs nopol fix -json in dir, which must find a patch, and
// returns its result and progress.
func fixPatch(t *testing.T, dir string) (nopol.Result, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := Main(context.Background(), &Env{Stdout: &stdout, Stderr: &stderr, Dir: dir}, []string{"fix", "-json"})
	if code != ExitOK {
		t.Fatalf("exit %d, want %d (a patch)\n%s", code, ExitOK, stderr.String())
	}
	var res nopol.Result
	if err := json.Unmarshal(stdout.Bytes(), &res); err != nil {
		t.Fatalf("%v\n%s", err, stdout.String())
	}
	return res, stderr.String()
}

// fixNoPatch runs nopol fix with flags in dir, which must find no patch,
// print nothing on stdout, and never say absent on stderr.
func fixNoPatch(t *testing.T, dir, absent string, flags ...string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := Main(context.Background(), &Env{Stdout: &stdout, Stderr: &stderr, Dir: dir}, append([]string{"fix"}, flags...))
	if code != ExitNoPatch {
		t.Errorf("%v: exit %d, want %d (no patch)\n%s", flags, code, ExitNoPatch, stderr.String())
	}
	if stdout.Len() != 0 || strings.Contains(stderr.String(), absent) {
		t.Errorf("%v: stdout %q, stderr:\n%s", flags, stdout.String(), stderr.String())
	}
}
