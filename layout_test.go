package nopol

import "testing"

func TestInLayout(t *testing.T) {
	tests := []struct {
		name, orig, cond, want string
	}{
		{"one line: the condition as given", "a && b", "a || b", "a || b"},
		{"an operator changed in a chain of lines", "rule <= 120 &&\n\tstate == wbNumeric &&\n\tfar == prNumeric",
			"rule > 120 && state == wbNumeric && far == prNumeric", "rule > 120 &&\n\tstate == wbNumeric &&\n\tfar == prNumeric"},
		{"a clause dropped between lines", "a &&\n\tb &&\n\tc", "a && c", "a &&\n\tc"},
		{"the last clause dropped", "a &&\n\tb", "a", "a"},
		{"the first clause dropped", "a &&\n\tb", "b", "b"},
		{"a clause added first", "a &&\n\tb", "x != nil && a && b", "x != nil && a &&\n\tb"},
		{"a clause added last", "a &&\n\tb", "a && b && c", "a &&\n\tb && c"},
		{"a comment kept", "a && // why\n\tb", "a && !b", "a && // why\n\t!b"},
		{"nothing shared at either end", "a &&\n\tb", "c", "c"},
		{"a negation of the whole", "a ||\n\tb", "!(a || b)", "!(a || b)"},
		{"the same tokens: the original", "a &&\n\tb", "a&&b", "a &&\n\tb"},
		{"does not scan", "a &&\n\tb", "a && 'b", "a && 'b"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := inLayout(tt.orig, tt.cond); got != tt.want {
				t.Errorf("inLayout(%q, %q) = %q, want %q", tt.orig, tt.cond, got, tt.want)
			}
		})
	}
}
