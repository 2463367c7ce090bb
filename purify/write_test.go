package purify

import (
	"strings"
	"testing"
)

func TestPurifyMismatches(t *testing.T) {
	w := &WrittenFile{Package: "p", Fragments: []Fragment{
		{Test: "TestA", Name: "TestA_1"}, {Test: "TestA", Name: "TestA_2"},
		{Test: "TestB", Name: "TestB_1"}, {Test: "TestB", Name: "TestB_2"},
		{Test: "TestC", Name: "TestC_iter1"}, {Test: "TestC", Name: "TestC_iter2"},
	}}
	passed := map[TestID]bool{{Package: "p", Test: "TestA"}: true, {Package: "p", Test: "TestC"}: true}
	actions := map[string]string{
		"TestA_1": "pass", "TestA_2": "fail", // a passing test's fragment fails
		"TestB_1": "pass", "TestB_2": "pass", // a failing test's fragments all pass
		"TestC_iter1": "pass", "TestC_iter2": "", // TestC_iter2 made the binary exit
	}
	w.Fragments = append(w.Fragments, Fragment{Test: "TestD", Name: "TestD_1"}) // never ran
	var msgs []string
	for _, m := range mismatches(w, actions, passed) {
		msgs = append(msgs, m.test+": "+m.msg)
	}
	got := strings.Join(msgs, "\n")
	want := "TestA: TestA passes but its fragment TestA_2: fail\n" +
		"TestC: TestC passes but its fragment TestC_iter2: made the test binary exit\n" +
		": TestD_1 not verified: the test binary exited before it ran\n" +
		"TestB: TestB fails but none of its fragments does"
	if got != want {
		t.Errorf("mismatches:\n%s\nwant:\n%s", got, want)
	}
}
