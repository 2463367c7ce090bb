package earlyreturn

import "testing"

func history(cmds ...string) *History {
	h := new(History)
	for _, c := range cmds {
		h.Add(c)
	}
	return h
}

func TestRecent(t *testing.T) {
	h := history("ls", "cd /tmp", "make")
	if got := h.Recent(0); got != "make" {
		t.Errorf("Recent(0) = %q, want %q", got, "make")
	}
	if got := h.Recent(2); got != "ls" {
		t.Errorf("Recent(2) = %q, want %q", got, "ls")
	}
}

func TestRecentOne(t *testing.T) {
	if got := history("vi", "make").Recent(1); got != "vi" {
		t.Errorf("Recent(1) = %q, want %q", got, "vi")
	}
}

func TestRecentBeyond(t *testing.T) {
	if got := history("make").Recent(1); got != "" {
		t.Errorf("Recent(1) = %q, want empty", got)
	}
}

func TestRecentFarBeyond(t *testing.T) {
	if got := history("ls", "make").Recent(3); got != "" {
		t.Errorf("Recent(3) = %q, want empty", got)
	}
}
