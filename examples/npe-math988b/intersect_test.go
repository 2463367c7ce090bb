package space

import "testing"

func TestIntersect(t *testing.T) {
	p, err := Intersect(Line{1, 0}, Line{-1, 4}, 100)
	if err != nil || p != (Point{2, 2}) {
		t.Errorf("Intersect = %v, %v", p, err)
	}
}

func TestIntersectReversed(t *testing.T) {
	p, err := Intersect(Line{-1, 4}, Line{1, 0}, 100)
	if err != nil || p != (Point{2, 2}) {
		t.Errorf("Intersect = %v, %v", p, err)
	}
}

func TestIntersectSteep(t *testing.T) {
	p, err := Intersect(Line{0.5, 0}, Line{3, 5}, 100)
	if err != nil || p != (Point{-2, -1}) {
		t.Errorf("Intersect = %v, %v", p, err)
	}
}

func TestIntersectFar(t *testing.T) {
	if _, err := Intersect(Line{1, 0}, Line{-1, 400}, 100); err == nil {
		t.Error("no error beyond the limit")
	}
}

func TestIntersectParallel(t *testing.T) {
	if _, err := Intersect(Line{2, 0}, Line{2, 1}, 100); err == nil {
		t.Error("no error for parallel lines")
	}
}
