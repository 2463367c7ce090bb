package nopol

import (
	"go/scanner"
	"go/token"
	"strings"
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
	for p < len(g) && p < len(c) && g[p].text == c[p].text {
		p++
	}
	s := 0
	for s < len(g)-p && s < len(c)-p && g[len(g)-1-s].text == c[len(c)-1-s].text {
		s++
	}
	// The operand starts at the selector chain's first name: vi.Low and
	// vi.High differ in their last name only.
	for p >= 2 && g[p-1].text == "." && g[p-2].tok == token.IDENT {
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
		if i > 0 && b[i-1].text == "." || !sameTokens(b[i:i+len(from)], from) {
			continue
		}
		if end := i + len(from); end < len(b) && b[end].text == "(" {
			continue // a method of the same name, not the operand
		}
		out.WriteString(body[last:b[i].off])
		for _, t := range to {
			out.WriteString(t.text)
		}
		last = b[i+len(from)-1].off + len(b[i+len(from)-1].text)
		i += len(from) - 1
		replaced = true
	}
	if !replaced {
		return body
	}
	out.WriteString(body[last:])
	return out.String()
}

// goToken is a token of a Go fragment with its offset.
type goToken struct {
	tok  token.Token
	text string
	off  int
}

// goTokens scans src; nil when it does not scan.
func goTokens(src string) []goToken {
	fset := token.NewFileSet()
	f := fset.AddFile("", -1, len(src))
	var s scanner.Scanner
	bad := false
	s.Init(f, []byte(src), func(token.Position, string) { bad = true }, 0)
	var out []goToken
	for {
		pos, tok, lit := s.Scan()
		if tok == token.EOF {
			break
		}
		if tok == token.SEMICOLON && lit == "\n" {
			continue // the automatic semicolon at the end
		}
		text := lit
		if text == "" {
			text = tok.String()
		}
		out = append(out, goToken{tok: tok, text: text, off: f.Offset(pos)})
	}
	if bad || len(out) == 0 {
		return nil
	}
	return out
}

// selectorChain reports whether ts is a name or names joined by dots.
func selectorChain(ts []goToken) bool {
	if len(ts)%2 == 0 {
		return false
	}
	for i, t := range ts {
		if i%2 == 0 && t.tok != token.IDENT || i%2 == 1 && t.tok != token.PERIOD {
			return false
		}
	}
	return true
}

func sameTokens(a, b []goToken) bool {
	for i := range a {
		if a[i].text != b[i].text {
			return false
		}
	}
	return true
}
