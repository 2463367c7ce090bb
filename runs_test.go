package nopol

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/nopol-go/nopol/collect"
	"github.com/nopol-go/nopol/internal/constituent"
)

func TestRunPoolLimit(t *testing.T) {
	for _, tt := range []struct {
		name      string
		pool      *runPool
		wall, cpu time.Duration
		want      int
	}{
		{"no pool", nil, 0, 0, 1},
		{"fixed", &runPool{base: 2}, 10 * time.Second, time.Second, 2},
		{"nothing seen yet", &runPool{base: 2, adaptive: true}, 0, 0, 2},
		{"too little seen", &runPool{base: 2, adaptive: true}, 500 * time.Millisecond, 10 * time.Millisecond, 2},
		{"busy", &runPool{base: 2, adaptive: true}, 10 * time.Second, 9 * time.Second, 2},
		{"parallel tests", &runPool{base: 2, adaptive: true}, 10 * time.Second, 30 * time.Second, 2},
		{"half waiting", &runPool{base: 2, adaptive: true}, 10 * time.Second, 5 * time.Second, 4},
		{"a third busy", &runPool{base: 2, adaptive: true}, 9 * time.Second, 3 * time.Second, 6},
		{"waiting", &runPool{base: 2, adaptive: true}, 10 * time.Second, 100 * time.Millisecond, 8},
		{"one core waiting", &runPool{base: 1, adaptive: true}, 10 * time.Second, 100 * time.Millisecond, 4},
	} {
		t.Run(tt.name, func(t *testing.T) {
			tt.pool.observe(collect.Result{Duration: tt.wall, CPU: tt.cpu})
			if got := tt.pool.limit(); got != tt.want {
				t.Errorf("limit() = %d, want %d", got, tt.want)
			}
		})
	}
}

// waitBinary is a test binary whose runs take wait of wall time and
// report cpu of processor time; it records the most runs at once.
type waitBinary struct {
	wait, reported, cpu time.Duration
	failAt              string

	mu            sync.Mutex
	running, most int
	started       []string
}

func (b *waitBinary) Run(ctx context.Context, r collect.Run) (collect.Result, error) {
	b.mu.Lock()
	b.running++
	b.most = max(b.most, b.running)
	b.started = append(b.started, r.Test)
	b.mu.Unlock()
	time.Sleep(b.wait)
	b.mu.Lock()
	b.running--
	b.mu.Unlock()
	if r.Test == b.failAt {
		return collect.Result{}, errors.New("the binary is gone")
	}
	return collect.Result{Passed: true, Duration: b.reported, CPU: b.cpu}, nil
}

func (*waitBinary) Constituents(string) []constituent.Constituent { return nil }
func (*waitBinary) DroppedExits() []string                        { return nil }
func (*waitBinary) BuildSnapshots([]int)                          {}
func (*waitBinary) Close() error                                  { return nil }

// TestRunParallelAdapts: runs that report little processor time raise
// the runs at once to maxWaitFactor times the base; busy ones, or a fixed
// Options.Parallel, keep the base. Every run gets its result, in order.
func TestRunParallelAdapts(t *testing.T) {
	for _, tt := range []struct {
		name     string
		adaptive bool
		cpu      time.Duration
		want     int
	}{
		{"waiting", true, 10 * time.Millisecond, 8},
		{"busy", true, time.Second, 2},
		{"fixed", false, 10 * time.Millisecond, 2},
	} {
		t.Run(tt.name, func(t *testing.T) {
			bin := &waitBinary{wait: 20 * time.Millisecond, reported: time.Second, cpu: tt.cpu}
			rs := make([]collect.Run, 40)
			for i := range rs {
				rs[i].Test = "Test" + string(rune('A'+i))
			}
			res, err := runParallel(context.Background(), bin, rs, &runPool{base: 2, adaptive: tt.adaptive})
			if err != nil {
				t.Fatal(err)
			}
			for i, r := range res {
				if !r.Passed {
					t.Errorf("run %d has no result", i)
				}
			}
			if bin.most != tt.want {
				t.Errorf("at most %d runs at once, want %d", bin.most, tt.want)
			}
		})
	}
}

// TestRunParallelStopsAtError: no run starts after one fails to run, and
// the error is returned.
func TestRunParallelStopsAtError(t *testing.T) {
	bin := &waitBinary{wait: 10 * time.Millisecond, reported: time.Second, cpu: time.Second, failAt: "TestB"}
	rs := []collect.Run{{Test: "TestA"}, {Test: "TestB"}, {Test: "TestC"}, {Test: "TestD"}, {Test: "TestE"}}
	_, err := runParallel(context.Background(), bin, rs, &runPool{base: 1})
	if err == nil {
		t.Fatal("no error")
	}
	if len(bin.started) != 2 {
		t.Errorf("started %v, want TestA and TestB only", bin.started)
	}
}
