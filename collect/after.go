package collect

import (
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/nopol-go/nopol/internal/constituent"
)

// Tests that depend on the tests before them: a test that sets a package
// variable (color.NoColor = false) changes what the tests after it in the
// suite see, and a test run alone may then fail, or fail otherwise, where
// it passes or fails in the whole suite. Run.Before runs such a test
// after the tests before it, with the hook held until it starts.

// Marked reports whether the function of test carries the constituent
// markers: the hook then knows when it starts, which Run.Before needs.
func (prog *Program) Marked(pkg, test string) bool {
	return slices.ContainsFunc(prog.constituents[pkg], func(c constituent.Constituent) bool { return c.Test == test })
}

// RunAfter makes every later Run of test, without a Before of its own,
// run after the tests before (see Run.Before); nil undoes it.
func (prog *Program) RunAfter(test TestID, before []string) {
	prog.afterMu.Lock()
	defer prog.afterMu.Unlock()
	if before == nil {
		delete(prog.after, test)
		return
	}
	if prog.after == nil {
		prog.after = map[TestID][]string{}
	}
	prog.after[test] = slices.Clone(before)
}

// RunsAfter returns the tests RunAfter gave test, nil if none.
func (prog *Program) RunsAfter(test TestID) []string {
	prog.afterMu.Lock()
	defer prog.afterMu.Unlock()
	return prog.after[test]
}

// afterRun returns the -test.run pattern and the NOPOL_AFTER value of r:
// r's own pattern and "" when r runs alone.
func (prog *Program) afterRun(r Run) (pattern, after string) {
	before := r.Before
	if before == nil {
		before = prog.RunsAfter(TestID{r.Package, r.Test})
	}
	if len(before) == 0 || r.Subtest != "" || !prog.Marked(r.Package, r.Test) {
		return testRunPattern(r.Test, r.Subtest, r.Subtests), ""
	}
	names := make([]string, 0, len(before)+1)
	marked := 0
	for _, t := range before {
		if t == r.Test {
			continue
		}
		names = append(names, regexp.QuoteMeta(t))
		if prog.Marked(r.Package, t) {
			marked++
		}
	}
	names = append(names, regexp.QuoteMeta(r.Test))
	return "^(" + strings.Join(names, "|") + ")$", strconv.Itoa(marked)
}

// fromStart is output from the line where test starts: what the tests run
// before it printed is not its output.
func fromStart(output, test string) string {
	i := strings.Index(output, "=== RUN   "+test+"\n")
	if i < 0 {
		return output
	}
	if j := strings.LastIndexByte(output[:i], '\n'); j >= 0 {
		return output[j+1:]
	}
	return output
}
