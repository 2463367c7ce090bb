package constituent

import (
	"bytes"
	"flag"
	"fmt"
	"github.com/nopol-go/nopol/internal/txtartest"
	"go/token"
	"slices"
	"strings"
	"testing"

	"github.com/dave/dst"
	"github.com/dave/dst/decorator"
	"github.com/rogpeppe/go-internal/txtar"
)

var update = flag.Bool("update", false, "rewrite the golden sections of testdata")

// TestMark marks the test file of each testdata/mark archive and compares
// the result and the constituents with the archive's golden sections
// "marked" and "constituents".
func TestMark(t *testing.T) {
	txtartest.EachArchive(t, "mark", func(t *testing.T, file string, ar *txtar.Archive) {
		src := txtartest.Section(t, ar, "abs_test.go")
		qual := strings.TrimSpace(string(txtartest.Section(t, ar, "qualifier")))
		dec := decorator.NewDecorator(token.NewFileSet())
		f, err := dec.ParseFile("abs_test.go", src, 0)
		if err != nil {
			t.Fatal(err)
		}
		// Section "maps" lists "variable keytype" for the table loops
		// over maps (the caller knows types; this test does not).
		maps := map[string]string{}
		if i := slices.IndexFunc(ar.Files, func(f txtar.File) bool { return f.Name == "maps" }); i >= 0 {
			for _, l := range strings.Split(strings.TrimSpace(string(ar.Files[i].Data)), "\n") {
				if v, k, ok := strings.Cut(l, " "); ok {
					maps[v] = k
				}
			}
		}
		keyType := func(x dst.Expr) string {
			if id, ok := x.(*dst.Ident); ok {
				return maps[id.Name]
			}
			return ""
		}
		cons := Mark(dec, f, qual, keyType)
		var out bytes.Buffer
		if err := decorator.NewRestorer().Fprint(&out, f); err != nil {
			t.Fatal(err)
		}
		var cs bytes.Buffer
		for _, c := range cons {
			fmt.Fprintf(&cs, "%s seg=%d loop=%v %s:%d-%d\n", c.Test, c.Segment, c.Loop, c.File, c.StartLine, c.EndLine)
		}
		txtartest.Golden(t, file, ar, map[string][]byte{"marked": out.Bytes(), "constituents": cs.Bytes()}, *update)
	})
}
