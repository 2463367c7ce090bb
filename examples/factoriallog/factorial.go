// Package factoriallog is a Go rendering of the factorialLog bug of Apache
// Commons Math (MathUtils.factorialLog), studied in B-Refactoring (Xuan et
// al., IST 2016): 0! is 1, so log(0!) is 0, but the check rejects 0.
package factoriallog

import (
	"errors"
	"math"
)

// ErrNegative is returned for a negative argument.
var ErrNegative = errors.New("factorial of a negative number")

// FactorialLog returns the natural logarithm of n!.
func FactorialLog(n int) (float64, error) {
	if n <= 0 {
		return 0, ErrNegative
	}
	logSum := 0.0
	for i := 2; i <= n; i++ {
		logSum += math.Log(float64(i))
	}
	return logSum, nil
}
