package constituent

import (
	"strings"
	"testing"
)

// FuzzParseOutput feeds go test output, as test binaries and gocheck
// print it, to ParseOutput: it never panics, and every location it
// returns names a .go file and a line the output holds.
func FuzzParseOutput(f *testing.F) {
	f.Add("=== RUN   TestA\n    a_test.go:12: Abs(2) = 3\n--- FAIL: TestA (0.00s)\n")
	f.Add("panic: boom [recovered]\n\ngoroutine 7 [running]:\nexample.com/m.handle(0xc000)\n\t/tmp/m/m.go:30 +0x5c\n" +
		"panic({0x5, 0x6})\n\t/usr/local/go/src/runtime/panic.go:792 +0x132\nexample.com/m.parse(0xc000)\n\t/tmp/m/m.go:12 +0x5c\n")
	f.Add("... Panic: runtime error (PC=0x48D339)\n\n/usr/local/go/src/runtime/panic.go:860\n  in gopanic\nyaml.go:294\n  in handleErr\n" +
		"/usr/local/go/src/runtime/panic.go:860\n  in gopanic\nparserc.go:792\n  in f\n")
	f.Add("nopol-constituent 1 2\n" + EvalLine(3, 4) + "nopol-reach 5\n\t/tmp/a.go:3\n")
	f.Fuzz(func(t *testing.T, output string) {
		for _, loc := range ParseOutput(output) {
			if !strings.HasSuffix(loc.File, ".go") || loc.Line < 0 || !strings.Contains(output, loc.File) {
				t.Errorf("ParseOutput gave %+v, not a location of the output", loc)
			}
		}
	})
}
