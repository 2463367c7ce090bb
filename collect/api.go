package collect

// This file is the contract between collect and the root package. The
// bodies marked TODO are filled in by the collect work; signatures change
// only together with their callers in the root package.

import (
	"context"
	"errors"
	"time"
)

// SiteKind says how a site can be repaired.
type SiteKind uint8

const (
	// Cond is an if condition (including else-if); repaired by replacing it.
	Cond SiteKind = iota + 1
	// Guard is a statement that can take a guard; repaired by wrapping it in
	// `if COND { stmt }` (GuardWrap) or preceding it with
	// `if COND { return zero values }` (GuardReturn).
	Guard
)

// GuardStyle says which guard shape a Guard site's patch takes.
type GuardStyle uint8

const (
	GuardWrap   GuardStyle = iota + 1 // if COND { stmt } — COND true runs stmt
	GuardReturn                       // if COND { return ... }; stmt — COND true returns early
)

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
}

// Constant is a literal of the enclosing function or a named constant of
// the package, with its Go source.
type Constant struct {
	Expr  string
	Value Value
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
	// Func is the enclosing function's name (Recv.Method for methods).
	Func string
	// Original is the Go source of the condition (Cond) or of the
	// statement (Guard).
	Original string
	// CanReturn reports whether a GuardReturn patch is possible here (the
	// statement is not the last of its block and the function's result
	// zero values can be written).
	CanReturn bool
	// Observed are the expressions recorded at each evaluation, in a fixed
	// order; Constants the code's constants around the site.
	Observed  []Observed
	Constants []Constant
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
}

// LoadError reports that the module does not compile or cannot be loaded;
// its text names the files and errors.
type LoadError struct{ Msg string }

func (e *LoadError) Error() string { return e.Msg }

// Load loads the packages matching patterns in the module at dir, with tests,
// and finds their sites. Compile errors give a *LoadError.
func Load(ctx context.Context, dir string, patterns []string) (*Program, error) {
	return nil, errors.New("TODO")
}

// Build is an instrumented, compiled test binary per package. Close removes
// its temp dir.
type Build struct {
	// Program is what was instrumented.
	Program *Program
}

// Instrument writes instrumented copies of every file with sites (and the
// hook file) into a temp dir, and compiles one test binary per package with
// `go test -c -overlay`. The user's files are never written.
func Instrument(ctx context.Context, prog *Program) (*Build, error) {
	return nil, errors.New("TODO")
}

// Close removes the build's temp dir.
func (b *Build) Close() error { return nil }

// Mode is what the hook does during a run.
type Mode uint8

const (
	// ModeCover records which sites each run reaches, and how they went.
	ModeCover Mode = iota + 1
	// ModeSnapshot records, at every evaluation of the chosen sites, the
	// observed values and the outcome.
	ModeSnapshot
)

// Run is one execution of one test of one package's binary.
type Run struct {
	Package string
	// Test is a top-level test name; Subtest optionally narrows to one
	// subtest path ("TestX/case_1").
	Test string
	// Force maps site IDs to a forced outcome: for a Cond site the
	// condition's value, for a Guard site whether the statement runs
	// (false: skipped; with GuardReturn chosen in ForceReturn, returns).
	Force map[int]bool
	// ForceReturn lists Guard sites whose forced false returns early
	// instead of skipping the statement.
	ForceReturn map[int]bool
	// Mode chooses what is recorded; Sites limits ModeSnapshot to these.
	Mode  Mode
	Sites []int
	// Timeout kills the process group; 0 means 30s.
	Timeout time.Duration
	// ForceSegment, when >= 0, applies Force only while that test
	// constituent (Segment, Iteration) runs; -1 forces everywhere.
	ForceSegment, ForceIteration int
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
	// time (see internal/purify): Segment is the index of the top-level
	// statement of the test function, Iteration the iteration of a
	// top-level table loop (0 outside loops); both -1 when the test file
	// carries no markers.
	Segment, Iteration int
}

// Result is what one Run observed.
type Result struct {
	Passed   bool
	TimedOut bool
	// Evals are the site evaluations in order (ModeSnapshot: only chosen
	// sites; ModeCover: every site, without values, at most a few per site).
	Evals []Eval
	// Reached counts evaluations per site, true and false outcomes apart.
	Reached map[int][2]int
	// Output is the test's output (for failure messages, file:line).
	Output   string
	Duration time.Duration
}

// Run executes r against the build.
func (b *Build) Run(ctx context.Context, r Run) (Result, error) {
	return Result{}, errors.New("TODO")
}

// Schema is a binary in which one site's condition (or guard) is chosen
// among candidates by an environment variable.
type Schema struct{}

// BuildSchema compiles the package of site with candidates: Go sources of
// boolean expressions valid at the site; for a Guard, style says the shape.
func BuildSchema(ctx context.Context, prog *Program, site Site, style GuardStyle, candidates []string) (*Schema, error) {
	return nil, errors.New("TODO")
}

// SuiteResult is the outcome of a whole test suite for one candidate.
type SuiteResult struct {
	Passed   bool
	Failed   []string // tests that failed
	TimedOut bool
	Duration time.Duration
}

// RunSuite runs every test of the affected package(s) with candidate k
// (index into the candidates given to BuildSchema). A candidate that does not
// type-check is reported as not passing, not as an error.
func (s *Schema) RunSuite(ctx context.Context, k int) (SuiteResult, error) {
	return SuiteResult{}, errors.New("TODO")
}

// Close removes the schema's temp dir.
func (s *Schema) Close() error { return nil }

// TestResult is the outcome of one top-level test in a plain run.
type TestResult struct {
	Package, Test string
	Passed        bool
	Skipped       bool
	Elapsed       time.Duration
	// Output is the test's output, including failure messages with
	// file:line, for attribution to a test constituent.
	Output string
}

// Baseline runs the plain (uninstrumented) suite of prog's packages once with
// `go test -json` and returns one result per top-level test, in package and
// source order. A build failure gives a *LoadError.
func Baseline(ctx context.Context, prog *Program, timeout time.Duration) ([]TestResult, error) {
	return nil, errors.New("TODO")
}

// VerifyPatch runs the whole suite of the package of file with file's
// content replaced by src (through an overlay, not on disk).
func VerifyPatch(ctx context.Context, prog *Program, file string, src []byte, timeout time.Duration) (SuiteResult, error) {
	return SuiteResult{}, errors.New("TODO")
}
