// Package collect loads a Go module, finds its repair sites, instruments
// them, and runs the module's tests to collect what nopol's angelic search
// and synthesis need.
//
// # Sites
//
// Load type-checks the module with its tests (go/packages) and finds the
// sites of its non-test, non-generated files: every if condition (else-if
// included) is a Cond site; every statement of a block or case body
// before which a guard can leave (declarations, compound statements and
// final returns included) is a Guard site, with its exits (see
// Strategies) and CanWrap for those that can also be wrapped (expression
// statements, assignments that declare nothing, inc/dec, sends, returns
// that do not end their block), and the conditions known there (Holds:
// the conjuncts of the enclosing ifs' conditions, IfConds: those of the
// if statement the site is, so that the root package can tell a guard
// that always leaves). Site IDs
// follow package, file and position, so they are stable for the same
// source. At each site, the observed expressions are, in this order of
// priority and at most 30: the atoms of a Cond site's condition (below);
// the side-effect-free operands of the condition or statement (indexes
// of maps, slices, arrays and strings included: visited[t], xs[i] before
// total += xs[i]; out of range, a missing value); at a condition, the
// nil-ness of the values declared before it that its branch reads, at
// most 3 (r.handler == nil before match.Handler = r.handler: a condition
// often fails to guard what its branch uses); the variables in scope
// (types.Info scopes at the site's position), closest scope first: per
// scope, its variables of basic kinds and the nil-ness and len of the
// others, then one level of their struct fields' values (the options of a
// loop's entry come before the nil-ness of the function's slices); then
// the len and nil-ness of those fields (a field reached through a pointer
// is guarded by it: NilGuard); package
// variables last, and only in functions where the reference cannot make an
// initialization cycle (see initdeps.go). The constants are the literals
// of the enclosing function (those written only as a base, a scale or a
// size, frac *= 10, are marked Factor) and the package's named constants
// (one of a defined type kept beside a literal of the same value: the
// root package writes kind == ModulePath, not kind == 0);
// a condition compared with a constant of another package's named type
// (reflect.Slice), or a site observing a call whose result has such a
// type (v.Kind()), first gets the constants of that type the file uses
// (reflect.Array), those of its function first. Numbers, strings and
// typed constants carry their Go type (Observed.Type, Constant.Type):
// synthesis knows kinds, and the root package drops a candidate that
// mixes two types. Calls are observed only when proven pure (see Calls);
// then, at most 4 (fileatoms.go), the atoms of the file's if conditions
// that read only package state and parameters the site's function has
// too, or locals both functions define once with the same expression
// (vf := reflect.ValueOf(f) in go-cmp's SortSlices and SortMaps), pure,
// as booleans. Sites whose condition or statement calls
// recover are not instrumented: the hook's function literal would keep
// recover from stopping the panic.
//
// # Calls
//
// Real conditions are built on calls (v.IsNil(), x.Sign() > 0,
// !isSeparator(r), math.IsNaN(f)). Every site also observes, at most 10,
// one per operand in turn (the site's own operands first, alone, for up
// to 5 calls that the function makes or the file tests in a condition:
// !f.CanAddr() beside !f.CanSet(); per operand,
// the calls its function makes first, then the methods the file calls in
// its conditions, most called first, then the package's functions, the
// other methods, boolean first, and the standard library's): the methods
// without arguments of the in-scope variables and their fields, with a
// result of basic kind (an error result as "!= nil"); the functions of
// the package with one parameter, applied to the in-scope variables of
// that type (never the site's own function, never one whose reference
// could make an initialization cycle); and standard-library predicates of
// packages the file already imports (math.IsNaN/IsInf, unicode.IsUpper/
// IsLower/IsDigit/IsLetter/IsSpace, utf8.RuneLen, strings.Contains/
// HasPrefix/HasSuffix/ContainsRune with the function's constants,
// errors.Is with the package's error variables; Observed.Invented when
// the site's function never calls that function). Before them, up to 4
// calls of the package's functions that the site's function writes with a
// package constant or variable among their arguments, as written
// (containsOnly(s, alphanum): no in-scope operand stands for alphanum).
// Each must type-check at
// the site. A call is observed only when pure (pure.go): a static
// analysis of the callee's body and, transitively, of what it calls
// (module functions at most 4 deep, a list of standard-library functions)
// finds no store outside its own locals, no goroutine, defer, channel or
// closure (but a function literal passed to strings.IndexFunc and its
// kin, whose body is checked the same way), no call of a function value,
// and no call through an interface unless the interface is the module's
// and every type that may implement it (in the loaded packages, their
// test variants and the interface's package) has a pure method of that
// name (pc.IsInLinkLabel(), parent.HasChildren() in goldmark). They are
// evaluated in snapshot runs only, under recover (a panic is a missing
// value), with the hook's other entry points switched off while they
// run (a call that reaches another site neither records nor forces); a
// snapshot run that times out, perhaps in a call that never ends, is run
// again with the calls missing (NOPOL_NOCALLS). Floats that are NaN or
// infinite are missing values (JSON has no number for them).
//
// # Atoms
//
// Conditions are often built on calls (v.Len() > 0, !f.CanAddr(),
// t.Kind() == reflect.Slice), which the snapshot cannot observe. The
// atoms of a condition are its maximal boolean sub-expressions below
// &&, || and ! (calls and comparisons included) and the non-constant
// operands of basic kind of its comparisons, except what the snapshot
// already observes (indexes are atoms all the same, so that path[0] ==
// '-' is an input whole). They are recorded by the condition itself, as the
// program evaluates it: each atom a becomes NopolAB(nopolA, k, a) (AI,
// AF, AS by kind), which returns a unchanged and, in snapshot runs,
// stores its value in slot k of a slice private to this evaluation of
// the condition (so recursion and goroutines need no shared state). An
// atom that short-circuit evaluation does not reach is missing, unless
// it is a pure call (see Calls; not of the site's own function): then its
// shadow, a copy observed after everything else (Observed.Shadow),
// evaluated by the snapshot under recover, stands for it in the
// specification, so that a condition reading it where the original did
// not (`(!isType(t, less) && !isType(t, compare)) || v.IsNil()` for
// `!isType(t, less) || v.IsNil()`) can fit; an atom
// that occurs twice (t.Kind() in t.Kind() == A || t.Kind() == B) has one
// slot, the last value evaluated. No call is added: in plain and cover
// runs the condition is evaluated as before (and not at all when forced);
// in a snapshot run of a forced site it is still evaluated, under
// recover, for its atoms (those after a panic are missing), and its value
// ignored. Their Observed.Expr is the source text of the atom, so a
// synthesized condition can reuse it. The hooks are generic; before
// Go 1.18 (package or file language version) only atoms of type bool,
// int, float64 and string are recorded, by non-generic hooks.
//
// A guard site that can wrap an assignment x = v (sides free of side
// effects, comparable) observes x == v last (Observed.NoOp): where it
// holds the statement changes nothing, and the repair leaves that
// evaluation out of the guard's examples. It is no input.
//
// # Instrumentation
//
// Instrument does not print rewritten syntax trees: it splices text into
// the original source around each site, without newlines, so every line
// keeps its number and comments and directives stay in place. A condition
// c of site 3 becomes
//
//	NopolCond(3, func() bool { return bool(c) }, "ib", func(i int) NopolValue { switch i { ... } })
//
// which does not evaluate c when the site is forced (a forced run can skip
// a condition that panics); a condition with atoms calls NopolCondA
// instead (see Atoms). A condition on one line, without function
// literals, is written twice: `(NopolQ(3) && NopolV(3, bool(c)) ||
// !NopolQ(3) && NopolCond(...))`, the first copy for the runs where the
// site is quiet (see below). A statement s of site 4 becomes
//
//	if g := NopolGuard(4, snapshot); g == 0 { s } else if g == 2 { exit0 } else if g == 3 { exit1 }
//
// (0 runs s, 1 skips it, 2+k leaves by the site's exit k: `continue`, a
// return statement; see Strategies). A statement that cannot be wrapped
// (a declaration, a compound statement, the final return) is preceded by
// the exits only: `if g := NopolGuard(4, snapshot); g == 2 { exit0 }; s`. The snapshot arguments are the
// kinds of the observed expressions and one function that evaluates the
// i-th of them; the hook calls it under recover for each, so a nil
// dereference is a missing value.
//
// Those functions are most of the code to compile (in a package of a
// few thousand sites, about two thirds of the build), and only snapshot
// runs call them, at the few sites a repair searches. So Instrument
// compiles the snapshot arguments `"", nil` everywhere: the binaries that
// coverage and forced runs use. Build.BuildSnapshots then compiles, in
// the background, binaries with the snapshot functions of the sites the
// caller names (the repair names its most suspicious ones once the
// coverage runs have ranked them), and snapshot runs wait for them (the
// first snapshot run starts a build of every site when nobody asked).
// The hook file that defines these functions (hook.go) is added to every
// package of the module, and the instrumented files reach the compiler
// through `go test -overlay`; the user's files are never written. Test
// files get the constituent markers of internal/constituent (NopolSegment,
// NopolIteration), printed back with /*line*/ directives; a table loop over
// a map with keys of a predeclared ordered type runs in key order
// (NopolSortedKeys), so that iteration k and the k-th evaluation of a site
// are the same in every run (a test that deletes entries of the map it
// ranges over would still see them; the transparency check was not re-run
// with this rewrite). One test binary
// is compiled per package with tests, by as few go commands as the
// binaries' names allow. When the module's tests count allocations
// (testing.AllocsPerRun), the binaries are compiled with an inlining
// profile, so that the functions the compiler inlines plain are inlined
// instrumented too (see inlining.go): otherwise a value they return by
// address escapes, and the test fails instrumented only.
//
// # Per-evaluation forcing
//
// NOPOL_FLIP "id:k,id:k2" negates the k-th and k2-th evaluations (from 1,
// in the process) of site id (a Guard site's statement is then skipped or
// left), every evaluation when k is 0 (with NOPOL_FORCE_SEG, every one
// within its constituents), and forces nothing else: the per-evaluation
// angelic search of package angelic uses it for a condition that must
// change value within one test. NOPOL_PRINT_EVALS "id" prints constituent.EvalLine at each of
// the first NOPOL_PRINT_EVALS_MAX evaluations of site id (Run.PrintEvals),
// so that a failure in the output is known to follow evaluation k.
// NOPOL_PRED "id:index:op:other:const:negate[:combine]" (Run.Predicates) makes the
// value of an observed predicate the outcome of every evaluation of site
// id: the observed value at index, a bool (op b) or an integer compared
// (eq, lt, le) with the value at other, or with const when other is -1,
// negated when negate is 1, joined with the condition as written when
// combine is "or" (cond || p) or "and" (cond && p) (at a Guard site the
// statement is left where it holds); an evaluation where a value it reads is missing keeps its
// outcome. Only the snapshot build evaluates the observed values, so
// such a run is a snapshot run (Predicate.Holds computes the same).
//
// # Collection protocol
//
// A run starts the package's test binary for one test with environment
// variables read once by the hook: NOPOL_MODE (cover, snapshot), NOPOL_OUT
// (the record file), NOPOL_FORCE ("3=true,4=false"), NOPOL_RETURN ("4:0":
// guard sites whose forced false leaves by their exit k), NOPOL_SITES (sites recorded in
// snapshot mode), NOPOL_FORCE_SEG ("segment.iteration,...": force only
// within these test constituents; iteration -1 is any iteration;
// "segment.iteration=false" forces that value there instead of the site's), NOPOL_PRINT_CONSTITUENTS and, for schemas,
// NOPOL_CAND. The hook appends one JSON line per evaluation to NOPOL_OUT
// with a single write, so a test that panics or exits loses nothing
// already recorded. At most 200 lines are written per site (NOPOL_CAP);
// in cover mode, one per site, outcome and test constituent. Every
// evaluation is counted, by site and outcome, in NOPOL_COUNTS: a file the
// hook maps into memory (syscall.Mmap, shared), so the counts survive any
// end of the process and cost no write. Before, counts were written as
// records at powers of two (a lower bound within a factor of two), and
// thousands of sites reaching 2^k in the same iteration of a test's loop
// made a burst of writes. (When the map fails, the hook still writes
// counts at powers of two.) An evaluation that writes nothing takes no
// lock.
//
// A site is quiet in a run when it is neither forced, flipped, printed
// nor recorded with snapshots, and the run does not print reach lines:
// most sites of most runs. A quiet site only
// counts its evaluations (cover mode). Its hooks are small enough for the
// compiler to inline (NopolQ, NopolV, NopolGuard): a test and, in cover
// mode, an increment of the site's count in the mapped file at a constant
// offset; no evaluation of a quiet site makes a call. Its coverage
// records (one per outcome and test constituent) are written when the
// next constituent starts (NopolSegment, NopolIteration compare every
// site's counts with those last flushed, also kept in the counts file);
// the evaluations of the last constituent, which no boundary flushes,
// are read from the counts file, which ends with the constituent running
// when the process ended. Before, a cover run called a function at every
// evaluation to count it and compare the constituent: regexp2's
// BenchmarkLeading took 157 µs in cover mode against 44 µs in a plain run
// of the same binary; now both take 45 µs. A first version inlined an
// atomic count and the constituent comparison: it made the instrumented
// builds twice as long (the median repair went from 13.3 s to 15.4 s on
// the training set). Before, every evaluation called through a closure and
// four hook functions: goldmark's
// TestDeepNestedLabelPerformance took 6.3 s instrumented against 0.4 s
// plain, and failed its 5 s bound. The quiet sites are fixed before any
// code of the package runs (a package variable the hooks refer to), so
// the two copies of a condition are never both evaluated. Each run has a
// timeout that kills the test binary's process group.
//
// NOPOL_PRINT_REACH=1 (Run.PrintReach, cover mode) prints
// constituent.ReachLine at the first evaluation of each site: in verbose
// output, a site whose line comes after a test's first failure message
// did not run before it. Such a run also prints the stack of each of the
// first three runtime errors that a deferred function recovers (every
// recover() call of the package and its tests is instrumented as
// NopolRecovered(recover()); constituent.RecoveredPrefix): a test helper
// that reports a panic as a failure message, or a library that returns
// it as an error, would hide where it was raised. NOPOL_EVAL_LIMIT n (Run.EvalLimit) ends the
// process with status 3, after printing HangLine, at the n-th evaluation
// of the run: a forced condition that makes a loop spin is a hang found
// in milliseconds instead of at the run's timeout. In cover mode the
// sites stay quiet under a limit: Build.Run sums the counts file every
// 5 ms (gotest.Invocation.Stop) and kills a run whose counts reached the
// limit, and takes one that reached it before a look as hung too (loud
// at every evaluation, a forced run took twice as long; a goroutine of
// the hook's own would show in the tests' goroutine dumps and leak
// checks). A run with Run.CountsOnly (NOPOL_CAP=0) writes no
// coverage record, only counts: the forced runs of the search. The hook caps a
// goroutine's stack at 256 MB, at NOPOL_MAX_STACK bytes when set (32 MB
// in a run with Run.StackOnTimeout): a runaway recursion overflows, with
// its stack printed, before the run's time limit.
//
// A test that reads what the tests before it set runs after them
// (Run.Before, Program.RunAfter; after.go): -test.run names them and the
// test, and NOPOL_AFTER n holds the hook until the start of the (n+1)-th
// marked test, the run's own (n counts the tests before it that carry
// markers; the test itself must). Held, the hook evaluates every site as
// written and records, forces, flips and prints nothing; the counts the
// quiet sites made are zeroed when the hold ends, and the output is cut
// to the test's own, from its === RUN line. A test before it that fails
// does not make the run fail. Parallel tests before it that resume after
// it starts are not held; no Subtest run uses it.
//
// # Validation
//
// BuildSchema compiles all candidate conditions of one site into a single
// binary, a switch on NopolCand choosing the candidate; candidates that do
// not type-check in the site's scope are dropped beforehand; only when the
// test binaries fail to build with the rest is the package checked with
// `go build` and the candidates bisected. RunSuite runs the whole
// suite of the packages that link the site per candidate. VerifyPatch runs
// that suite on a patched file through an overlay, and Baseline runs the
// plain suite once.
package collect
