package missingor

import "testing"

func TestInside(t *testing.T) {
	for _, v := range []int{0, 5, 10} {
		if Outside(v, 0, 10) {
			t.Errorf("Outside(%d, 0, 10) = true", v)
		}
	}
}

func TestBelow(t *testing.T) {
	if !Outside(-3, 0, 10) {
		t.Error("Outside(-3, 0, 10) = false")
	}
}

func TestAbove(t *testing.T) {
	if !Outside(11, 0, 10) {
		t.Error("Outside(11, 0, 10) = false")
	}
}
