// Package space intersects lines.
package space

import "fmt"

// Point is a point of the plane.
type Point struct{ X, Y float64 }

// Line is the line y = Slope*x + Offset.
type Line struct{ Slope, Offset float64 }

// cross is the point where l and m cross, nil when they are parallel.
func cross(l, m Line) *Point {
	if l.Slope == m.Slope {
		return nil
	}
	x := (m.Offset - l.Offset) / (l.Slope - m.Slope)
	return &Point{x, l.Slope*x + l.Offset}
}

// Intersect is the point where l and m cross, an error when they do not
// or when it lies beyond limit.
func Intersect(l, m Line, limit float64) (Point, error) {
	p := cross(l, m)
	if p.X > limit || p.X < -limit {
		return Point{}, fmt.Errorf("intersection at x=%g beyond %g", p.X, limit)
	}
	return *p, nil
}
