package nopol

import "testing"

func TestReadableCondition(t *testing.T) {
	tests := []struct {
		name, orig, cand, want string
	}{
		{"negation mutant made plain", "!(unicode.IsPrint(r) || unicode.IsSpace(r)) || r == utf8.RuneError",
			"!(!(unicode.IsPrint(r) || unicode.IsSpace(r)) || r == utf8.RuneError)",
			"(unicode.IsPrint(r) || unicode.IsSpace(r)) && r != utf8.RuneError"},
		{"chain flattened", "(a == '.' || a == ',') || b != '\\\\'",
			"!((a == '.' || a == ',') || b != '\\\\')",
			"a != '.' && a != ',' && b == '\\\\'"},
		{"equality swapped", "x == nil", "!(x == nil)", "x != nil"},
		{"double negation", "ok", "!!ok", "ok"},
		{"or inside and kept in parentheses", "!a && !(b || c)", "!(!a && !(b || c))", "a || b || c"},
		{"a negation inside stays", "x", "y && !(p == 1 || q == 2)", "y && !(p == 1 || q == 2)"},
		{"the original's negation stays", "!(a == b || c == d)", "!(a == b && c == d)", "!(a == b && c == d)"},
		{"developer's own negation stays", "len(s) > 1 && s[0] == '0' && !(s[1] == 'b' || s[0] == 'x')",
			"len(s) > 1 && s[0] == '0' && !(s[1] == 'b' || s[1] == 'x')", "len(s) > 1 && s[0] == '0' && !(s[1] == 'b' || s[1] == 'x')"},
		{"ordering left alone", "lo <= n && n < hi", "!(lo <= n && n < hi)", "!(lo <= n && n < hi)"},
		{"atom without negation left alone", "a || b", "!(a || b)", "!(a || b)"},
		{"mixed operands left alone", "a == 1 || f(x)", "!(a == 1 || f(x))", "!(a == 1 || f(x))"},
		{"new guard", "", "!(err == nil)", "err != nil"},
		{"unchanged text kept byte for byte", "a  ==  b", "a  !=  b", "a  !=  b"},
		{"does not parse", "a", "a &&", "a &&"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := readableCondition(tt.orig, tt.cand); got != tt.want {
				t.Errorf("readableCondition(%q, %q) = %q, want %q", tt.orig, tt.cand, got, tt.want)
			}
		})
	}
}
