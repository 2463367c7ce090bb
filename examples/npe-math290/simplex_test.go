package simplex

import "testing"

func TestTableau(t *testing.T) {
	p := &Problem{Objective: []float64{3, 2}}
	p.Add(Constraint{Coeffs: []float64{1, 1}, Bound: 4})
	tab := p.Tableau()
	if len(tab) != 2 || len(tab[0]) != 4 || tab[0][0] != -3 || tab[1][2] != 1 || tab[1][3] != 4 {
		t.Errorf("Tableau = %v", tab)
	}
}

func TestTableauTwo(t *testing.T) {
	p := &Problem{Objective: []float64{1}}
	p.Add(Constraint{Coeffs: []float64{1}, Bound: 2})
	p.Add(Constraint{Coeffs: []float64{2}, Bound: 3})
	if tab := p.Tableau(); len(tab) != 3 || len(tab[0]) != 4 {
		t.Errorf("Tableau = %v", tab)
	}
}

func TestTableauUnconstrained(t *testing.T) {
	p := &Problem{Objective: []float64{1, 1}}
	tab := p.Tableau()
	if len(tab) != 1 || len(tab[0]) != 3 || tab[0][1] != -1 {
		t.Errorf("Tableau = %v", tab)
	}
}
