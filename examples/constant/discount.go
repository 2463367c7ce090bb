// Package constant has a condition whose fix needs a constant that does
// not appear in the code.
package constant

// Price returns the price to pay for an order of total cents: orders of
// 100 cents or more get 10 cents off.
func Price(total int) int {
	if total > 1000 {
		return total - 10
	}
	return total
}
