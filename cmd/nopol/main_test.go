package main

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

var update = flag.Bool("update", false, "rewrite the cmp files of the scripts")

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){"nopol": main})
}

// goEnv are the go command's settings the scripts inherit, so that they
// share the build cache and never reach the network.
func goEnv(t *testing.T) []string {
	out, err := exec.Command("go", "env", "GOCACHE", "GOMODCACHE", "GOPATH", "GOROOT").Output()
	if err != nil {
		t.Fatalf("go env: %v", err)
	}
	v := strings.Split(strings.TrimSpace(string(out)), "\n")
	return []string{"GOCACHE=" + v[0], "GOMODCACHE=" + v[1], "GOPATH=" + v[2], "GOROOT=" + v[3],
		"GOPROXY=off", "GOTOOLCHAIN=local", "GOFLAGS=-mod=mod", "CGO_ENABLED=0"}
}

// TestScripts runs the CLI scripts of testdata/script: the user's tree is
// compared before and after every run (treesum), and nopol's temp dirs
// must be gone (notemp).
func TestScripts(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs test binaries")
	}
	env := goEnv(t)
	// testscript removes its own root only once every script has run, so
	// `go test -run TestScripts/one` would leave an empty go-test-script
	// dir in TMPDIR; a root under t.TempDir is always removed (unless
	// -testwork asks to keep the work dirs).
	root := ""
	if f := flag.Lookup("testwork"); f == nil || f.Value.String() != "true" {
		root = t.TempDir()
	}
	testscript.Run(t, testscript.Params{
		Dir:                 "testdata/script",
		WorkdirRoot:         root,
		RequireExplicitExec: true,
		UpdateScripts:       *update,
		Setup: func(e *testscript.Env) error {
			e.Vars = append(e.Vars, env...)
			return nil
		},
		Condition: func(cond string) (bool, error) {
			// modcache:path@version: the module is in the module cache
			// (the scripts run with GOPROXY=off; .ci/run downloads the
			// ones they need).
			mod, ok := strings.CutPrefix(cond, "modcache:")
			if !ok {
				return false, fmt.Errorf("unknown condition %q", cond)
			}
			cache := ""
			for _, kv := range env {
				if v, ok := strings.CutPrefix(kv, "GOMODCACHE="); ok {
					cache = v
				}
			}
			_, err := os.Stat(filepath.Join(cache, "cache", "download", strings.Replace(mod, "@", "/@v/", 1)+".zip"))
			return err == nil, nil
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"treesum": cmdTreesum,
			"notemp":  cmdNotemp,
			"exits":   cmdExits,
			"cmpjson": cmdCmpJSON,
		},
	})
}

// cmdTreesum writes a checksum of every file under dir (names, modes and
// contents) to file: treesum dir file.
func cmdTreesum(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: treesum dir file")
	}
	sum, err := treeSum(ts.MkAbs(args[0]))
	ts.Check(err)
	ts.Check(os.WriteFile(ts.MkAbs(args[1]), []byte(sum+"\n"), 0o644))
}

func treeSum(dir string) (string, error) {
	var lines []string
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		line := fmt.Sprintf("%s %v", rel, info.Mode())
		if d.Type().IsRegular() {
			data, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			h := sha256.Sum256(data)
			line += " " + hex.EncodeToString(h[:])
		}
		lines = append(lines, line)
		return nil
	})
	sort.Strings(lines)
	h := sha256.Sum256([]byte(strings.Join(lines, "\n")))
	return hex.EncodeToString(h[:]), err
}

// cmdNotemp fails if $TMPDIR holds an entry named nopol-*.
func cmdNotemp(ts *testscript.TestScript, neg bool, args []string) {
	left, err := nopolTemps(ts.Getenv("TMPDIR"))
	ts.Check(err)
	if len(left) > 0 {
		ts.Fatalf("temp dirs left behind: %s", strings.Join(left, ", "))
	}
}

func nopolTemps(dir string) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var left []string
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), "nopol-") {
			left = append(left, e.Name())
		}
	}
	return left, nil
}

// cmdExits runs a command and checks its exit code: exits N prog args...
// Its stdout and stderr can be checked afterwards as after exec.
func cmdExits(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: exits code program [args...]")
	}
	want, err := strconv.Atoi(args[0])
	ts.Check(err)
	err = ts.Exec(args[1], args[2:]...)
	got := 0
	if ee, ok := err.(*exec.ExitError); ok {
		got = ee.ExitCode()
	} else if err != nil {
		ts.Fatalf("%s: %v", args[1], err)
	}
	if got != want {
		ts.Fatalf("%s exited with %d, want %d", args[1], got, want)
	}
}

// cmdCmpJSON compares two JSON files as values, leaving out the times
// (every "ms" and "*_ms" member, and "time_bounds", the wall-clock bounds
// that decided something), which differ from run to run: cmpjson a b.
func cmdCmpJSON(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: cmpjson a b")
	}
	var vals [2]any
	for i, name := range args {
		data, err := os.ReadFile(ts.MkAbs(name))
		ts.Check(err)
		ts.Check(json.Unmarshal(data, &vals[i]))
		vals[i] = withoutTimes(vals[i])
	}
	if !reflect.DeepEqual(vals[0], vals[1]) {
		a, _ := json.MarshalIndent(vals[0], "", "  ")
		b, _ := json.MarshalIndent(vals[1], "", "  ")
		ts.Fatalf("%s and %s differ beyond their times:\n%s\n---\n%s", args[0], args[1], a, b)
	}
}

func withoutTimes(v any) any {
	switch v := v.(type) {
	case map[string]any:
		for k := range v {
			if k == "ms" || strings.HasSuffix(k, "_ms") || k == "time_bounds" {
				delete(v, k)
			}
		}
		for k, x := range v {
			v[k] = withoutTimes(x)
		}
	case []any:
		for i, x := range v {
			v[i] = withoutTimes(x)
		}
	}
	return v
}
