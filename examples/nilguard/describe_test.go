package nilguard

import "testing"

func TestDescribeLimited(t *testing.T) {
	if got, want := Describe("db", &Limits{MaxConns: 8}), "service db (max 8 connections)"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestDescribeOther(t *testing.T) {
	if got, want := Describe("web", &Limits{MaxConns: 100}), "service web (max 100 connections)"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestDescribeUnlimited(t *testing.T) {
	if got, want := Describe("cache", nil), "service cache"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
