// Package report renders a repair result (nopol.Result) in the formats
// nopol fix prints with -format: a unified diff (diff, the default), the
// result as JSON (json), SARIF 2.1.0 (sarif), reviewdog's diagnostics
// (rdjsonl) and the Markdown body of one GitHub review comment with a
// suggestion block (github).
//
// A patch is rendered from its Edit (the whole lines it replaces); without
// a patch, SARIF, rdjsonl and github still report the most suspicious
// sites as a hint, with severity note. Every format but json is
// deterministic: the same result gives the same bytes (no times, no
// absolute paths).
package report
