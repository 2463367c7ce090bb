package benchcmd

import (
	"bytes"
	"context"
	"encoding/json"
	"github.com/nopol-go/nopol/cmd/nopol/internal/cli"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nopol-go/nopol/benchmarks"
)

func TestBenchUsage(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"bench", "-tool", "angelix"}, cli.ExitBadInput, "Usage:"},
		{[]string{"bench", "-bogus"}, cli.ExitBadInput, "flag provided but not defined"},
		{[]string{"bench", "-bugs", dir, "nosuchbug"}, cli.ExitInternal, "no bug files (*.json) in " + dir},
		{[]string{"bench", "-bugs", exampleBugs(t), "nosuchbug"}, cli.ExitInternal, `unknown bug "nosuchbug"`},
		{[]string{"bench", "mutrepair", "-C", dir}, cli.ExitBadInput, "mutation repair of ."},
	} {
		var stdout, stderr bytes.Buffer
		code := cli.Main(context.Background(), &cli.Env{Stdout: &stdout, Stderr: &stderr, Dir: dir}, tc.args)
		if code != tc.code || !strings.Contains(stderr.String(), tc.msg) {
			t.Errorf("%q: exit %d, want %d with %q:\n%s", tc.args, code, tc.code, tc.msg, stderr.String())
		}
	}
}

// exampleBugs copies the example bug of benchmarks/testdata into a bug
// directory.
func exampleBugs(t *testing.T) string {
	dir := t.TempDir()
	for _, f := range []string{"maxbug.json", "maxbug.txtar"} {
		data, err := os.ReadFile(filepath.Join("..", "..", "..", "..", "benchmarks", "testdata", f))
		if err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(dir, f), data, 0o644)
	}
	return dir
}

func TestBenchVerifyAndMutRepair(t *testing.T) {
	bugs := exampleBugs(t)
	var stdout, stderr bytes.Buffer
	env := &cli.Env{Stdout: &stdout, Stderr: &stderr, Dir: t.TempDir()}
	if code := cli.Main(context.Background(), env, []string{"bench", "verify", "-bugs", bugs}); code != cli.ExitOK {
		t.Fatalf("verify: exit %d\n%s", code, stderr.String())
	}
	if !strings.Contains(stdout.String(), "maxbug\ttrue") || !strings.Contains(stderr.String(), "[1/1] maxbug: ok") {
		t.Errorf("verify output:\n%s\n%s", stdout.String(), stderr.String())
	}

	b, err := benchmarks.LoadBug(filepath.Join(bugs, "maxbug.json"))
	if err != nil {
		t.Fatal(err)
	}
	tree := t.TempDir()
	if err := benchmarks.Materialise(context.Background(), &benchmarks.Runner{}, b, tree, true); err != nil {
		t.Fatal(err)
	}
	stdout.Reset()
	stderr.Reset()
	if code := cli.Main(context.Background(), env, []string{"bench", "mutrepair", "-q", "-C", tree, "."}); code != cli.ExitOK {
		t.Fatalf("mutrepair: exit %d\n%s", code, stderr.String())
	}
	var res benchmarks.MutationResult
	if err := json.Unmarshal(stdout.Bytes(), &res); err != nil {
		t.Fatal(err)
	}
	if !res.Patched || res.Condition != "a > b" || !strings.Contains(res.Diff, "+\tif a > b {") || stderr.Len() != 0 {
		t.Errorf("mutrepair: %+v\nstderr: %s", res, stderr.String())
	}
}

// TestBenchRoot checks that nopol bench finds its dataset from any
// directory of the repository.
func TestBenchRoot(t *testing.T) {
	root := t.TempDir()
	sub := filepath.Join(root, "collect", "testdata")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "go.mod"), []byte("module github.com/nopol-go/nopol\n\ngo 1.22\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	other := t.TempDir()
	for _, tc := range []struct{ dir, want string }{{root, root}, {sub, root}, {other, other}} {
		if got := benchRoot(tc.dir); got != tc.want {
			t.Errorf("benchRoot(%s) = %s, want %s", tc.dir, got, tc.want)
		}
	}
}
