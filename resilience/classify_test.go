package resilience

import "testing"

func TestUsage(t *testing.T) {
	p := Pair{ID: 3, TryID: 1}
	for _, tc := range []struct {
		events []string
		want   Usage
		ok     bool
	}{
		{[]string{"try 1 0"}, Pink, true},
		{[]string{"try 1 0", "try 1 1", "catch 3"}, White, true},
		{[]string{"try 1 1", "catch 4"}, Blue, true},
		{[]string{"try 2 1", "catch 3"}, "", false},
		{nil, "", false},
	} {
		got, ok := usage(p, tc.events)
		if got != tc.want || ok != tc.ok {
			t.Errorf("usage(%q) = %q, %v; want %q, %v", tc.events, got, ok, tc.want, tc.ok)
		}
	}
}

func TestClassOf(t *testing.T) {
	white := func(passed bool) TestOutcome { return TestOutcome{Usage: White, Passed: passed} }
	pink := func(passed bool) TestOutcome { return TestOutcome{Usage: Pink, Passed: passed} }
	for _, tc := range []struct {
		name  string
		pair  Pair
		tests []TestOutcome
		class Class
		pure  string
	}{
		{"not injectable", Pair{NotInjectable: "why"}, nil, NotInjectable, ""},
		{"not executed", Pair{}, nil, NotExecuted, ""},
		{"a white test passes", Pair{}, []TestOutcome{white(true), pink(false)}, SourceIndependent, "no"},
		{"a white test fails", Pair{}, []TestOutcome{white(true), white(false)}, SourceDependent, "no"},
		{"no white test", Pair{}, []TestOutcome{pink(true), {Usage: Blue, Passed: true}}, Unknown, "yes"},
		{"every test passes", Pair{}, []TestOutcome{white(true), pink(true)}, SourceIndependent, "yes"},
	} {
		if got := classOf(tc.pair, tc.tests); got != tc.class {
			t.Errorf("%s: class %s, want %s", tc.name, got, tc.class)
		}
		if got := pureOf(tc.tests); got != tc.pure {
			t.Errorf("%s: purely resilient %q, want %q", tc.name, got, tc.pure)
		}
	}
}

// TestSummaries: the classes partition the executed pairs; pairs not
// executed, not injectable or not analysed are not executed.
func TestSummaries(t *testing.T) {
	r := &Report{}
	for i, c := range []Class{SourceIndependent, SourceDependent, Unknown, Unknown, NotExecuted, NotInjectable, NotAnalysed} {
		r.Pairs = append(r.Pairs, PairResult{Pair: Pair{ID: i, Package: "p", Action: Action(i % 2)}, Class: c, PurelyResilient: map[bool]string{true: "yes"}[i == 0]})
	}
	s := r.Summaries()
	if len(s) != 1 {
		t.Fatalf("%d summaries", len(s))
	}
	got := s[0]
	if got.Pairs != 7 || got.Executed != 4 || got.SourceIndependent+got.SourceDependent+got.Unknown != got.Executed ||
		got.NotInjectable != 1 || got.PurelyResilient != 1 || got.Propagating != 2 {
		t.Errorf("summary %+v", got)
	}
	if want := (Classes{Executed: 2, SourceIndependent: 1, Unknown: 1, PurelyResilient: 1}); got.Recovering != want || got.CatchAll != 7 {
		t.Errorf("recovering %+v, want %+v; catch-all %d", got.Recovering, want, got.CatchAll)
	}
	var total PackageSummary
	total.Add(got)
	total.Add(got)
	if total.Pairs != 14 || total.Recovering.Executed != 4 {
		t.Errorf("sum of two: %+v", total)
	}
}
