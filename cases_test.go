package nopol

import (
	"slices"
	"strings"
	"testing"

	"github.com/nopol-go/nopol/collect"
)

// verboseRun is the output of a verbose run of TestT's subtests a/x
// (passed), a/y (failed), b/x (passed twice, -count=2) and a/z (skipped),
// framed as under -test.v=test2json.
const verboseRun = "\x16=== RUN   TestT\n" +
	"\x16=== RUN   TestT/a\n" +
	"\x16=== RUN   TestT/a/x\n" +
	"\x16--- PASS: TestT/a/x (0.00s)\n" +
	"\x16=== RUN   TestT/a/y\n" +
	"    t_test.go:9: wrong\n" +
	"\x16--- FAIL: TestT/a/y (0.00s)\n" +
	"\x16=== RUN   TestT/a/z\n" +
	"\x16--- SKIP: TestT/a/z (0.00s)\n" +
	"\x16--- FAIL: TestT/a (0.00s)\n" +
	"\x16=== RUN   TestT/b\n" +
	"\x16=== RUN   TestT/b/x\n" +
	"\x16--- PASS: TestT/b/x (0.00s)\n" +
	"\x16=== RUN   TestT/b/x\n" +
	"\x16--- PASS: TestT/b/x (0.00s)\n" +
	"\x16--- PASS: TestT/b (0.00s)\n" +
	"\x16--- FAIL: TestT (0.00s)\n"

// TestPassedSubtests checks that the passing subtests of a verbose run
// are listed at the depth asked, each once, in the order they ended, and
// not at all when the output was cut.
func TestPassedSubtests(t *testing.T) {
	for _, tt := range []struct {
		name, output, test string
		depth              int
		want               []string
	}{
		{"depth 2", verboseRun, "TestT", 2, []string{"TestT/a/x", "TestT/b/x"}},
		{"depth 1", verboseRun, "TestT", 1, []string{"TestT/b"}},
		{"other test", verboseRun, "TestU", 2, nil},
		{"a test named alike", verboseRun, "Test", 2, nil},
		{"cut", verboseRun + "[nopol: cut 100 bytes]\n", "TestT", 2, nil},
	} {
		if got := passedSubtests(tt.output, tt.test, tt.depth); !slices.Equal(got, tt.want) {
			t.Errorf("%s: passedSubtests = %q, want %q", tt.name, got, tt.want)
		}
	}
}

// TestEnded checks that a group of subtests is judged by the subtests'
// own results, whatever their parents'.
func TestEnded(t *testing.T) {
	for _, tt := range []struct {
		names  []string
		passed bool
		want   bool
	}{
		{[]string{"TestT/a/x", "TestT/b/x"}, true, true},
		{[]string{"TestT/a/x", "TestT/a/y"}, true, false},
		{[]string{"TestT/a/z"}, true, false}, // skipped
		{[]string{"TestT/c"}, true, false},   // never ran
		{[]string{"TestT/a/y"}, false, true},
		{[]string{"TestT/a/y", "TestT/a/x"}, false, false},
	} {
		if got := ended(verboseRun, tt.names, tt.passed); got != tt.want {
			t.Errorf("ended(%v, passed %v) = %v, want %v", tt.names, tt.passed, got, tt.want)
		}
	}
}

// TestInGroups checks that the passing gocheck tests are split into at
// most n groups of consecutive names, each name once.
func TestInGroups(t *testing.T) {
	names := func(n int) []string {
		var out []string
		for i := range n {
			out = append(out, string(rune('a'+i)))
		}
		return out
	}
	for _, tt := range []struct {
		names, groups int
		want          string
	}{
		{1, 3, "a"},
		{3, 3, "a|b|c"},
		{5, 2, "ab|cde"},
		{7, 3, "ab|cd|efg"},
	} {
		var got []string
		for _, g := range inGroups(names(tt.names), tt.groups) {
			got = append(got, strings.Join(g, ""))
		}
		if s := strings.Join(got, "|"); s != tt.want {
			t.Errorf("inGroups(%d names, %d) = %s, want %s", tt.names, tt.groups, s, tt.want)
		}
	}
}

// TestNarrowRest checks that a run of the passing gocheck tests is
// narrowed to those whose coverage reached the site, and left whole when
// none did or their runs are not known.
func TestNarrowRest(t *testing.T) {
	k, subs := restKey(testKey{"p", "Test"}), restKey(testKey{"p", "TestTable"})
	reach := func(ids ...int) collect.Result {
		res := collect.Result{Reached: map[int][2]int{}}
		for _, id := range ids {
			res.Reached[id] = [2]int{1, 0}
		}
		return res
	}
	r := &repairer{restCases: map[testKey][]restCase{k: {
		{[]string{"S.TestA"}, reach(1, 2), false},
		{[]string{"S.TestB", "S.TestC"}, reach(2), false},
		{[]string{"S.TestD"}, reach(3), false},
	}, subs: {
		{[]string{"Test/a"}, reach(1), true},
		{[]string{"Test/b"}, reach(2), true},
	}}}
	all := []string{"S.TestA", "S.TestB", "S.TestC", "S.TestD"}
	for _, tt := range []struct {
		key  testKey
		site int
		want []string
	}{
		{k, 1, []string{"S.TestA"}},
		{k, 2, []string{"S.TestA", "S.TestB", "S.TestC"}},
		{k, 9, all},
		{testKey{"p", "TestOther"}, 1, all},
		{subs, 1, all}, // a table test may fail with some of its subtests only
	} {
		run := collect.Run{Gocheck: all}
		r.narrowRest(&run, tt.key, tt.site)
		if !slices.Equal(run.Gocheck, tt.want) {
			t.Errorf("narrowRest(%s, site %d) = %v, want %v", tt.key.name, tt.site, run.Gocheck, tt.want)
		}
	}
}
