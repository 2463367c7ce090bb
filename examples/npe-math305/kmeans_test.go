package kmeans

import (
	"math"
	"testing"
)

func TestAssign(t *testing.T) {
	a, b := &Cluster{Center: 0}, &Cluster{Center: 10}
	Assign([]*Cluster{a, b}, []float64{1, 9, 2})
	if len(a.Points) != 2 || len(b.Points) != 1 {
		t.Errorf("a=%v b=%v", a.Points, b.Points)
	}
}

func TestAssignInfinite(t *testing.T) {
	a := &Cluster{Center: 0}
	Assign([]*Cluster{a}, []float64{1, math.Inf(1), 3})
	if len(a.Points) != 2 {
		t.Errorf("a=%v, want the two finite points", a.Points)
	}
}
