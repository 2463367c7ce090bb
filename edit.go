package nopol

import (
	"bytes"
	"strings"

	"github.com/nopol-go/nopol/internal/diff"
)

// Edit is a patch as a replacement of whole lines of one file: what a
// review comment's suggestion, a SARIF fix or an editor action needs.
type Edit struct {
	// File is the patched file, slash-separated and relative to the
	// module root.
	File string `json:"file"`
	// StartLine and EndLine are the first and last lines replaced (from
	// 1, inclusive); StartByte and EndByte the byte range of those lines
	// in the original file, newline of the last one included.
	StartLine int `json:"start_line"`
	EndLine   int `json:"end_line"`
	StartByte int `json:"start_byte"`
	EndByte   int `json:"end_byte"`
	// EndCol is the column (from 1, in bytes) just after the last
	// replaced line's text, before its newline.
	EndCol int `json:"end_col"`
	// Old is the text of the replaced lines and New the text that
	// replaces them, both with their final newlines.
	Old string `json:"old"`
	New string `json:"new"`
}

// lineEdit computes the Edit that turns old into new: the lines between
// their common first and last lines. A pure insertion (a guard added
// before a statement) is widened to the line after it (the statement), or
// the line before it at the end of the file, so that the edit replaces at
// least one line. It returns false when old and new are equal.
func lineEdit(file string, old, new []byte) (Edit, bool) {
	a, b := diff.Lines(string(old)), diff.Lines(string(new))
	pre, suf := diff.CommonEnds(a, b)
	if pre == len(a) && pre == len(b) {
		return Edit{}, false
	}
	if pre+suf == len(a) { // nothing replaced: take a neighbouring line
		if suf > 0 {
			suf--
		} else if pre > 0 {
			pre--
		} else {
			return Edit{}, false // both empty
		}
	}
	e := Edit{File: file, StartLine: pre + 1, EndLine: len(a) - suf}
	for _, l := range a[:pre] {
		e.StartByte += len(l)
	}
	e.Old = strings.Join(a[pre:len(a)-suf], "")
	e.EndByte = e.StartByte + len(e.Old)
	e.New = strings.Join(b[pre:len(b)-suf], "")
	last := a[len(a)-suf-1]
	e.EndCol = len(bytes.TrimRight([]byte(last), "\r\n")) + 1
	return e, true
}
