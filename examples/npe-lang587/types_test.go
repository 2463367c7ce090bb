package types

import (
	"slices"
	"testing"
)

func TestTypeNames(t *testing.T) {
	got := TypeNames([]any{1, "a", 2.5})
	if want := []string{"int", "string", "float64"}; !slices.Equal(got, want) {
		t.Errorf("TypeNames = %q, want %q", got, want)
	}
}

func TestTypeNamesEmpty(t *testing.T) {
	if got := TypeNames(nil); len(got) != 0 {
		t.Errorf("TypeNames(nil) = %q", got)
	}
}

func TestTypeNamesNil(t *testing.T) {
	got := TypeNames([]any{1, nil, "b"})
	if want := []string{"int", "", "string"}; !slices.Equal(got, want) {
		t.Errorf("TypeNames = %q, want %q", got, want)
	}
}
