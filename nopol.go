package nopol

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"time"

	"github.com/nopol-go/nopol/collect"
)

// Kinds selects the kinds of repair tried.
type Kinds uint8

// The kinds of repair.
const (
	// KindCond replaces an if condition.
	KindCond Kinds = 1 << iota
	// KindGuard adds a guard around a statement, or an early return
	// before it.
	KindGuard
	// KindAll tries both; conditions first among equally suspicious sites.
	KindAll = KindCond | KindGuard
)

// ParseKinds parses "cond", "guard" or "all".
func ParseKinds(s string) (Kinds, bool) {
	switch s {
	case "cond":
		return KindCond, true
	case "guard":
		return KindGuard, true
	case "all":
		return KindAll, true
	}
	return 0, false
}

// Options configure a repair.
type Options struct {
	// What to repair.

	// Dir is a directory in the module to repair; "" is the current one.
	Dir string
	// Patterns select the packages whose tests are run and whose sites may
	// be repaired; nil means ./... .
	Patterns []string
	// Run, when set, selects the failing tests to repair by name; other
	// failing tests are ignored (they may keep failing).
	Run *regexp.Regexp
	// Skip, when set, leaves the top-level tests it matches out of every
	// run (go test -skip): a test that hangs, or needs what nopol's
	// machine lacks.
	Skip *regexp.Regexp
	// Kinds are the repairs tried; 0 means KindAll.
	Kinds Kinds
	// Strategies restricts the guards to these of the package's
	// Strategies; nil means all.
	Strategies []string
	// Tags are build tags for every build and run (go build -tags).
	Tags []string

	// How hard to search.

	// Backend is the synthesis backend ("z3", "enum"); "" is the default.
	Backend string
	// Timeout bounds the whole repair; 0 means 10 minutes. When it
	// expires the repair ends without a patch.
	Timeout time.Duration
	// Effort bounds the later tiers of the search (the guards' other
	// exits, per-evaluation values, more guard sites): a tier starts a
	// site only while the later tiers have done less work than Effort
	// times the work of the first tier (the most suspicious sites and
	// the mutants of the top conditions, always searched), and at least
	// 200 units. The work is counted in test runs: one unit per run, 20
	// more for a run that hangs, 10 for a run of a whole suite; counted,
	// not timed, the bound stops the search at the same place on every
	// machine. 0 means 2, a negative value no bound but Timeout (nopol
	// fix -effort).
	Effort float64
	// MaxSites is how many of the most suspicious sites are searched in
	// each pass (conditions and first guard styles; then the guards'
	// other exits; then up to twice as many more guard sites while half the
	// time limit is left); 0 means 20 (nopol fix -sites).
	MaxSites int
	// MaxCandidates is how many synthesized candidates are validated per
	// site; 0 means 10.
	MaxCandidates int
	// Parallel is how many test processes run at once; 0 means
	// GOMAXPROCS, at most 4.
	Parallel int
	// TestMemory caps the memory of each test process, in bytes: a test
	// binary that go test starts gets it as its address-space limit (a
	// test that allocates past it dies with "fatal error: out of memory",
	// a crash of that test), an instrumented run is stopped once its
	// resident memory passes it (Linux). 0 means half of the machine's
	// memory (where /proc/meminfo tells; no cap elsewhere), a negative
	// value no cap (nopol fix -mem). Forced runs have a lower cap of
	// their own. A Go test binary does not start under about 1 GiB of
	// address space.
	TestMemory int64
	// NoPurify turns test purification off. By default impure failing
	// tests are split (B-Refactoring): a failing test that fails under both
	// forced values as a whole has its failures attributed to its fragments
	// (top-level statements, table-loop iterations), and the angelic value
	// is forced in the failing fragments only; the other fragments give
	// examples with their actual values. With NoPurify, values are forced
	// per whole test (nopol fix -purify=false).
	NoPurify bool
	// NoMutants turns the mutation fallback off. By default, when no
	// synthesized condition passes the suite, the original conditions of
	// the most suspicious Cond sites are mutated (negated, comparison
	// operators replaced, && and || swapped, operands of && and || and
	// `!` dropped) and the mutants validated like candidates: this
	// repairs conditions that must change value within one test, which
	// no angelic value fits (nopol fix -mutants=false).
	NoMutants bool
	// NoPerEval turns the last tier off: per-evaluation angelic values at
	// the conditions where a failing test failed under every constant
	// value (nopol fix -pereval=false).
	NoPerEval bool
	// Screen turns on the screen of the guard sites (off by default):
	// before the later tiers search the guards' other exits, each guard
	// site of theirs (up to 200) has its first exit forced in the failing
	// tests, and the sites where a failing test then passes take turns
	// with the rank order (nopol fix -screen). Measured on the training
	// split, it reached the developer's site or function in three real
	// missing-guard bugs and the conditions synthesized there were wrong:
	// three more wrong patches, none more correct (benchmarks/RESULTS.md).
	Screen bool
	// Speculative prints a plausible patch even when it rests on a guess
	// the tests do not check: a condition that shares none of the
	// original's variables, a new error the function never returns, a
	// condition far from the original where a condition over other
	// values fits the recorded states as well. By default such a patch is
	// withheld (Result.Withheld) and the search goes on (nopol fix
	// -speculative).
	Speculative bool

	// Where progress goes.

	// Logf receives one line per step ("phase: ...", printf-style,
	// without a final newline or a command's prefix: the CLI adds
	// "nopol: "); nil is silent.
	Logf func(format string, args ...any)
	// Verbose adds a line per test run to Logf.
	Verbose bool
}

// Strategies are the guard strategies in the order they are tried:
// "skip" wraps the statement, the others leave before it (see
// collect.Strategies).
var Strategies = collect.Strategies

// Result is the outcome of a repair: the patch if one was found, and what
// was tried.
type Result struct {
	// The module.

	// Module is the module path, Dir its root.
	Module string `json:"module"`
	Dir    string `json:"dir"`

	// The patch, when one was found.

	// Patched reports whether a patch was found; Reason says why not.
	Patched bool   `json:"patched"`
	Reason  string `json:"reason,omitempty"`
	// Site is the repaired site.
	Site *SiteReport `json:"site,omitempty"`
	// Style is "cond" (condition replaced), "guard" (statement wrapped),
	// "return" (early return before the statement) or "replace" (a nil
	// operand replaced before the statement, NpeFix: Exit assigns it).
	Style string `json:"style,omitempty"`
	// Strategy is a guard's strategy (collect.Strategies: "skip",
	// "continue", "reuse-return", ...) and Exit the statement an exit
	// guard runs ("return nil, io.EOF").
	Strategy string `json:"strategy,omitempty"`
	Exit     string `json:"exit,omitempty"`
	// Tier is the search tier that found the patch, in the order they run
	// (doc.go): "nil-checks" (the runtime's nil check joined to an
	// interrupted condition), "smells" (a condition wrong on its face:
	// smells.go), "siblings" (the condition the copies of the function
	// write: siblingconds.go), "first" (the most suspicious sites),
	// "mutants", "twins", "exits" (the guards' other exits),
	// "per-evaluation", "more-exits", "nil-guards", "npefix" or
	// "deeper" (the sites ranked after the first Options.MaxSites).
	Tier string `json:"tier,omitempty"`
	// Condition is the new condition (or guard) as Go source.
	Condition string `json:"condition,omitempty"`
	// File is the patched file, slash-separated and relative to Dir.
	File string `json:"file,omitempty"`
	// Diff is the unified diff of File ("--- a/File", "+++ b/File").
	Diff string `json:"diff,omitempty"`
	// Source is the patched content of File.
	Source []byte `json:"-"`
	// Edit is the patch as a replacement of whole lines of File.
	Edit *Edit `json:"edit,omitempty"`
	// Explanation says why the patch is what it is, and how far to trust
	// it.
	Explanation *Explanation `json:"explanation,omitempty"`

	// Withheld are the plausible patches not printed because they are
	// speculative (see Options.Speculative), in the order found; the
	// search went on after each.
	Withheld []WithheldPatch `json:"withheld"`

	// The search.

	// Tests are the results of the baseline run.
	Tests []TestReport `json:"tests"`
	// Flaky are the tests that passed and failed on identical runs, left
	// out of every verdict; Skipped the tests left out with
	// Options.Skip ("path.TestX").
	Flaky   []string `json:"flaky"`
	Skipped []string `json:"skipped"`
	// StillFailing are the failing tests that fail only after the tests
	// before them in the suite (they pass alone, so nopol cannot repair
	// them) and still fail in the patched file's suite run: with the
	// patch, a plain go test of the package still fails. (A flaky test's
	// failure there is luck, and is not listed.)
	StillFailing []string `json:"still_failing,omitempty"`
	// Sites are the sites searched, in rank order.
	Sites []SiteReport `json:"sites"`
	// Candidates are the candidates validated, in order.
	Candidates []CandidateReport `json:"candidates"`
	// Phases are the wall-clock time spent per phase, in pipeline order
	// (instrumenting overlaps the baseline run: its phase is the wait
	// after it); Total the whole repair.
	Phases []Phase       `json:"phases"`
	Total  time.Duration `json:"-"`
	// Runs counts the test processes run.
	Runs int `json:"runs"`
	// TimeBounds counts, by kind, the wall-clock bounds that decided
	// something in the search: "synthesis", searches a time bound cut
	// before their work bound (synth.Stats); "tier", later tiers stopped
	// at half the time limit. Every other bound of the search is counted
	// in work, the same on every machine: a result with no time bounds
	// is the same on a slower or busier machine (test outcomes aside),
	// one with some may not be.
	TimeBounds map[string]int `json:"time_bounds,omitempty"`
}

// TestReport is one test of the baseline run.
type TestReport struct {
	Package string `json:"package"`
	Name    string `json:"name"`
	Passed  bool   `json:"passed"`
	// Repaired reports whether the repair targets this failing test.
	Repaired bool `json:"repaired,omitempty"`
	// Flaky reports that the test passed and failed on identical runs:
	// it is left out of every verdict.
	Flaky bool `json:"flaky,omitempty"`
	// NotRun reports that the test has no result in the plain run: other
	// tests' crashes kept it from running. A patch must not make it fail.
	NotRun bool `json:"not_run,omitempty"`
	// RunsAfter is, for a test that gives its suite result only after
	// the tests the suite runs before it, how many of them each of its
	// runs ran first (collect.Run.Before).
	RunsAfter int `json:"runs_after,omitempty"`
	// File (relative to the module root) and Line are where the test
	// function is declared, when known.
	File string `json:"file,omitempty"`
	Line int    `json:"line,omitempty"`
}

// SiteReport describes a site and how its search went.
type SiteReport struct {
	ID int `json:"id"`
	// Kind is "cond" or "guard".
	Kind string `json:"kind"`
	// File is relative to the module root; Line and Col as in collect.Site.
	File     string `json:"file"`
	Line     int    `json:"line"`
	Col      int    `json:"col"`
	Func     string `json:"func"`
	Original string `json:"original"`
	// Score is the Ochiai suspiciousness.
	Score float64 `json:"score"`
	// Style is the guard style searched ("guard", "return", "replace"), "cond" for
	// conditions; Strategy and Exit as in Result.
	Style    string `json:"style"`
	Strategy string `json:"strategy,omitempty"`
	Exit     string `json:"exit,omitempty"`
	// Method is how the site was searched: "synthesis" (angelic values,
	// then a condition synthesized from the recorded states),
	// "mutation" (mutants of the original condition, the fallback when
	// synthesis found no patch; see Options.NoMutants) or "npefix" (a
	// nil operand that a failing test dereferenced, replaced where it is
	// nil; see collect.NilFix), or "nil-check" (where a failing test
	// panicked with a nil dereference, the check the runtime made,
	// joined to the condition there or as a guard before the statement;
	// see nilcheck.go), or "smell" (a condition wrong on its face, an
	// operand twice in one chain or an index a conjunct puts out of
	// range, and its mutants without it; see smells.go), or "sibling"
	// (at a condition, the condition the copies of its function write
	// at the same place; see siblingconds.go). A patched site
	// says "bounds" when the patch is the condition with the bounds check
	// the runtime made when a failing test panicked in it or in its
	// branch (an index out of range).
	Method string `json:"method"`
	// Needs are the failing tests' angelic values ("TestX=false"; per
	// evaluation as in Explanation.Needs).
	Needs []string `json:"needs,omitempty"`
	// Examples counts the evaluations recorded in passing runs, Distinct
	// their distinct states (at most 200 go to synthesis).
	Examples int `json:"examples,omitempty"`
	Distinct int `json:"distinct,omitempty"`
	// Purified reports that a failing test failed under every forced
	// value as a whole and was split into fragments (purification, on unless Options.NoPurify);
	// Fragments are, when the site qualified, the fragments in which the
	// angelic value was forced, per test.
	Purified  bool                `json:"purified"`
	Fragments []ConstituentReport `json:"fragments,omitempty"`
	// Rejected are the candidates left out because they break an
	// anti-pattern ("cond: rule: why"; see antipattern.go).
	Rejected []string `json:"rejected,omitempty"`
	// Relaxed are, at a guard around a statement where no condition fit
	// the recorded states, or where the first fit joins clauses (the
	// smaller fits are then validated first), the passing tests that also
	// passed with the statement skipped: their examples were left out and
	// the condition synthesized again. At a condition, the passing tests
	// that pass with the other outcome forced, when every example needs
	// one outcome or a mutant closer to the original than the first fit
	// misses only their examples (validated first then).
	Relaxed []string `json:"relaxed,omitempty"`
	// Unchecked are the passing tests that pass with the other outcome
	// too at some evaluations where a failing test needs it (in the same
	// state, or where the nearest observed boolean says so): their
	// examples there were left out ("TestX: 2 evaluations"; see
	// snapshot.go dropIndifferent).
	Unchecked []string `json:"unchecked,omitempty"`
	// Outcome says how the search of this site ended.
	Outcome string `json:"outcome"`
	// withheld counts the plausible candidates withheld at the site.
	withheld int
	// guessed reports per-evaluation angelic values guessed from an
	// observed predicate (angelic.Force.Guess); negated is the most
	// evaluations a failing test's per-evaluation value negated; joined
	// that a guess joined the original with the predicate (a clause
	// added, collect.Predicate.Combine); everyEval that a failing test's
	// value negated every evaluation (angelic.Force.EveryEval).
	guessed, joined, everyEval bool
	// everyEvalIn says that a failing test needed it negated in its
	// failing fragments only.
	everyEvalIn bool
	negated     int
}

// negatedInFragments reports that the site's specification is the
// original negated at every evaluation in the failing fragments only.
func (rep *SiteReport) negatedInFragments() bool {
	return rep.Method == "per-evaluation" && rep.everyEvalIn && rep.negated == 0
}

// ConstituentReport is a constituent of a failing test (a top-level
// statement of the test function, or an iteration of its table loop) in
// which the angelic value was forced: SiteReport.Fragments lists them, the
// fragment of the test.
type ConstituentReport struct {
	Test string `json:"test"`
	// Segment is the index of the statement in the test function, from 0;
	// Iteration the table loop's iteration, from 1 (0 outside a loop).
	Segment   int `json:"segment"`
	Iteration int `json:"iteration,omitempty"`
	// File and Line locate the statement (File relative to the module
	// root).
	File string `json:"file,omitempty"`
	Line int    `json:"line,omitempty"`
	// Value is the forced value: "true", "false", "skip" or "return";
	// "negated" where the condition was negated at each evaluation in
	// the fragment.
	Value string `json:"value"`
}

// String renders f as "file:line" with the iteration, if any.
func (f ConstituentReport) String() string {
	s := fmt.Sprintf("%s:%d", f.File, f.Line)
	if f.File == "" {
		s = fmt.Sprintf("statement %d", f.Segment)
	}
	if f.Iteration > 0 {
		s += fmt.Sprintf(" (iteration %d)", f.Iteration)
	}
	return s
}

// CandidateReport is one validated candidate.
type CandidateReport struct {
	Site  int    `json:"site"`
	Style string `json:"style"`
	// Method is "synthesis", "mutation", "npefix", "nil-check" or "smell", as SiteReport.Method,
	// or "sibling" (a sibling function's guard), "twin" (a guard the file
	// writes after the same statement elsewhere) or "bounds" (a bounds
	// check added before an index).
	Method    string `json:"method"`
	Condition string `json:"condition"`
	Passed    bool   `json:"passed"`
	// Failed are the tests that failed with the candidate.
	Failed []string `json:"failed,omitempty"`
	// FailingOnly reports a candidate run on the failing tests only,
	// with at most five passing tests that failed earlier candidates:
	// one of them failed (or hung), so the suite was not run and Failed
	// lists the first of them to fail (the run stops there; examples
	// and parallel subtests already started still run).
	FailingOnly bool          `json:"failing_only,omitempty"`
	TimedOut    bool          `json:"timed_out,omitempty"`
	Duration    time.Duration `json:"-"`
}

// MarshalJSON adds the duration in milliseconds.
func (c CandidateReport) MarshalJSON() ([]byte, error) {
	type plain CandidateReport
	return marshal(struct {
		plain
		MS float64 `json:"ms"`
	}{plain(c), millis(c.Duration)})
}

// marshal is json.Marshal without HTML escaping: conditions keep their
// "<" and "&&".
func marshal(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(b.Bytes(), "\n"), nil
}

func millis(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// Phase is the time spent in one phase of the repair.
type Phase struct {
	Name     string
	Duration time.Duration
}

// MarshalJSON renders the duration in milliseconds.
func (p Phase) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		Name string  `json:"name"`
		MS   float64 `json:"ms"`
	}{p.Name, millis(p.Duration)})
}

// InputError reports that the module cannot be repaired as given: it does
// not compile, no test fails, a failing test is flaky, a test hangs.
type InputError struct {
	Msg string
}

func (e *InputError) Error() string { return e.Msg }

// EnvError reports that the environment keeps nopol from working: the go
// command cannot run, the temp dir cannot be written.
type EnvError struct {
	Msg string
}

func (e *EnvError) Error() string { return e.Msg }

// FillLists makes the nil lists of res empty, so that JSON shows [] and
// never null.
func (res *Result) FillLists() {
	empty(&res.Tests)
	empty(&res.Flaky)
	empty(&res.Skipped)
	empty(&res.Sites)
	empty(&res.Candidates)
	empty(&res.Phases)
	empty(&res.Withheld)
}

// WithheldPatch is a plausible patch withheld as speculative: it passes
// the whole suite, but rests on a guess the tests do not check (see
// Options.Speculative). Fields as in Result; Line is the site's.
type WithheldPatch struct {
	File      string `json:"file"`
	Line      int    `json:"line"`
	Original  string `json:"original"`
	Style     string `json:"style"`
	Strategy  string `json:"strategy,omitempty"`
	Exit      string `json:"exit,omitempty"`
	Condition string `json:"condition"`
	Diff      string `json:"diff"`
	// Why names the rule ("unrelated", "error-new", "far-ambiguous") and
	// says what the tests left open.
	Why string `json:"why"`
}

// empty makes a nil slice an empty one.
func empty[T any](s *[]T) {
	if *s == nil {
		*s = []T{}
	}
}
