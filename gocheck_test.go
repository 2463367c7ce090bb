package nopol

import (
	"slices"
	"strings"
	"testing"

	"github.com/nopol-go/nopol/angelic"
	"github.com/nopol-go/nopol/collect"
)

func TestRunsGocheck(t *testing.T) {
	for _, tt := range []struct {
		name string
		src  string
		line int
		want bool
	}{
		{"dot import", "package p\nimport (\n\t\"testing\"\n\t. \"gopkg.in/check.v1\"\n)\nfunc Test(t *testing.T) { TestingT(t) }\n", 6, true},
		{"named import", "package p\nimport (\n\t\"testing\"\n\tgc \"gopkg.in/check.v1\"\n)\nfunc Test(t *testing.T) { gc.TestingT(t) }\n", 6, true},
		{"default name", "package p\nimport (\n\t\"testing\"\n\t\"gopkg.in/check.v1\"\n)\nfunc Test(t *testing.T) {\n\tcheck.TestingT(t)\n}\n", 6, true},
		{"another test of the file", "package p\nimport (\n\t\"testing\"\n\t. \"gopkg.in/check.v1\"\n)\nfunc Test(t *testing.T) { TestingT(t) }\nfunc TestPlain(t *testing.T) {}\n", 7, false},
		{"a TestingT of another package", "package p\nimport (\n\t\"testing\"\n\t\"example.com/check\"\n)\nfunc Test(t *testing.T) { check.TestingT(t) }\n", 6, false},
		{"does not parse", "package p\nfunc Test(", 2, false},
	} {
		if got := runsGocheck([]byte(tt.src), tt.line); got != tt.want {
			t.Errorf("%s: runsGocheck = %v, want %v", tt.name, got, tt.want)
		}
	}
}

func TestFailedGocheck(t *testing.T) {
	const sep = "----------------------------------------------------------------------\n"
	for _, tt := range []struct {
		name, output string
		want         []string
	}{
		{"failed and panicked", sep + "FAIL: encode_test.go:510: S.TestEncoder\n\nobtained ...\n" + sep + "PANIC: node_test.go:12: S.TestNode\n\n... Panic: boom\nOOPS: 32 passed, 1 FAILED, 1 PANICKED\n--- FAIL: Test (0.02s)\n", []string{"S.TestEncoder", "S.TestNode"}},
		{"carriage returns", "FAIL: a_test.go:1: S.TestA\r\nOOPS: 3 passed, 1 FAILED\r\n", []string{"S.TestA"}},
		{"a failure cut from the output", "FAIL: a_test.go:1: S.TestA\nOOPS: 3 passed, 2 FAILED\n", nil},
		{"a fixture failed", "FAIL: a_test.go:1: S.SetUpTest\nOOPS: 3 passed, 1 FIXTURE-PANICKED, 2 MISSED\n", nil},
		{"none passed", "FAIL: a_test.go:1: S.TestA\nOOPS: 0 passed, 1 FAILED\n", nil},
		{"no summary", "FAIL: a_test.go:1: S.TestA\n", nil},
		{"a plain test", "--- FAIL: TestA (0.00s)\n    a_test.go:3: bad\n", nil},
	} {
		if got := failedGocheck(tt.output); !slices.Equal(got, tt.want) {
			t.Errorf("%s: failedGocheck = %q, want %q", tt.name, got, tt.want)
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
	k := restKey(testKey{"p", "Test"})
	reach := func(ids ...int) collect.Result {
		res := collect.Result{Reached: map[int][2]int{}}
		for _, id := range ids {
			res.Reached[id] = [2]int{1, 0}
		}
		return res
	}
	r := &repairer{restCases: map[testKey][]restCase{k: {
		{[]string{"S.TestA"}, reach(1, 2)},
		{[]string{"S.TestB", "S.TestC"}, reach(2)},
		{[]string{"S.TestD"}, reach(3)},
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
	} {
		run := collect.Run{Gocheck: all}
		r.narrowRest(&run, tt.key, tt.site)
		if !slices.Equal(run.Gocheck, tt.want) {
			t.Errorf("narrowRest(%s, site %d) = %v, want %v", tt.key.name, tt.site, run.Gocheck, tt.want)
		}
	}
}

// TestCondsAround checks that the conditions around a site are found by
// position in its file, innermost first, at most maxAround, and that
// withAround adds them to the sites whose states are recorded.
func TestCondsAround(t *testing.T) {
	r := &repairer{prog: &collect.Program{Dir: "/m", Sites: []collect.Site{
		{ID: 0, Kind: collect.Cond, File: "/m/a.go", Line: 3, Col: 5},
		{ID: 1, Kind: collect.Cond, File: "/m/b.go", Line: 3, Col: 5},
		{ID: 2, Kind: collect.Guard, File: "/m/b.go", Line: 3, Col: 2},
		{ID: 3, Kind: collect.Cond, File: "/m/b.go", Line: 4, Col: 6, Inside: [][2]int{{3, 5}}},
		{ID: 4, Kind: collect.Cond, File: "/m/b.go", Line: 5, Col: 7, Inside: [][2]int{{4, 6}, {3, 5}}},
		{ID: 5, Kind: collect.Guard, File: "/m/b.go", Line: 6, Col: 4, Inside: [][2]int{{5, 7}, {4, 6}, {3, 5}}},
		{ID: 6, Kind: collect.Guard, File: "/m/b.go", Line: 9, Col: 2},
	}}}
	for _, tt := range []struct {
		id   int
		want []int
	}{
		{3, []int{1}},
		{4, []int{3, 1}},
		{5, []int{4, 3}},
		{6, nil},
	} {
		if got := r.condsAround(tt.id); !slices.Equal(got, tt.want) {
			t.Errorf("condsAround(%d) = %v, want %v", tt.id, got, tt.want)
		}
	}
	if got, want := r.withAround([]int{5, 6}), []int{5, 6, 4, 3}; !slices.Equal(got, want) {
		t.Errorf("withAround = %v, want %v", got, want)
	}
}

// TestAroundNext checks that the conditions around a site come next only
// where its angelic values were constant, when the failing tests reached
// them, and once.
func TestAroundNext(t *testing.T) {
	prog := &collect.Program{Dir: "/m", Sites: []collect.Site{
		{ID: 0, Kind: collect.Cond, File: "/m/b.go", Line: 3, Col: 5},
		{ID: 1, Kind: collect.Cond, File: "/m/b.go", Line: 4, Col: 6, Inside: [][2]int{{3, 5}}},
		{ID: 2, Kind: collect.Guard, File: "/m/b.go", Line: 5, Col: 4, Inside: [][2]int{{4, 6}, {3, 5}}},
	}}
	ids := func(ss []angelic.Suspicion) []int {
		var out []int
		for _, s := range ss {
			out = append(out, s.Site)
		}
		return out
	}
	for _, tt := range []struct {
		name     string
		constant bool
		reached  []int
		searched []int
		want     []int
	}{
		{"constant", true, []int{2, 1, 0}, nil, []int{1, 0}},
		{"not constant", false, []int{2, 1, 0}, nil, nil},
		{"outer not reached", true, []int{2, 1}, nil, []int{1}},
		{"inner searched already", true, []int{2, 1, 0}, []int{1}, []int{0}},
	} {
		r := &repairer{prog: prog, res: &Result{}, constant: map[int]bool{2: tt.constant}, around: map[int]bool{}}
		for _, id := range tt.reached {
			r.localized = append(r.localized, angelic.Suspicion{Site: id})
		}
		for _, id := range tt.searched {
			r.res.Sites = append(r.res.Sites, SiteReport{ID: id})
		}
		if got := ids(r.aroundNext(2)); !slices.Equal(got, tt.want) {
			t.Errorf("%s: aroundNext = %v, want %v", tt.name, got, tt.want)
		}
		if got := r.aroundNext(2); len(got) > 0 {
			t.Errorf("%s: a second aroundNext = %v, want none", tt.name, ids(got))
		}
	}
}
