package angelic

import (
	"context"
	"errors"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
)

func TestOchiai(t *testing.T) {
	for _, tc := range []struct {
		ef, ep, f int
		want      float64
	}{
		{0, 3, 1, 0},
		{1, 0, 1, 1},
		{1, 3, 1, 0.5},
		{2, 2, 4, 2 / math.Sqrt(16)},
		{1, 1, 0, 0},
	} {
		if got := Ochiai(tc.ef, tc.ep, tc.f); math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("Ochiai(%d, %d, %d) = %v, want %v", tc.ef, tc.ep, tc.f, got, tc.want)
		}
	}
}

// siteIDs are the sites of a ranking, in order.
func siteIDs(ranked []Suspicion) []int {
	var ids []int
	for _, s := range ranked {
		ids = append(ids, s.Site)
	}
	return ids
}

func TestLocalize(t *testing.T) {
	spectra := []Spectrum{
		{Test: "TestA", Passed: false, Reached: []int{1, 2, 3, 3}},
		{Test: "TestB", Passed: true, Reached: []int{1, 2, 5}},
		{Test: "TestC", Passed: true, Reached: []int{1}},
		{Test: "TestD", Passed: true, Reached: []int{7}},
	}
	tests := []struct {
		name string
		tier func(Suspicion) int
		want []int
	}{
		// 3: 1/sqrt(1*1)=1; 2: 1/sqrt(2); 1: 1/sqrt(3); 5 and 7 no failing test.
		{"plain", nil, []int{3, 2, 1}},
		{"tier does not beat score", func(s Suspicion) int { return -s.Site }, []int{3, 2, 1}},
	}
	for _, tc := range tests {
		got := Localize(spectra, tc.tier)
		if ids := siteIDs(got); !reflect.DeepEqual(ids, tc.want) {
			t.Errorf("%s: ranking %v, want %v", tc.name, ids, tc.want)
		}
	}
	// Ties: by tier, then by ID, whatever the input order.
	tie := []Spectrum{{Passed: false, Reached: []int{9, 4, 6, 2}}}
	got := Localize(tie, func(s Suspicion) int {
		if s.Site == 9 || s.Site == 6 {
			return 0
		}
		return 1
	})
	ids := siteIDs(got)
	if want := []int{6, 9, 2, 4}; !reflect.DeepEqual(ids, want) {
		t.Errorf("tie ranking %v, want %v", ids, want)
	}
	if got[0].Failed != 1 || got[0].Passed != 0 || got[0].Score != 1 {
		t.Errorf("counts %+v", got[0])
	}
}

// TestLocalizePredicates: a condition scores the best of its reach and its
// outcomes, and the tier sees which. Condition 5 is evaluated by every
// test but true only in the failing one: it ties with statement 6 of its
// then-branch (which the tier here puts first, as the root package does)
// and ranks above statement 2, which one passing test reaches as well as
// the failing one. Condition 8, false in the failing test and in both
// passing ones, keeps the score of its reach.
func TestLocalizePredicates(t *testing.T) {
	spectra := []Spectrum{
		{Test: "TestA", Passed: false, Reached: []int{2, 5, 6, 8}, Took: map[int][2]bool{5: {false, true}, 8: {true, false}}},
		{Test: "TestB", Passed: true, Reached: []int{2, 5, 8}, Took: map[int][2]bool{5: {true, false}, 8: {true, false}}},
		{Test: "TestC", Passed: true, Reached: []int{5, 8}, Took: map[int][2]bool{5: {true, false}, 8: {true, true}}},
	}
	got := Localize(spectra, func(s Suspicion) int {
		switch {
		case s.Site != 5 && s.Site != 8:
			return 1 // statements
		case s.Outcome != "":
			return 2 // conditions scored by an outcome, after statements
		}
		return 0
	})
	ids := siteIDs(got)
	if want := []int{6, 5, 2, 8}; !reflect.DeepEqual(ids, want) {
		t.Errorf("ranking %v, want %v", ids, want)
	}
	if s := got[1]; s.Outcome != "true" || s.Failed != 1 || s.Passed != 0 || s.Score != 1 || s.Tier != 2 {
		t.Errorf("condition 5: %+v, want its true predicate (1 failing, 0 passing, score 1, tier 2)", s)
	}
	if s := got[3]; s.Outcome != "" || s.Failed != 1 || s.Passed != 2 || s.Tier != 0 {
		t.Errorf("condition 8: %+v, want its reach (1 failing, 2 passing, tier 0)", s)
	}
	// Reach keeps the reach's score beside a predicate's.
	if s := got[1]; math.Abs(s.Reach-1/math.Sqrt(3)) > 1e-9 {
		t.Errorf("condition 5: reach %v, want 1/sqrt(3) (1 failing, 2 passing)", s.Reach)
	}
	if s := got[3]; s.Reach != s.Score {
		t.Errorf("condition 8: reach %v, want its score %v", s.Reach, s.Score)
	}
}

// fakeRunner passes a test when the label of its force is in pass[test];
// a failing run's failures are attributed to failing["test:label"]. It
// records the calls.
type fakeRunner struct {
	pass    map[string][]string
	failing map[string][]Constituent
	mu      sync.Mutex // guards calls
	calls   []string
	err     error
}

func (r *fakeRunner) run(ctx context.Context, test string, f Force) (Outcome, error) {
	call := test + ":" + f.String()
	r.mu.Lock()
	r.calls = append(r.calls, call)
	r.mu.Unlock()
	if r.err != nil {
		return Outcome{}, r.err
	}
	if slices.Contains(r.pass[test], f.String()) {
		return Outcome{Passed: true}, nil
	}
	return Outcome{Failing: r.failing[call]}, nil
}

var condChoices = []Force{{Value: true}, {Value: false}}

func whole(v bool) Force { return Force{Value: v} }

func TestSearch(t *testing.T) {
	tests := []struct {
		name      string
		p         Problem
		pass      map[string][]string
		failing   map[string][]Constituent
		qualified bool
		needs     []Need
		ruledOut  string
		calls     []string
	}{{
		name: "one test needs false; true is its own run",
		p: Problem{Choices: condChoices, Tests: []FailingTest{
			{Name: "T1", Counts: Counts{True: 2}},
		}},
		pass:      map[string][]string{"T1": {"false"}},
		qualified: true,
		needs:     []Need{{Test: "T1", Force: whole(false)}},
		calls:     []string{"T1:false"},
	}, {
		name: "both directions evaluated: both tried, both pass",
		p: Problem{Choices: condChoices, Tests: []FailingTest{
			{Name: "T1", Counts: Counts{True: 1, False: 1}},
		}},
		pass:      map[string][]string{"T1": {"true", "false"}},
		qualified: true,
		needs:     []Need{{Test: "T1", Force: whole(true), Also: []Force{whole(false)}}},
		calls:     []string{"T1:true", "T1:false"},
	}, {
		name: "second test rules the site out; search stops",
		p: Problem{Choices: condChoices, Tests: []FailingTest{
			{Name: "T1", Counts: Counts{False: 1}},
			{Name: "T2", Counts: Counts{False: 1}},
			{Name: "T3", Counts: Counts{False: 1}},
		}},
		pass:     map[string][]string{"T1": {"true"}},
		ruledOut: "T2",
		calls:    []string{"T1:true", "T2:true"},
	}, {
		name: "a test that does not reach the site rules it out without runs",
		p: Problem{Choices: condChoices, Tests: []FailingTest{
			{Name: "T1"},
		}},
		ruledOut: "T1",
	}, {
		name: "guard return is run even though the statement always ran",
		p: Problem{Choices: []Force{{Value: false, Return: true}}, Tests: []FailingTest{
			{Name: "T1", Counts: Counts{True: 3}},
		}},
		pass:      map[string][]string{"T1": {"return"}},
		qualified: true,
		needs:     []Need{{Test: "T1", Force: Force{Return: true}}},
		calls:     []string{"T1:return"},
	}, {
		name: "a passing whole-test force is not split",
		p: Problem{Choices: condChoices, Tests: []FailingTest{
			{Name: "T1", Counts: Counts{True: 2, False: 1}, Failing: []Constituent{{2, 0}}},
		}},
		pass:      map[string][]string{"T1": {"false", "false@2.0"}},
		qualified: true,
		needs:     []Need{{Test: "T1", Force: whole(false)}},
		calls:     []string{"T1:true", "T1:false"},
	}, {
		name: "impure test: the failing fragment forced",
		p: Problem{Choices: condChoices, Tests: []FailingTest{
			{Name: "T1", Counts: Counts{True: 2, False: 1}, Failing: []Constituent{{2, 0}}},
		}},
		pass:      map[string][]string{"T1": {"false@2.0"}},
		qualified: true,
		needs:     []Need{{Test: "T1", Force: Force{Value: false, Fragments: []Constituent{{2, 0}}}, Split: true}},
		calls:     []string{"T1:true", "T1:false", "T1:true@2.0", "T1:false@2.0"},
	}, {
		name: "a hidden failure joins the forced fragments",
		p: Problem{Choices: condChoices, Tests: []FailingTest{
			{Name: "T1", Counts: Counts{False: 3}, Failing: []Constituent{{1, 0}}},
		}},
		pass:      map[string][]string{"T1": {"true@1.0+4.2"}},
		failing:   map[string][]Constituent{"T1:true@1.0": {{4, 2}, {1, 0}}},
		qualified: true,
		needs:     []Need{{Test: "T1", Force: Force{Value: true, Fragments: []Constituent{{1, 0}, {4, 2}}}, Split: true}},
		calls:     []string{"T1:true", "T1:true@1.0", "T1:true@1.0+4.2"},
	}, {
		name: "impure test with no repairable fragment",
		p: Problem{Choices: condChoices, Tests: []FailingTest{
			{Name: "T1", Counts: Counts{True: 1, False: 1}, Failing: []Constituent{{1, 4}}},
		}},
		failing:  map[string][]Constituent{"T1:true@1.4": {{1, 4}}},
		ruledOut: "T1",
		calls:    []string{"T1:true", "T1:false", "T1:true@1.4", "T1:false@1.4"},
	}, {
		name: "failing fragments that need different values: each forced with its own",
		p: Problem{Choices: condChoices, Tests: []FailingTest{
			{Name: "T1", Counts: Counts{True: 2, False: 1}, Failing: []Constituent{{0, 1}, {0, 2}}},
		}},
		failing: map[string][]Constituent{
			"T1:true@0.1+0.2":  {{0, 2}},
			"T1:false@0.1+0.2": {{0, 1}},
		},
		pass:      map[string][]string{"T1": {"true@0.1+false@0.2"}},
		qualified: true,
		needs:     []Need{{Test: "T1", Force: Force{Fragments: []Constituent{{0, 1}, {0, 2}}, Values: []bool{true, false}}, Split: true}},
		calls:     []string{"T1:true", "T1:false", "T1:true@0.1+0.2", "T1:false@0.1+0.2", "T1:true@0.1+false@0.2"},
	}, {
		name: "a fragment that fails under both values: no mixed run",
		p: Problem{Choices: condChoices, Tests: []FailingTest{
			{Name: "T1", Counts: Counts{True: 2, False: 1}, Failing: []Constituent{{0, 1}, {0, 2}}},
		}},
		failing: map[string][]Constituent{
			"T1:true@0.1+0.2":  {{0, 2}},
			"T1:false@0.1+0.2": {{0, 1}, {0, 2}},
		},
		ruledOut: "T1",
		calls:    []string{"T1:true", "T1:false", "T1:true@0.1+0.2", "T1:false@0.1+0.2", "T1:true@0.1", "T1:false@0.1"},
	}, {
		name: "a panicking row hides the next: each row gets its value in turn",
		p: Problem{Choices: condChoices, Tests: []FailingTest{
			{Name: "T1", Counts: Counts{True: 1}, Failing: []Constituent{{0, 1}}},
		}},
		failing: map[string][]Constituent{
			"T1:true@0.1":                    {{0, 1}},
			"T1:false@0.1":                   {{0, 2}},
			"T1:false@0.1+0.2":               {{0, 2}},
			"T1:false@0.1+true@0.2":          {{0, 3}},
			"T1:false@0.1+true@0.2+true@0.3": {{0, 3}},
		},
		pass:      map[string][]string{"T1": {"false@0.1+true@0.2+false@0.3"}},
		qualified: true,
		needs:     []Need{{Test: "T1", Force: Force{Fragments: []Constituent{{0, 1}, {0, 2}, {0, 3}}, Values: []bool{false, true, false}}, Split: true}},
		calls: []string{"T1:false", "T1:true@0.1", "T1:false@0.1", "T1:false@0.1+0.2",
			"T1:false@0.1+true@0.2", "T1:false@0.1+true@0.2+true@0.3", "T1:false@0.1+true@0.2+false@0.3"},
	}, {
		name: "not purified: no fragment forced",
		p: Problem{Choices: condChoices, Tests: []FailingTest{
			{Name: "T1", Counts: Counts{True: 1, False: 1}},
		}},
		pass:     map[string][]string{"T1": {"true@1.0"}},
		ruledOut: "T1",
		calls:    []string{"T1:true", "T1:false"},
	}, {
		name: "the forced fragments are bounded",
		p: Problem{Choices: condChoices[:1], MaxFragments: 2, Tests: []FailingTest{
			{Name: "T1", Counts: Counts{False: 1}, Failing: []Constituent{{0, 0}}},
		}},
		failing:  map[string][]Constituent{"T1:true@0.0": {{1, 0}}, "T1:true@0.0+1.0": {{2, 0}}},
		pass:     map[string][]string{"T1": {"true@0.0+1.0+2.0"}},
		ruledOut: "T1",
		calls:    []string{"T1:true", "T1:true@0.0", "T1:true@0.0+1.0"},
	}}
	// Run in parallel, the runs are the same and the verdict records them
	// in the search's order.
	for _, tc := range tests {
		for _, parallel := range []int{1, 3} {
			t.Run(fmt.Sprintf("%s/parallel=%d", tc.name, parallel), func(t *testing.T) {
				r := &fakeRunner{pass: tc.pass, failing: tc.failing}
				tc.p.Parallel = parallel
				v, err := Search(context.Background(), tc.p, r.run)
				if err != nil {
					t.Fatal(err)
				}
				var attempts []string
				for _, a := range v.Attempts {
					attempts = append(attempts, a.Test+":"+a.Force.String())
				}
				if !slices.Equal(attempts, tc.calls) {
					t.Errorf("attempts %q, want %q", attempts, tc.calls)
				}
				if parallel > 1 {
					slices.Sort(r.calls)
					tc.calls = slices.Sorted(slices.Values(tc.calls))
				}
				checkSearch(t, v, r, tc.qualified, tc.needs, tc.ruledOut, tc.calls)
			})
		}
	}
}

// checkSearch compares a verdict and the runs made with what is wanted.
func checkSearch(t *testing.T, v Verdict, r *fakeRunner, qualified bool, needs []Need, ruledOut string, calls []string) {
	t.Helper()
	if v.Qualified != qualified {
		t.Errorf("qualified = %v, want %v (%s)", v.Qualified, qualified, v.Reason)
	}
	if qualified && !reflect.DeepEqual(v.Needs, needs) {
		t.Errorf("needs = %+v, want %+v", v.Needs, needs)
	}
	if v.RuledOutBy != ruledOut {
		t.Errorf("ruled out by %q, want %q", v.RuledOutBy, ruledOut)
	}
	if !reflect.DeepEqual(r.calls, calls) {
		t.Errorf("runs %q, want %q", r.calls, calls)
	}
	if len(v.Attempts) != len(r.calls) {
		t.Errorf("%d attempts recorded for %d runs", len(v.Attempts), len(r.calls))
	}
}

func TestForceLabel(t *testing.T) {
	for _, tc := range []struct {
		f     Force
		guard bool
		want  string
	}{
		{Force{Value: true}, false, "true"},
		{Force{Value: false}, false, "false"},
		{Force{Value: false}, true, "skip"},
		{Force{Return: true}, true, "return"},
		{Force{Value: false, Fragments: []Constituent{{3, 1}}}, true, "skip@3.1"},
		{Force{Value: true, Fragments: []Constituent{{3, 1}, {5, 0}}}, false, "true@3.1+5.0"},
		{Force{Fragments: []Constituent{{0, 1}, {0, 2}}, Values: []bool{true, false}}, false, "true@0.1+false@0.2"},
	} {
		if got := tc.f.Label(tc.guard); got != tc.want {
			t.Errorf("%+v.Label(%v) = %q, want %q", tc.f, tc.guard, got, tc.want)
		}
	}
}

func TestSearchErrors(t *testing.T) {
	p := Problem{Choices: condChoices, Tests: []FailingTest{{Name: "T1", Counts: Counts{True: 1}}}}
	boom := errors.New("boom")
	if _, err := Search(context.Background(), p, (&fakeRunner{err: boom}).run); !errors.Is(err, boom) {
		t.Errorf("runner error: got %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Search(ctx, p, (&fakeRunner{}).run); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: got %v", err)
	}
	if v, _ := Search(context.Background(), Problem{Choices: condChoices}, (&fakeRunner{}).run); v.Qualified {
		t.Error("no failing test qualified")
	}
}

func TestSummarize(t *testing.T) {
	tests := []struct {
		name     string
		ex       []Example
		trivial  bool
		constant bool
		sum      Summary
	}{
		{"mixed", []Example{{"a", true, "T1"}, {"b", false, "T2"}, {"a", true, "T3"}}, false, false,
			Summary{Examples: 3, Distinct: 2, True: 1, False: 1}},
		{"one state", []Example{{"a", true, "T1"}, {"a", true, "T2"}}, true, true,
			Summary{Examples: 2, Distinct: 1, True: 1}},
		{"constant", []Example{{"a", false, "T1"}, {"b", false, "T2"}}, true, true,
			Summary{Examples: 2, Distinct: 2, False: 2}},
		{"a don't-care state is left out", []Example{{"a", false, "T1"}, {"b", true, "T2"}, {"a", true, "T3"}, {"c", false, "T1"}, {"a", false, "T4"}}, false, false,
			Summary{Examples: 5, Distinct: 2, True: 1, False: 1, DontCare: []string{"a"}, Conflict: "T1 needs false and T3 needs true in the same state"}},
		{"only don't-cares", []Example{{"a", false, "T1"}, {"a", true, "T3"}}, true, false,
			Summary{Examples: 2, DontCare: []string{"a"}, Conflict: "T1 needs false and T3 needs true in the same state"}},
	}
	for _, tc := range tests {
		s := Summarize(tc.ex)
		if !reflect.DeepEqual(s, tc.sum) {
			t.Errorf("%s: %+v, want %+v", tc.name, s, tc.sum)
		}
		if got := s.Constant(); got != tc.constant {
			t.Errorf("%s: constant = %v, want %v", tc.name, got, tc.constant)
		}
		if got := s.Trivial() != ""; got != tc.trivial {
			t.Errorf("%s: trivial = %v (%q), want %v", tc.name, got, s.Trivial(), tc.trivial)
		}
		for _, dc := range tc.sum.DontCare {
			if !s.IsDontCare(dc) {
				t.Errorf("%s: %q is not a don't-care", tc.name, dc)
			}
		}
		if s.IsDontCare("zz") {
			t.Errorf("%s: zz is a don't-care", tc.name)
		}
	}
}

// TestSearchPerEvaluation: a test that fails under both constant forces
// gets a per-evaluation angelic value when MaxFlips allows it. The test
// passes when exactly the evaluations in need are negated. When the run
// locates its failure (after the first needed evaluation not negated),
// the failure-directed search negates one evaluation per run; when it
// does not, the sets Problem.Guess proposes are tried, then one
// evaluation is negated at a time, the last first; a test that needs an
// evaluation earlier than MaxFlips allows is ruled out.
func TestSearchPerEvaluation(t *testing.T) {
	for _, tc := range []struct {
		name     string
		evals    int
		need     []int
		located  bool // the run reports after which evaluation it failed
		maxFlips int
		want     string // the label of the angelic value; "" none
		runs     int
		guesses  []string // Problem.Guess's predicates, "ok" the one that passes; nil: no Guess
		// traced is the evaluation count a traced run reports (when the
		// unforced run's counts stopped at the hook's cap); failedAfter,
		// when not 0, the evaluation every traced run failed after.
		traced, failedAfter int
	}{
		{"directed: two evaluations", 5, []int{2, 4}, true, 8, "flip@eval2+4", 6, nil, 0, 0},
		{"directed: the last evaluation", 5, []int{5}, true, 8, "flip@eval5", 5, nil, 0, 0},
		{"last evaluation, failure not located", 5, []int{5}, false, 8, "flip@eval5", 5, nil, 0, 0},
		{"an earlier one, not located", 5, []int{3}, false, 8, "flip@eval3", 7, nil, 0, 0},
		{"beyond the bound", 20, []int{3}, false, 8, "", 12, nil, 0, 0},
		{"two evaluations, not located", 5, []int{2, 4}, false, 8, "", 9, nil, 0, 0},
		{"off", 5, []int{5}, true, 0, "", 2, nil, 0, 0},
		// The condition negated at every evaluation: one run, first,
		// however many evaluations.
		{"every evaluation negated", 5, []int{0}, true, 8, "flip@every", 3, nil, 0, 0},
		{"every evaluation negated, beyond the bound", 20, []int{0}, false, 8, "flip@every", 3, []string{"ok"}, 0, 0},
		// A failure seen at the end only: the states' guesses, in order,
		// before single evaluations.
		{"two evaluations, guessed", 5, []int{2, 4}, false, 8, "value@ok", 6, []string{"x < 0", "ok", "b"}, 0, 0},
		{"guesses wrong, then single ones", 5, []int{3}, false, 8, "flip@eval3", 8, []string{"x < 0"}, 0, 0},
		{"guessed but off", 5, []int{2, 4}, false, 0, "", 2, []string{"ok"}, 0, 0},
		// Guesses that time out: MaxHung in a row end the guesses.
		{"three hung guesses end them", 5, []int{3}, false, 8, "flip@eval3", 10, []string{"hang1", "hang2", "hang3", "ok"}, 0, 0},
		{"two hung guesses do not", 5, []int{2, 4}, false, 8, "value@ok", 7, []string{"hang1", "hang2", "ok"}, 0, 0},
		{"hung guesses not in a row", 5, []int{2, 4}, false, 8, "value@ok", 9, []string{"hang1", "hang2", "x", "hang3", "ok"}, 0, 0},
		// Counts stopped at 4 by the cap; the traced run printed 6.
		{"the traced count", 4, []int{6}, false, 8, "flip@eval6", 5, nil, 6, 0},
		// The directed search negated 5 alone; the single ones skip it.
		{"directed's single not run again", 5, []int{3}, true, 8, "flip@eval3", 7, nil, 0, 5},
	} {
		for _, parallel := range []int{1, 2} {
			t.Run(fmt.Sprintf("%s/parallel=%d", tc.name, parallel), func(t *testing.T) {
				var runs atomic.Int32
				run := func(ctx context.Context, test string, f Force) (Outcome, error) {
					runs.Add(1)
					if !f.PerEval() {
						return Outcome{}, nil
					}
					if f.Guess != "" {
						return Outcome{Passed: f.Guess == "ok", TimedOut: strings.HasPrefix(f.Guess, "hang")}, nil
					}
					if slices.Equal(slices.Sorted(slices.Values(f.Evals)), tc.need) {
						return Outcome{Passed: true}, nil
					}
					out := Outcome{}
					if f.Trace {
						out.Evaluations = tc.traced
					}
					if f.Trace && tc.failedAfter > 0 {
						out.FailedAfter = tc.failedAfter
					} else if f.Trace && tc.located {
						for _, k := range tc.need {
							if !slices.Contains(f.Evals, k) {
								out.FailedAfter = k
								break
							}
						}
					}
					return out, nil
				}
				p := Problem{Choices: []Force{{Value: true}, {Value: false}}, MaxFlips: tc.maxFlips,
					Tests: []FailingTest{{Name: "TestLoop", Counts: Counts{True: 1, False: tc.evals - 1}}}, Parallel: parallel}
				if tc.guesses != nil {
					p.Guess = func(ctx context.Context, test string) ([]string, error) { return tc.guesses, nil }
				}
				got, v := searchLabel(t, p, run)
				if got != tc.want {
					t.Errorf("angelic value %q, want %q (verdict %+v)", got, tc.want, v)
				}
				// In waves, the runs after the one that passes in its
				// wave are made too: they are the surplus, not attempts.
				if n := int(runs.Load()); n-v.Surplus != tc.runs || len(v.Attempts) != tc.runs || (parallel == 1 && v.Surplus != 0) {
					t.Errorf("%d runs, %d surplus, %d attempts; want %d runs and attempts", n, v.Surplus, len(v.Attempts), tc.runs)
				}
			})
		}
	}
}

// TestSearchNegatedInFragments: a purified test whose failing case needs
// the condition negated at each of its evaluations, while its other cases
// need it as written (an index compared with the wrong length), passes
// with the condition negated in its failing fragment only; that run comes
// right after the condition negated in the whole test, and is made only
// when that run failed in other fragments only (not when it passes, when
// the failing fragment still fails, when its failures are not attributed
// or when the test is not purified).
func TestSearchNegatedInFragments(t *testing.T) {
	failing := []Constituent{{Segment: 1, Iteration: 47}}
	other := []Constituent{{Segment: 1, Iteration: 3}}
	for _, tc := range []struct {
		name      string
		failing   []Constituent
		wholePass bool          // the condition negated in the whole test passes
		wholeFail []Constituent // else, where that run fails
		want      string
	}{
		{"negated in the failing fragment", failing, false, other, "flip@every@1.47"},
		{"negated in the whole test first", failing, true, nil, "flip@every"},
		{"not purified", nil, false, other, ""},
		// The whole negation leaves the failing fragment failing, or
		// its failures are not attributed: the fragment's is not run.
		{"the failing fragment fails negated", failing, false, append(slices.Clone(other), failing...), ""},
		{"failures not attributed", failing, false, nil, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var labels []string
			run := func(ctx context.Context, test string, f Force) (Outcome, error) {
				labels = append(labels, f.Label(false))
				switch {
				case f.EveryEval() && f.Whole():
					return Outcome{Passed: tc.wholePass, Failing: tc.wholeFail}, nil
				case f.EveryEval():
					return Outcome{Passed: slices.Equal(f.Fragments, failing)}, nil
				case !f.Whole():
					return Outcome{Failing: f.Fragments}, nil
				}
				return Outcome{}, nil
			}
			p := Problem{Choices: []Force{{Value: true}, {Value: false}}, MaxFlips: 2,
				Tests: []FailingTest{{Name: "TestEncode", Counts: Counts{True: 3, False: 2}, Failing: tc.failing}}}
			if got, _ := searchLabel(t, p, run); got != tc.want {
				t.Errorf("angelic value %q, want %q (runs %q)", got, tc.want, labels)
			}
			if i := slices.Index(labels, "flip@every"); tc.want != "" && (i < 0 || tc.want != "flip@every" && (i+1 >= len(labels) || labels[i+1] != tc.want)) {
				t.Errorf("runs %q: want flip@every, then %s", labels, tc.want)
			}
			if slices.Contains(labels, "flip@every@1.47") && tc.want != "flip@every@1.47" {
				t.Errorf("runs %q: the fragment negated, though not needed", labels)
			}
		})
	}
}

// searchLabel runs Search and returns the label of the first failing
// test's angelic value ("" when the site does not qualify) with the
// verdict.
func searchLabel(t *testing.T, p Problem, run Runner) (string, Verdict) {
	t.Helper()
	v, err := Search(context.Background(), p, run)
	if err != nil {
		t.Fatal(err)
	}
	if !v.Qualified {
		return "", v
	}
	return v.Needs[0].Force.Label(false), v
}

// TestSearchPerEvalOnly: at a guard whose exit, taken at every
// evaluation, passes the failing test, the search stops at that constant;
// with PerEvalOnly it makes no constant run (whole or per fragment) and
// finds the evaluations the exit is needed at.
func TestSearchPerEvalOnly(t *testing.T) {
	for _, tc := range []struct {
		name        string
		perEvalOnly bool
		failing     []Constituent
		want        string
		constant    int // constant runs made
	}{
		{"the constant", false, nil, "return", 1},
		{"per evaluation only", true, nil, "flip@eval3", 0},
		{"per evaluation only, purified test", true, []Constituent{{Segment: 1}}, "flip@eval3", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			constant := 0
			run := func(ctx context.Context, test string, f Force) (Outcome, error) {
				if !f.PerEval() {
					constant++
					return Outcome{Passed: true}, nil // leaves at the first evaluation
				}
				if slices.Equal(f.Evals, []int{3}) {
					return Outcome{Passed: true}, nil
				}
				out := Outcome{}
				if f.Trace {
					out.FailedAfter = 3
				}
				return out, nil
			}
			p := Problem{Choices: []Force{{Value: false, Return: true}}, MaxFlips: 8, PerEvalOnly: tc.perEvalOnly,
				Tests: []FailingTest{{Name: "TestList", Counts: Counts{False: 4}, Failing: tc.failing}}}
			_, v := searchLabel(t, p, run)
			got := ""
			if v.Qualified {
				got = v.Needs[0].Force.Label(true)
				if f := v.Needs[0].Force; f.PerEval() && !f.Return {
					t.Errorf("%s does not leave", got)
				}
			}
			if got != tc.want || constant != tc.constant {
				t.Errorf("angelic value %q after %d constant runs, want %q after %d (verdict %+v)", got, constant, tc.want, tc.constant, v)
			}
		})
	}
}
