package purify

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"github.com/nopol-go/nopol/internal/txtartest"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
)

// TestAnalyze classifies the hand-made signatures of each testdata/purity
// archive and compares the table and the classes with the golden sections;
// the expected values were worked out by hand from the definitions.
var update = flag.Bool("update", false, "rewrite the golden sections of testdata")

func TestAnalyze(t *testing.T) {
	txtartest.EachArchive(t, "purity", func(t *testing.T, file string, ar *txtar.Archive) {
		var sigs []Signature
		for _, line := range lines(txtartest.Section(t, ar, "signatures")) {
			var s Signature
			if _, err := fmt.Sscan(line, &s.Package, &s.Test, &s.Site, &s.Segment, &s.Iteration, &s.Then, &s.Else); err != nil {
				t.Fatalf("signature %q: %v", line, err)
			}
			sigs = append(sigs, s)
		}
		var tests []TestID
		for _, line := range lines(txtartest.Section(t, ar, "tests")) {
			var id TestID
			if _, err := fmt.Sscan(line, &id.Package, &id.Test); err != nil {
				t.Fatalf("test %q: %v", line, err)
			}
			tests = append(tests, id)
		}
		r := Analyze(sigs, tests)
		var table, classes bytes.Buffer
		if err := r.WriteText(&table); err != nil {
			t.Fatal(err)
		}
		for _, tp := range r.Tests {
			fmt.Fprintf(&classes, "%s %s %s impure=%v absolute=%v\n", tp.Package, tp.Test, tp.Class, tp.Impure, tp.Absolute)
		}
		for _, sp := range r.Sites {
			fmt.Fprintf(&classes, "site %d: tests=%d pure=%d impure=%d absolute=%d before=%v after=%v\n",
				sp.Site, sp.Tests, sp.Pure, sp.Impure, sp.Absolute, sp.PureBefore, sp.PureAfter)
		}
		txtartest.Golden(t, file, ar, map[string][]byte{"table": table.Bytes(), "classes": classes.Bytes()}, *update)

		// The JSON form carries the same report.
		var js bytes.Buffer
		if err := r.WriteJSON(&js); err != nil {
			t.Fatal(err)
		}
		var back struct {
			Total Row `json:"total"`
		}
		if err := json.Unmarshal(js.Bytes(), &back); err != nil {
			t.Fatal(err)
		}
		if back.Total != r.Total {
			t.Errorf("JSON total = %+v, want %+v", back.Total, r.Total)
		}
	})
}

func TestAnalyzeDeterministic(t *testing.T) {
	sigs := []Signature{
		{Package: "p", Test: "TestA", Site: 3, Then: 1, Else: 1},
		{Package: "p", Test: "TestB", Site: 1, Segment: 0, Then: 1},
		{Package: "p", Test: "TestB", Site: 1, Segment: 1, Else: 1},
		{Package: "q", Test: "TestA", Site: 2, Then: 1},
	}
	first := ""
	for i := 0; i < 20; i++ {
		var b bytes.Buffer
		if err := Analyze(sigs, nil).WriteJSON(&b); err != nil {
			t.Fatal(err)
		}
		if i == 0 {
			first = b.String()
		} else if b.String() != first {
			t.Fatalf("run %d differs:\n%s\nfirst:\n%s", i, b.String(), first)
		}
	}
}

// lines returns the non-empty lines of data.
func lines(data []byte) []string {
	var out []string
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		if l := strings.TrimSpace(sc.Text()); l != "" {
			out = append(out, l)
		}
	}
	return out
}

func TestReaching(t *testing.T) {
	sigs := []Signature{
		{Package: "p", Test: "TestA", Site: 1, Segment: 2, Iteration: 1, Else: 1},
		{Package: "p", Test: "TestA", Site: 1, Segment: 0, Then: 2},
		{Package: "p", Test: "TestA", Site: 2, Segment: 0, Then: 1},
		{Package: "p", Test: "TestA", Site: 1, Segment: 1},
		{Package: "q", Test: "TestA", Site: 1, Segment: 0, Then: 1},
		{Package: "p", Test: "TestB", Site: 1, Segment: 0, Then: 1},
		{Package: "p", Test: "TestA", Site: 1, Segment: 2, Iteration: 0, Then: 1},
	}
	var got []string
	for _, s := range Reaching(sigs, "p", "TestA", 1) {
		got = append(got, fmt.Sprintf("%d.%d:%d/%d", s.Segment, s.Iteration, s.Then, s.Else))
	}
	if want := "[0.0:2/0 2.0:1/0 2.1:0/1]"; fmt.Sprint(got) != want {
		t.Errorf("Reaching = %v, want %s", got, want)
	}
}
