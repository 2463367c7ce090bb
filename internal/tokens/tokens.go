// Package tokens splits Go fragments (conditions, statements) into their
// tokens, for the comparisons of source text that nopol makes: edit
// distances between conditions, operands replaced in a return.
package tokens

import (
	"go/scanner"
	"go/token"
)

// Token is one token of a fragment: its kind, its text as written (the
// operator's spelling for an operator) and its byte offset.
type Token struct {
	Tok  token.Token
	Text string
	Off  int
}

// Scan returns the tokens of src, without the semicolon the scanner
// inserts at a line's end; ok is false when src does not scan (an
// unterminated literal, an illegal character).
func Scan(src string) (toks []Token, ok bool) {
	fset := token.NewFileSet()
	f := fset.AddFile("", -1, len(src))
	var s scanner.Scanner
	ok = true
	s.Init(f, []byte(src), func(token.Position, string) { ok = false }, 0)
	for {
		pos, tok, lit := s.Scan()
		if tok == token.EOF {
			return toks, ok
		}
		if tok == token.SEMICOLON && lit == "\n" {
			continue
		}
		if lit == "" {
			lit = tok.String()
		}
		toks = append(toks, Token{Tok: tok, Text: lit, Off: f.Offset(pos)})
	}
}
