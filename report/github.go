package report

import (
	"fmt"
	"io"
	"strings"

	"github.com/nopol-go/nopol"
)

// The Markdown body of one GitHub pull-request review comment. Its first
// line, an HTML comment GitHub does not render, says where the comment
// goes (path and line range, as the review API's path, start_line and
// line); then the summary, a ```suggestion block with the new text of
// those lines, and the explanation.

func writeGitHub(w io.Writer, res *nopol.Result) error {
	var b strings.Builder
	switch {
	case res != nil && res.Patched && res.Edit != nil:
		e := res.Edit
		fmt.Fprintf(&b, "<!-- nopol: %s:%d-%d -->\n", e.File, e.StartLine, e.EndLine)
		fmt.Fprintf(&b, "%s.\n\n", summary(res))
		fence := "```"
		for strings.Contains(e.New, fence) {
			fence += "`"
		}
		fmt.Fprintf(&b, "%ssuggestion\n%s\n%s\n", fence, withoutNewline(e.New), fence)
		if res.Explanation != nil {
			b.WriteString("\n<details><summary>Why this patch (confidence " + res.Explanation.Confidence + ")</summary>\n\n")
			for _, line := range strings.Split(strings.TrimSuffix(res.Explanation.String(), "\n"), "\n") {
				fmt.Fprintf(&b, "- %s\n", mdEscape(line))
			}
			b.WriteString("\n</details>\n")
		}
	case res != nil:
		fmt.Fprintf(&b, "nopol found no patch: %s.\n", mdEscape(res.Reason))
		if hs := hints(res); len(hs) > 0 {
			b.WriteString("\nThe most suspicious sites:\n\n")
			for _, s := range hs {
				fmt.Fprintf(&b, "- %s:%d `%s` (score %.2f)\n", s.File, s.Line, oneLine(s.Original), s.Score)
			}
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// mdEscape keeps text from being read as Markdown or HTML; code between
// backquotes stays as it is (escapes would show there).
func mdEscape(s string) string {
	r := strings.NewReplacer("<", "&lt;", ">", "&gt;", "*", "\\*", "_", "\\_")
	parts := strings.Split(s, "`")
	for i := 0; i < len(parts); i += 2 {
		parts[i] = r.Replace(parts[i])
	}
	return strings.Join(parts, "`")
}
