package nopol

import (
	"slices"
	"testing"
)

func TestBoundsClauses(t *testing.T) {
	for _, tc := range []struct {
		cond string
		want []string
	}{
		{"cleaned[start] == '0' && isDigit(cleaned[start+1])", []string{
			"len(cleaned) > start && cleaned[start] == '0' && isDigit(cleaned[start+1])",
			"cleaned[start] == '0' && len(cleaned) > start+1 && isDigit(cleaned[start+1])",
		}},
		{"b[i] == ' '", []string{"len(b) > i && b[i] == ' '"}},
		{"ok || s[0] == '-'", []string{"ok || len(s) > 0 && s[0] == '-'"}},
		{"(a && s[1] == 'x') || c", []string{"(a && len(s) > 1 && s[1] == 'x') || c"}}, // parentheses kept
		{"!strings.HasPrefix(string(b[i:j]), \"x\")", []string{"len(b) >= j && !strings.HasPrefix(string(b[i:j]), \"x\")"}},
		{"p.items[p.n].ok", []string{"len(p.items) > p.n && p.items[p.n].ok"}},
		{"f()[0] == 1", nil}, // the operand calls a function
		{"x[g(i)] > 0", nil}, // the index does
		{"n > 0 && m[k]", []string{"n > 0 && len(m) > k && m[k]"}}, // the type check drops it for a map
		{"a &&", nil},
	} {
		if got := boundsClauses(tc.cond); !slices.Equal(got, tc.want) {
			t.Errorf("boundsClauses(%q) =\n%q\nwant\n%q", tc.cond, got, tc.want)
		}
	}
}

// TestReusedBounds: the mutants in which the condition's own length test
// comes before an index it did not protect.
func TestReusedBounds(t *testing.T) {
	for _, tc := range []struct {
		cond string
		want []string
	}{
		{"len(shorthands) > 2 || shorthands[1] == '='", []string{"len(shorthands) > 2 && shorthands[1] == '='"}},
		{"len(s) > 0 && s[0] == '-'", nil},  // protected already
		{"len(s) >= 1 || s[1] == 'x'", nil}, // len(s) >= 1 does not protect s[1]
		{"ok || s[0] == '-'", nil},          // no length test to reuse
		{"len(s) == 0 || s[0] != '-'", nil}, // one change puts no length test before s[0]
		{"len(b) > 1 || b[0] == 'a' && b[1] == 'b'", []string{"len(b) > 1 && b[0] == 'a' && b[1] == 'b'"}},
		{"a &&", nil},
	} {
		if got := reusedBounds(tc.cond); !slices.Equal(got, tc.want) {
			t.Errorf("reusedBounds(%q) =\n%q\nwant\n%q", tc.cond, got, tc.want)
		}
	}
}

func TestOutOfRange(t *testing.T) {
	for out, want := range map[string]bool{
		"panic: runtime error: index out of range [1] with length 1 [recovered]":  true,
		"panic: runtime error: slice bounds out of range [:5] with capacity 3":    true,
		"panic: runtime error: invalid memory address or nil pointer dereference": false,
		"--- FAIL: TestX\n    x_test.go:3: got 1, want 2":                         false,
	} {
		if got := outOfRange(out); got != want {
			t.Errorf("outOfRange(%q) = %v, want %v", out, got, want)
		}
	}
}
