package report

import (
	"encoding/json"
	"io"
	"strings"

	"github.com/nopol-go/nopol"
)

// SARIF 2.1.0 (OASIS): one run of the tool nopol; a result per patched
// site with its fix, or a note per suspicious site when there is no patch.
// Paths are relative to the module root (uriBaseId SRCROOT).

type sarifLog struct {
	Version string     `json:"version"`
	Schema  string     `json:"$schema"`
	Runs    []sarifRun `json:"runs"`
}

type sarifRun struct {
	Tool    sarifTool     `json:"tool"`
	Results []sarifResult `json:"results"`
}

type sarifTool struct {
	Driver sarifDriver `json:"driver"`
}

type sarifDriver struct {
	Name           string      `json:"name"`
	InformationURI string      `json:"informationUri"`
	Version        string      `json:"version,omitempty"`
	Rules          []sarifRule `json:"rules"`
}

type sarifRule struct {
	ID               string       `json:"id"`
	ShortDescription sarifMessage `json:"shortDescription"`
}

type sarifMessage struct {
	Text string `json:"text"`
}

type sarifResult struct {
	RuleID           string          `json:"ruleId"`
	Level            string          `json:"level"`
	Message          sarifMessage    `json:"message"`
	Locations        []sarifLocation `json:"locations"`
	RelatedLocations []sarifLocation `json:"relatedLocations,omitempty"`
	Fixes            []sarifFix      `json:"fixes,omitempty"`
}

type sarifLocation struct {
	ID               *int                   `json:"id,omitempty"`
	Message          *sarifMessage          `json:"message,omitempty"`
	PhysicalLocation *sarifPhysical         `json:"physicalLocation,omitempty"`
	LogicalLocations []sarifLogicalLocation `json:"logicalLocations,omitempty"`
}

type sarifPhysical struct {
	ArtifactLocation sarifArtifact `json:"artifactLocation"`
	Region           *sarifRegion  `json:"region,omitempty"`
}

type sarifArtifact struct {
	URI       string `json:"uri"`
	URIBaseID string `json:"uriBaseId"`
}

type sarifRegion struct {
	StartLine   int  `json:"startLine"`
	StartColumn int  `json:"startColumn,omitempty"`
	EndLine     int  `json:"endLine,omitempty"`
	EndColumn   int  `json:"endColumn,omitempty"`
	ByteOffset  *int `json:"byteOffset,omitempty"`
	ByteLength  *int `json:"byteLength,omitempty"`
}

type sarifLogicalLocation struct {
	Name               string `json:"name"`
	FullyQualifiedName string `json:"fullyQualifiedName"`
	Kind               string `json:"kind"`
}

type sarifFix struct {
	Description     sarifMessage          `json:"description"`
	ArtifactChanges []sarifArtifactChange `json:"artifactChanges"`
}

type sarifArtifactChange struct {
	ArtifactLocation sarifArtifact      `json:"artifactLocation"`
	Replacements     []sarifReplacement `json:"replacements"`
}

type sarifReplacement struct {
	DeletedRegion   sarifRegion   `json:"deletedRegion"`
	InsertedContent *sarifMessage `json:"insertedContent,omitempty"`
}

// The rules of nopol's results.
const (
	rulePatch      = "nopol/patch"
	ruleSuspicious = "nopol/suspicious"
)

func writeSARIF(w io.Writer, res *nopol.Result, opts Options) error {
	run := sarifRun{
		Tool: sarifTool{Driver: sarifDriver{Name: "nopol", InformationURI: "https://github.com/nopol-go/nopol", Version: opts.ToolVersion,
			Rules: []sarifRule{
				{ID: rulePatch, ShortDescription: sarifMessage{"A condition changed or a guard added makes the failing tests pass; the whole suite passes with it."}},
				{ID: ruleSuspicious, ShortDescription: sarifMessage{"No patch was found; this site is among the most suspicious."}},
			}}},
		Results: []sarifResult{},
	}
	switch {
	case res != nil && res.Patched && res.Edit != nil:
		e := res.Edit
		r := sarifResult{RuleID: rulePatch, Level: "warning", Message: sarifMessage{message(res)},
			Locations: []sarifLocation{{PhysicalLocation: &sarifPhysical{ArtifactLocation: artifact(e.File),
				Region: &sarifRegion{StartLine: res.Site.Line, StartColumn: res.Site.Col}}}}}
		for i, t := range res.Tests {
			if !t.Repaired {
				continue
			}
			id := i
			loc := sarifLocation{ID: &id,
				Message:          &sarifMessage{t.Name + " fails without the patch and passes with it"},
				LogicalLocations: []sarifLogicalLocation{{Name: t.Name, FullyQualifiedName: t.Package + "." + t.Name, Kind: "function"}}}
			if t.File == "" {
				// reviewdog (v0.21.0) needs a physical location in
				// every related location: a test without one is left
				// out.
				continue
			}
			loc.PhysicalLocation = &sarifPhysical{ArtifactLocation: artifact(t.File), Region: &sarifRegion{StartLine: t.Line}}
			r.RelatedLocations = append(r.RelatedLocations, loc)
		}
		// The deleted region ends before the last line's newline, which
		// stays: the inserted text has no final newline.
		off, n := e.StartByte, e.EndByte-e.StartByte-trailingNewline(e.Old)
		r.Fixes = []sarifFix{{Description: sarifMessage{summary(res)}, ArtifactChanges: []sarifArtifactChange{{
			ArtifactLocation: artifact(e.File),
			Replacements: []sarifReplacement{{
				DeletedRegion:   sarifRegion{StartLine: e.StartLine, StartColumn: 1, EndLine: e.EndLine, EndColumn: e.EndCol, ByteOffset: &off, ByteLength: &n},
				InsertedContent: &sarifMessage{withoutNewline(e.New)},
			}},
		}}}}
		run.Results = append(run.Results, r)
	case res != nil:
		for _, s := range hints(res) {
			run.Results = append(run.Results, sarifResult{RuleID: ruleSuspicious, Level: "note", Message: sarifMessage{hintText(s, res.Reason)},
				Locations: []sarifLocation{{PhysicalLocation: &sarifPhysical{ArtifactLocation: artifact(s.File),
					Region: &sarifRegion{StartLine: s.Line, StartColumn: s.Col}}}}})
		}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(sarifLog{Version: "2.1.0", Schema: "https://json.schemastore.org/sarif-2.1.0.json", Runs: []sarifRun{run}})
}

func artifact(file string) sarifArtifact {
	return sarifArtifact{URI: file, URIBaseID: "SRCROOT"}
}

// trailingNewline is the length of s's final newline ("\n" or "\r\n").
func trailingNewline(s string) int {
	switch {
	case strings.HasSuffix(s, "\r\n"):
		return 2
	case strings.HasSuffix(s, "\n"):
		return 1
	}
	return 0
}

// withoutNewline is s without its final newline.
func withoutNewline(s string) string { return s[:len(s)-trailingNewline(s)] }
