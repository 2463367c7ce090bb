// Package collate merges sorted lists.
package collate

// Comparator orders two values: negative, zero or positive.
type Comparator interface {
	Compare(a, b int) int
}

// Natural is the natural order of ints.
type Natural struct{}

// Compare orders a and b naturally.
func (Natural) Compare(a, b int) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// Iterator merges lists sorted by its comparator; a nil comparator is
// the natural order.
type Iterator struct {
	cmp   Comparator
	lists [][]int
}

// New merges lists sorted by cmp (nil: the natural order).
func New(cmp Comparator, lists ...[]int) *Iterator {
	return &Iterator{cmp: cmp, lists: lists}
}

// Next returns the least head of the lists, false when all are empty.
func (it *Iterator) Next() (int, bool) {
	least := -1
	for i, l := range it.lists {
		if len(l) == 0 {
			continue
		}
		if least < 0 || it.cmp.Compare(l[0], it.lists[least][0]) < 0 {
			least = i
		}
	}
	if least < 0 {
		return 0, false
	}
	v := it.lists[least][0]
	it.lists[least] = it.lists[least][1:]
	return v, true
}

// All drains the iterator.
func (it *Iterator) All() []int {
	var out []int
	for v, ok := it.Next(); ok; v, ok = it.Next() {
		out = append(out, v)
	}
	return out
}
