package collect

import (
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"slices"
	"testing"
)

const messagesSrc = `package p

import "fmt"

type parser struct{ strict bool }

func (p *parser) fail(format string, args ...any) { panic(fmt.Sprintf(format, args...)) }

func leadingZero(s string) bool { return len(s) > 1 && s[0] == '0' }

func (p *parser) isStrict() bool { return p.strict }

func (p *parser) number(s string) error {
	if leadingZero(s) && p.isStrict() && leadingZero(s[1:]) { // 1
		p.fail("number %q: cannot have leading zeroes", s)
	}
	if len(s) == 0 { // 2
		return fmt.Errorf("%s", "empty") // too short a message
	}
	if s == "x" { // 3
		if p.strict { // 4
			return fmt.Errorf("x is not a number in strict mode")
		}
		go func() { println("printed later, if at all") }()
		return fmt.Errorf("the literal x is not a number (100%% sure)")
	}
	if len(fmt.Sprint(s)) > 10 { // 5
		return nil
	}
	return nil
}
`

// TestMessagesAndCallees checks what a condition's branch says and what
// the condition calls: the branch's literals that read as messages (not
// a nested if's, not a function literal's, not a short one), and the
// package's functions and methods the condition calls, each once (not
// another package's).
func TestMessagesAndCallees(t *testing.T) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", messagesSrc, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	info := &types.Info{Uses: map[*ast.Ident]types.Object{}}
	pkg, err := (&types.Config{Importer: importer.ForCompiler(fset, "source", nil)}).Check("p", fset, []*ast.File{f}, info)
	if err != nil {
		t.Fatal(err)
	}
	var ifs []*ast.IfStmt
	ast.Inspect(f, func(n ast.Node) bool {
		if s, ok := n.(*ast.IfStmt); ok {
			ifs = append(ifs, s)
		}
		return true
	})
	line := func(name string) int {
		return fset.Position(pkg.Scope().Lookup(name).Pos()).Line
	}
	isStrict, _, _ := types.LookupFieldOrMethod(types.NewPointer(pkg.Scope().Lookup("parser").Type()), true, pkg, "isStrict")
	for _, tt := range []struct {
		n        int
		messages []string
		callees  []int
	}{
		{1, []string{"number %q: cannot have leading zeroes"}, []int{line("leadingZero"), fset.Position(isStrict.Pos()).Line}},
		{2, nil, nil},
		{3, []string{"the literal x is not a number (100%% sure)"}, nil},
		{4, []string{"x is not a number in strict mode"}, nil},
		{5, nil, nil},
	} {
		s := ifs[tt.n-1]
		if got := branchMessages(s.Body); !slices.Equal(got, tt.messages) {
			t.Errorf("if %d: messages %q, want %q", tt.n, got, tt.messages)
		}
		var lines []int
		for _, c := range condCallees(s.Cond, info, fset, pkg) {
			if c.File != "p.go" {
				t.Errorf("if %d: callee in %s, want p.go", tt.n, c.File)
			}
			lines = append(lines, c.Line)
		}
		if !slices.Equal(lines, tt.callees) {
			t.Errorf("if %d: callees at lines %v, want %v", tt.n, lines, tt.callees)
		}
	}
}

// TestMessagePattern checks that a message matches what printing it
// with any arguments writes, on one line.
func TestMessagePattern(t *testing.T) {
	for _, tt := range []struct {
		message, output string
		want            bool
	}{
		{"number %q: cannot have leading zeroes", `toml: line 8: number "0xDEAD": cannot have leading zeroes`, true},
		{"number %q: cannot have leading zeroes", "number \"0xDEAD\"\n: cannot have leading zeroes", false},
		{"number %-8.3f is too large", "number 1.500    is too large", true},
		{"100%% sure: %v", "100% sure: yes", true},
		{"100%% sure: %v", "100 sure: yes", false},
		{"a (b) [c] * d", "a (b) [c] * d", true},
		{"a (b) [c] * d", "a b c d", false},
	} {
		if got := MessagePattern(tt.message).MatchString(tt.output); got != tt.want {
			t.Errorf("MessagePattern(%q) matches %q: %v, want %v", tt.message, tt.output, got, tt.want)
		}
	}
}
