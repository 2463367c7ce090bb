package nopol

import (
	"context"
	"runtime"
	"sync"
	"time"

	"github.com/nopol-go/nopol/collect"
	"github.com/nopol-go/nopol/internal/constituent"
)

// collector is what Repair needs of package collect; tests replace it with
// a fake to exercise the pipeline without building binaries.
type collector interface {
	Load(ctx context.Context, dir string, patterns, tags []string) (*collect.Program, error)
	Baseline(ctx context.Context, prog *collect.Program, timeout time.Duration) ([]collect.TestResult, error)
	Instrument(ctx context.Context, prog *collect.Program) (testBinary, error)
	BuildSchemas(ctx context.Context, prog *collect.Program, parts []collect.SchemaPart, timeout time.Duration, evalLimit func(pkg string, tests []string) int64) (suiteRunner, error)
	VerifyPatch(ctx context.Context, prog *collect.Program, file string, src []byte, timeout time.Duration) (collect.SuiteResult, error)
	// Rerun runs tests count times on the user's code, or with patch in
	// place of its file when patch is not nil.
	Rerun(ctx context.Context, prog *collect.Program, patch *collect.Patch, tests []collect.TestID, count int, timeout time.Duration) (map[collect.TestID]collect.Repeats, error)
}

// testBinary is a *collect.Build.
type testBinary interface {
	Run(ctx context.Context, r collect.Run) (collect.Result, error)
	// Constituents are the marked test constituents of a package.
	Constituents(pkg string) []constituent.Constituent
	// DroppedExits are the sites ("file:line") left out of the
	// instrumented build, or whose exits were, because they did not
	// compile (collect.Build.Dropped).
	DroppedExits() []string
	// BuildSnapshots starts building the binaries that record the
	// observed values of sites (the ones the search may reach).
	BuildSnapshots(sites []int)
	Close() error
}

// suiteRunner is a *collect.Schema.
type suiteRunner interface {
	RunSuite(ctx context.Context, k int) (collect.SuiteResult, error)
	RunTests(ctx context.Context, k int, names []string, timeout time.Duration, maxRSS int64) (collect.SuiteResult, error)
	Close() error
}

// realCollector is package collect.
type realCollector struct{}

func (realCollector) Load(ctx context.Context, dir string, patterns, tags []string) (*collect.Program, error) {
	return collect.Load(ctx, dir, patterns, tags...)
}

func (realCollector) Baseline(ctx context.Context, prog *collect.Program, timeout time.Duration) ([]collect.TestResult, error) {
	return collect.Baseline(ctx, prog, timeout)
}

func (realCollector) Instrument(ctx context.Context, prog *collect.Program) (testBinary, error) {
	b, err := collect.Instrument(ctx, prog)
	if err != nil {
		return nil, err
	}
	return b, nil
}

// BuildSchemas builds the schema; timeout bounds each of its suite runs,
// evalLimit the evaluations of its sites in each test binary run
// (collect.Schema.EvalLimit; see repairer.candidateEvalLimit).
func (realCollector) BuildSchemas(ctx context.Context, prog *collect.Program, parts []collect.SchemaPart, timeout time.Duration, evalLimit func(pkg string, tests []string) int64) (suiteRunner, error) {
	s, err := collect.BuildSchemas(ctx, prog, parts)
	if err != nil {
		return nil, err
	}
	s.Timeout, s.EvalLimit = timeout, evalLimit
	return s, nil
}

func (realCollector) VerifyPatch(ctx context.Context, prog *collect.Program, file string, src []byte, timeout time.Duration) (collect.SuiteResult, error) {
	return collect.VerifyPatch(ctx, prog, file, src, timeout)
}

func (realCollector) Rerun(ctx context.Context, prog *collect.Program, patch *collect.Patch, tests []collect.TestID, count int, timeout time.Duration) (map[collect.TestID]collect.Repeats, error) {
	return collect.Rerun(ctx, prog, patch, tests, count, timeout)
}

// runAll runs rs on the instrumented binary, at most r.pool.limit() at
// once but for the tests that must run alone (repairer.serial), run one by
// one after the others, and returns the results in the order of rs.
func (r *repairer) runAll(ctx context.Context, rs []collect.Run) ([]collect.Result, error) {
	var together, alone []int
	for i, run := range rs {
		if r.serial[testKey{run.Package, run.Test}] {
			alone = append(alone, i)
		} else {
			together = append(together, i)
		}
	}
	if len(alone) == 0 {
		return runParallel(ctx, r.bin, rs, r.pool)
	}
	out := make([]collect.Result, len(rs))
	for _, part := range []struct {
		idx  []int
		pool *runPool
	}{{together, r.pool}, {alone, &runPool{base: 1}}} {
		res, err := runParallel(ctx, r.bin, pick(rs, part.idx), part.pool)
		for j, i := range part.idx {
			out[i] = res[j]
		}
		if err != nil {
			return out, err
		}
	}
	return out, nil
}

// runParallel runs rs on bin, at most pool.limit() at once (read again as
// each run starts), and returns the results in the order of rs. It stops
// starting runs at the first error, or when ctx is cancelled, and
// returns once every started run has ended.
func runParallel(ctx context.Context, bin testBinary, rs []collect.Run, pool *runPool) ([]collect.Result, error) {
	out := make([]collect.Result, len(rs))
	var (
		mu       sync.Mutex
		ended    = sync.NewCond(&mu)
		running  int
		firstErr error
		wg       sync.WaitGroup
	)
	for i := range rs {
		mu.Lock()
		for running >= pool.limit() && firstErr == nil {
			ended.Wait()
		}
		stop := firstErr != nil || ctx.Err() != nil
		if !stop {
			running++
		}
		mu.Unlock()
		if stop {
			break
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			res, err := bin.Run(ctx, rs[i])
			pool.observe(res)
			mu.Lock()
			out[i] = res
			if err != nil && firstErr == nil {
				firstErr = err
			}
			running--
			ended.Broadcast()
			mu.Unlock()
		}()
	}
	wg.Wait()
	if firstErr != nil {
		return out, firstErr
	}
	return out, ctx.Err()
}

// runPool says how many instrumented runs go at once. With the default
// Options.Parallel (0) it watches the processor time of the runs that ended: a
// suite whose tests mostly wait (sleeps, timers, I/O) leaves the
// processors idle at base processes, so runs go base / (CPU share)
// at once, at most maxWaitFactor times base. A run that took 1 s of 10
// s of wall time had a share of 0.1.
type runPool struct {
	base     int
	adaptive bool

	mu        sync.Mutex
	wall, cpu time.Duration
}

// maxWaitFactor bounds the runs at once of a waiting suite, as a multiple
// of the base (GOMAXPROCS, at most 4): each is a process with its own
// memory.
const maxWaitFactor = 4

// minObserved is the wall time of ended runs the pool needs before it
// judges their processor share.
const minObserved = time.Second

func (p *runPool) limit() int {
	if p == nil || p.base < 1 {
		return 1
	}
	if !p.adaptive {
		return p.base
	}
	share, ok := p.share()
	if !ok {
		return p.base
	}
	n := int(float64(p.base) / share)
	return min(max(n, p.base), maxWaitFactor*p.base)
}

// share is the processor time of the ended runs over their wall time;
// false until they took minObserved.
func (p *runPool) share() (float64, bool) {
	p.mu.Lock()
	wall, cpu := p.wall, p.cpu
	p.mu.Unlock()
	if wall < minObserved || cpu <= 0 {
		return 0, false
	}
	return float64(cpu) / float64(wall), true
}

// observe adds an ended run to what the pool has seen; a run without a
// processor time (not started, or a fake) counts for nothing.
func (p *runPool) observe(res collect.Result) {
	if p == nil || !p.adaptive || res.CPU <= 0 || res.Duration <= 0 {
		return
	}
	p.mu.Lock()
	p.wall += res.Duration
	p.cpu += res.CPU
	p.mu.Unlock()
}

func defaultParallel() int {
	return min(4, runtime.GOMAXPROCS(0))
}

// runTimeout is the time limit of one instrumented run of a test whose
// plain run took d: twenty times as long plus 1.5s (a loaded machine can
// take a second to start a process), at most a minute. Forcing a loop's
// condition often makes a fast test hang: the floor is paid at every such
// run, so it is kept low.
func runTimeout(d time.Duration) time.Duration {
	return min(20*d+1500*time.Millisecond, time.Minute)
}

// suiteTimeout is the time limit of a whole-suite run whose tests took
// total in the baseline: ten times as long plus 5s, at most 2 minutes.
func suiteTimeout(total time.Duration) time.Duration {
	return min(10*total+5*time.Second, 2*time.Minute)
}

// testKey identifies a test across packages.
type testKey struct{ pkg, name string }

// id is the test's name in the angelic search, unique across packages.
func (k testKey) id() string { return k.pkg + " " + k.name }
