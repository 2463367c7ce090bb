package nopol

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/nopol-go/nopol/angelic"
	"github.com/nopol-go/nopol/internal/constituent"
	"github.com/nopol-go/nopol/internal/gotest"
)

// Sites run only after a failing test's first failure (localisation's
// last step). A test's first failure message, once printed, stays: no
// value forced at a site the test had not yet run when the message was
// printed can make the test pass, and neither can a mutant of that site
// or a guard before it. The coverage run of each failing test prints a
// line at the first evaluation of every site (collect.Run.PrintReach),
// interleaved in verbose mode with the test's messages as they are
// reported; the sites whose line comes after the first failure message
// are left out of every tier of the search.
//
// A message counts as a failure only when the source line it names calls
// Error, Errorf, Fatal, Fatalf, Fail or FailNow: a t.Log of a test that
// fails later, or a helper's call whose source is elsewhere, says
// nothing, and the next message is looked at. A panic's stack goes to
// standard error, after every line of standard output: it prunes nothing.
// An output cut for its size prunes nothing either.

// failureCall matches a source line that reports a test failure: the
// receiver's name and the method.
var failureCall = regexp.MustCompile(`(?:^|[^\w.])(\w+)\.(?:Error|Errorf|Fatal|Fatalf|Fail|FailNow)\(`)

// notTB are receivers of failureCall's methods that are not a testing.TB.
var notTB = map[string]bool{"fmt": true, "errors": true, "xerrors": true, "log": true, "slog": true}

// runBeforeFailure returns the sites test k ran before its first
// failure message in output (its coverage run with PrintReach), nil when
// that is unknown.
func (r *repairer) runBeforeFailure(k testKey, output string) map[int]bool {
	dir := r.prog.PackageDir(k.pkg)
	return runBefore(output, func(file string, line int) bool {
		return strings.HasSuffix(file, "_test.go") && r.reportsFailure(filepath.Join(dir, file), line)
	})
}

// runBefore returns the sites whose reach lines come before the first
// failure message of output (one whose file:line isFailure); nil when
// there is none, when a panic's stack comes first, or when the output
// was cut.
func runBefore(output string, isFailure func(file string, line int) bool) map[int]bool {
	if strings.Contains(output, gotest.CutMarker) {
		return nil
	}
	for _, loc := range constituent.ParseOutput(output) {
		if loc.Panic {
			return nil
		}
		if !isFailure(loc.File, loc.Line) {
			continue
		}
		reach := constituent.Reach(output)
		before := make(map[int]bool, loc.Reached)
		for _, id := range reach[:min(loc.Reached, len(reach))] {
			before[id] = true
		}
		return before
	}
	return nil
}

// reportsFailure reports whether line n of file calls a failing method of
// testing.TB (see failureCall); false when the file cannot be read. A
// message names a test file by its base name; one of a helper in another
// package's test file of the same name is misread, so only test files
// count.
func (r *repairer) reportsFailure(file string, n int) bool {
	if r.sources == nil {
		r.sources = map[string][]string{}
	}
	lines, ok := r.sources[file]
	if !ok {
		if data, err := os.ReadFile(file); err == nil {
			lines = strings.Split(string(data), "\n")
		}
		r.sources[file] = lines
	}
	if n < 1 || n > len(lines) {
		return false
	}
	for _, m := range failureCall.FindAllStringSubmatch(lines[n-1], -1) {
		if !notTB[m[1]] {
			return true
		}
	}
	return false
}

// runAfterFailure leaves out of ranked the sites some failing test ran
// only after its first failure, or not at all (see runBeforeFailure).
func (r *repairer) runAfterFailure(ranked []angelic.Suspicion) []angelic.Suspicion {
	out := ranked[:0:0]
	for _, s := range ranked {
		keep := true
		for _, k := range r.failing {
			if before := r.before[k]; before != nil && !before[s.Site] {
				keep = false
				break
			}
		}
		if keep {
			out = append(out, s)
		}
	}
	if n := len(ranked) - len(out); n > 0 {
		r.logf("localize: %s left out: run only after a failing test's first failure", plural(n, "site"))
	}
	return out
}
