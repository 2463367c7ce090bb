// Package polygon computes areas.
package polygon

// Vertex is a point of the plane.
type Vertex struct{ X, Y float64 }

type ring struct {
	v    Vertex
	next *ring
}

// Polygon is a closed outline; a polygon with no vertex has none.
type Polygon struct{ outer *ring }

// New is the polygon through vs, in order.
func New(vs ...Vertex) *Polygon {
	p := &Polygon{}
	var last *ring
	for _, v := range vs {
		r := &ring{v: v}
		if last == nil {
			p.outer = r
		} else {
			last.next = r
		}
		last = r
	}
	return p
}

// Area is the polygon's area (shoelace formula).
func (p *Polygon) Area() float64 {
	first := p.outer.v
	sum := 0.0
	for r := p.outer; r != nil; r = r.next {
		next := first
		if r.next != nil {
			next = r.next.v
		}
		sum += r.v.X*next.Y - next.X*r.v.Y
	}
	if sum < 0 {
		sum = -sum
	}
	return sum / 2
}
