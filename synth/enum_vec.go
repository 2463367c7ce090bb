package synth

import (
	"math"
	"slices"
)

// Vectors of values on the examples, and the operations of the enumerative
// backend on them.

// vec is the value of a term on every distinct example. Only the slice of the
// term's kind is set; values on missing examples are zero.
type vec struct {
	ints   []int64
	floats []float64
	strs   []int32
	bits   []uint64 // bool values, one bit per example
	miss   []uint64 // examples without a value; nil when there are none
}

func (e *enumerator) newVec(k Kind) vec {
	switch k {
	case Int:
		return vec{ints: make([]int64, e.n)}
	case Float:
		return vec{floats: make([]float64, e.n)}
	case String:
		return vec{strs: make([]int32, e.n)}
	}
	return vec{bits: make([]uint64, e.words)}
}

func (e *enumerator) setValue(v *vec, j int, x Value) {
	switch x.Kind {
	case Int:
		v.ints[j] = x.Int
	case Float:
		v.floats[j] = x.Float
	case String:
		id, ok := e.strIDs[x.Str]
		if !ok {
			id = int32(len(e.strIDs))
			e.strIDs[x.Str] = id
		}
		v.strs[j] = id
	case Bool:
		if x.Bool {
			v.bits[j/64] |= 1 << (j % 64)
		}
	}
}

func setBit(ws []uint64, j, words int) []uint64 {
	if ws == nil {
		ws = make([]uint64, words)
	}
	ws[j/64] |= 1 << (j % 64)
	return ws
}

func cloneVec(v vec) vec {
	return vec{
		ints:   slices.Clone(v.ints),
		floats: slices.Clone(v.floats),
		strs:   slices.Clone(v.strs),
		bits:   slices.Clone(v.bits),
		miss:   slices.Clone(v.miss),
	}
}

func mix(h uint64) uint64 {
	h ^= h >> 30
	h *= 0xbf58476d1ce4e5b9
	h ^= h >> 27
	h *= 0x94d049bb133111eb
	h ^= h >> 31
	return h
}

func (e *enumerator) hash(k Kind, v *vec) uint64 { return hashVec(uint64(k), v) }

func hashVec(h uint64, v *vec) uint64 {
	for _, x := range v.ints {
		h = mix(h ^ uint64(x))
	}
	for _, x := range v.floats {
		h = mix(h ^ math.Float64bits(x))
	}
	for _, x := range v.strs {
		h = mix(h ^ uint64(x))
	}
	for _, x := range v.bits {
		h = mix(h ^ x)
	}
	for _, x := range v.miss {
		h = mix(h ^ x ^ 0x5555)
	}
	return h
}

func (e *enumerator) equal(k Kind, a, b *vec) bool {
	if !equalMiss(a.miss, b.miss) {
		return false
	}
	switch k {
	case Int:
		return slices.Equal(a.ints, b.ints)
	case Float:
		for i, x := range a.floats {
			if math.Float64bits(x) != math.Float64bits(b.floats[i]) {
				return false
			}
		}
		return true
	case String:
		return slices.Equal(a.strs, b.strs)
	}
	return slices.Equal(a.bits, b.bits)
}

func equalMiss(a, b []uint64) bool {
	if a == nil || b == nil {
		return isZero(a) && isZero(b)
	}
	return slices.Equal(a, b)
}

func isZero(ws []uint64) bool {
	for _, w := range ws {
		if w != 0 {
			return false
		}
	}
	return true
}

// orMiss is the union of two missing masks, nil when empty.
func (e *enumerator) orMiss(a, b []uint64) []uint64 {
	if a == nil && b == nil {
		return nil
	}
	out := e.sMiss
	any := false
	for i := range out {
		var x uint64
		if a != nil {
			x = a[i]
		}
		if b != nil {
			x |= b[i]
		}
		out[i] = x
		any = any || x != 0
	}
	if !any {
		return nil
	}
	return out
}

func missing(miss []uint64, j int) bool {
	return miss != nil && miss[j/64]&(1<<(j%64)) != 0
}

func (e *enumerator) sBMiss() []uint64 {
	if e.bAny {
		return e.bMiss
	}
	return nil
}

func (e *enumerator) setBMiss(m []uint64) {
	e.bAny = false
	if m == nil {
		return
	}
	copy(e.bMiss, m)
	e.bAny = !isZero(m)
}

func (e *enumerator) notInto(a *vec) {
	for i, w := range a.bits {
		var m uint64
		if a.miss != nil {
			m = a.miss[i]
		}
		e.sBits[i] = ^w &^ m
	}
	e.sBits[e.words-1] &= e.last
	e.setBMiss(a.miss)
}

func (e *enumerator) andOrInto(op Op, a, b *vec) {
	any := false
	for i := range e.sBits {
		var am, bm uint64
		if a.miss != nil {
			am = a.miss[i]
		}
		if b.miss != nil {
			bm = b.miss[i]
		}
		var bits, miss uint64
		if op == OpAnd {
			miss = am | a.bits[i]&bm
			bits = a.bits[i] & b.bits[i]
		} else {
			miss = am | ^a.bits[i]&^am&bm
			bits = (a.bits[i] | b.bits[i]) &^ miss
		}
		e.sBits[i], e.bMiss[i] = bits, miss
		any = any || miss != 0
	}
	e.bAny = any
}

// signs computes, for word w of the examples, which of them have a < b,
// a == b and a > b.
func signs(k Kind, a, b *vec, w, n int) (lt, eq, gt uint64) {
	lo, hi := w*64, min(w*64+64, n)
	switch k {
	case Int:
		lt, eq, gt = orderBits(a.ints[lo:hi], b.ints[lo:hi])
	case Float:
		lt, eq, gt = orderBits(a.floats[lo:hi], b.floats[lo:hi])
	case String:
		x, y := a.strs[lo:hi], b.strs[lo:hi]
		for j := range x {
			if x[j] == y[j] {
				eq |= 1 << j
			}
		}
	case Bool:
		eq = ^(a.bits[w] ^ b.bits[w])
	}
	return lt, eq, gt
}

// orderBits sets bit j of lt, eq or gt as x[j] is less than, equal to or
// greater than y[j]; a NaN sets none.
func orderBits[T int64 | float64](x, y []T) (lt, eq, gt uint64) {
	for j := range x {
		bit := uint64(1) << j
		switch {
		case x[j] < y[j]:
			lt |= bit
		case x[j] == y[j]:
			eq |= bit
		case x[j] > y[j]:
			gt |= bit
		}
	}
	return lt, eq, gt
}

// opBits is the value of op on a word from the signs; ne is computed
// against the valid mask by the caller.
func opBits(op Op, lt, eq, gt, valid uint64) uint64 {
	switch op {
	case OpLt:
		return lt
	case OpLe:
		return lt | eq
	case OpEq:
		return eq & valid
	case OpNe:
		return ^eq & valid
	case OpGt:
		return gt
	}
	return gt | eq
}

func opsFor(k Kind) []Op {
	if k == String || k == Bool {
		return cmpOps[2:4]
	}
	return cmpOps[:]
}

func (e *enumerator) validMask(w int) uint64 {
	if w == e.words-1 {
		return e.last
	}
	return ^uint64(0)
}

// compareAll computes a op b for every comparison op of kind k into the
// scratch bool result and calls f for each.
func (e *enumerator) compareAll(k Kind, a, b *vec, f func(op Op)) {
	miss := e.orMiss(a.miss, b.miss)
	lt, eq, gt := e.sLt, e.sEq, e.sGt
	for w := range e.words {
		lt[w], eq[w], gt[w] = signs(k, a, b, w, e.n)
	}
	for _, op := range opsFor(k) {
		for w := range e.words {
			var m uint64
			if miss != nil {
				m = miss[w]
			}
			e.sBits[w] = opBits(op, lt[w], eq[w], gt[w], e.validMask(w)) &^ m
		}
		e.setBMiss(miss)
		f(op)
	}
}

// matchAll calls found for every op under which a op b equals the target,
// and needs no missing value.
func (e *enumerator) matchAll(k Kind, a, b *vec, found func(op Op)) {
	if e.tick() || a.miss != nil || b.miss != nil {
		return
	}
	ops := opsFor(k)
	agree := &agreeNumeric
	if len(ops) == 2 {
		agree = &agreeEquality
	}
	// Example by example: most pairs fail every operator within a few.
	alive := uint8(1)<<len(ops) - 1
	if k == Int {
		x, y := a.ints, b.ints
		for j := 0; j < len(x) && alive != 0; j++ {
			sign := signGt
			if x[j] < y[j] {
				sign = signLt
			} else if x[j] == y[j] {
				sign = signEq
			}
			alive &= agree[sign][e.target[j>>6]>>(j&63)&1]
		}
	} else {
		for j := 0; j < e.n && alive != 0; j++ {
			alive &= agree[signAt(k, a, b, j)][e.target[j>>6]>>(j&63)&1]
		}
	}
	for i, op := range ops {
		if alive&(1<<i) != 0 && !e.stop {
			found(op)
		}
	}
}

// Signs of a comparison on one example.
const (
	signLt = iota
	signEq
	signGt
	signNone // NaN
)

// agreeNumeric[sign][want] is the set of operators of cmpOps whose value
// under sign is want; agreeEquality the same for == and !=.
var agreeNumeric, agreeEquality = agreeTables()

func agreeTables() (num, eq [4][2]uint8) {
	val := func(op Op, sign int) bool {
		switch op {
		case OpLt:
			return sign == signLt
		case OpLe:
			return sign == signLt || sign == signEq
		case OpEq:
			return sign == signEq
		case OpNe:
			return sign != signEq
		case OpGt:
			return sign == signGt
		}
		return sign == signGt || sign == signEq
	}
	for sign := range 4 {
		for i, op := range cmpOps {
			w := 0
			if val(op, sign) {
				w = 1
			}
			num[sign][w] |= 1 << i
		}
		for i, op := range cmpOps[2:4] {
			w := 0
			if val(op, sign) {
				w = 1
			}
			eq[sign][w] |= 1 << i
		}
	}
	return num, eq
}

// signAt compares a and b on example j.
func signAt(k Kind, a, b *vec, j int) int {
	switch k {
	case Int:
		x, y := a.ints[j], b.ints[j]
		switch {
		case x < y:
			return signLt
		case x == y:
			return signEq
		}
		return signGt
	case Float:
		x, y := a.floats[j], b.floats[j]
		switch {
		case x < y:
			return signLt
		case x == y:
			return signEq
		case x > y:
			return signGt
		}
		return signNone
	case String:
		if a.strs[j] == b.strs[j] {
			return signEq
		}
		return signGt
	}
	if (a.bits[j/64]^b.bits[j/64])>>(j%64)&1 == 0 {
		return signEq
	}
	return signGt
}

// arith computes a op b into the scratch numeric vector.
func (e *enumerator) arith(op Op, k Kind, a, b *vec) vec {
	miss := e.orMiss(a.miss, b.miss)
	v := vec{miss: miss}
	switch k {
	case Int:
		v.ints = arithInto(op, a.ints, b.ints, e.sInts, miss)
	case Float:
		v.floats = arithInto(op, a.floats, b.floats, e.sFloats, miss)
	}
	return v
}

// arithInto writes x op y into out, zero where an operand is missing, and
// returns out.
func arithInto[T int64 | float64](op Op, x, y, out []T, miss []uint64) []T {
	switch op {
	case OpAdd:
		for j := range out {
			out[j] = x[j] + y[j]
		}
	case OpSub:
		for j := range out {
			out[j] = x[j] - y[j]
		}
	default:
		for j := range out {
			out[j] = x[j] * y[j]
		}
	}
	if miss != nil {
		for j := range out {
			if missing(miss, j) {
				out[j] = 0
			}
		}
	}
	return out
}
