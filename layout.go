package nopol

import (
	"go/token"
	"slices"
	"strings"

	"github.com/nopol-go/nopol/internal/tokens"
)

// scanLayout scans text (a condition) into its tokens (tokens.Scan);
// ok is false when it does not scan, or when a token's text is not the
// text's bytes at its offset (a raw string with carriage returns).
func scanLayout(text string) ([]tokens.Token, bool) {
	toks, ok := tokens.Scan(text)
	if !ok {
		return nil, false
	}
	for _, t := range toks {
		if !strings.HasPrefix(text[t.Off:], t.Text) {
			return nil, false
		}
	}
	return toks, true
}

func tokenEnd(t tokens.Token) int { return t.Off + len(t.Text) }

// inLayout returns cond written in the layout of orig, the condition it
// replaces as the file writes it: when orig spans several lines, the
// tokens cond shares with orig at its start and at its end keep orig's
// text (line breaks, comments), and only the tokens between them are
// cond's. A one-operator change of a chain written one clause per line
// is then a one-line change in the patch, as its author would write it,
// not the chain joined onto one line. cond itself is returned when orig
// is one line, when they share no first or last token, or when the
// result would not say cond's tokens.
func inLayout(orig, cond string) string {
	if !strings.Contains(orig, "\n") {
		return cond
	}
	a, ok1 := scanLayout(orig)
	b, ok2 := scanLayout(cond)
	if !ok1 || !ok2 || len(a) == 0 || len(b) == 0 {
		return cond
	}
	same := func(x, y tokens.Token) bool { return x.Tok == y.Tok && x.Text == y.Text }
	p := 0
	for p < len(a) && p < len(b) && same(a[p], b[p]) {
		p++
	}
	s := 0
	for s < len(a)-p && s < len(b)-p && same(a[len(a)-1-s], b[len(b)-1-s]) {
		s++
	}
	if p == 0 && s == 0 {
		return cond
	}
	if p == len(a) && p == len(b) {
		return orig
	}
	// The new middle, as cond writes it.
	mid := ""
	if p < len(b)-s {
		mid = cond[b[p].Off:tokenEnd(b[len(b)-1-s])]
	}
	var start, end int // the span of orig it replaces
	switch {
	case p < len(a)-s:
		start, end = a[p].Off, tokenEnd(a[len(a)-1-s])
	case p < len(a):
		start, end = a[p].Off, a[p].Off // an insertion before a[p]
		if last := b[len(b)-1-s].Tok; last != token.NOT && last != token.LPAREN {
			mid += " "
		}
	default:
		start, end = tokenEnd(a[p-1]), tokenEnd(a[p-1]) // an insertion at the end
		if b[p].Tok != token.RPAREN {
			mid = " " + mid
		}
	}
	if mid == "" {
		// A deletion: the white space around it goes with it, so that
		// no empty line or trailing space is left.
		if s > 0 {
			end = a[len(a)-s].Off
		} else {
			start = tokenEnd(a[p-1])
		}
	}
	out := orig[:start] + mid + orig[end:]
	if got, ok := scanLayout(out); !ok || !slices.EqualFunc(got, b, same) {
		return cond
	}
	return out
}
