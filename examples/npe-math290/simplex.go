// Package simplex sets up linear programs.
package simplex

// Constraint is coeffs · x <= Bound.
type Constraint struct {
	Coeffs []float64
	Bound  float64
}

type constraintSet struct {
	rows []Constraint
}

// Problem maximizes Objective · x under its constraints.
type Problem struct {
	Objective   []float64
	constraints *constraintSet
}

// Add adds a constraint.
func (p *Problem) Add(c Constraint) {
	if p.constraints == nil {
		p.constraints = &constraintSet{}
	}
	p.constraints.rows = append(p.constraints.rows, c)
}

// Tableau is the initial simplex tableau: the objective's row, then one
// row per constraint with its slack variable.
func (p *Problem) Tableau() [][]float64 {
	n := len(p.Objective)
	rows := len(p.constraints.rows)
	width := n + rows + 1
	t := make([][]float64, 0, rows+1)
	obj := make([]float64, width)
	for i, c := range p.Objective {
		obj[i] = -c
	}
	t = append(t, obj)
	for k, c := range p.constraints.rows {
		row := make([]float64, width)
		copy(row, c.Coeffs)
		row[n+k] = 1
		row[width-1] = c.Bound
		t = append(t, row)
	}
	return t
}
