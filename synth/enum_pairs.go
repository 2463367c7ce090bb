package synth

// Pairs of entries the enumeration combines, by kind and size.

// pairs calls f for each ordered pair of distinct kept entries of kind k
// whose sizes add up to total, smaller left operands first.
func (e *enumerator) pairs(k Kind, total int, f func(a, b *entry)) {
	e.pairsFrom(k, total, false, f)
}

// pairsFrom is pairs, bigger left operands first when leftFirst is set, so
// that a + b + c comes before a + (b + c).
func (e *enumerator) pairsFrom(k Kind, total int, leftFirst bool, f func(a, b *entry)) {
	for i := 1; i < total; i++ {
		sa := i
		if leftFirst {
			sa = total - i
		}
		sb := total - sa
		if sb >= len(e.bank[k]) || sa >= len(e.bank[k]) {
			continue
		}
		for _, a := range e.bank[k][sa] {
			for _, b := range e.bank[k][sb] {
				if e.tick() {
					return
				}
				if a != b {
					f(a, b)
				}
			}
		}
	}
}

// orientations says which of a op b (fwd) and b op a (bwd) are worth
// building: they read an input, with the constant on the right; bools
// compare inputs only, and in one orientation.
func orientations(k Kind, a, b *entry) (fwd, bwd bool) {
	if k == Bool {
		return a.hasInput && b.hasInput, false
	}
	return a.hasInput, b.hasInput
}

// unorderedPairs calls f once for each pair of distinct kept entries of
// kind k whose sizes add up to total, the smaller one first.
func (e *enumerator) unorderedPairs(k Kind, total int, f func(a, b *entry)) {
	for sa := 1; sa <= total-sa; sa++ {
		sb := total - sa
		if sb >= len(e.bank[k]) {
			continue
		}
		for _, a := range e.bank[k][sa] {
			for _, b := range e.bank[k][sb] {
				if e.tick() {
					return
				}
				if sa < sb || a.id < b.id {
					f(a, b)
				}
			}
		}
	}
}

// arithPairs calls f for the arithmetic terms of size s: a + b, a - b and
// a * c for a constant c other than 0, 1 and -1.
func (e *enumerator) arithPairs(k Kind, s int, f func(op Op, a, b *entry)) {
	e.pairsFrom(k, s-1, true, func(a, b *entry) {
		if !a.hasInput && !b.hasInput {
			return
		}
		if isZeroLeaf(b) {
			return
		}
		if a.hasInput && (!b.hasInput || a.size != b.size || a.id < b.id) {
			f(OpAdd, a, b)
		}
		if !isZeroLeaf(a) {
			f(OpSub, a, b) // 0 - b is a negation, found as a comparison
		}
		if a.hasInput && isConstLeaf(b.term) && !isUnitLeaf(b) {
			f(OpMul, a, b)
		}
	})
}

func isZeroLeaf(en *entry) bool {
	return !en.hasInput && en.size == 1 && (en.v.ints != nil && en.v.ints[0] == 0 || en.v.floats != nil && en.v.floats[0] == 0)
}

// isUnitLeaf reports whether en is 1 or -1: multiplying by it adds nothing
// a comparison or a subtraction does not say more simply.
func isUnitLeaf(en *entry) bool {
	return en.v.ints != nil && (en.v.ints[0] == 1 || en.v.ints[0] == -1) ||
		en.v.floats != nil && (en.v.floats[0] == 1 || en.v.floats[0] == -1)
}
