package synth

import "testing"

func TestParseTerm(t *testing.T) {
	spec := &Spec{
		Inputs:    []Input{{Expr: "len(s)", Kind: Int}, {Expr: "p == nil", Kind: Bool}, {Expr: "f", Kind: Float}, {Expr: "r", Kind: Int, Char: true}},
		Constants: []Constant{{Expr: "max", Value: IntValue(9)}},
	}
	ex := Example{Values: []Value{IntValue(3), BoolValue(false), FloatValue(0.5), IntValue('x')}}
	for _, tc := range []struct {
		src  string
		want string // Source of the term, "" when it must not parse
		val  bool
	}{
		{"len(s) > 2", "len(s) > 2", true},
		{"(len(s) >= max) || p != nil", "len(s) >= max || p != nil", true},
		{"!(p == nil) && f < -1.5", "p != nil && f < -1.5", false},
		{"r == 'x' && len(s)-1 == 2", "r == 'x' && len(s) - 1 == 2", true},
		{"len(t) > 0", "", false},
		{"s == \"\"", "", false},
		{"p.n > 0", "", false},
	} {
		term, err := ParseTerm(spec, tc.src)
		if tc.want == "" {
			if err == nil {
				t.Errorf("ParseTerm(%q) = %s, want an error", tc.src, term.Source(spec))
			}
			continue
		}
		if err != nil {
			t.Errorf("ParseTerm(%q): %v", tc.src, err)
			continue
		}
		if got := term.Source(spec); got != tc.want {
			t.Errorf("ParseTerm(%q) renders %q, want %q", tc.src, got, tc.want)
		}
		if v, err := term.Eval(spec, &ex); err != nil || v.Bool != tc.val {
			t.Errorf("ParseTerm(%q) evaluates to %v (%v), want %v", tc.src, v.Bool, err, tc.val)
		}
	}
}

func TestEditDistance(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want int
	}{
		{"n <= 0", "n < 0", 1},
		{"n <= 0", "n <= 0", 0},
		{"a && b", "a", 2},
	} {
		if got := EditDistance(tc.a, tc.b); got != tc.want {
			t.Errorf("EditDistance(%q, %q) = %d, want %d", tc.a, tc.b, got, tc.want)
		}
	}
}
