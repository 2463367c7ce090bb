package tokens

import (
	"go/token"
	"strconv"
	"strings"
	"testing"
)

func TestScan(t *testing.T) {
	for _, tc := range []struct {
		src  string
		want string // text@offset, space-separated
		ok   bool
	}{
		{"vi.Low <= 0", "vi@0 .@2 Low@3 <=@7 0@10", true},
		{"return f(\"a b\")\n", `return@0 f@7 (@8 "a b"@9 )@14`, true},
		{`x == "open`, `x@0 ==@2 "open@5`, false},
		{"", "", true},
	} {
		toks, ok := Scan(tc.src)
		var got []string
		for _, t := range toks {
			got = append(got, t.Text+"@"+strconv.Itoa(t.Off))
		}
		if strings.Join(got, " ") != tc.want || ok != tc.ok {
			t.Errorf("Scan(%q) = %q, %v; want %q, %v", tc.src, strings.Join(got, " "), ok, tc.want, tc.ok)
		}
	}
	if toks, _ := Scan("a.b"); toks[1].Tok != token.PERIOD || toks[0].Tok != token.IDENT {
		t.Errorf("kinds: %v", toks)
	}
}
