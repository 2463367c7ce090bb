package report

import (
	"bytes"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/nopol-go/nopol"
	"github.com/pb33f/jsonschema/v6"
)

const (
	oldSrc = "package m\n\nfunc f(x int) int {\n\tif x > 0 {\n\t\treturn 1\n\t}\n\treturn 0\n}\n"
	newSrc = "package m\n\nfunc f(x int) int {\n\tif x >= 0 {\n\t\treturn 1\n\t}\n\treturn 0\n}\n"
)

// patched is a result with a patch of line 4 of m.go.
func patched() *nopol.Result {
	site := &nopol.SiteReport{ID: 0, Kind: "cond", File: "m.go", Line: 4, Col: 5, Func: "f", Original: "x > 0", Score: 1, Style: "cond", Method: "synthesis", Outcome: "patched"}
	return &nopol.Result{Module: "example.com/m", Patched: true, Site: site, Style: "cond", Condition: "x >= 0", File: "m.go",
		Diff: "--- a/m.go\n+++ b/m.go\n", Source: []byte(newSrc),
		Edit:        &nopol.Edit{File: "m.go", StartLine: 4, EndLine: 4, StartByte: 31, EndByte: 43, EndCol: 12, Old: "\tif x > 0 {\n", New: "\tif x >= 0 {\n"},
		Explanation: &nopol.Explanation{Repaired: []string{"TestZero"}, Needs: []string{"TestZero=true"}, Origin: "synthesized from the recorded states", Confidence: "high", Reasons: []string{"close to the original condition"}},
		Tests:       []nopol.TestReport{{Package: "example.com/m", Name: "TestZero", Repaired: true, File: "m_test.go", Line: 5}, {Package: "example.com/m", Name: "TestOne", Passed: true}},
		Sites:       []nopol.SiteReport{*site}}
}

// unpatched is a result without a patch, after searching two sites.
func unpatched() *nopol.Result {
	return &nopol.Result{Module: "example.com/m", Reason: "no patch at the 2 most suspicious sites",
		Sites: []nopol.SiteReport{
			{ID: 3, Kind: "guard", File: "m.go", Line: 7, Col: 2, Original: "return 0", Score: 0.5},
			{ID: 0, Kind: "cond", File: "m.go", Line: 4, Col: 5, Original: "x > 0", Score: 0.7},
			{ID: 0, Kind: "cond", File: "m.go", Line: 4, Col: 5, Original: "x > 0", Score: 0.7, Method: "mutation"},
		}}
}

func render(t *testing.T, format string, res *nopol.Result) string {
	t.Helper()
	var b bytes.Buffer
	if err := Write(&b, format, res, Options{ToolVersion: "v0.0.0-test"}); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// TestSARIFSchema validates the SARIF output, with and without a patch,
// against the SARIF 2.1.0 schema, and applies its fix.
func TestSARIFSchema(t *testing.T) {
	f, err := os.Open("testdata/sarif-2.1.0.json")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	doc, err := jsonschema.UnmarshalJSON(f)
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("sarif.json", doc); err != nil {
		t.Fatal(err)
	}
	schema, err := c.Compile("sarif.json")
	if err != nil {
		t.Fatal(err)
	}
	for name, res := range map[string]*nopol.Result{"patched": patched(), "unpatched": unpatched()} {
		out := render(t, SARIF, res)
		v, err := jsonschema.UnmarshalJSON(strings.NewReader(out))
		if err != nil {
			t.Fatal(err)
		}
		if err := schema.Validate(v); err != nil {
			t.Errorf("%s: the SARIF output does not validate: %v\n%s", name, err, out)
		}
	}
	// The schema rejects what is not SARIF 2.1.0.
	bad, _ := jsonschema.UnmarshalJSON(strings.NewReader(`{"version": "2.0.0", "runs": [{"tool": {"driver": {}}}]}`))
	if schema.Validate(bad) == nil {
		t.Error("the schema accepts a log of version 2.0.0 without a driver name")
	}
	var log sarifLog
	if err := json.Unmarshal([]byte(render(t, SARIF, patched())), &log); err != nil {
		t.Fatal(err)
	}
	r := log.Runs[0].Results[0]
	rep := r.Fixes[0].ArtifactChanges[0].Replacements[0]
	off, n := *rep.DeletedRegion.ByteOffset, *rep.DeletedRegion.ByteLength
	if got := oldSrc[:off] + rep.InsertedContent.Text + oldSrc[off+n:]; got != newSrc {
		t.Errorf("the SARIF fix gives %q, want %q", got, newSrc)
	}
	if r.Level != "warning" || len(r.RelatedLocations) != 1 || r.RelatedLocations[0].LogicalLocations[0].Name != "TestZero" {
		t.Errorf("result %+v", r)
	}
	if err := json.Unmarshal([]byte(render(t, SARIF, unpatched())), &log); err != nil {
		t.Fatal(err)
	}
	if rs := log.Runs[0].Results; len(rs) != 2 || rs[0].Level != "note" || rs[0].Locations[0].PhysicalLocation.Region.StartLine != 4 {
		t.Errorf("hints %+v", rs)
	}
}

// TestRDJSONL applies the suggestion by its range, as reviewdog does.
func TestRDJSONL(t *testing.T) {
	var d rdDiagnostic
	if err := json.Unmarshal([]byte(render(t, RDJSONL, patched())), &d); err != nil {
		t.Fatal(err)
	}
	s := d.Suggestions[0]
	lines := strings.SplitAfter(oldSrc, "\n")
	start := len(strings.Join(lines[:s.Range.Start.Line-1], "")) + s.Range.Start.Column - 1
	end := len(strings.Join(lines[:s.Range.End.Line-1], "")) + s.Range.End.Column - 1
	if got := oldSrc[:start] + s.Text + oldSrc[end:]; got != newSrc {
		t.Errorf("the suggestion gives %q, want %q", got, newSrc)
	}
	if d.Severity != "WARNING" || d.Location.Path != "m.go" || !strings.Contains(d.Message, "TestZero") {
		t.Errorf("diagnostic %+v", d)
	}
	hs := strings.Split(strings.TrimSpace(render(t, RDJSONL, unpatched())), "\n")
	if len(hs) != 2 || !strings.Contains(hs[0], `"severity":"INFO"`) || !strings.Contains(hs[0], "x > 0") {
		t.Errorf("hints:\n%s", strings.Join(hs, "\n"))
	}
}

func TestGitHub(t *testing.T) {
	out := render(t, GitHub, patched())
	for _, want := range []string{"<!-- nopol: m.go:4-4 -->\n", "```suggestion\n\tif x >= 0 {\n```\n", "TestZero", "confidence high"} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in:\n%s", want, out)
		}
	}
	if out := render(t, GitHub, unpatched()); !strings.Contains(out, "- m.go:4 `x > 0` (score 0.70)\n- m.go:7 `return 0`") {
		t.Errorf("hints:\n%s", out)
	}
	if mdEscape("a <b> `x < y` *c*") != "a &lt;b&gt; `x < y` \\*c\\*" {
		t.Errorf("mdEscape: %q", mdEscape("a <b> `x < y` *c*"))
	}
}

func TestWriteUnknownFormat(t *testing.T) {
	if err := Write(&bytes.Buffer{}, "xml", patched(), Options{}); err == nil {
		t.Error("no error for an unknown format")
	}
	if out := render(t, Diff, unpatched()); out != "" {
		t.Errorf("a diff without a patch: %q", out)
	}
}
