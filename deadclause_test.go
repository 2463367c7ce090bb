package nopol

import (
	"testing"

	"github.com/nopol-go/nopol/collect"
)

// TestDeadClause checks dead-clause and bounds-check-alone on the
// fallback's mutants (no recorded states), each with a near candidate
// that breaks neither.
func TestDeadClause(t *testing.T) {
	for _, tc := range []struct {
		orig, cand, rule string
	}{
		{"c == 'T' || c == 't'", "c == 'T' || c != 't'", ruleDeadClause},
		{"c == 'T' || c == 't'", "c != 'T' || c == 't'", ruleDeadClause},
		{"c == 'T' || c == 't'", "c != 'T' || c != 't'", ruleDeadClause},
		{"c == 'T' || c == 't'", "c == 'T' && c == 't'", ruleDeadClause},
		{"c != 'T' && c != 't'", "c != 'T' && c == 't'", ruleDeadClause},
		{"c == 'T' || c == 't'", "c == 'T' || c == 't' || c == ' '", ""},
		{"c == 'T' || c == 't'", "c == 'T' || c > 't'", "char-range"}, // not dead, but a range with one end
		{"s == \"a\" || n == 1", "s != \"a\" || n == 1", ""},          // different operands
		{"x == 1 || x != 1", "x == 1 || x != 1 || y > 0", ""},         // the original's own dead clause
		// The original's own constant chain does not excuse a new dead
		// clause (toml's maybeQuoted: the fix was r == '_' || r == '-').
		{"r >= '0' || r == '_' && r == '-'", "r >= '0' || r == '_' && r != '-'", ruleDeadClause},
		{"r >= '0' || r == '_' && r == '-'", "r >= '1' || r == '_' && r == '-'", ""}, // kept as it was
		{"r >= '0' && r <= '9' || r == '_' && r == '-'", "r >= '0' && r <= '9' || r == '_' || r == '-'", ""},
		// Integer ranges: a test its operand's range decides, conjuncts
		// with no integer between them, disjuncts that leave none out.
		{"i > 0", "len(val) >= 0", ruleDeadClause},
		{"i > 0", "len(val) < 0 || i > 2", ruleDeadClause},
		{"len(tpl) > 0 && tpl[0] != '/'", "len(tpl) <= 0 && len(tpl) > 0 && tpl[0] != '/'", ruleDeadClause},
		{"n > 3", "n < 5 || n >= 3", ruleDeadClause},
		{"n > 3", "3 < n && n < 4", ruleDeadClause},
		{"n > 3", "n >= -1", ""},
		{"n > 3", "n < 5 && n >= 3", ""},
		{"n > 3", "n < 3 || n > 3", ""},
		{"len(s) > 0", "len(s) <= 0", ""},
		{"i >= 0 && i < 0", "i >= 0 && i < 0 || ok", ""}, // the original's own
		{"x == 1 || x == 2", "x == \"a\" || x != 2", ""}, // does not compile; no panic
		// A clause another implies (pflag's seeded FlagSet.Arg): a
		// length is never negative.
		{"i < 0 || i >= len(f.args)", "i >= 0 && i >= len(f.args)", ruleDeadClause},
		{"i < 0 || i >= len(f.args)", "i >= len(f.args)+1 && i > 0", ruleDeadClause},
		{"n > 3", "n < 0 || n < len(s)", ruleDeadClause},
		{"n > 3", "n > 5 && n > 3", ruleDeadClause},
		{"n > 3", "n >= 4 || n > 3", ruleDeadClause},
		{"i < 0 || i >= len(f.args)", "i < 0 || i >= len(f.args)-1", ""},
		{"i > 0 && i < len(b)", "i >= 0 && i < len(b)", ""},
		{"i > 0 && i < len(b)", "i >= 1 && i <= len(b)-1", ""},
		{"n > 3", "n > 1 || n < 0", ""},
		// A point the range holds: the range decides nothing in a chain
		// of &&, the point nothing in one of || (hcl's seeded
		// scanString).
		{"n > 3", "n >= 0 && n == 3", ruleDeadClause},
		{"(ch == '\\n' && braces == 0) && ch < 0 || ch == eof", "(ch == '\\n' && braces == 0) && ch >= 0 || ch == eof", ruleDeadClause},
		{"(ch == '\\n' && braces == 0) && ch < 0 || ch == eof", "(ch == '\\n' && braces == 0) || ch < 0 || ch == eof", ""},
		{"n > 3", "n == 3 || n > 1", ruleDeadClause},
		{"n > 3", "n == 3 || n > 5", ""},
		{"n > 3", "n < 0 && n == 3", ruleDeadClause}, // never holds
		{"n > 3", "n < 0 || n >= len(s)", ""},
		{"n > 3", "n >= 0 && len(s) > n", ""},
		{"len(b) > 1 && b[1] == '\\n'", "len(b) > 1", ruleBoundsAlone},
		{"len(b) > 1 && b[1] == '\\n'", "!(len(b) < 2)", ruleBoundsAlone}, // the same check, negated
		{"len(b) > 1 && b[1] == '\\n'", "len(b) >= 2", ruleBoundsAlone},
		{"len(b) > 1 && b[1] == '\\n'", "cap(b) > 1", ""},                    // not a length check
		{"len(b) > 1 && b[1] == '\\n'", "b[1] == '\\n'", ruleIndexUnguarded}, // the access without its check
		{"len(b) > 1 && b[1] == '\\n'", "len(b) > 1 && b[1] != '\\n'", ""},
		{"r.buildScheme == \"\" && len(schemes) > 0", "len(schemes) > 0", ""}, // nothing of schemes dropped
		{"len(s) > 2 && s[:2] == \"0x\" && ok", "len(s) > 2 && ok", ""},
		{"len(s) > 2 && s[:2] == \"0x\" && ok", "len(s) > 2", ruleBoundsAlone},
		{"next >= len(line) || line[next] == ':'", "next >= len(line)", ruleBoundsAlone},
		{"next >= len(line) || line[next] == ':'", "next >= len(line) || line[next] != ':'", ""},
		{"next >= len(line) || line[next] == ':' || ok", "next >= len(line) || ok", ""},
		// An index read where the operands before it put it out of
		// range (go-toml's seeded scanIntOrFloat).
		{"i >= len(b) || !isDigit(b[i])", "i >= len(b) && !isDigit(b[i])", ruleOutOfRange},
		{"i < len(b) && b[i] == '-'", "i < len(b) || b[i] == '-'", ruleOutOfRange},
		{"i < len(b) && b[i] == '-'", "!(i < len(b)) && b[i] == '-'", ruleOutOfRange},
		{"i+1 < len(b) && b[i+1] == '\\n'", "len(b) <= i+1 && b[i+1] == '\\n'", ruleOutOfRange},
		{"i < len(b) && b[i] == '-'", "ok && i > len(b) || x == b[i]", ruleIndexUnguarded},  // b[i] runs where ok fails, no length test before
		{"i >= len(b) || !isDigit(b[i])", "i >= len(b) || !isDigit(b[i])", ""},              // the guard as it should be
		{"i < len(b) && b[i] == '-'", "i < len(b) && b[i] == '-' || i >= len(b) && ok", ""}, // no read after the fact
		{"i < len(b) && b[i] == '-'", "i < len(b) || b[i-1] == '-'", ""},                    // another index, in range for i == len(b)
		{"i < len(b) && b[i] == '-'", "i < len(b) || b[i+1] == '-'", ruleOutOfRange},        // past the end too
		{"i < len(b) && b[i] == '-'", "i == len(b) && b[i] == '-'", ruleOutOfRange},
		{"i+1 < len(b) && b[i+1] == '-'", "i+1 >= len(b) && b[i] == '-'", ""}, // i may be len(b)-1
		// A read below zero (btree-like `i > 0 && len(n.children[i-1].items) > k`).
		{"i > 0 && len(c[i-1]) > k", "i < 0 && len(c[i-1]) > k", ruleOutOfRange},
		{"i > 0 && len(c[i-1]) > k", "i <= 0 && len(c[i-1]) > k", ruleOutOfRange},
		{"i > 0 && len(c[i-1]) > k", "i == 0 && len(c[i-1]) > k", ruleOutOfRange},
		{"i > 0 && len(c[i-1]) > k", "0 >= i && len(c[i-1]) > k", ruleOutOfRange},
		{"i > 0 && len(c[i-1]) > k", "i > 0 || len(c[i-1]) > k", ruleOutOfRange}, // i <= 0 where the disjunct runs
		{"i > 0 && len(c[i-1]) > k", "i > 0 && len(c[i-1]) > k", ""},
		{"i > 0 && len(c[i-1]) > k", "i >= 0 && len(c[i-1]) > k", ""}, // i == 0 panics, but i may be 1
		{"i > 0 && len(c[i-1]) > k", "i < 1 && len(c[i+1]) > k", ""},  // i+1 may be 0
		{"i > 0 && len(c[i-1]) > k", "i < -1 && len(c[i+1]) > k", ruleOutOfRange},
		{"i > 0 && len(c[i-1]) > k", "i < 0 && len(c[j-1]) > k", ""}, // another index
		{"i >= len(b) || !isDigit(b[i])", "(i >= len(b) || !isDigit(b[i])) && isDigit(b[i])", ruleOutOfRange},
		{"i >= len(b) || !isDigit(b[i])", "(i >= len(b) || !isDigit(b[i])) && ok", ""},
		{"i >= len(b) || !isDigit(b[i])", "!(i < len(b) || ok) && b[i] == 'x'", ruleOutOfRange},
		{"i >= len(b) || !isDigit(b[i])", "!(i < len(b) && isDigit(b[i])) || b[i] == 'x'", ""}, // b[i] read where i < len(b) only
		// A field read where the operands before it found the value nil
		// (go-toml's seeded rawValue).
		{"expr == nil || expr.Kind != k", "expr == nil || expr == nil && expr.Kind != k", ruleNilDereferenced},
		{"expr == nil || expr.Kind != k", "expr != nil || expr.Kind != k", ruleNilDereferenced},
		{"expr == nil || expr.Kind != k", "nil == expr && expr.Kind != k", ruleNilDereferenced},
		{"p != nil && *p > 0", "p == nil && *p > 0", ruleNilDereferenced},
		{"expr == nil || expr.Kind != k", "expr == nil || expr.Kind != k", ""},
		{"expr == nil || expr.Kind != k", "expr == nil && expr.IsZero()", ""}, // a method may take a nil receiver
		{"expr == nil || expr.Kind != k", "expr == nil && other.Kind != k", ""},
		// Characters are integers to the range rules.
		{"r < '0' || r > '9'", "r > '0' && r > '9'", ruleDeadClause},
		{"r >= 'a' && r <= 'z'", "r < 'a' && r > 'z'", ruleDeadClause},
		{"r >= 'a' && r <= 'z'", "r >= 'a' && r < 'z'", "char-class"}, // no dead clause; an end left out
		{"r >= 'a' && r <= 'y'", "r >= 'a' && r < 'y'", ""},
		// An index the original reads only after a test of the length
		// (ini's seeded readValue).
		{"ok && len(in) <= 0 && in[len(in)-1] == '\\n'", "ok && len(in) <= 0 || in[len(in)-1] == '\\n'", ruleIndexUnguarded},
		{"ok && len(in) <= 0 && in[len(in)-1] == '\\n'", "in[len(in)-1] == '\\n'", ruleIndexUnguarded},
		{"ok && len(in) <= 0 && in[len(in)-1] == '\\n'", "ok && len(in) > 0 && in[len(in)-1] == '\\n'", ""},
		{"s != \"\" && s[0] == '-'", "s == \"\" || s[0] == '-'", ""},
		{"s != \"\" && s[0] == '-'", "ok || s[1:] == \"-\"", ruleIndexUnguarded},
		{"s[0] == '-' || len(s) > 3", "s[0] != '-' || len(s) > 3", ""}, // the original reads s[0] first too
		// Named constants count as their values: sepT is 'T'.
		{"c == sepT || c == '_'", "c == sepT || c != '_'", ruleDeadClause},
		{"c == sepT || c == '_'", "c != sepT || c != sepSpace", ruleDeadClause},
		{"c == sepT || c == '_'", "c == sepT || c == sepSpace", ""},
		{"c == sepT || c == '_'", "c == sepT || c != 'T'", ""},  // one value: not dead, the same comparison
		{"c == sepT || c == '_'", "c == other || c != '_'", ""}, // not a constant of the site
	} {
		t.Run(tc.cand, func(t *testing.T) {
			site := collect.Site{Kind: collect.Cond, Original: tc.orig, Constants: []collect.Constant{
				{Expr: "'_'", Value: collect.Value{Kind: collect.KindInt, Int: '_'}},
				{Expr: "sepT", Value: collect.Value{Kind: collect.KindInt, Int: 'T'}},
				{Expr: "sepSpace", Value: collect.Value{Kind: collect.KindInt, Int: ' '}},
			}}
			if got := antiPattern(site, nil, candidate{src: tc.cand, method: "mutation"}); ruleOf(got) != tc.rule {
				t.Errorf("antiPattern(%q at `%s`) = %q, want rule %q", tc.cand, tc.orig, got, tc.rule)
			}
		})
	}
}

// TestElseShadowed checks else-shadowed: a candidate that holds wherever
// an else if after it holds leaves that branch dead (mux's seeded
// braceIndices).
func TestElseShadowed(t *testing.T) {
	for _, tc := range []struct {
		orig, cand string
		elseIfs    []string
		rule       string
	}{
		{"level == 1", "level != 1", []string{"level < 0"}, ruleElseShadowed},
		{"level == 1", "level <= 1", []string{"level < 0"}, ruleElseShadowed},
		{"level == 1", "level == 0 || ok", []string{"level < 0", "ok && level > 3"}, ruleElseShadowed},
		{"level == 1", "level == 0", []string{"level < 0"}, ""},
		{"level == 1", "level != 1", []string{"level < 0 || level == 1"}, ""}, // level == 1 still reaches it
		{"level == 1", "level != 1", nil, ""},
		{"level == 1", "level > 1", []string{"level < 0"}, ""},
		{"level != 1", "level != 2", []string{"level < 0"}, ""}, // the original shadows it too
		{"len(s) == 0", "len(s) <= 1", []string{"len(s) == 1"}, ruleElseShadowed},
		{"len(s) == 0", "len(s) <= 1", []string{"len(s) > 1"}, ""},
	} {
		t.Run(tc.cand, func(t *testing.T) {
			site := collect.Site{Kind: collect.Cond, Original: tc.orig, ElseIfs: tc.elseIfs}
			if got := antiPattern(site, nil, candidate{src: tc.cand, method: "mutation"}); ruleOf(got) != tc.rule {
				t.Errorf("antiPattern(%q at `%s`, else ifs %q) = %q, want rule %q", tc.cand, tc.orig, tc.elseIfs, got, tc.rule)
			}
		})
	}
}

// TestNonNegativeDeadClause checks that a variable the function never
// makes negative (collect.Site.NonNegative: n := len(pool)) counts as a
// length for dead-clause (go-toml's seeded getEntries, `n < 0` for `n >
// 0`).
func TestNonNegativeDeadClause(t *testing.T) {
	for _, tc := range []struct {
		cand        string
		nonNegative []string
		rule        string
	}{
		{"n < 0", []string{"n"}, ruleDeadClause},
		{"n >= 0", []string{"n"}, ruleDeadClause},
		{"n > 1", []string{"n"}, ""},
		{"n < 0", nil, ""},
		{"n < 0", []string{"m"}, ""},
	} {
		site := collect.Site{Kind: collect.Cond, Original: "n > 0", NonNegative: tc.nonNegative}
		if got := antiPattern(site, nil, candidate{src: tc.cand, method: "mutation"}); ruleOf(got) != tc.rule {
			t.Errorf("antiPattern(%q, never negative %q) = %q, want rule %q", tc.cand, tc.nonNegative, got, tc.rule)
		}
	}
}
