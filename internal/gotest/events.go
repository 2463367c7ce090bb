package gotest

import (
	"bufio"
	"bytes"
	"encoding/json"
	"sort"
	"strings"
	"time"
)

// Event is one line of `go test -json` output.
type Event struct {
	Time        time.Time `json:",omitempty"`
	Action      string
	Package     string  `json:",omitempty"`
	ImportPath  string  `json:",omitempty"`
	Test        string  `json:",omitempty"`
	Elapsed     float64 `json:",omitempty"`
	Output      string  `json:",omitempty"`
	FailedBuild string  `json:",omitempty"`
}

// ParseEvents decodes a `go test -json` stream; lines that are not JSON
// events (such as build output printed directly) are kept as "output"
// events without a package.
func ParseEvents(data []byte) ([]Event, error) {
	var events []Event
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 64*1024), 64*1024*1024)
	for sc.Scan() {
		line := sc.Bytes()
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		var e Event
		if line[0] != '{' || json.Unmarshal(line, &e) != nil {
			events = append(events, Event{Action: "output", Output: string(line) + "\n"})
			continue
		}
		events = append(events, e)
	}
	return events, sc.Err()
}

// TestSummary is the outcome of one top-level test.
type TestSummary struct {
	Package, Test string
	// Action is "pass", "fail" or "skip"; "" when the test started but
	// never finished (the binary crashed or was killed).
	Action  string
	Elapsed time.Duration
	// Output is everything the test and its subtests printed.
	Output string
}

// PackageSummary is the outcome of one package.
type PackageSummary struct {
	Package string
	// Action is the package's final action: "pass", "fail", "skip".
	Action string
	// BuildFailed reports that the package's test binary did not build;
	// Output then has the compiler errors.
	BuildFailed bool
	Output      string
	Tests       []TestSummary
}

// Summarize groups events by package and top-level test. Packages are
// sorted by import path, tests by first appearance.
func Summarize(events []Event) []PackageSummary {
	type pkgState struct {
		sum   PackageSummary
		index map[string]int
	}
	byPkg := map[string]*pkgState{}
	buildOut := map[string]string{}
	for _, e := range events {
		switch e.Action {
		case "build-output":
			buildOut[e.ImportPath] += e.Output
			continue
		case "build-fail":
			continue
		}
		if e.Package == "" {
			continue
		}
		p := byPkg[e.Package]
		if p == nil {
			p = &pkgState{sum: PackageSummary{Package: e.Package}, index: map[string]int{}}
			byPkg[e.Package] = p
		}
		if e.FailedBuild != "" {
			p.sum.BuildFailed = true
		}
		if e.Test == "" {
			switch e.Action {
			case "output":
				p.sum.Output += e.Output
			case "pass", "fail", "skip":
				p.sum.Action = e.Action
			}
			continue
		}
		top, _, _ := strings.Cut(e.Test, "/")
		i, ok := p.index[top]
		if !ok {
			i = len(p.sum.Tests)
			p.index[top] = i
			p.sum.Tests = append(p.sum.Tests, TestSummary{Package: e.Package, Test: top})
		}
		t := &p.sum.Tests[i]
		switch e.Action {
		case "output":
			t.Output += e.Output
		case "pass", "fail", "skip":
			if e.Test == top {
				t.Action = e.Action
				t.Elapsed = time.Duration(e.Elapsed * float64(time.Second))
			}
		}
	}
	out := make([]PackageSummary, 0, len(byPkg))
	for _, p := range byPkg {
		for path, b := range buildOut {
			// Build output is keyed by the package being built, such as
			// "m/p [m/p.test]".
			if path == p.sum.Package || strings.HasPrefix(path, p.sum.Package+" ") {
				p.sum.Output = b + p.sum.Output
				p.sum.BuildFailed = true
			}
		}
		out = append(out, p.sum)
	}
	sort.Slice(out, func(a, b int) bool { return out[a].Package < out[b].Package })
	return out
}
