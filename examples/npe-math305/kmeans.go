// Package kmeans assigns points to clusters.
package kmeans

import "math"

// Cluster is a center and the points assigned to it.
type Cluster struct {
	Center float64
	Points []float64
}

// nearest is the cluster whose center is nearest to p, nil when no
// distance is finite.
func nearest(cs []*Cluster, p float64) *Cluster {
	var best *Cluster
	min := math.Inf(1)
	for _, c := range cs {
		if d := math.Abs(c.Center - p); d < min {
			best, min = c, d
		}
	}
	return best
}

// Assign adds every point to its nearest cluster; a point with no nearest
// cluster is left out.
func Assign(cs []*Cluster, points []float64) {
	for _, p := range points {
		c := nearest(cs, p)
		c.Points = append(c.Points, p)
	}
}
