package nopol

import (
	"strings"
	"testing"
)

// TestSmell checks what makes a condition wrong on its face, and what
// does not.
func TestSmell(t *testing.T) {
	tests := []struct {
		cond string
		want string // a part of the smell; "" for none
	}{
		{"len(b) < 2 || b[0] != ']' || b[0] != ']'", "`b[0] != ']'` twice in one chain of ||"},
		{"a && (b) && a", "`a` twice in one chain of &&"},
		{"x > 0 && (y || y)", "`y` twice in one chain of ||"},
		{"len(x) == 1 && len(x[1].Token) == 0", "`x[1]` is out of range"},
		{"len(x) < 2 && x[2] == 'a'", "`x[2]` is out of range"},
		{"len(x) <= 3 && x[3] == 'a'", "`x[3]` is out of range"},
		{"i <= 1 || p[i-2] != 'v' || p[i-2] != '/'", "`p[i - 2]` is tested unequal to two literals in one chain of ||: the chain always holds"},
		{"k == 1 && ok && k == 2", "`k` is tested equal to two literals in one chain of &&: the chain never holds"},
		{"'a' != c || c != 'b'", "`c` is tested unequal to two literals"},
		{"i+1 < len(b) || b[i+1] == '\\n'", "index-out-of-range: b[i + 1] is read where i + 1 >= len(b)"},
		{"i+1 < len(b) && b[i+1] == '\\n'", ""},
		// Not smells: an index the conjunct allows, one before the
		// bound, a bound in a disjunction, the same operand in two
		// chains.
		{"len(x) == 2 && x[1] == 'a'", ""},
		{"x[1] == 'a' && len(x) == 1", ""},
		{"len(x) == 1 || x[1] == 'a'", ""},
		{"(a || b) && (a || c)", ""},
		{"len(b) < 2 || b[0] != ']' || b[1] != ']'", ""},
		{"c == 'a' || c == 'b'", ""},      // a set of two
		{"c != 'a' && c != 'b'", ""},      // its complement
		{"c != 'a' || c != 'a'", "twice"}, // the copy, not two literals
		{"f(c) != 1 || f(c) != 2", ""},    // a call may differ
		{"a &&", ""},
		// A call may give another value the second time.
		{"next() == ',' || next() == ','", ""},
	}
	for _, tc := range tests {
		got := smell(tc.cond)
		if tc.want == "" && got != "" || tc.want != "" && !strings.Contains(got, tc.want) {
			t.Errorf("smell(%q) = %q, want %q", tc.cond, got, tc.want)
		}
	}
}

// TestLiteralOnly: conditions that differ in integer literals only.
func TestLiteralOnly(t *testing.T) {
	tests := []struct {
		a, b string
		want bool
	}{
		{"b[0] != ']' || b[0] != ']'", "b[1] != ']' || b[0] != ']'", true},
		{"len(x) == 1 && x[1] == 0", "len(x) == 1 && x[0] == 0", true},
		{"b[0] != ']'", "b[0] == ']'", false},
		{"n > 0", "m > 0", false},
		{"n > 0", "n > 0 && m", false},
	}
	for _, tc := range tests {
		if got := literalOnly(tc.a, tc.b); got != tc.want {
			t.Errorf("literalOnly(%q, %q) = %v, want %v", tc.a, tc.b, got, tc.want)
		}
	}
}

// TestFirstDifference: the first token where two conditions differ.
func TestFirstDifference(t *testing.T) {
	tests := []struct {
		a, b string
		want int
	}{
		{"b[0] != ']' || b[0] != ']'", "b[0] != ']' || b[1] != ']'", 9},
		{"b[0] != ']' || b[0] != ']'", "b[1] != ']' || b[0] != ']'", 2},
		{"a", "a && b", 1},
	}
	for _, tc := range tests {
		if got := firstDifference(tc.a, tc.b); got != tc.want {
			t.Errorf("firstDifference(%q, %q) = %d, want %d", tc.a, tc.b, got, tc.want)
		}
	}
}

// TestSmellAt: an else if that implies a condition before it in its
// chain never runs.
func TestSmellAt(t *testing.T) {
	tests := []struct {
		cond    string
		earlier []string
		want    bool
	}{
		// A length is never negative: <= 0 is == 0.
		{"len(v) == 0 && len(o) <= 0", []string{"len(v) == 0 && len(o) == 0"}, true},
		{"len(v) == 0 && len(o) > 0", []string{"len(v) == 0 && len(o) == 0"}, false},
		// Any earlier condition of the chain.
		{"n > 95", []string{"n > 80", "n > 90"}, true},
		{"n > 80", []string{"n > 90"}, false},
		// The same clause, and more.
		{"a && b", []string{"c", "a"}, true},
		{"a", []string{"a && b"}, false},
		// An int may be negative.
		{"n <= 0", []string{"n == 0"}, false},
		// The smells of the condition itself.
		{"a || a", nil, true},
	}
	for _, tc := range tests {
		if got := smellAt(tc.cond, tc.earlier, knownValues{}) != ""; got != tc.want {
			t.Errorf("smellAt(%q, %q): %v, want %v", tc.cond, tc.earlier, got, tc.want)
		}
	}
}

// TestWeakIndex: an index the length tests before it do not put in
// range.
func TestWeakIndex(t *testing.T) {
	tests := []struct {
		cond string
		want bool
	}{
		{"len(line) >= 1 && (line[1] == 's' || line[1] == 'm')", true},
		{"len(line) != 1 && line[1] == 's'", true},
		{"len(line) > 1 && line[1] == 's' && (len(line) < 3 || line[2] == ' ')", false},
		{"len(line) == 2 && line[1] == 's'", false},
		// No length test: nothing says the index is unsafe.
		{"line[1] == 's'", false},
		{"len(other) > 5 && line[1] == 's'", false},
	}
	for _, tc := range tests {
		if got := weakIndex(tc.cond); got != tc.want {
			t.Errorf("weakIndex(%q) = %v, want %v", tc.cond, got, tc.want)
		}
	}
}

func TestIndexesBehindOr(t *testing.T) {
	tests := []struct {
		cond string
		want int
	}{
		{"len(first) > 0 && first[0] == '-'", 0},
		{"len(first) <= 0 || first[0] == '-'", 1},
		{"i+1 < len(b) && b[i+1] == '\\n'", 0},
		{"i+1 >= len(b) || b[i+1] == '\\n'", 1},
		{"!(len(b) == 0) && b[0] == '#'", 0},
		{"len(b) == 0 || (b[0] == '#' || b[1] == '#')", 2},
		{"!(len(b) > 0) || b[0] == '#'", 1},
		// A disjunction shared by the mutants counts once for each.
		{"len(line) > 1 && line[1] == 's' && (len(line) < 3 || util.IsPunct(line[2]))", 1},
		{"len(line) <= 1 || line[1] == 's' && (len(line) < 3 || util.IsPunct(line[2]))", 2},
		// Another slice's length says nothing of x; no length test, nothing.
		{"len(other) == 0 || x[0] == 1", 0},
		{"x[0] == 1 || x[1] == 2", 0},
		{"not go(", 0},
	}
	for _, tc := range tests {
		if got := indexesBehindOr(tc.cond); got != tc.want {
			t.Errorf("indexesBehindOr(%q) = %d, want %d", tc.cond, got, tc.want)
		}
	}
}
