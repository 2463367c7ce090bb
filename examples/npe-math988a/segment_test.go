package geom

import "testing"

func TestCross(t *testing.T) {
	a := Segment{Line{1, 0}, 0, 10}
	b := Segment{Line{-1, 4}, 0, 10}
	if p := a.Intersection(b); p == nil || *p != (Point{2, 2}) {
		t.Errorf("Intersection = %v, want (2, 2)", p)
	}
}

func TestCrossReversed(t *testing.T) {
	a := Segment{Line{-1, 4}, 0, 10}
	b := Segment{Line{1, 0}, 0, 10}
	if p := a.Intersection(b); p == nil || *p != (Point{2, 2}) {
		t.Errorf("Intersection = %v, want (2, 2)", p)
	}
}

func TestApart(t *testing.T) {
	a := Segment{Line{1, 0}, 0, 1}
	b := Segment{Line{-1, 4}, 0, 1}
	if p := a.Intersection(b); p != nil {
		t.Errorf("Intersection = %v, want nil", p)
	}
}

func TestParallel(t *testing.T) {
	a := Segment{Line{1, 0}, 0, 10}
	b := Segment{Line{1, 3}, 0, 10}
	if p := a.Intersection(b); p != nil {
		t.Errorf("Intersection = %v, want nil", p)
	}
}
