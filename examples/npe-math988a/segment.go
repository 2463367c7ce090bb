// Package geom intersects segments.
package geom

// Point is a point of the plane.
type Point struct{ X, Y float64 }

// Line is the line y = Slope*x + Offset.
type Line struct{ Slope, Offset float64 }

// Intersection is the point where l and m cross, nil when they are
// parallel.
func (l Line) Intersection(m Line) *Point {
	if l.Slope == m.Slope {
		return nil
	}
	x := (m.Offset - l.Offset) / (l.Slope - m.Slope)
	return &Point{x, l.Slope*x + l.Offset}
}

// Segment is the part of Line between MinX and MaxX.
type Segment struct {
	Line       Line
	MinX, MaxX float64
}

// Intersection is the point where s and t cross, nil when they do not.
func (s Segment) Intersection(t Segment) *Point {
	p := s.Line.Intersection(t.Line)
	inS := p.X >= s.MinX && p.X <= s.MaxX
	inT := p.X >= t.MinX && p.X <= t.MaxX
	if inS && inT {
		return p
	}
	return nil
}
