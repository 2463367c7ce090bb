package resilience

import (
	"fmt"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"strings"
	"testing"
)

// The standard library, type-checked from source once for every test.
var (
	fset = token.NewFileSet()
	std  = importer.ForCompiler(fset, "source", nil)
)

// check type-checks src as package p and returns its pairs.
func check(t *testing.T, src string) []Pair {
	t.Helper()
	file, err := parser.ParseFile(fset, "p.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	info := &types.Info{Types: map[ast.Expr]types.TypeAndValue{}, Defs: map[*ast.Ident]types.Object{}, Uses: map[*ast.Ident]types.Object{},
		Implicits: map[ast.Node]types.Object{}, Scopes: map[ast.Node]*types.Scope{}}
	conf := types.Config{Importer: std}
	if _, err := conf.Check("p", fset, []*ast.File{file}, info); err != nil {
		t.Fatal(err)
	}
	return Pairs(fset, file, info)
}

// summary renders a pair on one line for comparison.
func summary(p Pair) string {
	s := fmt.Sprintf("%s: %s -> %s [%s", p.Func, p.TryText, p.CatchText, p.Kind)
	if p.Target != "" {
		s += " " + p.Target
	}
	s += ", " + p.Action.String()
	if p.Wrapped {
		s += ", wrapped"
	}
	if p.Last {
		s += ", last"
	}
	return s + "]"
}

func TestPairs(t *testing.T) {
	tests := []struct {
		name, body string
		want       []string
	}{{
		name: "catch-all that propagates wrapped",
		body: `func A(s string) (int, error) {
	n, err := strconv.Atoi(s)
	if err != nil {
		return 0, fmt.Errorf("a: %w", err)
	}
	return n, nil
}`,
		want: []string{"A: strconv.Atoi(s) -> err != nil [catch-all, returns, last]"},
	}, {
		name: "a chain: a sentinel, then every other error",
		body: `func B(r io.Reader) []byte {
	b, err := io.ReadAll(r)
	if errors.Is(err, io.ErrUnexpectedEOF) {
		return b
	} else if err != nil {
		return nil
	}
	return b
}`,
		want: []string{
			"B: io.ReadAll(r) -> errors.Is(err, io.ErrUnexpectedEOF) [is io.ErrUnexpectedEOF, recovers]",
			"B: io.ReadAll(r) -> err != nil [catch-all, recovers, last]",
		},
	}, {
		name: "the if's own init; a predicate; a panic",
		body: `func C(p string) {
	if err := os.Remove(p); err != nil && !os.IsNotExist(err) {
		panic(err)
	}
}`,
		want: []string{"C: os.Remove(p) -> err != nil && !os.IsNotExist(err) [predicate err != nil && !os.IsNotExist(err), panics, last]"},
	}, {
		name: "wrapped before the handler; the else of err == nil",
		body: `func D() {
	err := os.Chdir("/")
	err = fmt.Errorf("d: %w", err)
	if err == nil {
		return
	} else {
		fmt.Println(err)
	}
}`,
		want: []string{`D: os.Chdir("/") -> else [catch-all, recovers, wrapped, last]`},
	}, {
		name: "switch on the error: a sentinel, nil, the default",
		body: `func E(r io.Reader) error {
	_, err := r.Read(nil)
	switch err {
	case io.EOF:
		return nil
	case nil:
		return nil
	default:
		return err
	}
}`,
		want: []string{
			"E: r.Read(nil) -> case io.EOF [equal io.EOF, recovers]",
			"E: r.Read(nil) -> default [catch-all, returns, last]",
		},
	}, {
		name: "type switch; errors.As",
		body: `func F(p string) {
	_, err := os.Open(p)
	switch e := err.(type) {
	case nil:
	case *fs.PathError:
		_ = e
	default:
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		println(pe.Op)
	}
}`,
		want: []string{
			"F: os.Open(p) -> case *fs.PathError [type *fs.PathError, recovers]",
			"F: os.Open(p) -> default [catch-all, recovers, last]",
			"F: os.Open(p) -> errors.As(err, &pe) [as *fs.PathError, recovers, last]",
		},
	}, {
		name: "deferred recover turned into the error result",
		body: `func G() (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("g: %v", r)
		}
	}()
	return nil
}`,
		want: []string{"G: defer func() {…}() -> recover() [recover, returns, last]"},
	}, {
		name: "no try: a parameter, a sentinel assigned",
		body: `func H(err error) {
	if err != nil {
		return
	}
	err = io.EOF
	if err != nil {
		return
	}
}`,
	}, {
		name: "function literals and methods; a tagless switch",
		body: `type parser struct{ r io.Reader }

func (p *parser) next() {
	f := func() {
		_, err := p.r.Read(nil)
		switch {
		case errors.Is(err, io.EOF):
		case err != nil:
			panic(err)
		}
	}
	f()
}`,
		want: []string{
			"parser.next.func1: p.r.Read(nil) -> case errors.Is(err, io.EOF) [is io.EOF, recovers]",
			"parser.next.func1: p.r.Read(nil) -> case err != nil [catch-all, panics, last]",
		},
	}, {
		name: "nested blocks, loops and a var declaration",
		body: `func I(ps []string) {
	for _, p := range ps {
		{
			var _, err = os.Stat(p)
			if err != nil {
				continue
			}
		}
	}
}`,
		want: []string{"I: os.Stat(p) -> err != nil [catch-all, recovers, last]"},
	}}
	const header = `package p

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strconv"
)

var (
	_ = errors.Is
	_ = fmt.Errorf
	_ = io.EOF
	_ fs.FileMode
	_ = os.Open
	_ = strconv.Atoi
)

`
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			for _, p := range check(t, header+tc.body) {
				got = append(got, summary(p))
			}
			if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Errorf("pairs:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
		})
	}
}

// TestBroaden: how each kind of catch is stretched to every error of its
// try (the text that replaces the catch's source; none for a catch that
// cannot be).
func TestBroaden(t *testing.T) {
	const head = `package p

import (
	"errors"
	"io"
	"io/fs"
	"os"
)

var ErrX = errors.New("x")

var _, _ = io.EOF, fs.ErrNotExist

`
	tests := []struct {
		name, body string
		want       []string // per pair: "catch text -> replaced source => broadened", or "catch text"
	}{{
		name: "if condition",
		body: `func A() {
	_, err := os.Open("f")
	if errors.Is(err, ErrX) {
		return
	}
}`,
		want: []string{"errors.Is(err, ErrX) -> errors.Is(err, ErrX) => err != nil"},
	}, {
		name: "tagless switch",
		body: `func A() {
	_, err := os.Open("f")
	switch {
	case errors.Is(err, io.EOF):
	case err == ErrX:
	}
}`,
		want: []string{"case errors.Is(err, io.EOF) -> errors.Is(err, io.EOF) => err != nil", "case err == ErrX -> err == ErrX => err != nil"},
	}, {
		name: "type switch: a clause using the typed value is not broadened",
		body: `func A() string {
	_, err := os.Open("f")
	switch e := err.(type) {
	case *fs.PathError:
		return e.Path
	case interface{ Timeout() bool }:
		return "timeout"
	}
	return ""
}`,
		want: []string{"case *fs.PathError", "case interface{Timeout() bool} -> interface{ Timeout() bool } => error"},
	}, {
		name: "switch err: default only when nil has a case and there is no default",
		body: `func A() {
	_, err := os.Open("f")
	switch err {
	case nil:
	case ErrX:
	}
	_, err = os.Open("g")
	switch err {
	case io.EOF:
	}
}`,
		want: []string{"case ErrX -> case ErrX => default", "case io.EOF"},
	}}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			src := head + tc.body
			var got []string
			for _, p := range check(t, src) {
				s := p.CatchText
				if p.broadenTo != "" {
					s += " -> " + src[fset.Position(p.broadenFrom).Offset:fset.Position(p.broadenEnd).Offset] + " => " + p.broadenTo
				}
				got = append(got, s)
			}
			if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Errorf("got:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
		})
	}
}
