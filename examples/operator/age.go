// Package operator has a wrong comparison operator.
package operator

// CanVote reports whether a person of the given age may vote: from 18 on.
func CanVote(age int) bool {
	if age > 18 {
		return true
	}
	return false
}
