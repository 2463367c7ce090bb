// Package missingor has a condition missing an || clause.
package missingor

// Outside reports whether v lies outside the closed interval [lo, hi].
func Outside(v, lo, hi int) bool {
	if v < lo {
		return true
	}
	return false
}
