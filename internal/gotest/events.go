package gotest

import (
	"bufio"
	"bytes"
	"encoding/json"
	"slices"
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
	Action string
	// Elapsed is the test's time: what it reported or, for a test with
	// parallel subtests, the time from its start (or its end of pause) to
	// its end event when longer (the subtests run after its function
	// returns and are not in what it reports); for a test that never
	// finished, the time from its start to the package's last event.
	Elapsed time.Duration
	// Output is everything the test and its subtests printed.
	Output string
	// Passes and Fails count the test's results when it ran several
	// times (go test -count).
	Passes, Fails int
	// FailedSubtests are the paths ("TestX/a/b") of the subtests that
	// failed, each once, in the order they ended, at most
	// MaxListedSubtests (SubtestsCut says when more failed);
	// PassedSubtests counts those that passed.
	FailedSubtests []string
	PassedSubtests int
	SubtestsCut    bool
}

// MaxListedSubtests bounds TestSummary.FailedSubtests.
const MaxListedSubtests = 200

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
// sorted by import path, tests by first appearance. Each test's output is
// kept up to a cap (head and tail).
func Summarize(events []Event) []PackageSummary {
	var s Summarizer
	for _, e := range events {
		s.Add(e)
	}
	return s.Summaries()
}

// Summarizer builds the summaries of a `go test -json` stream event by
// event, in time linear in the stream and memory bounded per test.
type Summarizer struct {
	byPkg    map[string]*pkgState
	buildOut map[string]*capText
}

type pkgState struct {
	sum    PackageSummary
	output capText
	tests  []capText
	index  map[string]int
	// started are the times the tests last started or went on after a
	// pause (t.Parallel), last the time of the package's last event: a
	// test ran from its start to its end event, or to the package's last
	// event when it never finished (its crash killed the binary).
	// parallelSubs says which tests have parallel subtests.
	started      []time.Time
	parallelSubs []bool
	last         time.Time
}

// Add takes one event.
func (s *Summarizer) Add(e Event) {
	if s.byPkg == nil {
		s.byPkg, s.buildOut = map[string]*pkgState{}, map[string]*capText{}
	}
	switch e.Action {
	case "build-output":
		b := s.buildOut[e.ImportPath]
		if b == nil {
			b = &capText{}
			s.buildOut[e.ImportPath] = b
		}
		b.add(e.Output)
		return
	case "build-fail":
		return
	}
	if e.Package == "" {
		return
	}
	p := s.byPkg[e.Package]
	if p == nil {
		p = &pkgState{sum: PackageSummary{Package: e.Package}, index: map[string]int{}}
		s.byPkg[e.Package] = p
	}
	if e.FailedBuild != "" {
		p.sum.BuildFailed = true
	}
	if e.Time.After(p.last) {
		p.last = e.Time
	}
	if e.Test == "" {
		switch e.Action {
		case "output":
			p.output.add(e.Output)
		case "pass", "fail", "skip":
			p.sum.Action = e.Action
		}
		return
	}
	top, _, _ := strings.Cut(e.Test, "/")
	i, ok := p.index[top]
	if !ok {
		i = len(p.sum.Tests)
		p.index[top] = i
		p.sum.Tests = append(p.sum.Tests, TestSummary{Package: e.Package, Test: top})
		p.tests = append(p.tests, capText{})
		p.started = append(p.started, time.Time{})
		p.parallelSubs = append(p.parallelSubs, false)
	}
	t := &p.sum.Tests[i]
	switch e.Action {
	case "run", "cont":
		if e.Test == top {
			p.started[i] = e.Time
		}
	case "pause":
		if e.Test != top {
			p.parallelSubs[i] = true
		}
	case "output":
		p.tests[i].add(e.Output)
	case "pass", "fail", "skip":
		if e.Test != top {
			t.addSubtest(e.Test, e.Action)
		}
		if e.Test == top {
			t.Action = e.Action
			t.Elapsed = time.Duration(e.Elapsed * float64(time.Second))
			if start := p.started[i]; p.parallelSubs[i] && !start.IsZero() && e.Time.Sub(start) > t.Elapsed {
				// The test's own time leaves out its parallel
				// subtests, which run after its function returns:
				// go-cmp's TestDiff says 0.03s and takes 2.3s.
				// (Only then: the span of any other test is its
				// time plus the stream's jitter, and the killers
				// chosen by time would differ from run to run.)
				t.Elapsed = e.Time.Sub(start)
			}
			switch e.Action {
			case "pass":
				t.Passes++
			case "fail":
				t.Fails++
			}
		}
	}
}

// addSubtest records the result of the subtest path.
func (t *TestSummary) addSubtest(path, action string) {
	switch {
	case action == "pass":
		t.PassedSubtests++
	case action != "fail" || slices.Contains(t.FailedSubtests, path):
	case len(t.FailedSubtests) == MaxListedSubtests:
		t.SubtestsCut = true
	default:
		t.FailedSubtests = append(t.FailedSubtests, path)
	}
}

// AddLine takes one line of the stream; a line that is not a JSON event
// (build output printed directly) is kept as output without a package.
func (s *Summarizer) AddLine(line []byte) {
	if len(bytes.TrimSpace(line)) == 0 {
		return
	}
	var e Event
	if line[0] != '{' || json.Unmarshal(line, &e) != nil {
		return
	}
	s.Add(e)
}

// Summaries returns the summaries of the events added so far.
func (s *Summarizer) Summaries() []PackageSummary {
	out := make([]PackageSummary, 0, len(s.byPkg))
	for _, p := range s.byPkg {
		sum := p.sum
		sum.Output = p.output.String()
		sum.Tests = slices.Clone(p.sum.Tests)
		for i := range sum.Tests {
			t := &sum.Tests[i]
			t.Output = p.tests[i].String()
			t.FailedSubtests = slices.Clone(t.FailedSubtests)
			if t.Action == "" && !p.started[i].IsZero() && p.last.After(p.started[i]) {
				// A crash's time counts: a test that overflows its
				// stack takes seconds, and runs again as often as its
				// time allows (the flakiness check).
				t.Elapsed = p.last.Sub(p.started[i])
			}
		}
		for path, b := range s.buildOut {
			// Build output is keyed by the package being built, such as
			// "m/p [m/p.test]".
			if path == sum.Package || strings.HasPrefix(path, sum.Package+" ") {
				sum.Output = b.String() + sum.Output
				sum.BuildFailed = true
			}
		}
		out = append(out, sum)
	}
	sort.Slice(out, func(a, b int) bool { return out[a].Package < out[b].Package })
	return out
}
