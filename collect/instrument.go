package collect

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/nopol-go/nopol/internal/gotest"
)

// hookName is the file name the hook file gets in each instrumented
// package directory (through the overlay only).
const hookName = "zz_nopol_hook.go"

type atomicCounter struct{ atomic.Int64 }

// overlay is the content of a `go build -overlay` file, built in a temp dir.
type overlay struct {
	dir     string
	Replace map[string]string
	n       int
}

func newOverlay(dir string) *overlay {
	return &overlay{dir: dir, Replace: map[string]string{}}
}

// add makes the compiler see src at path.
func (o *overlay) add(path string, src []byte) error {
	o.n++
	name := filepath.Join(o.dir, "src", strconv.Itoa(o.n)+"_"+filepath.Base(path))
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(name, src, 0o644); err != nil {
		return err
	}
	o.Replace[path] = name
	return nil
}

// write writes the overlay JSON and returns its path.
func (o *overlay) write() (string, error) {
	data, err := json.MarshalIndent(struct{ Replace map[string]string }{o.Replace}, "", "\t")
	if err != nil {
		return "", err
	}
	name := filepath.Join(o.dir, "overlay.json")
	return name, os.WriteFile(name, data, 0o644)
}

// IsHook reports whether file is a hook file of the instrumentation (its
// frames in a stack trace are nopol's, not the program's).
func IsHook(file string) bool {
	return strings.HasPrefix(filepath.Base(file), strings.TrimSuffix(hookName, ".go"))
}

// hookPath returns a path in dir, not present on disk, for the hook file.
func hookPath(dir string) string {
	name := filepath.Join(dir, hookName)
	for i := 2; ; i++ {
		if _, err := os.Lstat(name); os.IsNotExist(err) {
			return name
		}
		name = filepath.Join(dir, fmt.Sprintf("zz_nopol_hook%d.go", i))
	}
}

// Instrument writes instrumented copies of every file with sites (and the
// hook file) into a temp dir, and compiles one test binary per package with
// `go test -c -overlay`. The user's files are never written.
func Instrument(ctx context.Context, prog *Program) (_ *Build, err error) {
	start := time.Now()
	dir, err := gotest.TempDir("nopol-build-")
	if err != nil {
		return nil, fmt.Errorf("instrumenting: %w", err)
	}
	b := &Build{Program: prog, Dir: dir, Binaries: map[string]string{}, runner: prog.goRunner()}
	b.life, b.stop = context.WithCancel(context.Background())
	defer func() {
		if err != nil {
			b.Close()
		}
	}()
	ovPath, replace, err := prog.writeOverlay(dir)
	if err != nil {
		return nil, err
	}
	// Runs write their records here; Run never creates a directory, so
	// a run racing with Close cannot bring the build's dir back.
	if err := os.Mkdir(filepath.Join(dir, "runs"), 0o755); err != nil {
		return nil, fmt.Errorf("instrumenting: %w", err)
	}
	if prog.gcflags, err = prog.inliningFlags(ctx, dir); err != nil {
		return nil, err
	}
	bins, err := buildTests(ctx, b.runner, prog, prog.Packages, ovPath, filepath.Join(dir, "bin"))
	for attempt := 0; err != nil && ctx.Err() == nil && attempt < 2; attempt++ {
		// An instrumented site that does not compile (an exit or an
		// observation the checks before missed) costs the sites of
		// its function, not the repair: the sites of the functions
		// the compiler names are left out (every guard's exits when
		// it names none).
		dropped := prog.leaveOut(err.Error(), replace)
		if len(dropped) == 0 {
			break
		}
		b.Dropped = append(b.Dropped, dropped...)
		if ovPath, replace, err = prog.writeOverlay(dir); err != nil {
			return nil, err
		}
		bins, err = buildTests(ctx, b.runner, prog, prog.Packages, ovPath, filepath.Join(dir, "bin"))
	}
	if err != nil {
		return nil, fmt.Errorf("instrumenting: %w; this is a nopol bug, please report it", err)
	}
	b.Binaries = bins
	b.BuildTime = time.Since(start)
	b.replace = replace
	return b, nil
}

// BuildSnapshots starts compiling, in the background, the test binaries
// with the snapshot functions (the observed expressions) of sites, or of
// every site when sites is nil; snapshot runs wait for them, and a
// snapshot run before any call starts the build of every site. Only the
// first call builds. A failure leaves snapshot runs on the first
// binaries, which record outcomes without values (SnapshotError). The
// fewer the sites, the shorter the build: the repair asks for the sites
// it may search only.
func (b *Build) BuildSnapshots(sites []int) {
	b.snapOnce.Do(func() { b.buildSnapshots(sites) })
}

func (b *Build) buildSnapshots(sites []int) {
	prog := b.Program
	b.mu.Lock()
	b.snapDone = make(chan struct{})
	closed, dir := b.closed || b.Dir == "", b.Dir
	if !closed {
		b.inflight.Add(1) // Close waits for the build
	}
	b.mu.Unlock()
	if closed {
		b.snapErr = errors.New("the build is closed")
		close(b.snapDone)
		return
	}
	start := time.Now()
	want := func(int) bool { return true }
	if sites != nil {
		set := map[int]bool{}
		for _, id := range sites {
			set[id] = true
		}
		want = func(id int) bool { return set[id] }
	}
	ovPath, err := prog.snapshotOverlay(filepath.Join(dir, "snap"), b.replace, want)
	if err != nil {
		b.snapErr = err
		close(b.snapDone)
		b.inflight.Done()
		return
	}
	go func() {
		defer b.inflight.Done()
		defer close(b.snapDone)
		bins, err := buildTests(b.life, b.runner, prog, prog.Packages, ovPath, filepath.Join(dir, "snapbin"))
		b.snapBins, b.snapErr, b.SnapshotBuildTime = bins, err, time.Since(start)
	}()
}

// snapshotBinary waits for the snapshot build and returns the binary of
// package pkg, "" when there is none (the build failed).
func (b *Build) snapshotBinary(ctx context.Context, pkg string) (string, error) {
	b.BuildSnapshots(nil)
	select {
	case <-b.snapDone:
	case <-ctx.Done():
		return "", ctx.Err()
	}
	if b.snapErr != nil {
		return "", nil
	}
	return b.snapBins[pkg], nil
}

// SnapshotError is why the binaries with snapshots could not be built
// (snapshot runs then record no values), nil when they were or are being
// built.
func (b *Build) SnapshotError() error {
	b.mu.Lock()
	started := b.snapDone != nil
	b.mu.Unlock()
	if !started {
		return nil
	}
	select {
	case <-b.snapDone:
		return b.snapErr
	default:
		return nil
	}
}

// writeOverlay writes the instrumented files, the hook files and the
// marked test files into dir and returns the overlay file and its
// replacements (original file -> written file).
func (prog *Program) writeOverlay(dir string) (string, map[string]string, error) {
	ov := newOverlay(dir)
	prog.constituents = nil

	// Instrumented files, without snapshots (see Instrument).
	if err := prog.addInstrumented(ov, nil); err != nil {
		return "", nil, err
	}

	// One hook file per package with non-test files.
	for _, path := range prog.modulePackages() {
		d := prog.pkgs[path]
		if d.pkg == nil || len(d.pkg.GoFiles) == 0 || d.dir == "" {
			continue
		}
		if err := ov.add(hookPath(d.dir), hookFile(d.name, len(prog.Sites), d.pkg.Types != nil && genericsOK(d.pkg.Types.GoVersion()))); err != nil {
			return "", nil, fmt.Errorf("instrumenting %s: %w", path, err)
		}
		if err := markTests(prog, d, ov); err != nil {
			return "", nil, fmt.Errorf("instrumenting tests of %s: %w", path, err)
		}
	}
	ovPath, err := ov.write()
	if err != nil {
		return "", nil, fmt.Errorf("instrumenting: %w", err)
	}
	return ovPath, ov.Replace, nil
}

// addInstrumented adds the instrumented source files to ov, with the
// snapshot functions of the sites snapshots wants (nil: none).
func (prog *Program) addInstrumented(ov *overlay, snapshots func(id int) bool) error {
	byFile := map[string][]wrap{}
	var files []string
	for i := range prog.Sites {
		f := prog.syn[i].file
		if byFile[f] == nil {
			files = append(files, f)
		}
		byFile[f] = append(byFile[f], prog.siteWraps(i, snapshots != nil && snapshots(i))...)
	}
	for f, ws := range prog.recovers {
		if byFile[f] == nil {
			files = append(files, f)
		}
		byFile[f] = append(byFile[f], ws...)
	}
	sort.Strings(files)
	for _, f := range files {
		src, err := prog.fileSource(f)
		if err != nil {
			return fmt.Errorf("instrumenting %s: %w", f, err)
		}
		if err := ov.add(f, splice(src, byFile[f])); err != nil {
			return fmt.Errorf("instrumenting %s: %w", f, err)
		}
	}
	return nil
}

// snapshotOverlay writes, in dir, the overlay of the build with
// snapshots: the files of the first build's overlay (replace), the
// instrumented ones again with the snapshot functions of the sites want
// says.
func (prog *Program) snapshotOverlay(dir string, replace map[string]string, want func(id int) bool) (string, error) {
	ov := newOverlay(dir)
	for path, file := range replace {
		ov.Replace[path] = file
	}
	if err := prog.addInstrumented(ov, want); err != nil {
		return "", err
	}
	return ov.write()
}

// leaveOut leaves out the sites in the functions around the positions
// the compiler's message names (without such positions, every guard's
// exits) and returns what was left out, for the user; nil when nothing
// was. The compiler may name a written file by a relative path.
func (prog *Program) leaveOut(msg string, replace map[string]string) []string {
	written := map[string]string{} // "src/3_f.go:" -> original file
	for orig, w := range replace {
		written[filepath.Base(filepath.Dir(w))+"/"+filepath.Base(w)+":"] = orig
	}
	blamed := map[string][]int{} // original file -> lines
	for _, line := range strings.Split(msg, "\n") {
		for w, orig := range written {
			_, rest, ok := strings.Cut(line, w)
			if !ok {
				continue
			}
			n, _, _ := strings.Cut(rest, ":")
			if l, err := strconv.Atoi(n); err == nil {
				blamed[orig] = append(blamed[orig], l)
			}
		}
	}
	var dropped []string
	for i := range prog.Sites {
		s, syn := &prog.Sites[i], &prog.syn[i]
		if syn.off {
			continue
		}
		hit := len(blamed) == 0 && s.Kind == Guard && len(s.Exits) > 0
		for _, l := range blamed[s.File] {
			if l >= s.FuncLines[0] && l <= s.FuncLines[1] {
				hit = true
			}
		}
		if !hit {
			continue
		}
		dropped = append(dropped, fmt.Sprintf("%s:%d", s.File, s.Line))
		if len(blamed) == 0 {
			s.Exits = nil
		} else {
			syn.off = true
		}
	}
	return dropped
}

// buildTests compiles the test binaries of pkgs with the overlay into
// binDir. Packages go into one go command per group of distinct binary
// names (most modules need one), which loads the module once and shares
// the compile work; if a group's binaries do not appear where expected,
// its packages are built one by one.
func buildTests(ctx context.Context, r *gotest.Runner, prog *Program, pkgs []string, ovPath, binDir string) (map[string]string, error) {
	var groups []map[string]string // binary name -> import path
	for _, path := range pkgs {
		name := gotest.TestBinaryName(path)
		placed := false
		for _, g := range groups {
			if _, taken := g[name]; !taken {
				g[name] = path
				placed = true
				break
			}
		}
		if !placed {
			groups = append(groups, map[string]string{name: path})
		}
	}
	bins := map[string]string{}
	var mu sync.Mutex
	errs := make([]error, len(groups))
	var wg sync.WaitGroup
	sem := make(chan struct{}, 2)
	for i, g := range groups {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			dir := filepath.Join(binDir, strconv.Itoa(i))
			if err := os.MkdirAll(dir, 0o755); err != nil {
				errs[i] = err
				return
			}
			names := make([]string, 0, len(g))
			for name := range g {
				names = append(names, name)
			}
			sort.Strings(names)
			paths := make([]string, len(names))
			for k, name := range names {
				paths[k] = g[name]
			}
			if err := r.BuildTests(ctx, prog.Dir, paths, ovPath, dir, prog.gcflags...); err != nil {
				errs[i] = err
				return
			}
			for k, name := range names {
				out := filepath.Join(dir, name)
				if _, err := os.Stat(out); err != nil {
					// Not where expected: build this one alone.
					out = filepath.Join(dir, strconv.Itoa(k)+".test")
					if err := r.BuildTest(ctx, prog.Dir, paths[k], ovPath, out, prog.gcflags...); err != nil {
						errs[i] = err
						return
					}
				}
				mu.Lock()
				bins[paths[k]] = out
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return bins, nil
}

// Close removes the build's temp dir. Runs still in progress are
// cancelled and waited for first (they end within about a second); Run
// fails once Close has begun. Close may be called more than once.
func (b *Build) Close() error {
	if b == nil {
		return nil
	}
	b.mu.Lock()
	b.closed = true
	b.mu.Unlock()
	if b.stop != nil {
		b.stop()
	}
	b.inflight.Wait()
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.Dir == "" {
		return nil
	}
	err := os.RemoveAll(b.Dir)
	b.Dir = ""
	return err
}

// begin registers a run and returns the build's dir and a context that
// Close cancels; end must be called when the run is over.
func (b *Build) begin(ctx context.Context) (dir string, rctx context.Context, end func(), err error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed || b.Dir == "" {
		return "", nil, nil, errors.New("the build is closed")
	}
	b.inflight.Add(1)
	rctx, cancel := context.WithCancel(ctx)
	stopAfter := func() bool { return false }
	if b.life != nil {
		stopAfter = context.AfterFunc(b.life, cancel)
	}
	return b.Dir, rctx, func() {
		stopAfter()
		cancel()
		b.inflight.Done()
	}, nil
}

// PackageDir is the directory of the package with import path path (the
// module root when it is not loaded).
func (prog *Program) PackageDir(path string) string { return prog.pkgDir(path) }

func (prog *Program) pkgDir(path string) string {
	if d := prog.pkgs[path]; d != nil && d.dir != "" {
		return d.dir
	}
	return prog.Dir
}
