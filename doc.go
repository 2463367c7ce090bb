// Package nopol repairs a faulty if condition, or adds a missing guard, in a
// Go module whose tests fail.
//
// [Repair] (repair.go) is the one place that orders the steps of a
// repair; each step's file is named with it:
//
//  1. Load the module's packages and find the repair sites (collect.Load),
//     and run the plain test suite once to find the failing tests
//     (collect.Baseline), each test binary within a third of
//     Options.Timeout. Nothing failing, a module that does not compile, a
//     test that hangs, a binary that fails before its tests are an
//     [InputError]; a test the limit stopped deep in a recursion that
//     repeats one call line 20 times (gotest.Recursing), or busy in a loop
//     rather than parked (gotest.Spinning), fails, it does not hang. The
//     failing tests run again (collect.Rerun), in the background beside
//     step 2's first coverage runs, which wait for it before they are
//     read: one that passes is flaky and left out of every verdict
//     (baseline.go, flaky.go), its coverage run dropped; a runaway test is
//     not run again, each run taking the whole limit.
//     Tests another test's crash kept from running run again, in up to 20
//     rounds; those still without a result are not run (NotRun): not
//     passing, never called flaky, and a patch that makes one fail is
//     rejected.
//  2. Instrument the packages into a temp dir and compile one test binary
//     per package (collect.Instrument; the binaries with the snapshot
//     functions of step 5, for the sites the search may reach, are
//     compiled in the background once step 3 has ranked them).
//     Re-run each failing test there with coverage; a test whose result
//     differs from the plain run's runs again alone (tests that collide
//     run alone from then on) (localize.go). A test that still does not
//     give its suite result (a failing one passes or fails with other
//     messages, a passing one fails) runs once after the tests the
//     baseline ran before it, in one process (collect.Run.Before: the
//     hook forces and records nothing until the test starts); if that
//     gives its suite result, every later run of it does so
//     (collect.Program.RunAfter; after.go). A failing test that passed a
//     rerun alone is checked the same way, when no failing test failed
//     every rerun: one that then fails on every run is repaired, not
//     called flaky (flaky.go failAfterOthers). A failing test whose
//     subtests partly passed in the baseline runs, in this and every
//     later run of the search, its failing subtests only
//     (collect.Run.Subtests), and a gocheck suite its failing gocheck
//     tests (collect.Run.Gocheck, -check.f); their passing subtests or
//     gocheck tests run apart as a passing test of their own (restKey:
//     collect.Run.SkipSubtests, -test.skip; or the suite's list,
//     -check.list, less the failing ones). A narrowed run that passes
//     runs whole; a narrowed test over a map table is narrowed to the
//     subtests failing in the key order nopol's binary runs it in
//     (renarrowMapTables; subtests.go).
//  3. Run every passing test with coverage (Options.Parallel processes
//     at once; with the default, more when the runs so far kept less than
//     half a processor busy each, up to four times as many: a suite that
//     sleeps or waits on timers; runPool in runs.go), and rank the sites by Ochiai
//     suspiciousness (angelic.Localize; a condition scores the best of its
//     reach and its two outcomes' predicates, split by table iteration as
//     the reach is, and a narrowed gocheck suite by its failing gocheck
//     tests, each run alone: gocheck.go coverCases, and by its passing
//     ones, each alone or in up to 48 groups: coverRestCases, which
//     also narrow the suite's passing runs at a site to the gocheck tests
//     that reach it, narrowRest). A branch whose message (a string
//     literal of 10 letters or more, its format verbs matching anything)
//     a failing test printed, the branch taken in its run, puts its
//     condition and the sites of the functions the condition calls first,
//     whatever their scores, when at most 3 such branches were printed
//     (messages.go: an error value has no stack; its message is what
//     points at the branch that made it). Among equals, the sites of the
//     function where a failing test panicked come first, then its
//     callers' (a panic a deferred function recovered too: a test
//     helper that reports it as a message, as blackfriday's do, or a
//     library that returns it as an error; the coverage run prints its
//     stack, collect's NopolRecovered). A condition on the line where a failing test's panic
//     was raised (its evaluation panicked: no outcome was recorded) counts
//     as reached by the failing test, and its angelic search forces both
//     values. A site a failing test ran only after its first failure
//     message cannot repair it and is left out. A failing test that
//     recursed without end (a stack overflow, the runtime out of memory
//     under an address-space limit, or a stack its test timeout printed
//     that repeats one call line of the module 20 times: its
//     coverage run ends itself before nopol's limit to print it) puts the
//     guard at the recursive function's entry first, searched there per
//     evaluation from the first tier: a base case (`if visited[t] {
//     return }`) leaves at some calls only, and the spectrum cannot see
//     it, since passing tests run the same statements (localize.go,
//     reach.go; site.go searches each site in its styles).
//     Before any site is searched, the most suspicious conditions that
//     are wrong on their face (an operand twice in one chain, an operand
//     tested against two literals so that the chain never depends on it,
//     an index a conjunct before it puts out of range) are tried with
//     their mutants that are not (smells.go; those that guard an index
//     by a conjunction first); then the conditions that differ from the
//     one the copies of their function (sibling functions, a name one
//     word away) write at the same place, or from the one the other ifs
//     of their function with the same block test, are tried with the
//     copies' condition (siblingconds.go); then, at the first
//     ten guard sites that have one, the guards of their function
//     written with what a deleted check left behind (collect's
//     orphans.go: an unexported function or method nothing else calls,
//     a field nothing reads, an exported one nothing uses; each operand
//     with such a sibling of its kind and type replaced: `opts.omitzero
//     && isZero(v)` read as `opts.omitempty && isEmpty(v)`; never one
//     orphan for two different names), the one
//     with the most orphans first, validated as written (twins.go).
//  4. On the top sites, search angelic values (angelic.Search): run each
//     failing test with the condition forced true, then false (at a guard:
//     the statement skipped, or an early return). A site where every
//     failing test passes under some forced value qualifies. A guard
//     the file writes elsewhere after the statement that precedes a site
//     (collect.StrategyTwin) is searched here too, its condition
//     validated first. Unless
//     Options.NoPurify is set, a failing test that fails under both values is
//     split into fragments at run time (internal/constituent, purify): its coverage
//     run prints the running test constituent, its failures are
//     attributed to the top-level statements or table-loop iterations
//     running when they were reported, and the value is forced in those
//     fragments only (collect.Run.ForceConstituents), adding the
//     fragments that fail next until the test passes or no new one fails
//     (angelic.go, fragments.go). At a condition whose failing fragments
//     need different values (a table with failing cases on both sides),
//     each gets the value under which it stopped failing, tried once
//     (collect.Run.ForceValues); failing that, the fragments get their
//     values one at a time in the order they fail, each the first under
//     which it stops failing (a row that panics hides the rows after it
//     from every run forcing one value; at most two runs a fragment).
//     Where the failing tests' angelic values at a site are the same in
//     every state recorded there (a statement to skip wherever they
//     reach it, a condition held constant), the conditions of the ifs
//     whose branches hold it (collect.Site.Inside, two at most) are
//     searched next, out of rank order: the condition that let the
//     failing tests into the branch is the likelier fault (repair.go
//     aroundNext).
//  5. Record, at a qualifying site, the observed state (variables, fields,
//     calls proven pure: see package collect) of every evaluation
//     in runs that pass (passing tests as they are, failing tests with
//     their angelic value: a split test's failing fragments with it, its
//     other fragments with their actual values) (snapshot.go; a run
//     that times out runs again with a longer limit, then without the
//     observed calls; a failing test's run that fails with the value it
//     passed with in the search runs again, twice at most), and
//     synthesize conditions that fit those examples (synth.Solve). The
//     evaluations of a failing test forced to one value in the whole
//     test are left out in its table iterations that passed before with
//     the other outcome: they pass either way and need neither. So are,
//     at a guard around an assignment x = v, the evaluations where x == v
//     already (collect.Observed.NoOp): skipped or not, nothing changes.
//     A passing test's examples are left out where it does not check
//     the outcome: in a state where a failing test needs the other
//     outcome, and where the observed boolean nearest to fitting (alone,
//     or at a condition joined to the original: `it.Scale > 1 &&
//     !it.Custom`) gives every failing test what it needs and
//     contradicts a few passing tests' examples, when those tests pass
//     with those evaluations negated (snapshot.go dropIndifferent,
//     nearestAtom; at most four tests run each time); at a condition the
//     original with an operand of its && or || deleted is such an atom
//     too, and a candidate equal to it need not read every operand of
//     the original when every state needs one outcome. At a condition
//     where every state needs one outcome, the passing tests that pass
//     with the other outcome forced in the whole test do not check it:
//     their examples are left out first (snapshot.go relaxedCondSpec).
//     At a condition, a failing test's evaluations whose forced value is
//     the one the original gives in their state are unforced: the force
//     changed nothing there, and a test that passes with every
//     evaluation false may pass with some of them true as well. When
//     every state needs one outcome, they are left out before the
//     search over the original's operands (which need not read an
//     operand inside another: str in len(str)); otherwise synthesis runs
//     once more without them when the whole spec gives no candidate, or
//     none that breaks no anti-pattern (snapshot.go changedOnly:
//     semver's `err == nil` became `err != nil`, where the failing
//     TestParseRange passed with false forced also where err was set).
//     Among candidates as far from the original, its negation (a
//     comparison's operator complemented) ranks first and costs no new
//     operator (synth/rank.go); it is not guard-changed (antipattern.go
//     isNegation).
//     At a guard around an assignment, when no condition fits or every fit is a
//     disguised deletion (conditional-deletion), the passing tests with
//     examples run again with the statement skipped: the examples of
//     those that pass are left out (they ran the statement only because
//     nothing guarded it), and if one fails, deleting the statement does
//     not pass the suite, so a guard that reads what the statement
//     assigns (if match.MatchErr == ErrNotFound { match.MatchErr = nil })
//     is a conditional update, not a deletion; synthesis runs again
//     (snapshot.go relaxedGuardSpec, SiteReport.Relaxed). At a new guard
//     or exit whose first fit joins clauses, the same runs leave out the
//     tests that pass with the statement skipped, and the fits smaller
//     than the first are validated before it (candidates.go
//     simplerGuard: color's unset, `c.isNoColorSet() &&
//     len(colorsCache) <= 0` before, the developer's c.isNoColorSet()
//     now). A first fit, synthesized, that joins clauses and passes the
//     suite is replaced by the first of its deletions of one clause that
//     passes too, among those that give every passing test's state its
//     outcome and miss only failing tests' states (their angelic values
//     are one assignment that passes, not the only one), those that miss
//     the fewest first (candidates.go fewerClauses: semver's `o.Minor <
//     v.Minor` for `o.Minor < v.Minor && v.Minor >= v.Patch`). At an if whose branch panics or returns an error, where
//     every fit breaks an anti-pattern, the original becomes a template with a hole at one of its boolean
//     operands (A && X, A || X), and the clause X is synthesized from
//     the states where it decides the outcome, each wanting the value
//     that gives the needed one (clauses.go: go-cmp's `!isType(t, less)
//     || v.IsNil()` became `(!isType(t, less) && !isType(t, compare)) ||
//     v.IsNil()` under synthesis alone); a clause with one value at every
//     state stands for a constant and is not kept, nor is a clause that
//     adds a reason for the error rather than exempting states from it.
//     The
//     mutants of the original condition that fit the same examples join
//     them in one ranking, by token distance to the original (then by
//     length: of two edits as far, the shorter), and so do
//     up to three extensions that fit: the original with a clause added to
//     one of its boolean operands, an observed boolean over a variable
//     the original reads that has more than one value over the recorded
//     states (one value everywhere, it stands for a constant), or its
//     negation (`(!isType(t, less) &&
//     !isType(t, compare)) || v.IsNil()`; the clauses calling what the
//     original calls first; mutants.go extensions); a
//     the deletions of one clause of the original that fit the failing
//     tests' examples only, and up to three more of its mutants that do
//     (an operator or a literal changed: passing tests record the
//     original's outcome, not always one they need; go-toml's seeded
//     parseValArray, `len(b) == 0` for `len(b) == 1`), come after the
//     candidates over the original's operands only and before those
//     that read another value (candidates.go simplifications); a
//     synthesized nil test of a slice comes after its test of emptiness;
//     at a new guard whose exit returns an error variable (collect.Exit.Err:
//     `return nil, err`), the candidates whose every clause reads it come
//     before the others (errorfirst.go: mux's Router.walk, `err !=
//     SkipRouter && err != nil` before `err != nil && t.handler == nil`);
//     candidates that break an anti-pattern are left out (candidates.go,
//     antipattern.go; a guard around a statement is kept only against the
//     statement's own panic, and a guard that always leaves is not kept).
//     A deletion of the original that gives the same outcomes as an
//     earlier candidate at every recorded state and changes the
//     original's outcome at fewer of the states one step from them is
//     validated before it (diffstates.go deletionsCloser). Up to three
//     mutants of the original that give the passing tests' states their
//     outcome and, at the failing tests' states, the first candidate's
//     or the original's, changing it at fewer of them but at one of each
//     failing test at least, are validated before the first candidate,
//     those that keep most of its changes first, then those that keep the
//     kind of each comparison: the angelic value was forced at every
//     evaluation of a failing test, not only where it needs it, and the
//     patch that changes least passes when the tests need no more
//     (leastchange.go; semver's seeded ParseTolerant, `len(p) > 1`, not
//     `len(p) >= 1`, for `len(p) < 1`).
//  6. Validate the candidates in rank order on the affected package's whole
//     suite. The first is written into the source and its suite run with
//     the patched file (collect.VerifyPatch): most often it is the patch,
//     for the cost of one build. The others are compiled together into one
//     schema binary (collect.BuildSchema) and run one by one, each first
//     on the failing tests and the killers, up to five passing tests that
//     failed earlier candidates (candidates of a site often fail the same
//     tests; together at most a quarter of the package's time), in one
//     process that stops at the first test or subtest to fail
//     (-test.failfast), then on the whole suite. On a busy machine (load
//     above the CPUs), a run of those few tests that times out without
//     reaching the evaluation limit is run again with four times as long
//     before the candidate is rejected. The first that passes is checked as a
//     patched file in turn (validate.go). Where the passing tests took
//     10 s or more in the baseline (slowSuite), the first candidate goes through the
//     schema too, and a candidate that passes the failing tests there is
//     checked as the patched file at once, without the schema's run of
//     the suite: a run of the suite costs more than a build there. The
//     patch is returned as a unified diff and an [Edit] (edit.go), a
//     condition written on several lines keeping the lines the candidate
//     leaves alone (layout.go: a one-operator change is a one-line
//     diff), with an
//     [Explanation] (explain.go, diffstates.go). A plausible patch that
//     rests on a guess the tests do not check (an unrelated condition, a
//     new error, a far condition among others over other values, a new
//     guard from fewer than three distinct states among others) is
//     withheld unless Options.Speculative: noted in Result.Withheld, and
//     the search goes on (speculative.go).
//  7. When no synthesized condition passes (most often because no site is
//     angelic: the condition must take different values within one test,
//     as a flipped comparison evaluated in a loop), and unless
//     Options.NoMutants is set, fall back to mutation: the original
//     conditions of ten Cond sites are negated, their
//     comparison operators replaced, && and || swapped, operands of && and
//     || and `!` dropped, a `!` added to a boolean operand of && and ||,
//     and last an operand replaced by a parameter the function never
//     reads, of its type (collect.Site.Unread), or by an alternate the
//     function writes of its type: a boolean local refined from it,
//     another method of the same receiver (collect.Site.Alternates). The
//     ten sites: those
//     where a synthesized condition passed the suite but was withheld as
//     speculative first (a change there repairs), then the most
//     suspicious by score and by reach alone in turn (an operator's
//     fault is run by every test and only its reach ranks it; a
//     predicate's score put uniseg's two seeded faults out of the ten);
//     the mutants, fewest changed tokens first (a comparison's negation
//     first among equals; a mutant whose clauses test two values alike,
//     reading the same with two names swapped, before the others when
//     the original does not and is no range: symmetry.go; one that
//     tests an Index result `<= 0`, "not found or at the start", after
//     the others: notfound.go), are
//     validated as in step 6
//     (one schema for all the sites, then the patched file) (mutants.go).
//     When the
//     first tier (steps 4 to 6 at the MaxSites most suspicious sites)
//     has done 100 units of work (test runs, counted as for
//     Options.Effort) without a patch, it pauses there: the mutants come
//     first, and its remaining sites after them (without the pause,
//     uniseg's seeded `state&lbCPeaFWHBit == 0`, which the mutation
//     baseline fixes in 6 s, timed out in the first tier's angelic
//     searches). Counted, not timed, the pause falls at the same site on
//     every machine. Then the twin guards (collect's
//     StrategyTwin) of the first ten guard sites of the ranking that
//     have one, each validated as written, whether or not its site is
//     angelic: a twin is a whole patch, and the entries a loop must skip
//     are seldom what one constant value, or an observed state, says
//     (twins.go). Then the mutants of the next 20 conditions of the
//     ranking (moreMutationSites), whose work does not raise the later
//     tiers' bound (toml's seeded unify, `k < reflect.Uint64` for `<=`,
//     ranked 56th, which the mutation baseline repaired).
//  8. Then the guards' other exits. First, with Options.Screen (off by
//     default), the screen (screen.go; predicate switching, Zhang, Gupta
//     and Gupta, ICSE 2006): each guard site of these tiers, up to 200
//     (fewer where the failing tests are slow), has its first exit forced
//     in the whole of each of the first two failing tests, and the sites
//     where one then passes take turns with the rank order. A missing
//     guard's site is run by the passing tests as often as the failing
//     ones, and ranks low; its screen costs one run. The screen's runs
//     are outside the effort bound (below). Measured, it finds the
//     developer's site or function, and then a wrong condition there.
//     Then the exits, at the same sites as step 4 (or the screen's),
//     and (unless
//     Options.NoPerEval) at the conditions where a failing test failed
//     under every constant value, per-evaluation angelic values: at a
//     condition, first the condition negated at every evaluation (one
//     run: a comparison written the wrong way round in a loop), then, for
//     a purified test, at every evaluation in its failing fragments only
//     (one run: a table case wrong at each of its evaluations, the other
//     cases right, as an index compared with the wrong length); then the
//     evaluation after which the test failed is negated, while failures
//     move later; then observed predicates guessed from the states
//     recorded at the site, each forced as the outcome of every
//     evaluation (the hook computes it from the observed values,
//     collect.Run.Predicates: a test that compares a whole output at its
//     end does not say which evaluation went wrong, and an evaluation
//     negated changes the ones after it); at a condition, predicates over
//     what the original reads (n.child < 0 for n.child == 0), then the
//     original joined with one by || or && (a clause added: k ==
//     reflect.Slice || k == reflect.Array; collect.Predicate.Combine); at
//     a guard, boolean observed expressions; then one evaluation at a time, the
//     last first (angelic.Problem.MaxFlips, Guess); steps 5 and 6 follow.
//     At a late exit where a failing test passed with the exit taken at
//     every evaluation and no condition came of it (every state,
//     the valid ones before the bad one too, said "leave": the test left
//     at the first), the per-evaluation search runs again without the
//     constant (angelic.Problem.PerEvalOnly; site.go leavesTooSoon):
//     pflag's ipSliceValue.fromString, whose failing test's first
//     address is valid and second is not.
//     The conditions' per-evaluation tier has an effort of its own, half
//     the later tiers' bound: after the exits it was reached on 4 of 119
//     bugs. It searches the conditions the failing tests evaluate least
//     first: at a condition evaluated in a loop, negated evaluations make
//     runs that spin until their limit, each costing hungWork units. But
//     before any, it runs each condition negated at every evaluation, and
//     those where every failing test then passes go first (negationFirst:
//     levenshtein's `s2[i-1] == s1[j-1]`, evaluated most, was never
//     reached). A guess a failing test passed with is itself validated,
//     as written, first when it fits the recorded states (withGuesses:
//     go-toml's `n.child < 0`, where synthesis's own first fit was
//     `n.child <= 0`).
//     (Trying the conditions' per-evaluation values before the exits'
//     fixed golang.org/x/mod's checkPath but lost two correct
//     exits, one of them on the validation split: the conditions used the
//     later tiers' effort first. Not kept; benchmarks/RESULTS.md.)
//  9. Last, while less than half of Options.Timeout is used, the exits of
//     up to 2×MaxSites further guard sites: a missing guard's statement is
//     often run by most passing tests, so it ranks low.
//  10. Last, whatever the effort, where a failing test panicked with a
//     nil dereference: NpeFix's replacements (collect.NilFix), before the
//     panicking statement or its caller's, `if x == nil { x = v }`, each
//     validated as a patched file (npefix.go). Last, because they
//     tolerate the nil where it is dereferenced rather than fix where it
//     comes from.
//  11. Last, the conditions and wrapping guards (steps 4-6) of the
//     MaxSites sites ranked after the first MaxSites, with an effort of
//     their own, the later tiers' bound again (counted from their start:
//     as many sites as the first tier, searched the same way), and no
//     bound in time but Options.Timeout. A fault in code that
//     most passing tests run ranks low: gorilla/mux's missing
//     `if match.MatchErr == ErrMethodMismatch` around a statement of an
//     else branch of Route.Match ranks 35th. Last, so that it changes
//     nothing where an earlier tier finds a patch; its patch has
//     confidence low, for its rank.
//
// Result.Tier names the tier that found the patch ("first", "mutants",
// "exits", "deeper", ...), SiteReport.Method how the site was searched.
//
// The wall-clock bounds (step 9's half of the time limit, synthesis's backups
// of its work bounds, synth.Stats) are counted in Result.TimeBounds: a
// result with none is the same on a faster or busier machine, test
// outcomes aside. A forced run of the angelic search that its time limit
// stops (twenty times the test's plain run, and 1.5 s; for a gocheck
// suite narrowed to its failing gocheck tests, the narrowed coverage
// run's time or their share of the suite's, whichever is longer:
// ownTime), not its evaluation limit, runs again once with twice the
// limit, at most 3 s more (runForced): a busy machine slows a test that
// a forced value makes do more, and the outcome, and the work counted
// (that of the outcome), are then an idle machine's.
//
// Steps 8 and 9, the later tiers, start a site (and a style of a site)
// only while they have done less work than Options.Effort times that
// of steps 1-7 (2 by default, at least 200 units), the work counted in
// test runs (one unit per run, 21 for a run that hangs, 10 for a whole
// suite: repairer.ran); counted, not timed, the bound stops at the same
// place on every machine and under any load (parallel waves count as
// the runs one at a time would have made, angelic.Verdict.Surplus). They are where a repair
// that finds nothing spends its time, a site often costing dozens of runs
// of each failing test (seven exits, each with per-evaluation values).
// The reason of a repair that stopped there says so. Within a site, the
// runs of one failing test that the search makes anyway (its forced
// values) or stops at the first success of (guessed evaluation sets,
// single evaluations) go in waves of Options.Parallel processes
// (angelic.Problem.Parallel); the first success in the search's order is
// taken, so the result does not depend on which process ends first.
//
// A candidate that fails a test which passed in the baseline is only
// rejected once that test is known not to be flaky (checked on the
// original code, once per repair). A flaky test that fails with the
// patched file runs again with the patch: a patch it passes much less
// often with broke it (flaky.go, brokenFlaky).
//
// A forced run ends as hung once the sites were evaluated ten times as
// often as the test, or the heaviest test of its package, did in its
// coverage run (and two million more; collect.Run.EvalLimit): a loop made
// to spin is caught in milliseconds instead of at the run's timeout. The
// heaviest test counts because a failing test often stops at its first
// failed check, so the run that repairs it evaluates far more than its
// own coverage run did (a bound on the test alone lost two correct
// patches of the validation split). A forced run of a guessed predicate
// runs the snapshot build, where only the site's own evaluations count,
// each observing the state (a few hundred thousand a second): it ends as
// hung past 200,000 evaluations of the site and ten times the most of
// any coverage run of the package there (repairer.snapshotEvalLimit).
// Under the all-sites bound, a loop made to spin there ran to the time
// limit and again (toml v1.2.0's lexer: 60 s of a 108 s repair). A
// forced run also ends as hung once the test binary holds more than
// 1 GiB and four times the most resident memory of a passing test's
// coverage run in its package (repairer.memLimit, collect.Run.MaxRSS):
// a forced value that makes the code allocate without end stops there,
// not when the machine's memory runs out (go-toml v2.4.3's addFields,
// whose recursion allocates at each call: 8 to 15 s per forced run under
// an 8 GiB limit, 1.3 s at the cap; the repair took 32 s instead of
// 100). A candidate's first run, of the failing tests alone, has the same
// cap (ini's seeded parseDelim, whose failing test allocates without end
// on the user's code: its validation phase took 13 s instead of 32 s);
// its whole-suite runs have Options.TestMemory only (one process runs
// every test, which no single test's run measured), like the coverage
// and plain runs: half of the machine's memory by default, the address-
// space limit of a test binary that go test starts (the -exec wrapper
// sets it; a test that allocates past it dies with "fatal error: out of
// memory"), the resident-memory cap of an instrumented run. The repair
// of a failing test that allocates a gigabyte before it gives up on the
// user's code (memory-cap.txtar) took 13.8 s, its largest process
// holding 4.0 GB, with no cap; 5.1 s and 1.06 GB under -mem 1024. A
// candidate's run (a schema's) ends as hung once the schema's sites were
// evaluated as often as forced runs of its tests may evaluate all sites,
// summed over the tests the process runs (repairer.candidateEvalLimit): a
// mutant that makes a loop spin no longer waits for its run's time limit.
// Where no covered test of the package passed, no run shows what a test
// run to its end evaluates, and a failing test's share is at least
// noPassingEvaluations (btree's seeded split: every test failed early,
// and the correct mutant was stopped as spinning).
//
// The user's files are never written: instrumented and patched files reach
// the compiler through `go test -overlay`. Progress goes to
// Options.Logf; the outcome, with the time of every phase, is the
// [Result].
package nopol
