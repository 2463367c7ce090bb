package constant

import "testing"

func TestSmallOrder(t *testing.T) {
	for _, total := range []int{5, 50, 99} {
		if got := Price(total); got != total {
			t.Errorf("Price(%d) = %d, want %d", total, got, total)
		}
	}
}

func TestLargeOrder(t *testing.T) {
	if got := Price(5000); got != 4990 {
		t.Errorf("Price(5000) = %d, want 4990", got)
	}
}

func TestDiscountThreshold(t *testing.T) {
	for _, total := range []int{100, 250} {
		if got := Price(total); got != total-10 {
			t.Errorf("Price(%d) = %d, want %d", total, got, total-10)
		}
	}
}
