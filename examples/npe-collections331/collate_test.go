package collate

import (
	"slices"
	"testing"
)

type reverse struct{}

func (reverse) Compare(a, b int) int { return b - a }

func TestMergeReverse(t *testing.T) {
	got := New(reverse{}, []int{9, 4, 1}, []int{8, 2}).All()
	if want := []int{9, 8, 4, 2, 1}; !slices.Equal(got, want) {
		t.Errorf("All = %v, want %v", got, want)
	}
}

func TestMergeOne(t *testing.T) {
	got := New(reverse{}, []int{3, 2}).All()
	if want := []int{3, 2}; !slices.Equal(got, want) {
		t.Errorf("All = %v, want %v", got, want)
	}
}

func TestMergeNatural(t *testing.T) {
	got := New(nil, []int{1, 4, 9}, []int{2, 8}).All()
	if want := []int{1, 2, 4, 8, 9}; !slices.Equal(got, want) {
		t.Errorf("All = %v, want %v", got, want)
	}
}
