// Package angelic finds where a failing test can be repaired by one
// condition, and what that condition must be there.
//
// # Fault localisation
//
// Every test is run once with coverage of the repair sites. A test's
// spectrum is the set of sites it reached and whether it passed. [Localize]
// ranks sites by the Ochiai coefficient
//
//	ef / sqrt(F * (ef + ep))
//
// where F is the number of failing tests, ef the failing tests reaching the
// site and ep the passing ones: a site reached by every failing test and by
// few passing tests is most suspicious. A condition's two predicates, "it
// was true" and "it was false", are ranked the same way, and the condition
// scores the best of the three: a condition every test evaluates but only
// the failing ones find true ranks with the branch it wrongly takes. The ranking is deterministic: ties
// are broken by the caller's tier (conditions before guards) and then by
// site ID. Sites reached by no failing test are not ranked.
//
// # Angelic values
//
// An angelic value (Chandra et al., ICSE 2011; Nopol, Xuan et al. TSE 2017)
// is a value that, substituted for an expression during a run, makes a
// failing test pass. At a condition the candidate values are true and false:
// the test is re-run with the condition forced to one of them at every
// evaluation. If forcing true makes it pass, the repaired condition must be
// true on that test's executions; the forced value is the outcome the test
// *needs*. At a guard site (a statement that may need a precondition) the
// forced outcome is whether the statement runs: forcing "skip" (or "return
// early") is the only change, as "run" is what the program does already.
//
// [Search] tries the forced values for every failing test through a
// [Runner], a function that runs one test with a forced outcome and reports
// whether it passed, so the search is independent of how tests are run. A
// site qualifies when every failing test has an angelic value there; a
// failing test that fails under every forced value rules the site out, and
// the search of that site stops.
//
// A value that equals every outcome the test had in its unforced run changes
// nothing, and the test is known to fail deterministically with it: Search
// does not run it.
//
// # Per-evaluation angelic values
//
// A constant forced value cannot repair a condition that must be true on
// some evaluations of one test and false on others (a loop exit off by
// one), nor a guard that must leave at the evaluations meeting a nil
// pointer and at no other: Nopol's limit. With [Problem.MaxFlips], a test
// that fails under every constant value (whole and per fragment) is first
// run, at a condition, with every evaluation negated ([Force.EveryEval]:
// one run, the comparison written the wrong way round in a loop), then,
// for a purified test, with every evaluation in its failing fragments
// negated (one run: a table case whose fields are all on the wrong side
// of an index compared with the wrong length, the other cases right), then
// searched failure-directed: it runs traced ([Force.Trace]: the hook prints
// each evaluation of the site, so the failure printed next lies after a
// known evaluation), the evaluation after which it failed is negated
// ([Force.Evals]), and again while it fails later than the last one
// negated, at most [MaxDirected] runs (a nil met in three subtests needs
// three exits). A failure that comes earlier than the last evaluation
// negated means the evaluations are not numbered alike from run to run (a
// table in a map) and ends that search. Then the caller's guesses
// ([Problem.Guess], [Force.Guess]): observed predicates whose value is
// forced as the outcome of every evaluation of the site (n.child < 0 where
// the code has n.child == 0, or the condition with a clause added: k ==
// reflect.Slice || k == reflect.Array), since a test that compares its whole output
// at the end says nothing of which evaluations went wrong, and negating
// one evaluation changes those after it. Then one evaluation is negated at
// a time, the last first, then earlier ones, at most MaxFlips runs (a
// bounded form of SPR's search of branch-outcome sequences, Long & Rinard
// FSE 2015). The guesses, and the single negations, stop after [MaxHung]
// runs in a row time out: forcing a loop's exit off hangs the test under
// every predicate over the same state, and a hung run costs a deadline.
// The first that passes is the test's need; its snapshot run
// records the outcome of every evaluation, the negated ones included, and
// those outcomes are the examples synthesis must reproduce.
//
// # Test purification
//
// A test that exercises the site in both directions from different
// statements (one assertion needs the condition true, another false) fails
// under both forced values when forcing applies to the whole test: it is
// impure (B-Refactoring, Xuan et al., IST 2016; Cornu's thesis ch. 4). When
// the caller attributed the test's failures to its fragments (top-level
// statements of the test function, or iterations of its table loop; see
// FailingTest.Failing), Search then forces each value only in the failing
// fragments, all at once, as if the test had been split into one test per
// fragment: the failing fragments get the angelic value, the others run as
// they are. A forced run that fails in further fragments (a failure hidden
// by an earlier one, such as a panic that stopped the test) adds them and
// runs again. The need then records the fragments forced ([Need.Split]), and
// the other fragments' evaluations are examples with their actual outcomes,
// like a passing test's.
//
// When no one value forced in all the failing fragments makes the test pass,
// the failing fragments may need different values: a table whose failing
// cases lie on both sides of a flipped comparison. At a condition, each
// failing fragment that stopped failing under exactly one of the two runs
// above gets that value ([Force.Values]), and the test is run once with
// each fragment forced to its own; when it passes, that is the need.
//
// # Specification
//
// The examples of a qualifying site come from runs that pass: the passing
// tests run unforced, and the failing tests run with their angelic value.
// In each such run every evaluation of the site had the outcome it needed,
// so each evaluation's observed state and outcome is one input/output
// example for synthesis (see [Example] and [Summarize]). A state that had
// both outcomes in passing runs is a don't-care and is left out: a test
// passed with each outcome there. (The repairer first runs a passing test
// that shares such a state with a failing test with the other outcome
// there; when it passes, its examples there are left out instead, and
// the failing test's need stands.)
package angelic
