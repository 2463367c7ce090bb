package hookrt

import (
	nopoljson "encoding/json"
	nopolflag "flag"
	nopolos "os"
	nopolreflect "reflect"
	nopoldebug "runtime/debug"
	nopolsort "sort"
	nopolstrconv "strconv"
	nopolstrings "strings"
	nopolsync "sync"
	nopolatomic "sync/atomic"
	nopolsyscall "syscall"
	nopolunsafe "unsafe"
)

// NopolValue is one observed value, encoded as collect.Value.
type NopolValue struct {
	K int     "json:\"k\""
	B bool    "json:\"b,omitempty\""
	I int64   "json:\"i,omitempty\""
	F float64 "json:\"f,omitempty\""
	S string  "json:\"s,omitempty\""
	M bool    "json:\"m,omitempty\""
}

type nopolRecord struct {
	S int          "json:\"s\""
	O bool         "json:\"o\""
	V []NopolValue "json:\"v,omitempty\""
	G int64        "json:\"g\""
	I int64        "json:\"i\""
	N int64        "json:\"n,omitempty\""
}

type nopolShared struct{ v []interface{} }

func (*nopolShared) String() string     { return "" }
func (*nopolShared) Set(string) error   { return nil }
func (s *nopolShared) Get() interface{} { return s.v }

const nopolMaxString = 4096

// nopolNumSites is the number of sites of the program (site IDs are below).
const nopolNumSites = 1 // the number of sites: written by the generator

var (
	nopolOnce     nopolsync.Once
	nopolMode     int        // 0 plain, 1 cover, 2 snapshot
	nopolForce    []int8     // per site: 0 not forced, 1 forced false, 2 forced true
	nopolReturn   []int      // per site: a forced false leaves by exit k-1 (0: skips)
	nopolSites    []bool     // per site: recorded in snapshot mode
	nopolAnyForce bool       // whether any site is forced
	nopolSegOnly  bool       // forcing applies only within nopolSegs
	nopolSegs     [][3]int64 // constituents (segment, iteration; -1 any) and their own forced value (0 the site's, 1 false, 2 true)
	nopolCap      int64      = 200
	nopolPrint    bool
	nopolCurrent  *[3]int64 // segment, iteration, epoch (see NopolSegment); shared
	nopolMu       *nopolsync.Mutex
	nopolOut      *nopolos.File
	// nopolCount holds the evaluations of each site by outcome (false,
	// true at 2*id, 2*id+1): the file NOPOL_COUNTS mapped in memory, so
	// that every count is kept whatever way the process ends, without a
	// write; nopolCountsMapped says so. Without it (the map failed), a
	// record of the count is written at every power of two instead.
	nopolCount        []int64
	nopolCountsMapped bool
	// nopolCnt is nopolCount as an array, so that the count a quiet site
	// makes in cover mode compiles, inlined, to one increment at a
	// constant offset (NopolV, NopolGuard). nopolFlushed holds, per site
	// and outcome, the count when its last coverage record was written,
	// and nopolTrailer the current test constituent (segment, iteration):
	// both in the mapped file after the counts, so that a reader
	// attributes the evaluations of the last constituent, which no
	// boundary flushed, however the process ended (see nopolFlush).
	nopolCnt     *[nopolNumSites][2]int64
	nopolFlushed []int64
	nopolTrailer []int64
	nopolWritten [nopolNumSites]int64    // per site: lines written
	nopolLast    [nopolNumSites][2]int64 // per site and outcome: the epoch of the constituent last recorded
	nopolSeen    map[[4]int64]bool
	// nopolFlip is, per site, the evaluations (from 1) whose outcome is
	// negated (NOPOL_FLIP "id:k,id:k2"), 0 for every one, nil for none; nopolEvals counts
	// the evaluations of each site flipped or printed; nopolPrintEvals
	// marks the sites whose evaluations are printed (NOPOL_PRINT_EVALS),
	// the first nopolMaxPrinted of each.
	nopolFlip []map[int64]bool
	// nopolPred is, per site, the observed predicate whose value is the
	// outcome of every evaluation (NOPOL_PRED), nil for none.
	nopolPred       []*nopolPredicate
	nopolEvals      []int64
	nopolPrintEvals []bool
	nopolMaxPrinted int64
	// nopolNoCalls leaves observed calls out (NOPOL_NOCALLS).
	nopolNoCalls bool
	// nopolReach, when not nil (NOPOL_PRINT_REACH in cover mode), marks
	// the sites already evaluated; the first evaluation of each prints
	// "nopol-reach id" to standard output.
	nopolReach []int32
	// nopolRecoveredStacks counts the stacks NopolRecovered printed.
	nopolRecoveredStacks int32
	// nopolEvalLimit, when > 0 (NOPOL_EVAL_LIMIT), bounds the evaluations
	// of all sites of a run (in snapshot mode, of the snapshot sites,
	// the only ones that count there): past it the run
	// is taken as hung (a forced loop that spins) and the process ends
	// with status 3. The sites that are not quiet count them in
	// nopolEvalCount; in cover mode with the counts mapped, where sites
	// stay quiet under a limit, the process that runs the test watches
	// the counts file (collect.Build.Run).
	nopolEvalLimit int64
	nopolEvalCount int64
	// nopolObserving counts the snapshots being evaluated, shared: a call
	// observed at a site may reach other sites, which then neither record
	// nor snapshot nor apply forcing.
	nopolObserving *int32
	// nopolPending, shared, holds the run while it is not negative: the
	// tests of Run.Before are running (NOPOL_AFTER is the number of them
	// with markers). Held, the sites neither record, force, flip nor
	// print, and the counts of quiet sites are zeroed when the test of the
	// run starts (nopolStart).
	nopolPending *int64
)

// nopolHeld reports whether the run is held: a test of Run.Before runs.
func nopolHeld() bool {
	return nopolatomic.LoadInt64(nopolPending) >= 0
}

// nopolStart counts the start of a marked test in a held run and reports
// whether the run is still held. The start that ends the hold is that of
// the run's test: the counts the quiet sites made before it are zeroed,
// so that every count, record and forced value is the test's own.
func nopolStart() bool {
	if nopolatomic.AddInt64(nopolPending, -1) >= 0 {
		return true
	}
	for k := range nopolCount {
		nopolatomic.StoreInt64(&nopolCount[k], 0)
		nopolatomic.StoreInt64(&nopolFlushed[k], 0)
	}
	return false
}

// nopolInObservation reports whether a snapshot is being evaluated.
func nopolInObservation() bool {
	return nopolObserving != nil && nopolatomic.LoadInt32(nopolObserving) > 0
}

// NopolCand selects the candidate of a schema binary (NOPOL_CAND).
var NopolCand = nopolAtoi(nopolos.Getenv("NOPOL_CAND"), -1)

func nopolAtoi(s string, def int) int {
	n, err := nopolstrconv.Atoi(nopolstrings.TrimSpace(s))
	if err != nil {
		return def
	}
	return n
}

func nopolIDs(s string) map[int]bool {
	m := map[int]bool{}
	for _, f := range nopolstrings.Split(s, ",") {
		if f = nopolstrings.TrimSpace(f); f == "" {
			continue
		}
		id, val, ok := nopolstrings.Cut(f, "=")
		v := !ok || val == "true"
		if n, err := nopolstrconv.Atoi(id); err == nil {
			m[n] = v
		}
	}
	return m
}

// nopolState is shared by the hook copies of all instrumented packages
// in the binary. As a package variable it is initialised, in the init
// goroutine, before any variable whose initializer reaches a hook
// function (through nopolSetup), so the registration never races.
var nopolState = nopolShare()

func nopolShare() []interface{} {
	const key = "nopol.shared.state"
	if f := nopolflag.Lookup(key); f != nil {
		if g, ok := f.Value.(nopolflag.Getter); ok {
			if v, ok := g.Get().([]interface{}); ok && len(v) == 6 {
				return v
			}
		}
	}
	if nopolos.Getenv("NOPOL_MODE") != "" {
		nopoldebug.SetMaxStack(nopolAtoi(nopolos.Getenv("NOPOL_MAX_STACK"), nopolMaxStack))
	}
	var out *nopolos.File
	if name := nopolos.Getenv("NOPOL_OUT"); name != "" {
		out, _ = nopolos.OpenFile(name, nopolos.O_WRONLY|nopolos.O_APPEND|nopolos.O_CREATE, 0644)
	}
	var counts []int64
	if name := nopolos.Getenv("NOPOL_COUNTS"); name != "" && out != nil {
		counts = nopolMapCounts(name)
	}
	if counts != nil {
		counts[nopolMappedLen-2], counts[nopolMappedLen-1] = -1, -1 // no constituent yet
	}
	pending := int64(-1)
	if after := nopolos.Getenv("NOPOL_AFTER"); after != "" {
		pending = int64(nopolAtoi(after, -1))
	}
	v := []interface{}{&[3]int64{-1, -1, 1}, new(nopolsync.Mutex), out, new(int32), counts, &pending}
	nopolflag.Var(&nopolShared{v}, key, "nopol internal state")
	return v
}

// nopolMaxStack is the stack limit of a goroutine in nopol's runs,
// unless NOPOL_MAX_STACK gives one: a quarter of Go's 1 GB, so that a
// runaway recursion overflows four times sooner, with a quarter of the
// memory. A passing test that needs more fails instrumented and is left
// out of the search with a warning.
const nopolMaxStack = 256 << 20

// nopolMappedLen is the number of int64 in the counts file: per site the
// false and true evaluations, then per site the same counts when last
// flushed, then the current constituent (segment, iteration).
const nopolMappedLen = 4*nopolNumSites + 2

// nopolMapCounts maps the file name, of nopolMappedLen little-endian
// int64, into memory (shared: what the process adds is in the file when
// it ends, however it ends); nil if it cannot.
func nopolMapCounts(name string) []int64 {
	const size = 8 * nopolMappedLen
	f, err := nopolos.OpenFile(name, nopolos.O_RDWR|nopolos.O_CREATE, 0644)
	if err != nil {
		return nil
	}
	defer f.Close()
	if err := f.Truncate(size); err != nil {
		return nil
	}
	data, err := nopolsyscall.Mmap(int(f.Fd()), 0, size, nopolsyscall.PROT_READ|nopolsyscall.PROT_WRITE, nopolsyscall.MAP_SHARED)
	if err != nil {
		return nil
	}
	// Not unsafe.Slice: the module's language may be older than Go 1.17.
	return (*[1 << 26]int64)(nopolunsafe.Pointer(&data[0]))[:nopolMappedLen:nopolMappedLen]
}

func nopolSetup() {
	nopolCurrent, _ = nopolState[0].(*[3]int64)
	nopolMu, _ = nopolState[1].(*nopolsync.Mutex)
	nopolOut, _ = nopolState[2].(*nopolos.File)
	nopolObserving, _ = nopolState[3].(*int32)
	mapped, _ := nopolState[4].([]int64)
	nopolPending, _ = nopolState[5].(*int64)
	if nopolPending == nil {
		nopolPending = new(int64)
		*nopolPending = -1
	}
	nopolCountsMapped = mapped != nil
	if !nopolCountsMapped {
		mapped = make([]int64, nopolMappedLen)
	}
	nopolCount = mapped[: 2*nopolNumSites : 2*nopolNumSites]
	nopolFlushed = mapped[2*nopolNumSites : 4*nopolNumSites : 4*nopolNumSites]
	nopolTrailer = mapped[4*nopolNumSites:]
	switch nopolos.Getenv("NOPOL_MODE") {
	case "cover":
		nopolMode = 1
	case "snapshot":
		nopolMode = 2
	}
	if nopolOut == nil {
		nopolMode = 0
	}
	nopolCnt = (*[nopolNumSites][2]int64)(nopolunsafe.Pointer(&mapped[0]))
	if nopolMode != 1 {
		nopolCnt = new([nopolNumSites][2]int64) // guards count there, never read
	}
	nopolForce = make([]int8, nopolNumSites)
	nopolReturn = make([]int, nopolNumSites)
	nopolSites = make([]bool, nopolNumSites)
	for id, v := range nopolIDs(nopolos.Getenv("NOPOL_FORCE")) {
		if id >= 0 && id < nopolNumSites {
			nopolForce[id] = 1
			if v {
				nopolForce[id] = 2
			}
			nopolAnyForce = true
		}
	}
	for _, f := range nopolstrings.Split(nopolos.Getenv("NOPOL_RETURN"), ",") {
		id, k, _ := nopolstrings.Cut(f, ":")
		n, err1 := nopolstrconv.Atoi(id)
		e, err2 := nopolstrconv.Atoi(k)
		if err1 == nil && err2 == nil && n >= 0 && n < nopolNumSites && e >= 0 {
			nopolReturn[n] = e + 1
		}
	}
	nopolNoCalls = nopolos.Getenv("NOPOL_NOCALLS") == "1"
	nopolFlip = make([]map[int64]bool, nopolNumSites)
	nopolEvals = make([]int64, nopolNumSites)
	for _, f := range nopolstrings.Split(nopolos.Getenv("NOPOL_FLIP"), ",") {
		id, k, ok := nopolstrings.Cut(f, ":")
		n, err1 := nopolstrconv.Atoi(id)
		e, err2 := nopolstrconv.Atoi(k)
		if ok && err1 == nil && err2 == nil && n >= 0 && n < nopolNumSites && e >= 0 {
			if nopolFlip[n] == nil {
				nopolFlip[n] = map[int64]bool{}
			}
			nopolFlip[n][int64(e)] = true
		}
	}
	nopolPred = make([]*nopolPredicate, nopolNumSites)
	for _, f := range nopolstrings.Split(nopolos.Getenv("NOPOL_PRED"), ",") {
		if id, p, ok := nopolParsePredicate(f); ok && id >= 0 && id < nopolNumSites {
			nopolPred[id] = &p
		}
	}
	nopolPrintEvals = make([]bool, nopolNumSites)
	for id := range nopolIDs(nopolos.Getenv("NOPOL_PRINT_EVALS")) {
		if id >= 0 && id < nopolNumSites {
			nopolPrintEvals[id] = true
		}
	}
	nopolMaxPrinted = int64(nopolAtoi(nopolos.Getenv("NOPOL_PRINT_EVALS_MAX"), 1000))
	for id := range nopolIDs(nopolos.Getenv("NOPOL_SITES")) {
		if id >= 0 && id < nopolNumSites {
			nopolSites[id] = true
		}
	}
	segs := nopolos.Getenv("NOPOL_FORCE_SEG")
	nopolSegOnly = segs != ""
	for _, c := range nopolstrings.Split(segs, ",") {
		where, value, _ := nopolstrings.Cut(c, "=")
		if seg, iter, ok := nopolstrings.Cut(where, "."); ok && nopolAtoi(seg, -1) >= 0 {
			own := int64(0)
			switch value {
			case "false":
				own = 1
			case "true":
				own = 2
			}
			nopolSegs = append(nopolSegs, [3]int64{int64(nopolAtoi(seg, -1)), int64(nopolAtoi(iter, -1)), own})
		}
	}
	nopolCap = int64(nopolAtoi(nopolos.Getenv("NOPOL_CAP"), 200))
	nopolPrint = nopolos.Getenv("NOPOL_PRINT_CONSTITUENTS") == "1"
	nopolEvalLimit = int64(nopolAtoi(nopolos.Getenv("NOPOL_EVAL_LIMIT"), 0))
	if nopolMode == 1 && nopolos.Getenv("NOPOL_PRINT_REACH") == "1" {
		nopolReach = make([]int32, nopolNumSites)
	}
	nopolSeen = map[[4]int64]bool{}
}

// nopolQuiet marks the sites that are quiet in this run: neither forced,
// flipped, printed nor snapshot, in a run whose counts are mapped (cover
// mode) or that counts nothing (plain and snapshot modes, where only the
// snapshot sites count toward the evaluation limit). Under a limit, in
// cover mode, the process that runs the test enforces it from the counts
// file (collect.Build.Run): loud at every evaluation there, a forced run
// of uniseg's line tests took twice as long. A quiet site only counts
// its evaluations (cover mode, in nopolCnt), and its coverage records are
// written at the next constituent's start (nopolFlush). It is set before
// any code of the package can reach a hook (the hooks refer to it, so it
// is initialised first). In a run with reach lines (nopolReach) a site
// starts loud and turns quiet once its first evaluation has printed its
// line (nopolQuietLater): the only change ever made to it, from false to
// true, a word-sized write that a hook reading it in another goroutine
// sees now or at a later evaluation, either path being right. (Loud at
// every evaluation, the coverage run of yaml.v3's gocheck suite took more
// than 45s, where its plain run takes 4s.)
var nopolQuiet = nopolQuietSites()

// nopolQuietLater marks the sites that turn quiet after their reach line.
var nopolQuietLater [nopolNumSites]bool

func nopolQuietSites() (quiet [nopolNumSites]bool) {
	nopolOnce.Do(nopolSetup)
	if nopolMode == 1 && !nopolCountsMapped {
		return quiet
	}
	for id := range quiet {
		quiet[id] = nopolForce[id] == 0 && nopolFlip[id] == nil && nopolPred[id] == nil && !nopolPrintEvals[id] && !(nopolMode == 2 && nopolSites[id])
	}
	if nopolReach != nil {
		nopolQuietLater = quiet
		return [nopolNumSites]bool{}
	}
	return quiet
}

// NopolQ reports whether site id is quiet in this run (see nopolQuiet):
// an instrumented condition then runs its uninstrumented copy c, as
// NopolV(id, c).
func NopolQ(id int) bool {
	return nopolQuiet[id]
}

// The hooks of a quiet site are small enough for the compiler to inline
// at every site (NopolQ, NopolV, NopolGuard): a plain, forced or snapshot
// run executes a test there, a cover run a test and an increment of the
// site's count at a constant offset (nopolCnt), and neither makes a call.
// The coverage records of quiet sites are written at the boundaries of
// test constituents (nopolFlush), not at evaluations. (A first version
// inlined an atomic count, two atomic loads and a comparison with the
// constituent's epoch: it made the build of the instrumented binaries
// twice as long; the next one called a function to count, which made a
// cover run of regexp2's matcher 3 times as slow as a plain one.)

// NopolV returns v, the outcome of an evaluation of quiet site id,
// counted in cover mode. The count is not atomic: evaluations of one site
// in goroutines running at once may be lost, which leaves its counts a
// lower bound, as they are past the record cap.
func NopolV(id int, v bool) bool {
	if nopolMode == 1 {
		nopolCnt[id][nopolOutcome(v)]++
	}
	return v
}

// nopolFlush writes, at the start of a test constituent in cover mode,
// a coverage record for each quiet site and outcome counted since the
// last flush, in the constituent that ends, and then stores the new one
// (seg, iter) in the trailer. It reads every site's counts: a constituent
// costs time proportional to the program's sites, not to its evaluations.
func nopolFlush(seg, iter int64) {
	if nopolMode == 1 && nopolCountsMapped {
		old0, old1 := nopolTrailer[0], nopolTrailer[1]
		for k := range nopolCount {
			n := nopolatomic.LoadInt64(&nopolCount[k])
			if n == nopolatomic.LoadInt64(&nopolFlushed[k]) {
				continue
			}
			nopolatomic.StoreInt64(&nopolFlushed[k], n)
			if id, o := k/2, k%2; nopolQuiet[id] && nopolClaim(id, o, old0, old1) {
				nopolWrite(nopolRecord{S: id, O: o == 1, G: old0, I: old1})
			}
		}
	}
	nopolatomic.StoreInt64(&nopolTrailer[0], seg)
	nopolatomic.StoreInt64(&nopolTrailer[1], iter)
}

// nopolOutcome is the index of outcome v in a site's counts and records:
// 0 false, 1 true.
func nopolOutcome(v bool) int {
	if v {
		return 1
	}
	return 0
}

// nopolCountLine reports whether the n-th evaluation of a site and
// outcome is written as a count record: at powers of two, when the counts
// are not mapped.
func nopolCountLine(n int64) bool {
	return !nopolCountsMapped && n&(n-1) == 0
}

// NopolSegment marks the start of top-level statement k of a test
// function; the iteration restarts at 0.
func NopolSegment(k int) {
	nopolOnce.Do(nopolSetup)
	if nopolHeld() && (k != 0 || nopolStart()) {
		return
	}
	nopolFlush(int64(k), 0)
	nopolatomic.StoreInt64(&nopolCurrent[1], 0)
	nopolatomic.StoreInt64(&nopolCurrent[0], int64(k))
	nopolatomic.AddInt64(&nopolCurrent[2], 1)
	if nopolPrint {
		nopolos.Stdout.WriteString("nopol-constituent " + nopolstrconv.Itoa(k) + " 0\n")
	}
}

// NopolIteration marks the start of the next iteration of a top-level
// table loop of a test function.
func NopolIteration() {
	nopolOnce.Do(nopolSetup)
	if nopolHeld() {
		return
	}
	nopolFlush(nopolatomic.LoadInt64(&nopolCurrent[0]), nopolatomic.LoadInt64(&nopolCurrent[1])+1)
	i := nopolatomic.AddInt64(&nopolCurrent[1], 1)
	nopolatomic.AddInt64(&nopolCurrent[2], 1)
	if nopolPrint {
		seg := nopolatomic.LoadInt64(&nopolCurrent[0])
		nopolos.Stdout.WriteString("nopol-constituent " + nopolstrconv.FormatInt(seg, 10) + " " + nopolstrconv.FormatInt(i, 10) + "\n")
	}
}

// NopolSortedKeys returns the keys of map m in increasing order: a table
// loop over a map runs in the same order in every run (see
// internal/constituent.Mark; the keys are of a predeclared ordered type).
func NopolSortedKeys(m interface{}) []interface{} {
	keys := nopolreflect.ValueOf(m).MapKeys()
	nopolsort.Slice(keys, func(i, j int) bool {
		a, b := keys[i], keys[j]
		switch {
		case a.CanInt():
			return a.Int() < b.Int()
		case a.CanUint():
			return a.Uint() < b.Uint()
		case a.CanFloat():
			return a.Float() < b.Float()
		}
		return a.String() < b.String()
	})
	out := make([]interface{}, len(keys))
	for i, k := range keys {
		out[i] = k.Interface()
	}
	return out
}

// nopolForced returns the forced outcome of site id, if it is forced in
// the current test constituent.
func nopolForced(id int) (value, forced bool) {
	if !nopolAnyForce || id < 0 || id >= len(nopolForce) || nopolForce[id] == 0 {
		return false, false
	}
	value, forced = nopolForce[id] == 2, true
	if nopolSegOnly {
		own, in := nopolInSegs()
		forced = in
		if own != 0 {
			value = own == 2
		}
	}
	return value, forced
}

// nopolInSegs reports whether the running constituent is one of
// NOPOL_FORCE_SEG's, and its own forced value there (0 the site's, 1
// false, 2 true).
func nopolInSegs() (own int64, in bool) {
	seg, iter := nopolatomic.LoadInt64(&nopolCurrent[0]), nopolatomic.LoadInt64(&nopolCurrent[1])
	for _, c := range nopolSegs {
		if c[0] == seg && (c[1] < 0 || c[1] == iter) {
			return c[2], true
		}
	}
	return 0, false
}

// NopolCond evaluates the condition of site id, or returns its forced
// value without evaluating it.
func NopolCond(id int, cond func() bool, kinds string, snap func(int) NopolValue) bool {
	nopolOnce.Do(nopolSetup)
	if nopolInObservation() || nopolHeld() {
		return cond()
	}
	var vals []NopolValue
	if nopolMode == 2 && snap != nil && nopolWantValues(id) {
		vals = nopolSnapshot(kinds, snap)
	}
	if p := nopolPred[id]; p != nil && snap != nil {
		if vals == nil {
			vals = nopolSnapshot(kinds, snap)
		}
		v, ok := p.value(vals)
		switch {
		case !ok:
			v = cond()
		case p.combine != "":
			v = p.join(cond(), v)
		}
		if nopolMode != 0 {
			nopolRecordEval(id, v, nopolKept(id, vals))
		}
		return v
	}
	v, forced := nopolForced(id)
	if !forced {
		v = nopolFlipped(id, cond())
	}
	if nopolMode != 0 {
		nopolRecordEval(id, v, vals)
	}
	return v
}

// nopolFlipped counts an evaluation of site id and returns v, negated at
// the evaluations NOPOL_FLIP names (evaluation 0: every one, within the
// constituents of NOPOL_FORCE_SEG when it names some); it prints the evaluation when
// NOPOL_PRINT_EVALS names the site.
func nopolFlipped(id int, v bool) bool {
	if id < 0 || id >= len(nopolFlip) || (nopolFlip[id] == nil && !nopolPrintEvals[id]) {
		return v
	}
	n := nopolatomic.AddInt64(&nopolEvals[id], 1)
	if nopolPrintEvals[id] && n <= nopolMaxPrinted {
		nopolos.Stdout.WriteString("nopol-eval " + nopolstrconv.Itoa(id) + " " + nopolstrconv.FormatInt(n, 10) + "\n")
	}
	if nopolFlip[id][n] {
		return !v
	}
	if nopolFlip[id][0] {
		// Every evaluation; with NOPOL_FORCE_SEG, every one in its
		// constituents only.
		if !nopolSegOnly {
			return !v
		}
		if _, in := nopolInSegs(); in {
			return !v
		}
	}
	return v
}

// NopolCondA is NopolCond for a condition with atoms (see siteWraps):
// cond records them into the slice it is given, when not nil. In
// snapshot runs the atoms come first in the recorded values, missing
// when the evaluation does not reach them; a forced condition is still
// evaluated there, under recover, for its atoms, and its value ignored.
func NopolCondA(id int, cond func([]NopolValue) bool, akinds, kinds string, snap func(int) NopolValue) bool {
	nopolOnce.Do(nopolSetup)
	if nopolInObservation() || nopolHeld() {
		return cond(nil)
	}
	if p := nopolPred[id]; p != nil && snap != nil {
		vals := nopolAtomValues(akinds, kinds, snap)
		written, evaluated := nopolTryValue(cond, vals[:len(akinds)])
		v, ok := p.value(vals)
		switch {
		case ok && p.combine != "" && evaluated:
			v = p.join(written, v)
		case ok && p.combine == "":
		case evaluated:
			v = written
		default:
			v = cond(nil) // it panicked: again, as written
		}
		if nopolMode != 0 {
			nopolRecordEval(id, v, nopolKept(id, vals))
		}
		return v
	}
	v, forced := nopolForced(id)
	if nopolMode != 2 || !nopolWantValues(id) {
		if !forced {
			v = nopolFlipped(id, cond(nil))
		}
		if nopolMode != 0 {
			nopolRecordEval(id, v, nil)
		}
		return v
	}
	vals := nopolAtomValues(akinds, kinds, snap)
	if forced {
		nopolTryValue(cond, vals[:len(akinds)]) // for its atoms; its value is forced
	} else {
		v = nopolFlipped(id, cond(vals[:len(akinds)]))
	}
	nopolRecordEval(id, v, vals)
	return v
}

// nopolAtomValues are the values a snapshot records at a condition with
// atoms: a slot per atom, missing until the condition's evaluation fills
// it, then the observed values (none when snap is nil).
func nopolAtomValues(akinds, kinds string, snap func(int) NopolValue) []NopolValue {
	vals := make([]NopolValue, len(akinds), len(akinds)+len(kinds))
	for i := 0; i < len(akinds); i++ {
		vals[i] = nopolMissing(akinds[i])
	}
	if snap != nil {
		vals = append(vals, nopolSnapshot(kinds, snap)...)
	}
	return vals
}

// nopolTryValue evaluates a condition for its atoms and its value; ok is
// false when it panicked, leaving the atoms it did not reach missing.
func nopolTryValue(cond func([]NopolValue) bool, atoms []NopolValue) (v, ok bool) {
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	return cond(atoms), true
}

// NopolAPB records bool atom k of a condition into a, if not nil.
func NopolAPB(a []NopolValue, k int, v bool) bool {
	if a != nil {
		a[k] = NopolValue{K: 1, B: v}
	}
	return v
}

// NopolAPI records int atom k of a condition into a, if not nil.
func NopolAPI(a []NopolValue, k int, v int) int {
	if a != nil {
		a[k] = NopolValue{K: 2, I: int64(v)}
	}
	return v
}

// NopolAPF records float64 atom k of a condition into a, if not nil.
func NopolAPF(a []NopolValue, k int, v float64) float64 {
	if a != nil {
		a[k] = NopolF(v)
	}
	return v
}

// NopolAPS records string atom k of a condition into a, if not nil.
func NopolAPS(a []NopolValue, k int, v string) string {
	if a != nil {
		a[k] = NopolS(v)
	}
	return v
}

// NopolGuard says what to do with the statement of site id: 0 run it,
// 1 skip it, 2+k leave by the site's exit k. The compiler inlines it: at
// a quiet site, outside cover mode, it makes no call.
func NopolGuard(id int, kinds string, snap func(int) NopolValue) int {
	if nopolQuiet[id] {
		nopolCnt[id][1]++
		return 0
	}
	return nopolGuardHook(id, kinds, snap)
}

// nopolGuardHook is NopolGuard at a site that is not quiet.
func nopolGuardHook(id int, kinds string, snap func(int) NopolValue) int {
	nopolOnce.Do(nopolSetup)
	if nopolInObservation() || nopolHeld() {
		return 0
	}
	var vals []NopolValue
	if nopolMode == 2 && snap != nil && nopolWantValues(id) {
		vals = nopolSnapshot(kinds, snap)
	}
	run, forced := nopolForced(id)
	if p := nopolPred[id]; p != nil && snap != nil {
		if vals == nil {
			vals = nopolSnapshot(kinds, snap)
		}
		// The statement is left where the predicate holds.
		holds, ok := p.value(vals)
		run, forced = !(ok && holds), ok && holds
		vals = nopolKept(id, vals)
	} else if !forced && !nopolFlipped(id, true) {
		run, forced = false, true // the evaluation NOPOL_FLIP names leaves
	}
	act := 0
	if forced && !run {
		act = 1
		if id >= 0 && id < len(nopolReturn) && nopolReturn[id] > 0 {
			act = 1 + nopolReturn[id]
		}
	}
	if nopolMode != 0 {
		nopolRecordEval(id, act == 0, vals)
	}
	return act
}

// nopolPredicate is an observed predicate (NOPOL_PRED
// "id:index:op:other:const:negate[:combine]"): the value at index, a
// bool (op "b"), or an integer compared ("eq", "lt", "le") with the
// value at other, or with const when other is -1; negated when negate is
// 1; at a condition, joined with the condition's own value when combine
// is "or" (cond || p) or "and" (cond && p).
type nopolPredicate struct {
	index, other int
	op           string
	c            int64
	negate       bool
	combine      string
}

func nopolParsePredicate(f string) (id int, p nopolPredicate, ok bool) {
	parts := nopolstrings.Split(f, ":")
	if len(parts) == 7 {
		p.combine = parts[6]
		parts = parts[:6]
	}
	if len(parts) != 6 {
		return 0, p, false
	}
	var err [5]error
	id, err[0] = nopolstrconv.Atoi(parts[0])
	p.index, err[1] = nopolstrconv.Atoi(parts[1])
	p.op = parts[2]
	p.other, err[2] = nopolstrconv.Atoi(parts[3])
	p.c, err[3] = nopolstrconv.ParseInt(parts[4], 10, 64)
	p.negate = parts[5] == "1"
	for _, e := range err {
		if e != nil {
			return 0, p, false
		}
	}
	return id, p, p.index >= 0
}

// value is p's value over one evaluation's observed values; ok is false
// when a value it reads is missing.
func (p *nopolPredicate) value(vals []NopolValue) (v, ok bool) {
	if p.index >= len(vals) || vals[p.index].M {
		return false, false
	}
	a := vals[p.index]
	b := p.c
	if p.other >= 0 {
		if p.other >= len(vals) || vals[p.other].M {
			return false, false
		}
		b = vals[p.other].I
	}
	switch p.op {
	case "b":
		v = a.B
	case "eq":
		v = a.I == b
	case "lt":
		v = a.I < b
	case "le":
		v = a.I <= b
	default:
		return false, false
	}
	return v != p.negate, true
}

// join is the outcome of an evaluation where p's value is v and the
// condition as written has the value written (see combine).
func (p *nopolPredicate) join(written, v bool) bool {
	switch p.combine {
	case "or":
		return written || v
	case "and":
		return written && v
	}
	return v
}

// nopolKept is vals where a snapshot run records them at site id, nil
// elsewhere.
func nopolKept(id int, vals []NopolValue) []NopolValue {
	if nopolMode == 2 && nopolWantValues(id) {
		return vals
	}
	return nil
}

func nopolRecordEval(id int, outcome bool, vals []NopolValue) {
	if id < 0 || id >= nopolNumSites || (nopolMode == 2 && !nopolSites[id]) {
		return
	}
	if nopolEvalLimit > 0 && nopolatomic.AddInt64(&nopolEvalCount, 1) == nopolEvalLimit {
		nopolos.Stdout.WriteString("\nnopol-hang: the evaluation limit was reached\n")
		nopolos.Exit(3)
	}
	if nopolReach != nil && nopolatomic.CompareAndSwapInt32(&nopolReach[id], 0, 1) {
		nopolos.Stdout.WriteString("nopol-reach " + nopolstrconv.Itoa(id) + "\n")
		if nopolQuietLater[id] {
			nopolQuiet[id] = true
		}
	}
	k := 2*id + nopolOutcome(outcome)
	n := nopolatomic.AddInt64(&nopolCount[k], 1)
	nopolatomic.StoreInt64(&nopolFlushed[k], n) // recorded here, not by nopolFlush
	nopolRecordCounted(id, outcome, vals, n)
}

// NopolRecovered returns p, what a recover() call of the instrumented
// code returned: collect writes every such call NopolRecovered(recover()),
// so recover is still called by the deferred function itself. In a run
// that prints reach lines (a failing test's coverage run), the first
// three runtime errors recovered also print the stack of their panic,
// which is still on the goroutine's stack, each line after
// "nopol-recovered " (constituent.RecoveredPrefix): a test helper that
// turns a panic into a failure message, or a library that turns it into
// an error, hides where it was raised.
func NopolRecovered(p interface{}) interface{} {
	if p == nil {
		return p
	}
	nopolOnce.Do(nopolSetup)
	if _, ok := p.(interface{ RuntimeError() }); !ok || nopolReach == nil || nopolatomic.AddInt32(&nopolRecoveredStacks, 1) > 3 {
		return p
	}
	var b nopolstrings.Builder
	for _, line := range nopolstrings.Split(nopolstrings.TrimRight(string(nopoldebug.Stack()), "\n"), "\n") {
		b.WriteString("nopol-recovered " + line + "\n")
	}
	nopolos.Stdout.WriteString(b.String())
	return p
}

// nopolClaim reports whether a record of site id, outcome o, in test
// constituent (seg, iter) is to be written, and counts it: under the
// site's line cap and, in cover mode, one line per distinct constituent
// and outcome.
func nopolClaim(id, o int, seg, iter int64) bool {
	nopolMu.Lock()
	defer nopolMu.Unlock()
	write := nopolatomic.LoadInt64(&nopolWritten[id]) < nopolCap
	if write && nopolMode == 1 {
		k := [4]int64{int64(id), int64(o), seg, iter}
		write = !nopolSeen[k]
		nopolSeen[k] = true
	}
	if write {
		nopolatomic.AddInt64(&nopolWritten[id], 1)
	}
	return write
}

// nopolRecordCounted records evaluation n of site id, already counted.
func nopolRecordCounted(id int, outcome bool, vals []NopolValue, n int64) {
	seg, iter := nopolatomic.LoadInt64(&nopolCurrent[0]), nopolatomic.LoadInt64(&nopolCurrent[1])
	o := nopolOutcome(outcome)
	written := &nopolWritten[id]
	countLine := nopolCountLine(n)
	// Without the lock: nothing new to write. The constituent is marked
	// seen first, so that the next evaluations in it write nothing.
	epoch := nopolatomic.LoadInt64(&nopolCurrent[2])
	last := nopolatomic.SwapInt64(&nopolLast[id][o], epoch)
	if nopolatomic.LoadInt64(written) >= nopolCap || (nopolMode == 1 && last == epoch) {
		if countLine {
			nopolWrite(nopolRecord{S: id, O: outcome, G: seg, I: iter, N: n})
		}
		return
	}
	write := nopolClaim(id, o, seg, iter)
	switch {
	case write:
		nopolWrite(nopolRecord{S: id, O: outcome, V: vals, G: seg, I: iter})
	case countLine:
		nopolWrite(nopolRecord{S: id, O: outcome, G: seg, I: iter, N: n})
	}
}

// nopolWantValues reports whether the values of site id are recorded at
// this evaluation: a snapshot site under its line cap.
func nopolWantValues(id int) bool {
	return id >= 0 && id < nopolNumSites && nopolSites[id] && nopolatomic.LoadInt64(&nopolWritten[id]) < nopolCap
}

// nopolLine is the buffer of a record line without values, used under
// nopolMu.
var nopolLine []byte

// nopolWrite appends one record line to the output with a single write.
// A record without values (coverage, counts) is written without
// allocating: a test that counts allocations (testing.AllocsPerRun)
// counts those of the hook too.
func nopolWrite(rec nopolRecord) {
	if len(rec.V) == 0 {
		nopolMu.Lock()
		b := append(nopolLine[:0], "{\"s\":"...)
		b = nopolstrconv.AppendInt(b, int64(rec.S), 10)
		b = append(b, ",\"o\":"...)
		b = nopolstrconv.AppendBool(b, rec.O)
		b = append(b, ",\"g\":"...)
		b = nopolstrconv.AppendInt(b, rec.G, 10)
		b = append(b, ",\"i\":"...)
		b = nopolstrconv.AppendInt(b, rec.I, 10)
		if rec.N != 0 {
			b = append(b, ",\"n\":"...)
			b = nopolstrconv.AppendInt(b, rec.N, 10)
		}
		b = append(b, "}\n"...)
		nopolOut.Write(b)
		nopolLine = b
		nopolMu.Unlock()
		return
	}
	line, err := nopoljson.Marshal(rec)
	if err != nil {
		return
	}
	nopolMu.Lock()
	nopolOut.Write(append(line, '\n'))
	nopolMu.Unlock()
}

// nopolSnapshot evaluates the observed values of a site; a value whose
// evaluation panics (a nil pointer, a division by zero) is missing.
// A kind letter in upper case marks an observed call: with NOPOL_NOCALLS
// set (a run again after a snapshot run timed out, maybe in a call that
// never ends) it is missing, not evaluated.
func nopolSnapshot(kinds string, snap func(int) NopolValue) []NopolValue {
	vals := make([]NopolValue, len(kinds))
	if nopolObserving != nil {
		nopolatomic.AddInt32(nopolObserving, 1)
		defer nopolatomic.AddInt32(nopolObserving, -1)
	}
	for i := range vals {
		if nopolNoCalls && kinds[i] >= 'A' && kinds[i] <= 'Z' {
			vals[i] = nopolMissing(kinds[i])
			continue
		}
		vals[i] = nopolEval(kinds, snap, i)
	}
	return vals
}

func nopolMissing(kind byte) NopolValue {
	return NopolValue{K: nopolstrings.IndexByte("bifs", kind|0x20) + 1, M: true}
}

func nopolEval(kinds string, snap func(int) NopolValue, i int) (v NopolValue) {
	defer func() {
		if recover() != nil {
			v = nopolMissing(kinds[i])
		}
	}()
	return snap(i)
}

// NopolI observes an integer.
func NopolI(i int64) NopolValue { return NopolValue{K: 2, I: i} }

// NopolF observes a float.
// NaN and the infinities are missing values: JSON has no number for
// them (a record holding one would be lost), nor the solver.
func NopolF(f float64) NopolValue {
	if f-f != 0 {
		return NopolValue{K: 3, M: true}
	}
	return NopolValue{K: 3, F: f}
}

// NopolB observes a bool.
func NopolB(b bool) NopolValue { return NopolValue{K: 1, B: b} }

// NopolS observes a string, truncated to a bounded length.
func NopolS(s string) NopolValue {
	if len(s) > nopolMaxString {
		s = s[:nopolMaxString]
	}
	return NopolValue{K: 4, S: s}
}
