package collect

// This file is the contract between collect and the root package. The
// bodies marked TODO are filled in by the collect work; signatures change
// only together with their callers in the root package.

import (
	"context"
	"fmt"
	"go/token"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/nopol-go/nopol/internal/constituent"
	"github.com/nopol-go/nopol/internal/gotest"
)

// SiteKind says how a site can be repaired.
type SiteKind uint8

const (
	// Cond is an if condition (including else-if); repaired by replacing it.
	Cond SiteKind = iota + 1
	// Guard is a statement that can take a guard; repaired by wrapping it in
	// `if COND { stmt }` (GuardWrap, where Site.CanWrap) or preceding it
	// with `if COND { exit }` (GuardExit(k): the k-th of Site.Exits).
	Guard
)

// GuardStyle says which guard shape a Guard site's patch takes.
type GuardStyle uint8

const (
	GuardWrap   GuardStyle = iota + 1 // if COND { stmt } — COND true runs stmt
	GuardReturn                       // if COND { Exits[0].Body }; stmt — COND true leaves early
)

// GuardExit is the style of a guard leaving by Site.Exits[k].
func GuardExit(k int) GuardStyle { return GuardReturn + GuardStyle(k) }

// Exit returns the index in Site.Exits of an exit style; ok is false for
// GuardWrap.
func (g GuardStyle) Exit() (k int, ok bool) {
	if g >= GuardReturn {
		return int(g - GuardReturn), true
	}
	return 0, false
}

// ValueKind is the kind of an observed expression.
type ValueKind uint8

const (
	KindBool ValueKind = iota + 1
	KindInt
	KindFloat
	KindString
)

// Observed is an expression observed at a site, as Go source valid at the
// site's position ("n", "len(s)", "p == nil", "p.n", "x.y.z" not beyond one
// level of fields).
type Observed struct {
	Expr string
	Kind ValueKind
	// Nilable is the Expr whose nil-ness guards this one, "" if none: for
	// "p.n" it is "p". A missing value is recorded when it is nil.
	NilGuard string
	// Char reports an integer of type byte or rune: a synthesized
	// condition compares it with a character literal ('_', not 95).
	Char bool `json:",omitempty"`
	// Enum reports an integer of a defined type other than byte and rune
	// (reflect.Kind, time.Month): its values have names.
	Enum bool `json:",omitempty"`
	// Call reports a call (see calls.go): a snapshot run that times out
	// is run again without them (Run.NoCalls).
	Call bool `json:",omitempty"`
	// Invented reports a standard-library predicate nopol builds over an
	// operand and a constant (strings.Contains(val, ",")) where the
	// site's function never calls that function: a guess at what the
	// code might test, not something it tests.
	Invented bool `json:",omitempty"`
	// Shadow reports a copy of an atom of the site's condition that has
	// no side effect (vf.IsNil() in `!function.IsType(vf.Type(),
	// function.Less) || vf.IsNil()`), evaluated by the snapshot: where
	// the condition's evaluation skipped the atom (a short circuit), its
	// value stands for the atom's, which would be missing (synthesis
	// rejects a candidate that reads a missing value). It is no input of
	// its own; it follows every other observed expression.
	Shadow bool `json:",omitempty"`
	// NoOp reports, at a guard site that can wrap the assignment
	// "x = v", the observed "x == v": where it holds, the statement
	// changes nothing, and the evaluation needs neither outcome of a
	// guard around it (gorilla/mux's match.MatchErr = nil where it is nil
	// already). It is no input; it follows every other observed
	// expression.
	NoOp bool `json:",omitempty"`
	// Type is the Go type of a number or a string ("int",
	// "reflect.Kind"): only operands of one type compare or add.
	Type string `json:",omitempty"`
	// Groups are the enumerations of the package (Constant.Group) whose
	// names the site's function compares Expr with (state == sbATerm,
	// switch state { case sbAny: }): the names it stands for.
	Groups []string `json:",omitempty"`
}

// Constant is a literal of the enclosing function or a named constant of
// the package, with its Go source.
type Constant struct {
	Expr  string
	Value Value
	// Factor: a literal the function writes only as an operand of *, /,
	// %, << or >> (frac *= 10, n % 7), as an array length ([10]int) or
	// in exponent form (1e1): a base, a scale or a size, not a value
	// anything is compared with.
	Factor bool
	// Bound: a character literal the function orders something against
	// (c >= 'a', c < 0x80): one end of a range of characters. A character
	// only tested for equality (c == 'T', case 'T':) is not one.
	Bound bool
	// Type is the Go type of a typed constant (reflect.Interface is a
	// reflect.Kind), "" for an untyped one, which goes with any number.
	Type string
	// Group is, for a name of an enumeration of the package (an iota
	// group of three names or more), the group's first name: sbAny for
	// sbATerm, gcCc for gcPe. Untyped, two groups' names are numbers that
	// compare; they stand for different things.
	Group string `json:",omitempty"`
}

// Value is one observed value. Only the field matching Kind is meaningful.
type Value struct {
	Kind    ValueKind `json:"k"`
	Bool    bool      `json:"b,omitempty"`
	Int     int64     `json:"i,omitempty"`
	Float   float64   `json:"f,omitempty"`
	Str     string    `json:"s,omitempty"`
	Missing bool      `json:"m,omitempty"`
}

// Site is a place that can be repaired.
type Site struct {
	// ID is the site's index in Program.Sites; stable for the same source.
	ID int
	// Kind is Cond or Guard.
	Kind SiteKind
	// Package is the import path; File the absolute path; Line and Col the
	// position of the condition (Cond) or statement (Guard).
	Package   string
	File      string
	Line, Col int
	// Func is the enclosing function's name (Recv.Method for methods);
	// FuncLines its first and last lines (of the declared function
	// around a function literal).
	Func      string
	FuncLines [2]int
	// Original is the Go source of the condition (Cond) or of the
	// statement (Guard).
	Original string
	// CanWrap reports whether a Guard site's statement can be wrapped
	// (GuardWrap): not a declaration whose names are used later, not a
	// compound statement.
	CanWrap bool
	// Exits are the ways a guard can leave before a Guard site's
	// statement, in the order they are tried (see Strategies).
	Exits []Exit
	// Observed are the expressions recorded at each evaluation, in a fixed
	// order; Constants the code's constants around the site.
	Observed  []Observed
	Constants []Constant
	// Then describes a Cond site's then-branch; nil for a Guard.
	Then *Branch `json:",omitempty"`
	// Unread are a Cond site's condition with one operand replaced by a
	// parameter of the enclosing function that its body never reads, of
	// the operand's type (see unreadSubstitutions).
	Unread []string `json:",omitempty"`
	// Alternates are a Cond site's condition with one operand replaced by
	// an expression of its type that the function writes elsewhere and
	// ties to it: a boolean local refined from the operand, or another
	// method of the same receiver called with the same arguments (see
	// alternateSubstitutions).
	Alternates []string `json:",omitempty"`
	// EnumNames are the names in a Cond site's condition, as written, of
	// constants declared in an enumeration: the package's const groups of
	// three names or more with a value that uses iota (prMidLetter in
	// uniseg), and another package's defined integer types with three
	// constants or more (reflect.String): their order is the order of
	// their declaration, not a magnitude.
	EnumNames []string `json:",omitempty"`
	// ElseAfter are, for a Cond site that is the condition of an else
	// if, the conditions of the ifs before it in its chain, nearest
	// first: where one of them holds, its branch ran instead.
	ElseAfter []string `json:",omitempty"`
	// ElseIfs are, for a Cond site that is the condition of an if with
	// else ifs after it, their conditions, nearest first: one of them is
	// tested only where the site's condition is false.
	ElseIfs []string `json:",omitempty"`
	// NonNegative are the local integer variables a Cond site's condition
	// reads that are never negative: every assignment in the function
	// gives them a length, a non-negative constant, an increment (n :=
	// len(pool), i := 0 with i++, a range index): n < 0 never holds.
	NonNegative []string `json:",omitempty"`
	// Callees are, for a Cond site, the functions and methods of its
	// package that its condition calls, where they are declared (at most
	// 4): what they return decides the branch.
	Callees []Callee `json:",omitempty"`
	// LoopVars are the integer loop counters in scope at the site.
	LoopVars []string `json:",omitempty"`
	// Holds are the conditions known true at a Guard site's statement:
	// the conjuncts of the ifs whose then-branch encloses it, innermost
	// first (err != nil before the return err of if err != nil { ... }).
	Holds []string `json:",omitempty"`
	// SameBody are, for a Cond site of an if, the conditions of the other
	// ifs of its function whose then-block is written the same way and
	// does some work (see sameBodyConds): a copy whose condition was not
	// kept in step.
	SameBody []string `json:",omitempty"`
	// SkippedChecks are, for a Guard site's statement that ends the branch
	// of an if rejecting its input with an error (not testing an error
	// against nil), the conditions of the checks after that if in the
	// function (ifs whose branch returns an error or panics), at most 3:
	// a guard that leaves there without an error accepts the input and
	// skips them.
	SkippedChecks []string `json:",omitempty"`
	// IfConds are the conjuncts of the condition of a Guard site's
	// statement when it is an if statement: a guard before it that tests
	// only these leaves wherever the branch would run.
	IfConds []string `json:",omitempty"`
	// DeadAfter are, for a Guard site's statement that is an if without
	// else whose branch leaves (a return, a panic, break, continue or
	// goto last), the statements after it in its block, each by its
	// first line, at most 3: a guard before the if that holds wherever
	// the if's condition does not leaves there too, and they never run
	// (`len(ip) == 0 { return ip, nil }` before `if ip != nil { return
	// ip, nil }` made ParseIP's error return dead).
	DeadAfter []string `json:",omitempty"`
	// NilFixes are NpeFix's replacements of the nil operands a Guard
	// site's statement dereferences (see nilfix.go).
	NilFixes []NilFix `json:",omitempty"`
	// NilDerefs are the operands a Guard site's statement dereferences
	// (at most 3), of a type that can be nil, as written: `token` for
	// `if token.typ == yaml_BLOCK_ENTRY_TOKEN {`.
	NilDerefs []string `json:",omitempty"`
	// Inside are the positions (line, column) of the conditions of the
	// ifs whose then- or else-branch holds the site, in its function,
	// innermost first: a failing test that needs the site's statement
	// skipped in every state it reached, or its condition constant, may
	// need one of them to take the other branch instead.
	Inside [][2]int `json:",omitempty"`
}

// TestLocation is the file (absolute) and line where test name of package
// pkg is declared; ok is false for a test that is not known.
func (prog *Program) TestLocation(pkg, name string) (file string, line int, ok bool) {
	p, ok := prog.testLocs[pkg][name]
	return p.Filename, p.Line, ok
}

// Program is a loaded module: its packages (tests included) and sites.
type Program struct {
	// Dir is the module root; Module its path.
	Dir, Module string
	// Packages are the import paths of the loaded packages that have tests.
	Packages []string
	// Sites are all repair sites of non-generated, non-test files.
	Sites []Site
	// Tests are the top-level tests per package ("TestFoo", "ExampleBar").
	Tests map[string][]string
	// PanicTests are, per package, the top-level tests that expect a
	// panic (they recover one, or assert that a function panics; see
	// StrategyPanic). A guard that panics is offered only when there is
	// one.
	PanicTests map[string]map[string]bool
	// testLocs are where each test function is declared, per package.
	testLocs map[string]map[string]token.Position
	// Excluded are the non-test files of the loaded packages that have no
	// sites, and why.
	Excluded []ExcludedFile

	fset    *token.FileSet
	pkgs    map[string]*pkgData // by import path
	syn     []siteSyntax        // parallel to Sites
	sources map[string][]byte   // file contents, read once
	// notRun are the tests the Baseline could not run, per package and
	// name: VerifyPatch does not count their missing results as failures.
	notRun map[string]map[string]bool
	// suiteTime is the time each package's tests took in Baseline, the
	// base of RunSuite's default timeout.
	suiteTime map[string]time.Duration
	// constituents are the marked test constituents per package, set by
	// Instrument.
	constituents map[string][]constituent.Constituent
	// skip is the -skip pattern of the tests left out (see SkipTests).
	skip string
	// pure is the purity analysis of the module's functions.
	pure *purity
	// recovers are, per instrumented non-test file, the edits that write
	// its recover() calls NopolRecovered(recover()) (see recoverWraps).
	recovers map[string][]wrap
	// tags are the build tags; runner runs the go command with them.
	tags   []string
	runner *gotest.Runner
	// testMemory caps each test process's memory (SetTestMemory).
	testMemory int64
	// gcflags are the go command flags of the instrumented builds (see
	// inliningFlags), set by Instrument.
	gcflags []string
	// after are the tests each test runs after (see RunAfter), under
	// afterMu.
	afterMu sync.Mutex
	after   map[TestID][]string
}

// ExcludedFile is a file whose code nopol does not change.
type ExcludedFile struct {
	File, Why string
}

// LoadError reports that the module does not compile or cannot be loaded;
// its text names the files and errors.
type LoadError struct {
	Msg string
	// Env reports a problem of the environment (the temp dir, the build
	// cache), not of the module.
	Env bool
}

func (e *LoadError) Error() string { return e.Msg }

// HangError reports tests that did not finish within the time limit of
// the plain run: they hang, or are too slow for the limit.
type HangError struct {
	Package string
	Tests   []string
	Limit   time.Duration
	// Finished is how long the package's tests that finished in the same
	// run took. When it is most of Limit, the suite is slow and Tests were
	// only running when time ran out (SlowSuite).
	Finished time.Duration
	// Output is the end of what the binary printed (the goroutines).
	Output string
}

// SlowSuite reports whether the package's finished tests took half the
// limit or more: the suite is too slow for the limit, whatever Tests do.
func (e *HangError) SlowSuite() bool { return e.Finished >= e.Limit/2 }

func (e *HangError) Error() string {
	tests := strings.Join(e.Tests, ", ")
	if e.SlowSuite() {
		return fmt.Sprintf("testing %s: the tests did not finish within %s in the plain run: those that finished took %s, and %s was running when time ran out; the suite is too slow for the limit", e.Package, e.Limit, e.Finished.Round(time.Second), tests)
	}
	return fmt.Sprintf("testing %s: %s did not finish within %s in the plain run: it hangs or is too slow", e.Package, tests, e.Limit)
}

// BinaryError reports a test binary that failed without a failing test:
// a panic in an init function or a TestMain that exits before or without
// running the tests.
type BinaryError struct {
	Package string
	// Ran is how many of the package's tests reported a result.
	Ran    int
	Output string
}

func (e *BinaryError) Error() string {
	what := "the test binary failed before any test failed"
	switch {
	case e.Ran == 0 && strings.Contains(e.Output, "panic: "):
		what = "the test binary panicked before running any test"
	case e.Ran == 0:
		what = "the test binary ran none of the package's tests"
	}
	return fmt.Sprintf("testing %s: %s (a panic in an init function, or a TestMain that exits without calling m.Run or ignores its result)", e.Package, what)
}

// Build is an instrumented, compiled test binary per package. Close removes
// its temp dir.
type Build struct {
	// Program is what was instrumented.
	Program *Program
	// Dir is the temp dir holding the instrumented files, the overlay and
	// the binaries; Binaries maps import paths to test binaries.
	Dir      string
	Binaries map[string]string
	// BuildTime is how long instrumenting and compiling took;
	// SnapshotBuildTime how long the binaries with snapshots took, built
	// in the background after them (set once they are built).
	BuildTime         time.Duration
	SnapshotBuildTime time.Duration
	// Dropped are the sites ("file:line") left out, or whose exits were
	// left out, because the instrumented package did not compile with
	// them.
	Dropped []string

	runner *gotest.Runner
	runs   atomicCounter
	// replace is the first build's overlay; snapDone is closed when the
	// background build of the binaries with snapshots (snapBins) ends,
	// with snapErr; snapOnce starts it.
	replace  map[string]string
	snapOnce sync.Once
	snapDone chan struct{}
	snapBins map[string]string
	snapErr  error
	// mu guards Dir and closed; inflight counts the runs in progress,
	// which stop cancels, so that Close removes Dir only once no run can
	// write into it any more.
	mu       sync.Mutex
	closed   bool
	inflight sync.WaitGroup
	stop     context.CancelFunc
	life     context.Context
}

// DroppedExits returns b.Dropped.
func (b *Build) DroppedExits() []string { return b.Dropped }

// Mode is what the hook does during a run.
type Mode uint8

const (
	// ModeCover records which sites each run reaches, and how they went.
	ModeCover Mode = iota + 1
	// ModeSnapshot records, at every evaluation of the chosen sites, the
	// observed values and the outcome.
	ModeSnapshot
)

// RecordCap bounds the records the hook writes per site in one run:
// in ModeCover one per distinct constituent and outcome, in ModeSnapshot
// one per evaluation (with its values); past it, only counts.
const RecordCap = 200

// MaxPrintedEvals bounds the evaluations of a site printed in one run
// (Run.PrintEvals); it is angelic.MaxEvaluations, the most a test may
// evaluate a site for the per-evaluation search.
const MaxPrintedEvals = 1000

// Run is one execution of one test of one package's binary.
type Run struct {
	Package string
	// Test is a top-level test name; Subtest optionally narrows to one
	// subtest path ("TestX/case_1").
	Test    string
	Subtest string
	// Subtests, when not empty and Subtest is "", narrows Test to these
	// of its subtests (paths "TestX/a/b") and the subtests that enclose
	// them: at each depth, a subtest runs when its name is one the paths
	// have there. The others are skipped; Result.Passed is Test's own.
	// Ignored when the test runs after others (Before).
	Subtests []string
	// SkipSubtests, when not empty, skips these subtests of Test (paths
	// of one depth; at each depth a subtest is skipped when its name is
	// one the paths have there): the passing rest of a table test.
	SkipSubtests []string
	// Gocheck, when not empty, narrows a test that runs a gocheck suite
	// to these of its tests ("S.TestX"), by the -check.f flag gocheck
	// adds to the test binary.
	Gocheck []string
	// GocheckList lists the tests of the gocheck suite Test runs, one
	// name ("S.TestX") a line of the output, instead of running them.
	GocheckList bool
	// Force maps site IDs to a forced outcome: for a Cond site the
	// condition's value, for a Guard site whether the statement runs
	// (false: skipped, or left by the exit ForceExit names).
	Force map[int]bool
	// ForceExit maps Guard sites whose forced false leaves by an exit
	// instead of skipping the statement to the exit's index in Site.Exits.
	ForceExit map[int]int
	// FlipEval maps sites to the evaluations (from 1, in the order the
	// test process evaluates the site) whose outcome is negated (a Cond
	// site) or at which the statement is skipped or left by ForceExit (a
	// Guard site); the other evaluations are not forced. Evaluation 0
	// stands for every evaluation: a Cond site's condition negated (with
	// ForceConstituents, while one of them runs only).
	FlipEval map[int][]int
	// Predicates maps sites to an observed predicate whose value is the
	// outcome of every evaluation of the site (a Cond site's value; at a
	// Guard site the statement is skipped, or left by ForceExit, where
	// it holds; at a Cond site joined with the original's value when
	// Predicate.Combine says so). An evaluation where a value it reads
	// is missing is not forced.
	Predicates map[int]Predicate
	// PrintEvals are sites whose evaluations the hook prints to standard
	// output as they happen (EvalLine), the first MaxPrintedEvals of
	// each: a failure printed after the line of evaluation k happened
	// after it (see internal/constituent.ParseOutput).
	PrintEvals []int
	// NoCalls records observed calls as missing without evaluating them:
	// for a snapshot run again after it timed out (a call may never end).
	NoCalls bool
	// Mode chooses what is recorded; Sites limits ModeSnapshot to these.
	Mode  Mode
	Sites []int
	// Timeout kills the process group; 0 means 30s.
	Timeout time.Duration
	// ForceSegment, when >= 0, applies Force only while that test
	// constituent (Segment, Iteration) runs; -1 forces everywhere.
	// ForceIteration -1 means every iteration of the segment.
	// ForceConstituents, when not empty, replaces both.
	ForceSegment, ForceIteration int
	// ForceConstituents, when not empty, applies Force only while one of
	// these test constituents runs, for tests that fail in several of
	// them (ForceSegment and ForceIteration are then ignored). A
	// Constituent with Iteration -1 stands for every iteration of its
	// segment; one with Segment < 0 is ignored, so a list with no valid
	// constituent forces nothing.
	ForceConstituents []Constituent
	// ForceValues, when not empty, is parallel to ForceConstituents:
	// the value forced in each, instead of Force's (a test whose
	// failing fragments need different values).
	ForceValues []bool
	// PrintConstituents makes the markers print constituent.Line
	// to the output, for attributing failures to table iterations.
	PrintConstituents bool
	// PrintReach makes the hook print constituent.ReachLine at the first
	// evaluation of each site (cover mode): a site whose line comes after
	// the test's first failure message was not run before it.
	PrintReach bool
	// StackOnTimeout has the test binary end itself a little before
	// Timeout (-test.timeout), printing every goroutine's stack: a test
	// that recurses without end shows where. Result.TimedOut is set as
	// for a run killed at Timeout.
	StackOnTimeout bool
	// MaxRSS, when > 0, ends the run as hung (Result.Hung and
	// Result.OverMemory) once the test binary's resident memory passes
	// that many bytes (gotest.Invocation.MaxRSS): a forced value that
	// makes the code allocate without end costs the time to reach the
	// cap, not the machine's memory.
	MaxRSS int64
	// EvalLimit, when > 0, ends the test process as hung once the sites
	// were evaluated that many times in all (Result.Hung): a forced
	// condition that makes a loop spin is caught in milliseconds instead
	// of at Timeout.
	EvalLimit int64
	// CountsOnly, in cover mode, writes no coverage records, only the
	// counts: Result.Reached is whole, Result.Evals has one evaluation
	// per site and outcome reached, in the constituent the run ended in.
	// A forced run is read for its outcome, output and counts, not for
	// where each site ran, and a record per site, outcome and test
	// constituent cost uniseg's forced runs 42,000 writes each, four
	// times the run's time without them.
	CountsOnly bool
	// Before are top-level tests of Package run first, in this order and
	// in the same process, so that a test that needs the state the tests
	// before it in the suite leave (a package variable they set) runs as
	// in the whole suite. Until Test starts nothing is forced, flipped or
	// recorded: the Result is Test's own. It needs Test's markers
	// (Program.Marked) and no Subtest; otherwise it is ignored. Nil takes
	// the tests Program.RunAfter gave Test.
	Before []string
}

// Constituent names a test constituent (see internal/constituent): Segment is
// the index of a top-level statement of the test function, Iteration the
// iteration of a top-level table loop (0 outside loops, -1 for every
// iteration when forcing).
type Constituent struct {
	Segment, Iteration int
}

// Predicate is a test of one evaluation's observed values (indexes in
// Site.Observed): the bool at Index (Op PredBool), or the integer at
// Index compared (PredEq, PredLess, PredLessEq) with the integer at
// Other, or with Const when Other is -1; negated when Negate. At a Cond
// site, Combine joins it with the original condition's value: the
// outcome is `original || p` or `original && p` (a clause added).
type Predicate struct {
	Index   int
	Op      PredOp
	Other   int
	Const   int64
	Negate  bool
	Combine PredCombine
}

// PredCombine joins a Predicate with the original condition (Cond
// sites).
type PredCombine string

const (
	CombineNone PredCombine = ""
	CombineOr   PredCombine = "or"  // original || p
	CombineAnd  PredCombine = "and" // original && p
)

// Outcome is the value of an evaluation whose original condition had
// the value original: p's, or p's joined with original (Combine); known
// is false when a value p reads is missing.
func (p Predicate) Outcome(original bool, values []Value) (outcome, known bool) {
	holds, known := p.Holds(values)
	if !known {
		return false, false
	}
	switch p.Combine {
	case CombineOr:
		return original || holds, true
	case CombineAnd:
		return original && holds, true
	}
	return holds, true
}

// PredOp is the operator of a Predicate.
type PredOp string

const (
	PredBool   PredOp = "b"
	PredEq     PredOp = "eq"
	PredLess   PredOp = "lt"
	PredLessEq PredOp = "le"
)

// Holds is p's value over one evaluation's values; known is false when
// a value it reads is missing. The hook computes the same (NOPOL_PRED).
func (p Predicate) Holds(values []Value) (holds, known bool) {
	if p.Index < 0 || p.Index >= len(values) || values[p.Index].Missing {
		return false, false
	}
	a, b := values[p.Index], p.Const
	if p.Other >= 0 {
		if p.Other >= len(values) || values[p.Other].Missing {
			return false, false
		}
		b = values[p.Other].Int
	}
	var v bool
	switch p.Op {
	case PredBool:
		v = a.Bool
	case PredEq:
		v = a.Int == b
	case PredLess:
		v = a.Int < b
	case PredLessEq:
		v = a.Int <= b
	default:
		return false, false
	}
	return v != p.Negate, true
}

func (p Predicate) env() string {
	neg := "0"
	if p.Negate {
		neg = "1"
	}
	env := strconv.Itoa(p.Index) + ":" + string(p.Op) + ":" + strconv.Itoa(p.Other) + ":" + strconv.FormatInt(p.Const, 10) + ":" + neg
	if p.Combine != CombineNone {
		env += ":" + string(p.Combine)
	}
	return env
}

// Eval is one evaluation of a site during a run.
type Eval struct {
	Site int
	// Outcome is the condition's value (Cond) or whether the statement ran
	// (Guard), as executed (forced if forced).
	Outcome bool
	// Values are parallel to Site.Observed; nil in ModeCover.
	Values []Value
	// Segment and Iteration identify the test constituent running at the
	// time (see internal/constituent): Segment is the index of the top-level
	// statement of the test function, Iteration the iteration of a
	// top-level table loop (0 outside loops); both -1 when the test file
	// carries no markers.
	Segment, Iteration int
}

// Result is what one Run observed.
type Result struct {
	Passed   bool
	TimedOut bool
	// Hung reports a run ended by Run.EvalLimit, or by Run.MaxRSS
	// (OverMemory then); TimedOut is set too.
	Hung       bool
	OverMemory bool
	// PeakRSS is the most resident memory the test binary held, in
	// bytes; 0 where the system does not tell.
	PeakRSS int64
	// Evals are the site evaluations in order (ModeSnapshot: only chosen
	// sites; ModeCover: every site, without values, at most a few per site).
	Evals []Eval
	// Reached counts evaluations per site, true and false outcomes apart.
	// Index 0 counts false outcomes, 1 true. Counts are exact while every
	// evaluation is written (ModeSnapshot, up to 200 per site); otherwise
	// (past the cap, and in ModeCover, which writes one evaluation per
	// site, outcome and test constituent) a lower bound within a factor
	// of two.
	Reached map[int][2]int
	// Output is the test's output (for failure messages, file:line).
	Output   string
	Duration time.Duration
	// CPU is the processor time the test binary spent (see
	// gotest.Outcome.CPU).
	CPU time.Duration
}

// Schema is a binary in which one site's condition (or guard) is chosen
// among candidates by an environment variable (or several sites', see
// BuildSchemas).
type Schema struct {
	// Site is the site the candidates replace (the first part's, see
	// BuildSchemas); Candidates the Go sources given to BuildSchema, or
	// the parts' in order.
	Site       Site
	Candidates []string
	// Dropped maps the indexes of candidates that do not type-check at
	// the site to the reason; RunSuite reports them as not passing.
	Dropped map[int]string
	// Binaries maps the import paths of the packages whose tests can
	// reach the site to their schema test binaries.
	Binaries map[string]string
	// Timeout bounds each test binary run of RunSuite; 0 means ten times
	// the package's time in Baseline plus 10s (2m without a baseline).
	Timeout time.Duration
	// EvalLimit, when set, gives the evaluations of the schema's sites
	// past which a run of the tests of package pkg (tests: those named,
	// nil for all) ends as hung (TimedOut), 0 for no limit: a candidate
	// that makes a loop spin is caught long before Timeout. One process
	// runs the tests, so the limit is one for all of them.
	EvalLimit func(pkg string, tests []string) int64
	// BuildTime is how long type-checking and compiling took.
	BuildTime time.Duration

	parts  []schemaPart
	prog   *Program
	dir    string
	runner *gotest.Runner
}

// SuiteResult is the outcome of a whole test suite for one candidate.
//
// The suite is that of the site's (or patched file's) package and of the
// module's packages whose tests link it. Failed has the failing top-level
// tests of the site's own package, by bare name ("TestX"), as in
// Program.Tests; FailedElsewhere those of the other packages, qualified by
// import path ("example.com/m/api.TestX"). Passed is false when either is
// not empty.
type SuiteResult struct {
	Passed bool
	// Failed are the failing tests of the site's package, bare names.
	Failed []string
	// FailedElsewhere are the failing tests of the other packages whose
	// tests link the site's package, as "import/path.TestX".
	FailedElsewhere []string
	TimedOut        bool
	// Hung reports a run ended by the schema's evaluation limit (a
	// candidate that makes a loop spin; TimedOut is set too) or by
	// RunTests's memory cap (OverMemory then): a hang no busy machine
	// made.
	Hung       bool
	OverMemory bool
	Duration   time.Duration
	// BuildFailed reports that the candidate or patch did not compile;
	// Output then has the reason, otherwise the output of failed runs.
	BuildFailed bool
	Output      string
}

// TestResult is the outcome of one top-level test in a plain run.
type TestResult struct {
	Package, Test string
	Passed        bool
	Skipped       bool
	// NotRun: the test has no result, another test's crash kept it from
	// running.
	NotRun bool
	// Runaway: the test failed when the time limit stopped it deep in a
	// recursion repeating one call line (gotest.Recursing) or busy in a
	// loop (gotest.Spinning); each run of it takes the whole limit.
	Runaway bool
	Elapsed time.Duration
	// Output is the test's output, including failure messages with
	// file:line, for attribution to a test constituent.
	Output string
	// FailedSubtests are the paths of the test's subtests that failed
	// (at most gotest.MaxListedSubtests; SubtestsCut when more did),
	// PassedSubtests the number that passed.
	FailedSubtests []string
	PassedSubtests int
	SubtestsCut    bool
}
