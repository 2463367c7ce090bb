package earlyreturn

import "testing"

func TestLast(t *testing.T) {
	var h History
	h.Add("ls")
	h.Add("cd /tmp")
	if got := h.Last(); got != "cd /tmp" {
		t.Errorf("Last() = %q, want %q", got, "cd /tmp")
	}
}

func TestLastOne(t *testing.T) {
	var h History
	h.Add("make")
	if got := h.Last(); got != "make" {
		t.Errorf("Last() = %q, want %q", got, "make")
	}
}

func TestLastEmpty(t *testing.T) {
	var h History
	if got := h.Last(); got != "" {
		t.Errorf("Last() = %q, want empty", got)
	}
}
