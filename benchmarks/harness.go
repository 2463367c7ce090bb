package benchmarks

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"sync"
	"time"
)

// Tools compared by Bench.
const (
	ToolNopol    = "nopol"
	ToolMutation = "mutation"
)

// BenchOptions configures Bench.
type BenchOptions struct {
	// Tool is nopol or mutation.
	Tool string
	// Nopol is the nopol binary; both tools run as its subprocesses
	// ('nopol fix -json -q -C dir ./pkg' and 'nopol bench mutrepair -C
	// dir ./pkg').
	Nopol string
	// FixArgs are extra flags of 'nopol fix' (e.g. -synth enum).
	FixArgs []string
	// Timeout and MemLimit bound the repair process.
	Timeout  time.Duration
	MemLimit int64
	// Jobs is the number of bugs repaired in parallel.
	Jobs int
	// Runner runs the go commands of materialisation and validation.
	Runner *Runner
	// Audits are the verdicts by hand the judge takes for patches it
	// cannot prove correct or wrong (see decide).
	Audits []Audit
	// Progress receives a line per bug; Done is called with each result
	// as it is known (e.g. to append it to a JSON lines file).
	Progress io.Writer
	Done     func(*Result)
}

// Result is the outcome of one tool on one bug: one line of results.jsonl.
type Result struct {
	// The bug.
	Bug    string `json:"bug"`
	Kind   string `json:"kind"`
	Fault  string `json:"fault"`
	Module string `json:"module"`
	Tool   string `json:"tool"`

	// What the tool said.

	// ExitCode of the repair process; TimedOut when it was killed.
	ExitCode int  `json:"exit_code"`
	TimedOut bool `json:"timed_out,omitempty"`
	// Patched when the tool reported a patch: Style, Condition and Diff.
	Patched   bool   `json:"patched"`
	Style     string `json:"style,omitempty"`
	Condition string `json:"condition,omitempty"`
	Diff      string `json:"diff,omitempty"`
	// Strategy and Exit are a guard's (nopol.Result).
	Strategy string `json:"strategy,omitempty"`
	Exit     string `json:"exit,omitempty"`
	// Method is how nopol found the patch: synthesis, mutation or
	// per-evaluation (SiteReport.Method).
	Method string `json:"method,omitempty"`
	// Tier is the search tier that found the patch (nopol's Result.Tier).
	Tier string `json:"tier,omitempty"`
	// Confidence and Reasons are the patch's explanation (nopol's
	// Explanation): "high", "medium" or "low", and the factors.
	Confidence string   `json:"confidence,omitempty"`
	Reasons    []string `json:"reasons,omitempty"`
	// Reason is the tool's reason for no patch.
	Reason string `json:"reason,omitempty"`
	// Withheld is the first plausible patch nopol withheld as
	// speculative when it printed none (nopol.WithheldPatch): its
	// condition, the rule and, judged as if printed, whether it is
	// plausible and correct: what withholding cost.
	Withheld *WithheldJudged `json:"withheld,omitempty"`
	// Candidates validated by the tool, and test runs.
	Candidates int `json:"candidates,omitempty"`
	Runs       int `json:"runs,omitempty"`
	// TimeBounds are the wall-clock bounds that decided something in
	// the tool's search (nopol.Result.TimeBounds): a result that may
	// differ on a faster or idler machine.
	TimeBounds map[string]int `json:"time_bounds,omitempty"`

	// Judgement by the harness.

	// Plausible: the patch, applied to a fresh buggy tree, makes the
	// whole package suite pass.
	Plausible bool `json:"plausible"`
	// Implausible says why a patch is not plausible: the tests that
	// failed on the fresh tree, or "build failed", "timed out".
	Implausible string `json:"implausible,omitempty"`
	// FlakyExcused are the tests that failed on the fresh tree but are
	// flaky under the developer's fix too, and passed again with the
	// patch (see judge): they do not make the patch implausible.
	FlakyExcused []string `json:"flaky_excused,omitempty"`
	// Correct: the patch is the developer's fix; Judgement says how:
	// "identical" (same after normalisation), "equivalent" (the
	// conditions are equal for every value of their operands), or
	// "audited" (a person said so, see Audit). "states" (the conditions
	// agree at every evaluation while the whole suite runs, and nobody
	// audited the patch) is not counted correct.
	Correct   bool   `json:"correct"`
	Judgement string `json:"judgement,omitempty"`
	Expected  string `json:"expected"`
	// Error is a failure of the harness (not of the tool).
	Error string `json:"error,omitempty"`

	// Times, in seconds.
	RepairSeconds   float64            `json:"repair_s"`
	ValidateSeconds float64            `json:"validate_s"`
	Phases          map[string]float64 `json:"phases_s,omitempty"`
	// GoTestSeconds is the wall time of one plain 'go test' of the bug's
	// package on the buggy tree (build included, vet off, from a build
	// cache warmed by an untimed build of the same tests), measured in
	// the same run just before the repair; 0 when it was not measured.
	GoTestSeconds float64 `json:"go_test_s,omitempty"`
}

// WithheldJudged is a withheld patch and its judgement.
type WithheldJudged struct {
	Condition string `json:"condition"`
	Style     string `json:"style,omitempty"`
	Why       string `json:"why"`
	Diff      string `json:"diff"`
	Plausible bool   `json:"plausible"`
	Correct   bool   `json:"correct"`
	Judgement string `json:"judgement,omitempty"`
}

// GoTestRatio is the repair time in units of one plain 'go test' of the
// bug's package (issue 13's measure), 0 when that was not measured.
func (r *Result) GoTestRatio() float64 {
	if r.GoTestSeconds <= 0 {
		return 0
	}
	return r.RepairSeconds / r.GoTestSeconds
}

// toolOutput is the part of 'nopol fix -json' (nopol.Result) the harness
// reads; the mutation baseline prints the same shape.
type toolOutput struct {
	Patched    bool            `json:"patched"`
	Reason     string          `json:"reason"`
	Style      string          `json:"style"`
	Strategy   string          `json:"strategy"`
	Exit       string          `json:"exit"`
	Condition  string          `json:"condition"`
	File       string          `json:"file"`
	Diff       string          `json:"diff"`
	Candidates json.RawMessage `json:"candidates"`
	Runs       int             `json:"runs"`
	TimeBounds map[string]int  `json:"time_bounds"`
	Tier       string          `json:"tier"`
	Site       *struct {
		Method string `json:"method"`
	} `json:"site"`
	Explanation *struct {
		Confidence string   `json:"confidence"`
		Reasons    []string `json:"reasons"`
	} `json:"explanation"`
	Withheld []struct {
		Condition string `json:"condition"`
		Style     string `json:"style"`
		Diff      string `json:"diff"`
		Why       string `json:"why"`
	} `json:"withheld"`
	// Error is set on exit 2 and 3 (report.Error).
	Error *struct {
		Kind    string `json:"kind"`
		Message string `json:"message"`
	} `json:"error"`
	Phases []struct {
		Name string  `json:"name"`
		MS   float64 `json:"ms"`
	} `json:"phases"`
}

// Bench runs opts.Tool on each bug and returns the results in bug order.
// A bug whose run ctx interrupted has no result: neither returned nor
// passed to opts.Done, so that results files hold only finished runs (an
// interrupted run is not a tool's error).
func Bench(ctx context.Context, opts BenchOptions, bugs []*Bug) []*Result {
	out := make([]*Result, len(bugs))
	var mu sync.Mutex
	done := 0
	forEach(ctx, len(bugs), opts.Jobs, func(i int) {
		r := benchOne(ctx, opts, bugs[i])
		if ctx.Err() != nil {
			return
		}
		out[i] = r
		mu.Lock()
		defer mu.Unlock()
		done++
		if opts.Progress != nil {
			status := "no patch"
			switch {
			case r.Error != "":
				status = "error: " + r.Error
			case r.Correct:
				status = "correct (" + r.Judgement + ")"
			case r.Plausible:
				status = "plausible"
			case r.Patched:
				status = "patch not plausible"
			case r.TimedOut:
				status = "timed out"
			}
			fmt.Fprintf(opts.Progress, "[%d/%d] %s %s: %s in %.1fs\n", done, len(bugs), opts.Tool, r.Bug, status, r.RepairSeconds)
		}
		if opts.Done != nil {
			opts.Done(r)
		}
	})
	return slices.DeleteFunc(out, func(r *Result) bool { return r == nil })
}

func benchOne(ctx context.Context, opts BenchOptions, b *Bug) *Result {
	res := &Result{Bug: b.ID, Kind: b.Kind, Fault: b.Fault, Module: b.Module, Tool: opts.Tool, Expected: b.FixedCondition}
	dir, remove, err := tempTree(ctx, opts.Runner, b, true)
	if err != nil {
		res.Error = err.Error()
		return res
	}
	defer remove()
	// The package's test build first, untimed (-run '^$' runs no test):
	// on a fresh machine the first bug of a module compiled its
	// dependencies inside both timed runs below, and a session's times
	// then depended on which bugs ran before. Its outcome does not
	// matter.
	_, _ = GoTest(ctx, opts.Runner, dir, b.Package, "^$", testTimeout)
	// One plain 'go test' of the package, as a developer runs it before
	// reaching for nopol: the unit of the time ratio. Its outcome is not
	// judged here (verify did that).
	if tr, err := GoTest(ctx, opts.Runner, dir, b.Package, "", testTimeout); err == nil && !tr.TimedOut {
		res.GoTestSeconds = tr.Duration.Seconds()
	}
	pattern := b.pattern()
	var args []string
	switch opts.Tool {
	case ToolNopol:
		args = []string{opts.Nopol, "fix", "-json", "-q", "-C", dir}
		if opts.Timeout > 0 {
			// nopol's own limit comes first so it can report what it
			// tried; the harness kills it 10% later.
			args = append(args, "-timeout", (opts.Timeout * 9 / 10).String())
		}
		args = append(append(args, opts.FixArgs...), pattern)
	case ToolMutation:
		args = []string{opts.Nopol, "bench", "mutrepair", "-q", "-C", dir, pattern}
	default:
		res.Error = fmt.Sprintf("unknown tool %q", opts.Tool)
		return res
	}
	tr := &Runner{Timeout: opts.Timeout, MemLimit: opts.MemLimit, Env: opts.Runner.Env, Exec: opts.Runner.Exec}
	out, err := tr.Run(ctx, dir, args...)
	res.RepairSeconds = out.Duration.Seconds()
	res.ExitCode = out.ExitCode
	if err != nil {
		res.TimedOut = out.TimedOut
		if !out.TimedOut {
			res.Error = err.Error()
		}
		return res
	}
	var to toolOutput
	if err := json.Unmarshal(out.Stdout, &to); err != nil {
		// The tool failed without a result: a recorded outcome.
		res.Reason = fmt.Sprintf("%s exited %d without a result: %s", opts.Tool, out.ExitCode, tail(out.Stderr, 300))
		return res
	}
	res.Patched, res.Reason, res.Style, res.Condition, res.Diff, res.Runs = to.Patched, to.Reason, to.Style, to.Condition, to.Diff, to.Runs
	res.TimeBounds = to.TimeBounds
	if to.Error != nil && res.Reason == "" {
		// Bad input or the environment: the tool's own message.
		msg := to.Error.Message
		if len(msg) > 500 {
			msg = msg[:500] + " …"
		}
		res.Reason = to.Error.Kind + ": " + msg
	}
	res.Strategy, res.Exit, res.Tier = to.Strategy, to.Exit, to.Tier
	if to.Site != nil && to.Patched {
		res.Method = to.Site.Method
	}
	if to.Explanation != nil && to.Patched {
		res.Confidence, res.Reasons = to.Explanation.Confidence, to.Explanation.Reasons
	}
	var cands []json.RawMessage
	if json.Unmarshal(to.Candidates, &cands) == nil {
		res.Candidates = len(cands)
	}
	if len(to.Phases) > 0 {
		res.Phases = map[string]float64{}
		for _, p := range to.Phases {
			res.Phases[p.Name] += p.MS / 1000
		}
	}
	if !res.Patched && len(to.Withheld) > 0 {
		w := to.Withheld[0]
		res.Withheld = &WithheldJudged{Condition: w.Condition, Style: w.Style, Why: w.Why, Diff: w.Diff}
		wr := &Result{Bug: b.ID, Kind: b.Kind, Fault: b.Fault, Expected: b.FixedCondition, Patched: true, Style: w.Style, Condition: w.Condition, Diff: w.Diff}
		judge(ctx, opts.Runner, b, wr, opts.Audits)
		res.Withheld.Plausible, res.Withheld.Correct, res.Withheld.Judgement = wr.Plausible, wr.Correct, wr.Judgement
	}
	if !res.Patched || res.Diff == "" {
		return res
	}
	start := time.Now()
	judge(ctx, opts.Runner, b, res, opts.Audits)
	res.ValidateSeconds = time.Since(start).Seconds()
	return res
}
