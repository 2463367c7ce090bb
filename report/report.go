package report

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"

	"github.com/nopol-go/nopol"
)

// The formats, as -format names them.
const (
	Diff    = "diff"
	JSON    = "json"
	SARIF   = "sarif"
	RDJSONL = "rdjsonl"
	GitHub  = "github"
)

// Formats lists the formats, the default first.
var Formats = []string{Diff, JSON, SARIF, RDJSONL, GitHub}

// Options are what a report says beyond the result.
type Options struct {
	// ToolVersion is nopol's version, for SARIF's driver ("" leaves it
	// out).
	ToolVersion string
	// Error is the error of a run that ended with exit status 2 or 3, for
	// the json format.
	Error *Error
}

// Write renders res in format; res may be nil after an error (json only).
func Write(w io.Writer, format string, res *nopol.Result, opts Options) error {
	switch format {
	case Diff:
		if res != nil && res.Patched {
			_, err := io.WriteString(w, res.Diff)
			return err
		}
		return nil
	case JSON:
		return writeJSON(w, res, opts.Error)
	case SARIF:
		return writeSARIF(w, res, opts)
	case RDJSONL:
		return writeRDJSONL(w, res)
	case GitHub:
		return writeGitHub(w, res)
	}
	return fmt.Errorf("unknown format %q (want %s)", format, strings.Join(Formats, ", "))
}

// SchemaVersion is the version of the json format: it changes when a
// field changes meaning or goes away.
const SchemaVersion = 2

// Error is the error of a run that ended with exit status 2 or 3.
type Error struct {
	// ExitCode is the exit status; Kind "input" (2), "environment",
	// "interrupted" or "internal" (3).
	ExitCode int    `json:"exit_code"`
	Kind     string `json:"kind"`
	Message  string `json:"message"`
}

// writeJSON prints res, with the schema version, the total time and the
// error, if any.
func writeJSON(w io.Writer, res *nopol.Result, jerr *Error) error {
	if res == nil {
		res = &nopol.Result{}
	}
	res.FillLists()
	out := struct {
		SchemaVersion int `json:"schema_version"`
		*nopol.Result
		TotalMS float64 `json:"total_ms"`
		Error   *Error  `json:"error,omitempty"`
	}{SchemaVersion, res, float64(res.Total.Microseconds()) / 1000, jerr}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(out)
}

// maxHints bounds the suspicious sites reported when there is no patch.
const maxHints = 3

// hints are the most suspicious distinct sites searched, for a result
// without a patch: highest score first, then in search order.
func hints(res *nopol.Result) []nopol.SiteReport {
	if res == nil {
		return nil
	}
	var out []nopol.SiteReport
	for _, s := range res.Sites {
		if !slices.ContainsFunc(out, func(o nopol.SiteReport) bool { return o.ID == s.ID }) {
			out = append(out, s)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Score > out[j].Score })
	return out[:min(len(out), maxHints)]
}

// hintText is the message of a suspicious site.
func hintText(s nopol.SiteReport, reason string) string {
	return fmt.Sprintf("nopol found no patch (%s); this %s is among the most suspicious (score %.2f): `%s`", reason, kindWord(s.Kind), s.Score, oneLine(s.Original))
}

func kindWord(kind string) string {
	if kind == "guard" {
		return "statement"
	}
	return "condition"
}

// summary is the first line of a patch's message.
func summary(res *nopol.Result) string {
	what := fmt.Sprintf("`%s` → `%s`", oneLine(res.Site.Original), res.Condition)
	switch res.Style {
	case "guard":
		what = fmt.Sprintf("wrap `%s` in `if %s`", oneLine(res.Site.Original), res.Condition)
	case "return", "replace":
		what = fmt.Sprintf("before `%s`, `if %s { %s }`", oneLine(res.Site.Original), res.Condition, res.Exit)
	}
	return fmt.Sprintf("nopol: %s makes %s pass", what, strings.Join(repaired(res), ", "))
}

// message is a patch's explanation as text: the summary, then the
// explanation's lines.
func message(res *nopol.Result) string {
	msg := summary(res)
	if res.Explanation != nil {
		msg += "\n" + res.Explanation.String()
	}
	return strings.TrimSuffix(msg, "\n")
}

// repaired are the names of the failing tests the patch repairs.
func repaired(res *nopol.Result) []string {
	var out []string
	for _, t := range res.Tests {
		if t.Repaired {
			out = append(out, t.Name)
		}
	}
	return out
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
