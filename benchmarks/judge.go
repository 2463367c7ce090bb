package benchmarks

import (
	"bytes"
	"context"
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/nopol-go/nopol/internal/gotest"
	"github.com/rogpeppe/go-internal/txtar"
)

// judge re-validates res.Diff on a fresh buggy tree (plausible) and
// compares it with the developer's fix (correct, see decide).
func judge(ctx context.Context, r *Runner, b *Bug, res *Result, audits []Audit) {
	dir, remove, err := tempTree(ctx, r, b, true)
	if err != nil {
		res.Error = err.Error()
		return
	}
	defer remove()
	if err := ApplyPatchDir(dir, res.Diff); err != nil {
		res.Error = "re-validating: " + err.Error()
		return
	}
	tr, err := GoTest(ctx, r, dir, b.Package, "", testTimeout)
	if err != nil {
		res.Error = "re-validating: " + err.Error()
		return
	}
	res.Plausible = tr.OK()
	if !res.Plausible {
		if res.FlakyExcused = flakyUnderFix(ctx, r, b, dir, tr); res.FlakyExcused != nil {
			res.Plausible = true
		} else {
			res.Implausible = implausible(tr)
			return
		}
	}
	decide(ctx, r, dir, b, res, audits, func() bool {
		return b.Fault == FaultCondition && agreeOnStates(ctx, r, dir, b, res.Condition)
	})
}

// decide judges the plausible patch res, applied in the tree dir,
// against the developer's fix. It is correct when it is "identical" to
// the fix after normalisation, or its condition is "equivalent" to the
// developer's for every value of the operands (package equiv). Otherwise
// a person's audit of the same bug and condition decides ("audited"):
// a guard placed after a branch that already returned may need fewer
// clauses than the developer's (go-toml's unmarshalLocalDate). Without
// one, a condition that only agrees with the developer's on every state
// the suite records ("states", see agreeOnStates; states runs that check,
// last because it runs the suite) is not counted correct.
func decide(ctx context.Context, r *Runner, dir string, b *Bug, res *Result, audits []Audit, states func() bool) {
	res.Correct, res.Judgement = false, ""
	switch {
	case identical(ctx, r, dir, b, res):
		res.Correct, res.Judgement = true, "identical"
	case equivalentToFix(ctx, r, dir, b, res):
		res.Correct, res.Judgement = true, "equivalent"
	default:
		if a, ok := auditOf(audits, b.ID, res.Condition); ok {
			res.Correct, res.Judgement = a.ByHand == "correct", "audited"
		} else if states() {
			res.Judgement = "states"
		}
	}
}

// flakyRuns is how many times flakyUnderFix runs the failed tests on each
// tree: a test that fails 15% of its runs (TestWeakDecodeMetadata, measured
// here: 10 runs missed it in the validation run) passes all of them with
// probability 3e-4.
const flakyRuns = 50

// flakyUnderFix returns the tests that failed in tr, the run of the
// patched tree in dir, when every one of them is flaky whatever the patch:
// it fails at least once in flakyRuns runs on the developer's fixed tree
// and passes at least once in as many runs on the patched tree. Otherwise
// it returns nil. A bug's data may list such a test as failing
// (mapstructure v1.2.2's TestWeakDecodeMetadata compares a list built by
// ranging over a map with a fixed order), and one run of it then judges
// the patch by luck.
func flakyUnderFix(ctx context.Context, r *Runner, b *Bug, dir string, tr *TestRun) []string {
	if tr.BuildFailed || tr.TimedOut || len(tr.Failed) == 0 {
		return nil
	}
	fixRuns, ok := fixedRepeats(ctx, r, b, tr.Failed)
	if !ok {
		return nil
	}
	patchRuns, ok := repeats(ctx, r, dir, b.Package, tr.Failed)
	if !ok {
		return nil
	}
	for _, t := range tr.Failed {
		if fixRuns[t][1] == 0 || patchRuns[t][0] == 0 {
			return nil
		}
	}
	return tr.Failed
}

// fixedRepeats runs tests flakyRuns times on a fresh fixed tree of b (see
// repeats).
func fixedRepeats(ctx context.Context, r *Runner, b *Bug, tests []string) (map[string][2]int, bool) {
	dir, remove, err := tempTree(ctx, r, b, false)
	if err != nil {
		return nil, false
	}
	defer remove()
	return repeats(ctx, r, dir, b.Package, tests)
}

// repeats runs tests flakyRuns times in the package pkg of the tree at dir
// and counts each one's passes and failures (runCounts); ok is false when
// the run could not be made or timed out. The counts, not TestRun's
// verdicts: a test's repeated runs are one summary there, and a failing
// run before a passing last one reads as a build failure.
func repeats(ctx context.Context, r *Runner, dir, pkg string, tests []string) (map[string][2]int, bool) {
	tr, err := GoTest(ctx, r, dir, pkg, runPattern(tests), "-count="+strconv.Itoa(flakyRuns))
	if err != nil || tr.TimedOut {
		return nil, false
	}
	return runCounts(tr.Stdout), true
}

// runCounts counts the passes and failures of each top-level test in a
// `go test -json` stream.
func runCounts(stdout []byte) map[string][2]int {
	events, _ := gotest.ParseEvents(stdout)
	out := map[string][2]int{}
	for _, e := range events {
		if e.Test == "" || strings.Contains(e.Test, "/") {
			continue
		}
		c := out[e.Test]
		switch e.Action {
		case "pass":
			c[0]++
		case "fail":
			c[1]++
		}
		out[e.Test] = c
	}
	return out
}

// implausible says why tr, the run of a patched tree, does not pass.
func implausible(tr *TestRun) string {
	switch {
	case tr.BuildFailed:
		return "build failed: " + firstLine(strings.TrimSpace(tr.Output))
	case tr.TimedOut:
		return "timed out"
	case len(tr.Failed) > 0:
		return "failed: " + strings.Join(tr.Failed[:min(len(tr.Failed), 5)], ", ")
	}
	return "no test passed"
}

// identical reports whether the patched file equals the fixed file after
// gofmt, or the tool's condition equals the developer's after
// normalisation (for a guard: the condition of an early return, or the
// negation of it for a wrapping guard).
func identical(ctx context.Context, r *Runner, dir string, b *Bug, res *Result) bool {
	patched, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(b.File)))
	if err == nil {
		if fixed, err := fixedFile(ctx, r, b); err == nil {
			p, err1 := format.Source(patched)
			f, err2 := format.Source(fixed)
			if err1 == nil && err2 == nil && bytes.Equal(p, f) {
				return true
			}
		}
	}
	want, ok := developerCondition(b, res)
	return ok && NormalizeCond(res.Condition) == NormalizeCond(want)
}

// developerCondition is the developer's condition that res.Condition
// must equal to be the same fix: the fixed condition of a condition bug;
// for a guard, the condition of the developer's guard, negated when one
// of the two leaves early and the other wraps the rest. ok is false when
// the two cannot be the same fix: no condition, or both leave early in
// different ways.
func developerCondition(b *Bug, res *Result) (string, bool) {
	if res.Condition == "" {
		return "", false
	}
	want := b.FixedCondition
	if b.Fault == FaultGuard && (res.Style == "guard") == exitGuard(b) {
		// An early return's condition is the negation of the condition
		// of a guard wrapping the rest.
		want = "!(" + want + ")"
	}
	if b.Fault == FaultGuard && res.Style != "guard" && exitGuard(b) {
		// Both leave early: they must leave the same way.
		if dev, ok := exitBody(b); !ok || strings.Join(strings.Fields(dev), " ") != strings.Join(strings.Fields(res.Exit), " ") {
			return "", false
		}
	}
	return want, true
}

// exitBody is the one statement in the developer's guard of a
// missing-guard bug that leaves early, on one line; ok is false when the
// guard's body is not one such statement.
func exitBody(b *Bug) (string, bool) {
	var removed []string
	for _, l := range strings.Split(b.Patch, "\n") {
		if strings.HasPrefix(l, "-") && !strings.HasPrefix(l, "---") {
			removed = append(removed, strings.TrimSpace(l[1:]))
		}
	}
	// "if cond {", the body, "}": the body's lines joined.
	if len(removed) < 3 || !strings.HasPrefix(removed[0], "if ") || removed[len(removed)-1] != "}" {
		return "", false
	}
	var body []string
	for _, l := range removed[1 : len(removed)-1] {
		if l == "" || strings.HasPrefix(l, "//") {
			continue
		}
		body = append(body, l)
	}
	text := strings.Join(body, " ")
	f := strings.Fields(text)
	if len(f) == 0 || !(f[0] == "return" || f[0] == "break" || f[0] == "continue" || strings.HasPrefix(f[0], "panic(")) {
		return "", false
	}
	// One statement: a multi-line composite literal joins into one.
	if _, err := parser.ParseExpr("func() {" + text + "}"); err != nil {
		return "", false
	}
	if strings.Count(text, ";") > 0 || len(body) > 1 && !strings.HasSuffix(body[0], "{") && !strings.HasSuffix(body[0], "(") && !strings.HasSuffix(body[0], ",") {
		return "", false
	}
	return text, true
}

// exitGuard reports whether the developer's guard of a missing-guard bug
// leaves the block (return, break, continue, panic) rather than wrapping
// statements: the lines the patch removes hold such a statement.
func exitGuard(b *Bug) bool {
	for _, l := range strings.Split(b.Patch, "\n") {
		if !strings.HasPrefix(l, "-") || strings.HasPrefix(l, "---") {
			continue
		}
		f := strings.Fields(l[1:])
		if len(f) > 0 && (f[0] == "return" || f[0] == "break" || f[0] == "continue" || strings.HasPrefix(f[0], "panic(")) {
			return true
		}
	}
	return false
}

// fixedFile reads b.File of the fixed tree (the module cache, or the
// local tree of an example bug).
func fixedFile(ctx context.Context, r *Runner, b *Bug) ([]byte, error) {
	root := b.Local
	if root == "" {
		var err error
		if root, err = Download(ctx, r, b.Module, b.Version); err != nil {
			return nil, err
		}
	}
	if strings.HasSuffix(root, ".txtar") {
		ar, err := txtar.ParseFile(root)
		if err != nil {
			return nil, err
		}
		for _, f := range ar.Files {
			if f.Name == b.File {
				return f.Data, nil
			}
		}
		return nil, os.ErrNotExist
	}
	return os.ReadFile(filepath.Join(root, filepath.FromSlash(b.File)))
}

// NormalizeCond prints a condition in a normal form: parentheses dropped,
// > and >= turned into < and <= with the operands swapped, the operands of
// == and != sorted, and negations of comparisons and double negations
// pushed in. Text that does not parse is returned trimmed.
func NormalizeCond(s string) string {
	e, err := parser.ParseExpr(s)
	if err != nil {
		return strings.TrimSpace(s)
	}
	return nodeString(token.NewFileSet(), normExpr(e, false))
}

var negOp = map[token.Token]token.Token{
	token.EQL: token.NEQ, token.NEQ: token.EQL,
	token.LSS: token.GEQ, token.GEQ: token.LSS,
	token.GTR: token.LEQ, token.LEQ: token.GTR,
}

func normExpr(e ast.Expr, neg bool) ast.Expr {
	switch x := e.(type) {
	case *ast.ParenExpr:
		return normExpr(x.X, neg)
	case *ast.UnaryExpr:
		if x.Op == token.NOT {
			return normExpr(x.X, !neg)
		}
	case *ast.BinaryExpr:
		op := x.Op
		switch op {
		case token.LAND, token.LOR:
			l, r := normExpr(x.X, neg), normExpr(x.Y, neg)
			if neg { // De Morgan
				if op == token.LAND {
					op = token.LOR
				} else {
					op = token.LAND
				}
			}
			return &ast.BinaryExpr{X: paren(l), Op: op, Y: paren(r)}
		}
		if n, ok := negOp[op]; ok {
			if neg {
				op = n
			}
			l, r := normExpr(x.X, false), normExpr(x.Y, false)
			switch op {
			case token.GTR:
				op, l, r = token.LSS, r, l
			case token.GEQ:
				op, l, r = token.LEQ, r, l
			}
			if op == token.LEQ {
				op, l, r = strictLen(l, r)
			}
			switch op {
			case token.EQL, token.NEQ:
				ps := []ast.Expr{l, r}
				sort.Slice(ps, func(i, j int) bool { return exprKey(ps[i]) < exprKey(ps[j]) })
				l, r = ps[0], ps[1]
			}
			return &ast.BinaryExpr{X: l, Op: op, Y: r}
		}
	}
	if neg {
		return &ast.UnaryExpr{Op: token.NOT, X: paren(e)}
	}
	return e
}

// strictLen turns l <= r into l < r+1 (or l-1 < r) when one side is an
// integer literal and the other a len or cap call, where that is the same
// condition: len(s) >= 2 is len(s) > 1. Other operands may be floats.
func strictLen(l, r ast.Expr) (token.Token, ast.Expr, ast.Expr) {
	if c, ok := intLit(r); ok && isLenCall(l) {
		return token.LSS, l, &ast.BasicLit{Kind: token.INT, Value: strconv.FormatInt(c+1, 10)}
	}
	if c, ok := intLit(l); ok && isLenCall(r) {
		return token.LSS, &ast.BasicLit{Kind: token.INT, Value: strconv.FormatInt(c-1, 10)}, r
	}
	return token.LEQ, l, r
}

func intLit(e ast.Expr) (int64, bool) {
	neg := false
	if u, ok := e.(*ast.UnaryExpr); ok && u.Op == token.SUB {
		neg, e = true, u.X
	}
	lit, ok := e.(*ast.BasicLit)
	if !ok || lit.Kind != token.INT {
		return 0, false
	}
	v, err := strconv.ParseInt(lit.Value, 0, 64)
	if neg {
		v = -v
	}
	return v, err == nil
}

func isLenCall(e ast.Expr) bool {
	call, ok := e.(*ast.CallExpr)
	if !ok {
		return false
	}
	id, ok := call.Fun.(*ast.Ident)
	return ok && (id.Name == "len" || id.Name == "cap")
}

func paren(e ast.Expr) ast.Expr {
	switch e.(type) {
	case *ast.BinaryExpr:
		return &ast.ParenExpr{X: e}
	}
	return e
}

func exprKey(e ast.Expr) string { return nodeString(token.NewFileSet(), e) }

// Rejudge judges again the plausible results of an earlier run with this
// version's decide, on a fresh buggy tree with the stored patch: it runs
// neither the tool nor the suite, and takes the earlier run's word on
// whether the conditions agree on the suite's states (judgement "states"
// or "audited"). Results of bugs not in bugs, and implausible ones, are
// left as they are. done is called with each result judged again.
func Rejudge(ctx context.Context, r *Runner, bugs []*Bug, results []*Result, audits []Audit, done func(*Result)) error {
	byID := map[string]*Bug{}
	for _, b := range bugs {
		byID[b.ID] = b
	}
	for _, res := range results {
		if err := ctx.Err(); err != nil {
			return err
		}
		b := byID[res.Bug]
		if b == nil || !res.Plausible || res.Diff == "" {
			continue
		}
		agreed := res.Judgement == "states" || res.Judgement == "audited"
		dir, remove, err := tempTree(ctx, r, b, true)
		if err != nil {
			return fmt.Errorf("%s: %v", b.ID, err)
		}
		if err := ApplyPatchDir(dir, res.Diff); err != nil {
			remove()
			return fmt.Errorf("%s: %v", b.ID, err)
		}
		decide(ctx, r, dir, b, res, audits, func() bool { return agreed })
		remove()
		done(res)
	}
	return nil
}
