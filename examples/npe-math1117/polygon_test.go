package polygon

import "testing"

func TestArea(t *testing.T) {
	sq := New(Vertex{0, 0}, Vertex{2, 0}, Vertex{2, 2}, Vertex{0, 2})
	if got := sq.Area(); got != 4 {
		t.Errorf("Area = %g, want 4", got)
	}
	tri := New(Vertex{0, 0}, Vertex{4, 0}, Vertex{0, 3})
	if got := tri.Area(); got != 6 {
		t.Errorf("Area = %g, want 6", got)
	}
}

func TestAreaEmpty(t *testing.T) {
	if got := New().Area(); got != 0 {
		t.Errorf("Area = %g, want 0", got)
	}
}
