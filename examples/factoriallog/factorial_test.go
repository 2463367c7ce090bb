package factoriallog

import (
	"math"
	"testing"
)

// TestFactorialLog exercises both branches of the argument check in one
// test function, as the original JUnit test does.
func TestFactorialLog(t *testing.T) {
	if _, err := FactorialLog(-1); err == nil {
		t.Error("FactorialLog(-1): no error")
	}
	for n := 0; n < 10; n++ {
		want := 0.0
		for i := 2; i <= n; i++ {
			want += math.Log(float64(i))
		}
		got, err := FactorialLog(n)
		if err != nil || math.Abs(got-want) > 1e-9 {
			t.Errorf("FactorialLog(%d) = %v, %v; want %v", n, got, err, want)
		}
	}
}

func TestFactorialLogLarge(t *testing.T) {
	got, err := FactorialLog(20)
	if err != nil || math.Abs(got-42.335616460753485) > 1e-9 {
		t.Errorf("FactorialLog(20) = %v, %v", got, err)
	}
}
