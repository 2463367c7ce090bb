package report

import (
	"encoding/json"
	"io"

	"github.com/nopol-go/nopol"
)

// reviewdog's Diagnostic Format (rdjsonl: one JSON diagnostic per line),
// read by `reviewdog -f=rdjsonl`; a patch is a diagnostic with one
// suggestion, which the github-pr-review reporter posts as a
// ```suggestion block. Positions are 1-based, columns in bytes, ranges
// end-exclusive.

type rdDiagnostic struct {
	Message     string         `json:"message"`
	Location    rdLocation     `json:"location"`
	Severity    string         `json:"severity"`
	Source      rdSource       `json:"source"`
	Code        *rdCode        `json:"code,omitempty"`
	Suggestions []rdSuggestion `json:"suggestions,omitempty"`
}

type rdLocation struct {
	Path  string  `json:"path"`
	Range rdRange `json:"range"`
}

type rdRange struct {
	Start rdPosition  `json:"start"`
	End   *rdPosition `json:"end,omitempty"`
}

type rdPosition struct {
	Line   int `json:"line"`
	Column int `json:"column,omitempty"`
}

type rdSource struct {
	Name string `json:"name"`
	URL  string `json:"url"`
}

type rdCode struct {
	Value string `json:"value"`
}

type rdSuggestion struct {
	Range rdRange `json:"range"`
	Text  string  `json:"text"`
}

func writeRDJSONL(w io.Writer, res *nopol.Result) error {
	var diags []rdDiagnostic
	src := rdSource{Name: "nopol", URL: "https://github.com/nopol-go/nopol"}
	switch {
	case res != nil && res.Patched && res.Edit != nil:
		e := res.Edit
		// The suggestion replaces the text of the edited lines, from the
		// first one's start to the last one's end before its newline.
		lines := rdRange{Start: rdPosition{Line: e.StartLine, Column: 1}, End: &rdPosition{Line: e.EndLine, Column: e.EndCol}}
		diags = append(diags, rdDiagnostic{Message: message(res), Location: rdLocation{Path: e.File, Range: lines},
			Severity: "WARNING", Source: src, Code: &rdCode{Value: rulePatch},
			Suggestions: []rdSuggestion{{Range: lines, Text: withoutNewline(e.New)}}})
	case res != nil:
		for _, s := range hints(res) {
			diags = append(diags, rdDiagnostic{Message: hintText(s, res.Reason), Severity: "INFO", Source: src, Code: &rdCode{Value: ruleSuspicious},
				Location: rdLocation{Path: s.File, Range: rdRange{Start: rdPosition{Line: s.Line, Column: s.Col}}}})
		}
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	for _, d := range diags {
		if err := enc.Encode(d); err != nil {
			return err
		}
	}
	return nil
}
