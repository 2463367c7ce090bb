package synth_test

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nopol-go/nopol/synth"
)

// problem is one file of testdata: a synthesis problem and what Solve must
// make of it.
type problem struct {
	// Generated marks files written by gen_corpus.go.
	Generated string     `json:"generated,omitempty"`
	Name      string     `json:"name"`
	Note      string     `json:"note"`
	Spec      synth.Spec `json:"spec"`
	Expect    struct {
		// First is the source expected to rank first; Any lists
		// equivalent sources of which one must rank first.
		First string   `json:"first,omitempty"`
		Any   []string `json:"any,omitempty"`
		// Error is "contradiction", "none" (no candidate) or empty.
		Error string `json:"error,omitempty"`
	} `json:"expect"`
	// Heldout are examples, beyond the spec's, on which the first
	// candidate must give Want.
	Heldout []synth.Example `json:"heldout,omitempty"`
	// MaxSize overrides Options.MaxSize when set.
	MaxSize int `json:"maxSize,omitempty"`
}

func loadCorpus(t testing.TB) []*problem {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("testdata", "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	var out []*problem
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		p := new(problem)
		dec := json.NewDecoder(strings.NewReader(string(data)))
		dec.DisallowUnknownFields()
		if err := dec.Decode(p); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		if want := strings.TrimSuffix(filepath.Base(f), ".json"); p.Name != want {
			t.Fatalf("%s: name %q, want %q", f, p.Name, want)
		}
		out = append(out, p)
	}
	if len(out) < 40 {
		t.Fatalf("corpus has %d problems, want at least 40", len(out))
	}
	return out
}

func (p *problem) options(backend string) synth.Options {
	return synth.Options{Backend: backend, MaxSize: p.MaxSize}
}

// normalize prints src as go/types does, so that spacing does not matter.
func normalize(src string) string {
	e, err := parser.ParseExpr(src)
	if err != nil {
		return src
	}
	return types.ExprString(e)
}

func (p *problem) expected() []string {
	var srcs []string
	if p.Expect.First != "" {
		srcs = append(srcs, normalize(p.Expect.First))
	}
	for _, s := range p.Expect.Any {
		srcs = append(srcs, normalize(s))
	}
	return srcs
}

// TestCorpus solves every corpus problem with every registered backend.
func TestCorpus(t *testing.T) {
	corpus := loadCorpus(t)
	for _, backend := range synth.Backends() {
		t.Run(backend, func(t *testing.T) {
			for _, p := range corpus {
				t.Run(p.Name, func(t *testing.T) {
					if testing.Short() && len(p.Spec.Examples) > 100 {
						t.Skip("many examples")
					}
					checkProblem(t, backend, p)
				})
			}
		})
	}
}

// checkProblem solves p with backend and checks the result against the
// problem's expectations.
func checkProblem(t *testing.T, backend string, p *problem) {
	spec := p.Spec
	start := time.Now()
	cands, err := synth.Solve(context.Background(), &spec, p.options(backend))
	recordTime(backend, p.Name, time.Since(start))
	switch p.Expect.Error {
	case "contradiction":
		var ce *synth.ContradictionError
		if !errors.As(err, &ce) {
			t.Fatalf("Solve: got %v, %v; want a *ContradictionError", sources(cands), err)
		}
		return
	case "none":
		var ne *synth.NoCandidateError
		if !errors.As(err, &ne) {
			t.Fatalf("Solve: got %v, %v; want a *NoCandidateError", sources(cands), err)
		}
		return
	case "":
	default:
		t.Fatalf("bad expect.error %q", p.Expect.Error)
	}
	if err != nil {
		t.Fatalf("Solve: %v", err)
	}
	if len(cands) == 0 {
		t.Fatal("Solve returned no candidate and no error")
	}
	checkCandidates(t, &spec, cands)
	if want := p.expected(); len(want) > 0 {
		got := normalize(cands[0].Source)
		if !slices.Contains(want, got) {
			if len(p.Heldout) == 0 {
				t.Errorf("first candidate %q, want %q (all: %q)", cands[0].Source, want, sources(cands))
			} else {
				t.Logf("first candidate %q, not %q: checking equivalence on the held-out examples", cands[0].Source, want)
			}
		}
	}
	// The expectation follows the ranking rules: no candidate found ranks
	// before it.
	if want := p.expected(); len(want) > 0 {
		all := slices.Clone(cands)
		for _, src := range want {
			if term, err := parseTerm(&spec, src); err == nil && !slices.Contains(sources(all), term.Source(&spec)) {
				all = append(all, synth.Candidate{Term: term, Source: term.Source(&spec), Size: term.Size()})
			}
		}
		synth.Rank(&spec, all)
		if !slices.Contains(want, normalize(all[0].Source)) {
			t.Errorf("%q (cost %d) ranks before the expected %q", all[0].Source, all[0].Cost, want)
		}
	}
	for i := range p.Heldout {
		ex := &p.Heldout[i]
		v, err := cands[0].Term.Eval(&spec, ex)
		if err != nil || v.Bool != ex.Want {
			t.Errorf("first candidate %q on held-out example %v: got %v, %v; want %v (all: %q)", cands[0].Source, ex.Values, v, err, ex.Want, sources(cands))
			break
		}
	}
	again, err := synth.Solve(context.Background(), &spec, p.options(backend))
	if err != nil {
		t.Fatalf("second Solve: %v", err)
	}
	if a, b := sources(cands), sources(again); !slices.Equal(a, b) {
		t.Errorf("not deterministic:\nfirst  %q\nsecond %q", a, b)
	}
}

// solveTimes holds the time of the first Solve of each problem in
// TestCorpus, by backend, for TestCorpusTimes.
var (
	solveTimesMu sync.Mutex
	solveTimes   = map[string]map[string]time.Duration{}
)

func recordTime(backend, name string, d time.Duration) {
	solveTimesMu.Lock()
	defer solveTimesMu.Unlock()
	if solveTimes[backend] == nil {
		solveTimes[backend] = map[string]time.Duration{}
	}
	solveTimes[backend][name] = d
}

// maxSolveTime is the longest a corpus problem may take, with any backend.
const maxSolveTime = 5 * time.Second

// TestCorpusTimes reports the median and maximum Solve time per backend
// over the corpus (go test -run TestCorpusTimes -v), reusing the times of
// TestCorpus when it ran, and fails when a problem takes over maxSolveTime.
func TestCorpusTimes(t *testing.T) {
	if testing.Short() {
		t.Skip("times the whole corpus")
	}
	corpus := loadCorpus(t)
	medians := map[string]time.Duration{}
	all := map[string]map[string]time.Duration{}
	for _, backend := range synth.Backends() {
		solveTimesMu.Lock()
		times := maps.Clone(solveTimes[backend])
		solveTimesMu.Unlock()
		if len(times) != len(corpus) {
			times = map[string]time.Duration{}
			for _, p := range corpus {
				spec := p.Spec
				start := time.Now()
				synth.Solve(context.Background(), &spec, p.options(backend))
				times[p.Name] = time.Since(start)
			}
		}
		all[backend] = times
		names := slices.Collect(maps.Keys(times))
		slices.SortFunc(names, func(a, b string) int { return cmp.Or(cmp.Compare(times[a], times[b]), cmp.Compare(a, b)) })
		med := times[names[len(names)/2]]
		if len(names)%2 == 0 {
			med = (times[names[len(names)/2-1]] + med) / 2
		}
		medians[backend] = med
		slowest := names[max(0, len(names)-3):]
		var desc []string
		for _, n := range slices.Backward(slowest) {
			desc = append(desc, fmt.Sprintf("%s %v", n, times[n].Round(time.Millisecond)))
		}
		t.Logf("%-5s %d problems: median %v, max %v (slowest: %s)", backend, len(names), med.Round(10*time.Microsecond), times[names[len(names)-1]].Round(time.Millisecond), strings.Join(desc, ", "))
		for _, p := range corpus {
			if d := times[p.Name]; d > maxSolveTime {
				// Once more, in case the machine was busy.
				spec := p.Spec
				start := time.Now()
				synth.Solve(context.Background(), &spec, p.options(backend))
				if again := time.Since(start); again > maxSolveTime {
					t.Errorf("%s/%s took %v and %v, over %v", backend, p.Name, d.Round(time.Millisecond), again.Round(time.Millisecond), maxSolveTime)
				}
			}
		}
	}
	if z, e := medians["z3"], medians["enum"]; z > 0 && e > 0 {
		t.Logf("median ratio z3/enum: %.1f", float64(z)/float64(e))
	}
	if testing.Verbose() {
		var b strings.Builder
		fmt.Fprintf(&b, "%-24s", "problem (ms)")
		for _, backend := range synth.Backends() {
			fmt.Fprintf(&b, " %9s", backend)
		}
		for _, p := range corpus {
			fmt.Fprintf(&b, "\n%-24s", p.Name)
			for _, backend := range synth.Backends() {
				fmt.Fprintf(&b, " %9.2f", float64(all[backend][p.Name].Microseconds())/1000)
			}
		}
		t.Log("\n" + b.String())
	}
}

// checkCandidates checks what Solve promises of every candidate: it gives
// every example its outcome with Go semantics, it is not trivial, its fields
// agree with its term, and the order follows the cost.
func checkCandidates(t *testing.T, spec *synth.Spec, cands []synth.Candidate) {
	t.Helper()
	seen := map[string]bool{}
	for i, c := range cands {
		if c.Source != c.Term.Source(spec) || c.Size != c.Term.Size() || c.Expr == nil {
			t.Errorf("candidate %d %q: fields disagree with its term (%q, size %d)", i, c.Source, c.Term.Source(spec), c.Term.Size())
		}
		if seen[c.Source] {
			t.Errorf("candidate %q returned twice", c.Source)
		}
		seen[c.Source] = true
		if i > 0 && c.Cost < cands[i-1].Cost {
			t.Errorf("candidate %d %q (cost %d) ranks after %q (cost %d)", i, c.Source, c.Cost, cands[i-1].Source, cands[i-1].Cost)
		}
		for j := range spec.Examples {
			ex := &spec.Examples[j]
			v, err := c.Term.Eval(spec, ex)
			if err != nil || v.Kind != synth.Bool || v.Bool != ex.Want {
				t.Errorf("candidate %q on example %d %v: got %v, %v; want %v", c.Source, j, ex.Values, v, err, ex.Want)
				break
			}
		}
		if trivial(spec, c.Term) || sameWant(spec.Examples) && constantNearby(spec, c.Term) {
			t.Errorf("candidate %q is trivial", c.Source)
		}
	}
}

// trivial reports whether t reads no input, or compares or combines a term
// with itself.
func trivial(spec *synth.Spec, t *synth.Term) bool {
	if !readsInput(t) {
		return true
	}
	if len(t.Args) == 2 && t.Args[0].Source(spec) == t.Args[1].Source(spec) {
		return true
	}
	for _, a := range t.Args {
		if a.Kind(spec) == synth.Bool && trivial(spec, a) {
			return true
		}
	}
	return false
}

// constantNearby reports whether t has one value on every example and on
// every state one step away from one (a bool flipped, a number moved by
// one, negated or zeroed, a string emptied).
func constantNearby(spec *synth.Spec, t *synth.Term) bool {
	var first *bool
	for _, ex := range spec.Examples {
		for i := -1; i < len(ex.Values); i++ {
			for variant := range 4 {
				st := synth.Example{Values: slices.Clone(ex.Values)}
				if i >= 0 {
					switch v := &st.Values[i]; v.Kind {
					case synth.Bool:
						v.Bool = !v.Bool
					case synth.Int:
						v.Int = []int64{v.Int - 1, v.Int + 1, -v.Int, 0}[variant]
					case synth.Float:
						v.Float = []float64{v.Float - 1, v.Float + 1, -v.Float, 0}[variant]
					case synth.String:
						v.Str = ""
					}
				}
				r, err := t.Eval(spec, &st)
				if err != nil {
					continue
				}
				if first == nil {
					first = &r.Bool
				} else if *first != r.Bool {
					return false
				}
			}
		}
	}
	return true
}

func readsInput(t *synth.Term) bool {
	if t.Op == synth.OpInput {
		return true
	}
	for _, a := range t.Args {
		if readsInput(a) {
			return true
		}
	}
	return false
}

func sources(cands []synth.Candidate) []string {
	var out []string
	for _, c := range cands {
		out = append(out, c.Source)
	}
	return out
}

// TestCorpusExpectations checks the corpus itself: every expected source is
// a term over the spec's inputs and constants that prints back as written and
// gives every example and every held-out example its outcome.
func TestCorpusExpectations(t *testing.T) {
	for _, p := range loadCorpus(t) {
		if p.Expect.Error == "" && len(p.expected()) == 0 && p.Name != "all_true" {
			t.Errorf("%s: expects nothing", p.Name)
		}
		for _, src := range append([]string{p.Expect.First}, p.Expect.Any...) {
			if src == "" {
				continue
			}
			term, err := parseTerm(&p.Spec, src)
			if err != nil {
				t.Errorf("%s: expected %q: %v", p.Name, src, err)
				continue
			}
			if got := term.Source(&p.Spec); normalize(got) != normalize(src) {
				t.Errorf("%s: expected %q prints as %q", p.Name, src, got)
			}
			for _, exs := range [][]synth.Example{p.Spec.Examples, p.Heldout} {
				if !synth.Satisfies(&p.Spec, term, exs) {
					t.Errorf("%s: expected %q does not fit the examples", p.Name, src)
				}
			}
		}
	}
}

var binaryOps = map[token.Token]synth.Op{
	token.LAND: synth.OpAnd, token.LOR: synth.OpOr, token.LSS: synth.OpLt, token.LEQ: synth.OpLe,
	token.EQL: synth.OpEq, token.NEQ: synth.OpNe, token.GTR: synth.OpGt, token.GEQ: synth.OpGe,
	token.ADD: synth.OpAdd, token.SUB: synth.OpSub, token.MUL: synth.OpMul,
}

// parseTerm turns Go source over spec's inputs and constants into a term:
// the inverse of Term.Source.
func parseTerm(spec *synth.Spec, src string) (*synth.Term, error) {
	e, err := parser.ParseExpr(src)
	if err != nil {
		return nil, err
	}
	return termOf(spec, e)
}

func termOf(spec *synth.Spec, e ast.Expr) (*synth.Term, error) {
	if p, ok := e.(*ast.ParenExpr); ok {
		return termOf(spec, p.X)
	}
	text := types.ExprString(e)
	for i, in := range spec.Inputs {
		if normalize(in.Expr) == text {
			return synth.InputTerm(i), nil
		}
		// p != nil is !(p == nil) when p == nil is observed.
		if be, ok := e.(*ast.BinaryExpr); ok && be.Op == token.NEQ {
			if normalize(in.Expr) == types.ExprString(&ast.BinaryExpr{X: be.X, Op: token.EQL, Y: be.Y}) {
				return synth.NotTerm(synth.InputTerm(i)), nil
			}
		}
	}
	for i, c := range spec.Constants {
		if normalize(c.Expr) == text {
			return synth.ConstTerm(i), nil
		}
	}
	switch e := e.(type) {
	case *ast.BasicLit:
		switch e.Kind {
		case token.INT:
			n, err := strconv.ParseInt(e.Value, 0, 64)
			return synth.LitTerm(synth.IntValue(n)), err
		case token.FLOAT:
			f, err := strconv.ParseFloat(e.Value, 64)
			return synth.LitTerm(synth.FloatValue(f)), err
		}
	case *ast.UnaryExpr:
		if e.Op == token.SUB {
			if lit, ok := e.X.(*ast.BasicLit); ok && lit.Kind == token.INT {
				n, err := strconv.ParseInt("-"+lit.Value, 0, 64)
				return synth.LitTerm(synth.IntValue(n)), err
			}
		}
		if e.Op == token.NOT {
			a, err := termOf(spec, e.X)
			if err != nil {
				return nil, err
			}
			return synth.NotTerm(a), nil
		}
	case *ast.BinaryExpr:
		op, ok := binaryOps[e.Op]
		if !ok {
			break
		}
		a, err := termOf(spec, e.X)
		if err != nil {
			return nil, err
		}
		b, err := termOf(spec, e.Y)
		if err != nil {
			return nil, err
		}
		if op == synth.OpMul && (a.Op == synth.OpLit || a.Op == synth.OpConst) {
			a, b = b, a // the constant factor is the right operand
		}
		return synth.BinTerm(op, a, b), nil
	}
	return nil, fmt.Errorf("%s is not an observed expression, a constant or an operator", text)
}
