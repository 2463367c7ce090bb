package nopol

import (
	"go/token"
	"strings"

	"github.com/nopol-go/nopol/internal/tokens"
)

// A reused return speaks of the operand its own guard tests: in
//
//	if !isCanonicalVersion(vi.Low) {
//		return &module.InvalidVersionError{Version: vi.Low, ...}
//	}
//
// the error names vi.Low. A new guard `!isCanonicalVersion(vi.High)` that
// reuses it should name vi.High: when the new condition is the reused
// return's guard with one operand (a name or a selector chain) replaced by
// another, the return gets the same replacement. The patch is validated
// as written.

// analogous returns body with the operand that cond has in place of one
// of guard's replaced, or body unchanged when cond is not guard with one
// operand replaced.
func analogous(body, guard, cond string) string {
	if guard == "" || guard == cond {
		return body
	}
	g, c := goTokens(guard), goTokens(cond)
	if g == nil || c == nil {
		return body
	}
	p := 0
	for p < len(g) && p < len(c) && g[p].Text == c[p].Text {
		p++
	}
	s := 0
	for s < len(g)-p && s < len(c)-p && g[len(g)-1-s].Text == c[len(c)-1-s].Text {
		s++
	}
	// The operand starts at the selector chain's first name: vi.Low and
	// vi.High differ in their last name only.
	for p >= 2 && g[p-1].Text == "." && g[p-2].Tok == token.IDENT {
		p -= 2
	}
	from, to := g[p:len(g)-s], c[p:len(c)-s]
	if !selectorChain(from) || !selectorChain(to) {
		return body
	}
	b := goTokens(body)
	if b == nil {
		return body
	}
	var out strings.Builder
	last, replaced := 0, false
	for i := 0; i+len(from) <= len(b); i++ {
		if i > 0 && b[i-1].Text == "." || !sameTokens(b[i:i+len(from)], from) {
			continue
		}
		if end := i + len(from); end < len(b) && b[end].Text == "(" {
			continue // a method of the same name, not the operand
		}
		out.WriteString(body[last:b[i].Off])
		for _, t := range to {
			out.WriteString(t.Text)
		}
		last = b[i+len(from)-1].Off + len(b[i+len(from)-1].Text)
		i += len(from) - 1
		replaced = true
	}
	if !replaced {
		return body
	}
	out.WriteString(body[last:])
	return out.String()
}

// goTokens scans src; nil when it does not scan or is empty.
func goTokens(src string) []tokens.Token {
	toks, ok := tokens.Scan(src)
	if !ok || len(toks) == 0 {
		return nil
	}
	return toks
}

// selectorChain reports whether ts is a name or names joined by dots.
func selectorChain(ts []tokens.Token) bool {
	if len(ts)%2 == 0 {
		return false
	}
	for i, t := range ts {
		if i%2 == 0 && t.Tok != token.IDENT || i%2 == 1 && t.Tok != token.PERIOD {
			return false
		}
	}
	return true
}

func sameTokens(a, b []tokens.Token) bool {
	for i := range a {
		if a[i].Text != b[i].Text {
			return false
		}
	}
	return true
}
