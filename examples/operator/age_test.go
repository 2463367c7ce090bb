package operator

import "testing"

func TestChild(t *testing.T) {
	if CanVote(9) {
		t.Error("CanVote(9) = true")
	}
}

func TestTeenager(t *testing.T) {
	if CanVote(17) {
		t.Error("CanVote(17) = true")
	}
}

func TestAdult(t *testing.T) {
	if !CanVote(42) {
		t.Error("CanVote(42) = false")
	}
}

func TestEighteen(t *testing.T) {
	if !CanVote(18) {
		t.Error("CanVote(18) = false")
	}
}
