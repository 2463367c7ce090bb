package nopol

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/nopol-go/nopol/internal/constituent"
)

func TestRunBefore(t *testing.T) {
	reach := func(ids ...int) string {
		s := ""
		for _, id := range ids {
			s += constituent.ReachLine(id)
		}
		return s
	}
	// Lines 10 (t.Log), 20 (t.Errorf) and 30 (a helper's call) of a_test.go.
	isFailure := func(file string, line int) bool { return file == "a_test.go" && line == 20 }
	for _, c := range []struct {
		name, output string
		want         []int // nil: unknown
	}{
		{"failure after some sites", "=== RUN   TestA\n" + reach(1, 2) + "    a_test.go:20: bad\n" + reach(3) + "--- FAIL: TestA (0.00s)\n", []int{1, 2}},
		{"a log first is no failure", reach(1) + "    a_test.go:10: input 7\n" + reach(2) + "    a_test.go:20: bad\n" + reach(3), []int{1, 2}},
		{"a helper's message is not known to fail", reach(1) + "    a_test.go:30: not equal\n" + reach(2), nil},
		{"no site before the failure", "    a_test.go:20: bad\n" + reach(1), []int{}},
		{"a panic", reach(1) + "panic: boom\n\ngoroutine 7 [running]:\nexample.com/p.F()\n\t/m/p/p.go:9 +0x1d\n", nil},
		{"cut output", reach(1) + "[nopol: cut 1000 bytes of output]\n    a_test.go:20: bad\n", nil},
		{"a subtest that passed logs", "=== RUN   TestA/x\n" + reach(1) + "    a_test.go:20: fine\n--- PASS: TestA/x (0.00s)\n=== RUN   TestA/y\n" + reach(2) + "    a_test.go:20: bad\n", []int{1, 2}},
	} {
		got := runBefore(c.output, isFailure)
		if (got == nil) != (c.want == nil) {
			t.Errorf("%s: runBefore = %v, want %v", c.name, got, c.want)
			continue
		}
		if ids := slices.Sorted(maps.Keys(got)); got != nil && !slices.Equal(ids, c.want) {
			t.Errorf("%s: runBefore = %v, want %v", c.name, ids, c.want)
		}
	}
}

func TestFailureCall(t *testing.T) {
	for line, want := range map[string]bool{
		`		t.Errorf("got %d", n)`:               true,
		`	if err != nil { t.Fatal(err) }`:       true,
		`		b.FailNow()`:                         true,
		`	t.Logf("input %q", in)`:               false,
		`	return fmt.Errorf("bad: %w", err)`:    false,
		`	log.Fatal(err)`:                       false,
		`	assert.Equal(t, want, got)`:           false,
		`	err := errors.New("x"); t.Error(err)`: true,
		`	fmt.Errorf("x"); s.Errorf("y")`:       true,
	} {
		got := false
		for _, m := range failureCall.FindAllStringSubmatch(line, -1) {
			got = got || !notTB[m[1]]
		}
		if got != want {
			t.Errorf("%q reports a failure: %v, want %v", line, got, want)
		}
	}
}

// BenchmarkRunBefore reads a large coverage run's output: 2,000 reach
// lines among 20,000 lines of a table test's subtests, the failure near
// the end.
func BenchmarkRunBefore(b *testing.B) {
	var sb strings.Builder
	for i := range 20000 {
		if i%10 == 0 {
			sb.WriteString(constituent.ReachLine(i / 10))
		}
		fmt.Fprintf(&sb, "=== RUN   TestTable/case_%d\n--- PASS: TestTable/case_%d (0.00s)\n", i, i)
	}
	sb.WriteString("=== RUN   TestTable/last\n    a_test.go:20: bad\n--- FAIL: TestTable/last (0.00s)\n")
	out := sb.String()
	isFailure := func(file string, line int) bool { return line == 20 }
	b.SetBytes(int64(len(out)))
	for b.Loop() {
		if got := runBefore(out, isFailure); len(got) != 2000 {
			b.Fatalf("%d sites before the failure", len(got))
		}
	}
}
