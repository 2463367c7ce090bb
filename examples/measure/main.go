// Command measure times the repair of the bundled examples: for each, one
// plain `go test` run of the module (the median of three, after a warm-up
// run) and one nopol repair, with the time of each phase and the ratio of
// the two. It prints a Markdown table.
//
// With -compare-purify it repairs each example with and without test
// purification instead (the mutation fallback and the per-evaluation tier
// off on both sides), and prints the outcome, time and test runs of both.
//
//	go run ./examples/measure [-synth z3|enum] [-purify=false] [example ...]
//	go run ./examples/measure -compare-purify factoriallog mid packagename
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/nopol-go/nopol"
)

func main() {
	backend := flag.String("synth", "", "synthesis backend")
	dir := flag.String("dir", "examples", "directory of the examples")
	purify := flag.Bool("purify", true, "split impure failing tests into fragments")
	compare := flag.Bool("compare-purify", false, "repair with and without purification and compare")
	flag.Parse()
	names := flag.Args()
	if len(names) == 0 {
		entries, err := os.ReadDir(*dir)
		if err != nil {
			fmt.Fprintln(os.Stderr, "measure:", err)
			os.Exit(2)
		}
		for _, e := range entries {
			if _, err := os.Stat(filepath.Join(*dir, e.Name(), "go.mod")); err == nil {
				names = append(names, e.Name())
			}
		}
	}
	if *compare {
		if !comparePurify(*dir, *backend, names) {
			os.Exit(1)
		}
		return
	}
	phases := []string{"load", "baseline", "instrument", "coverage", "localize", "screen", "angelic", "snapshot", "synthesis", "validation", "verify"}
	fmt.Printf("| example | patch | go test | nopol | ratio | %s |\n", strings.Join(phases, " | "))
	fmt.Printf("|---|---|---|---|---|%s\n", strings.Repeat("---|", len(phases)))
	failed := false
	for _, name := range names {
		mod, _ := filepath.Abs(filepath.Join(*dir, name))
		plain, err := goTest(mod)
		if err != nil {
			fmt.Fprintf(os.Stderr, "measure: %s: %v\n", name, err)
			failed = true
			continue
		}
		start := time.Now()
		res, err := nopol.Repair(context.Background(), nopol.Options{Dir: mod, Backend: *backend, NoPurify: !*purify})
		total := time.Since(start)
		patch := "—"
		if err != nil {
			patch = "error: " + err.Error()
			failed = true
		} else if res.Patched {
			patch = "`" + res.Condition + "` (" + res.Style + ")"
		} else {
			patch = "none: " + res.Reason
			failed = true
		}
		var cols []string
		for _, p := range phases {
			d := time.Duration(0)
			if res != nil {
				for _, ph := range res.Phases {
					if ph.Name == p {
						d = ph.Duration
					}
				}
			}
			cols = append(cols, secs(d))
		}
		patch = strings.ReplaceAll(patch, "|", `\|`) // a Markdown table cell
		fmt.Printf("| %s | %s | %s | %s | %.1fx | %s |\n", name, patch, secs(plain), secs(total), total.Seconds()/plain.Seconds(), strings.Join(cols, " | "))
	}
	if failed {
		os.Exit(1)
	}
}

// comparePurify repairs each example with and without purification and
// prints a table of both; it reports whether every repair ran (a missing
// patch is an outcome, not a failure).
func comparePurify(dir, backend string, names []string) bool {
	fmt.Println("| example | with purification | fragments forced | time | runs | without | time | runs |")
	fmt.Println("|---|---|---|---|---|---|---|---|")
	ok := true
	for _, name := range names {
		mod, _ := filepath.Abs(filepath.Join(dir, name))
		row := []string{name}
		for _, purify := range []bool{true, false} {
			start := time.Now()
			res, err := nopol.Repair(context.Background(), nopol.Options{Dir: mod, Backend: backend, NoPurify: !purify, NoMutants: true, NoPerEval: true})
			total := time.Since(start)
			switch {
			case err != nil:
				row = append(row, "error: "+err.Error())
				ok = false
			case res.Patched:
				row = append(row, "`"+res.Condition+"`")
			default:
				row = append(row, "no patch")
			}
			if purify {
				frags := "—"
				if err == nil && res.Site != nil && res.Site.Purified {
					var s []string
					for _, f := range res.Site.Fragments {
						s = append(s, f.String()+" "+f.Value)
					}
					frags = strings.Join(s, ", ")
				}
				row = append(row, frags)
			}
			runs := 0
			if res != nil {
				runs = res.Runs
			}
			row = append(row, secs(total), fmt.Sprint(runs))
		}
		for i := range row {
			row[i] = strings.ReplaceAll(row[i], "|", `\|`) // a Markdown table cell
		}
		fmt.Printf("| %s |\n", strings.Join(row, " | "))
	}
	return ok
}

func secs(d time.Duration) string { return fmt.Sprintf("%.2fs", d.Seconds()) }

// goTest times `go test -count=1 ./...` in dir: the median of three runs
// after a warm-up run. The tests are expected to fail.
func goTest(dir string) (time.Duration, error) {
	var times []time.Duration
	for i := 0; i < 4; i++ {
		cmd := exec.Command("go", "test", "-count=1", "./...")
		cmd.Dir = dir
		start := time.Now()
		out, err := cmd.CombinedOutput()
		if _, ok := err.(*exec.ExitError); err != nil && !ok {
			return 0, fmt.Errorf("go test: %v\n%s", err, out)
		}
		if i > 0 {
			times = append(times, time.Since(start))
		}
	}
	sort.Slice(times, func(i, j int) bool { return times[i] < times[j] })
	return times[1], nil
}
