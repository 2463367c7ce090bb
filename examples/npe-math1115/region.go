// Package region is a one-dimensional region as a tree of intervals.
package region

type node struct {
	lo, hi      float64
	left, right *node
}

// Region is a union of intervals; the empty region has no tree.
type Region struct{ root *node }

// New is the region of the intervals [lo, hi] given as pairs.
func New(bounds ...float64) *Region {
	r := &Region{}
	for i := 0; i+1 < len(bounds); i += 2 {
		r.root = insert(r.root, bounds[i], bounds[i+1])
	}
	return r
}

func insert(n *node, lo, hi float64) *node {
	if n == nil {
		return &node{lo: lo, hi: hi}
	}
	if lo < n.lo {
		n.left = insert(n.left, lo, hi)
	} else {
		n.right = insert(n.right, lo, hi)
	}
	return n
}

// Contains reports whether x lies in the region.
func (r *Region) Contains(x float64) bool {
	n := r.root
	for {
		if x >= n.lo && x <= n.hi {
			return true
		}
		next := n.right
		if x < n.lo {
			next = n.left
		}
		if next == nil {
			return false
		}
		n = next
	}
}
