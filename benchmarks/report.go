package benchmarks

import (
	"bufio"
	"bytes"
	"cmp"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// ReadResults reads the results-*.jsonl files of dir; a later line for the
// same tool and bug replaces an earlier one.
func ReadResults(dir string) ([]*Result, error) {
	files, _ := filepath.Glob(filepath.Join(dir, "results-*.jsonl"))
	sort.Strings(files)
	out, err := readLastLines(files, func(r *Result) string { return r.Tool + "\x00" + r.Bug })
	if err != nil {
		return nil, err
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Bug != out[j].Bug {
			return out[i].Bug < out[j].Bug
		}
		return out[i].Tool < out[j].Tool
	})
	return out, nil
}

// readLastLines decodes the JSON lines of files, in order, keeping the
// last value for each key.
func readLastLines[T any](files []string, key func(*T) string) ([]*T, error) {
	byKey := map[string]*T{}
	for _, file := range files {
		f, err := os.Open(file)
		if err != nil {
			return nil, err
		}
		sc := bufio.NewScanner(f)
		sc.Buffer(make([]byte, 1<<20), 16<<20)
		for sc.Scan() {
			if len(bytes.TrimSpace(sc.Bytes())) == 0 {
				continue
			}
			v := new(T)
			if err := json.Unmarshal(sc.Bytes(), v); err != nil {
				f.Close()
				return nil, fmt.Errorf("reading %s: %v", file, err)
			}
			byKey[key(v)] = v
		}
		err = sc.Err()
		f.Close()
		if err != nil {
			return nil, fmt.Errorf("reading %s: %v", file, err)
		}
	}
	out := make([]*T, 0, len(byKey))
	for _, v := range byKey {
		out = append(out, v)
	}
	return out, nil
}

// Summary counts the results of one tool.
type Summary struct {
	Tool                              string
	Bugs, Patched, Plausible, Correct int
	// CorrectIdentical, CorrectEquivalent and CorrectAudited count the
	// correct patches by judgement; StatesOnly the plausible patches
	// that agree with the developer's condition on the suite's states
	// only, not counted correct (see decide).
	CorrectIdentical, CorrectEquivalent, CorrectAudited, StatesOnly int
	Fails                                                           int
	// MedianSeconds is the median repair time of the plausible patches;
	// BugMedianSeconds and BugP95Seconds the median and 95th percentile of
	// the repair time over every bug, patched or not.
	MedianSeconds, BugMedianSeconds, BugP95Seconds float64
	// PatchedRatio and UnpatchedRatio are the median repair times, in
	// units of one plain 'go test' of the bug's package (GoTestRatio), of
	// the bugs patched and not patched; 0 when no bug of the kind has the
	// measure.
	PatchedRatio, UnpatchedRatio float64
}

// Summarize counts results per tool, tools sorted.
func Summarize(results []*Result) []Summary {
	by := map[string]*Summary{}
	times := map[string][]float64{}
	all := map[string][]float64{}
	ratios := map[string]map[bool][]float64{}
	for _, r := range results {
		all[r.Tool] = append(all[r.Tool], r.RepairSeconds)
		if q := r.GoTestRatio(); q > 0 && r.Error == "" {
			if ratios[r.Tool] == nil {
				ratios[r.Tool] = map[bool][]float64{}
			}
			ratios[r.Tool][r.Patched] = append(ratios[r.Tool][r.Patched], q)
		}
		s := by[r.Tool]
		if s == nil {
			s = &Summary{Tool: r.Tool}
			by[r.Tool] = s
		}
		s.Bugs++
		if r.Patched {
			s.Patched++
		}
		if r.Plausible {
			s.Plausible++
			times[r.Tool] = append(times[r.Tool], r.RepairSeconds)
		}
		if r.Correct {
			s.Correct++
		}
		switch {
		case r.Correct && r.Judgement == "identical":
			s.CorrectIdentical++
		case r.Correct && r.Judgement == "equivalent":
			s.CorrectEquivalent++
		case r.Correct:
			s.CorrectAudited++
		case r.Judgement == "states":
			s.StatesOnly++
		}
		if r.Error != "" {
			s.Fails++
		}
	}
	var out []Summary
	for tool, s := range by {
		if ts := times[tool]; len(ts) > 0 {
			sort.Float64s(ts)
			s.MedianSeconds = ts[len(ts)/2]
		}
		s.BugMedianSeconds, s.BugP95Seconds = percentile(all[tool], 50), percentile(all[tool], 95)
		s.PatchedRatio, s.UnpatchedRatio = median(ratios[tool][true]), median(ratios[tool][false])
		out = append(out, *s)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Tool < out[j].Tool })
	return out
}

// percentile returns the p-th percentile of xs (nearest rank), 0 for none.
func percentile(xs []float64, p int) float64 {
	if len(xs) == 0 {
		return 0
	}
	ys := append([]float64(nil), xs...)
	sort.Float64s(ys)
	i := (p*len(ys)+99)/100 - 1
	return ys[max(i, 0)]
}

// median is the middle value of xs (the mean of the two middle ones for
// an even count), 0 for none.
func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	ys := append([]float64(nil), xs...)
	sort.Float64s(ys)
	n := len(ys)
	if n%2 == 1 {
		return ys[n/2]
	}
	return (ys[n/2-1] + ys[n/2]) / 2
}

// WriteMarkdown writes the summary table and one row per bug with a column
// per tool.
func WriteMarkdown(w io.Writer, results []*Result) {
	fmt.Fprintln(w, "| tool | bugs | patched | plausible | correct (identical + equivalent + audited) | agree on states only | harness errors | median time of plausible (s) | median time per bug (s) | p95 time per bug (s) | median × go test, patched / unpatched |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|---|---|---|---|---|")
	sums := Summarize(results)
	for _, s := range sums {
		fmt.Fprintf(w, "| %s | %d | %d | %d | %d (%d + %d + %d) | %d | %d | %.1f | %.1f | %.1f | %s / %s |\n", s.Tool, s.Bugs, s.Patched, s.Plausible,
			s.Correct, s.CorrectIdentical, s.CorrectEquivalent, s.CorrectAudited, s.StatesOnly, s.Fails, s.MedianSeconds, s.BugMedianSeconds, s.BugP95Seconds,
			times(s.PatchedRatio), times(s.UnpatchedRatio))
	}
	writeRatios(w, sums)
	writePrecision(w, results)
	writeWithheld(w, results)
	tools, byBug, bugs := pivot(results)
	fmt.Fprintf(w, "\n| bug | kind | fault | expected |")
	for _, t := range tools {
		fmt.Fprintf(w, " %s |", t)
	}
	fmt.Fprint(w, "\n|---|---|---|---|")
	for range tools {
		fmt.Fprint(w, "---|")
	}
	fmt.Fprintln(w)
	for _, id := range bugs {
		row := byBug[id]
		var any *Result
		for _, r := range row {
			any = r
		}
		fmt.Fprintf(w, "| %s | %s | %s | `%s` |", id, any.Kind, any.Fault, mdEscape(any.Expected))
		for _, t := range tools {
			fmt.Fprintf(w, " %s |", cell(row[t]))
		}
		fmt.Fprintln(w)
	}
}

// writeRatios compares every tool with the first one (sorted by name):
// correct patches and time per bug.
func writeRatios(w io.Writer, sums []Summary) {
	if len(sums) < 2 {
		return
	}
	base := sums[0]
	fmt.Fprintln(w)
	for _, s := range sums[1:] {
		fmt.Fprintf(w, "%s / %s: correct %d / %d, plausible %d / %d, median time per bug %s, p95 %s.\n",
			s.Tool, base.Tool, s.Correct, base.Correct, s.Plausible, base.Plausible,
			ratio(s.BugMedianSeconds, base.BugMedianSeconds), ratio(s.BugP95Seconds, base.BugP95Seconds))
	}
}

// writePrecision writes, per tool, the plausible and correct patches and
// the precision by kind and fault of bug (real conditions, seeded
// guards, ...) and by the confidence the tool gave its patch (nopol's
// explanation; "none" for a tool that gives none): whether a reviewer can
// trust "high" more than "low"; and by the search tier that found the
// patch (nopol's Result.Tier): what each tier adds, and at what precision.
func writePrecision(w io.Writer, results []*Result) {
	type count struct{ plausible, correct int }
	type row struct{ tool, group, key string }
	counts := map[row]*count{}
	add := func(r *Result, group, key string) {
		k := row{r.Tool, group, key}
		if counts[k] == nil {
			counts[k] = &count{}
		}
		counts[k].plausible++
		if r.Correct {
			counts[k].correct++
		}
	}
	for _, r := range results {
		if !r.Plausible {
			continue
		}
		add(r, "kind", r.Kind)
		add(r, "kind", r.Kind+" "+r.Fault)
		add(r, "confidence", cmp.Or(r.Confidence, "none"))
		if r.Tier != "" {
			add(r, "tier", r.Tier)
		}
	}
	if len(counts) == 0 {
		return
	}
	keys := slices.SortedFunc(maps.Keys(counts), func(a, b row) int {
		return cmp.Or(cmp.Compare(a.tool, b.tool), cmp.Compare(a.group, b.group), cmp.Compare(a.key, b.key))
	})
	fmt.Fprintln(w, "\n| tool | by | plausible | correct | precision |")
	fmt.Fprintln(w, "|---|---|---|---|---|")
	for _, k := range keys {
		c := counts[k]
		fmt.Fprintf(w, "| %s | %s %s | %d | %d | %.1f%% |\n", k.tool, k.group, k.key, c.plausible, c.correct, 100*float64(c.correct)/float64(c.plausible))
	}
}

// times renders a ratio to one go test, "n/a" when unmeasured.
func times(q float64) string {
	if q <= 0 {
		return "n/a"
	}
	return fmt.Sprintf("%.1f×", q)
}

func ratio(a, b float64) string {
	if b == 0 {
		return "n/a"
	}
	return fmt.Sprintf("%.2fx", a/b)
}

func cell(r *Result) string {
	switch {
	case r == nil:
		return ""
	case r.Error != "":
		return "error"
	case r.Correct:
		return fmt.Sprintf("correct (%s) `%s` %.0fs", r.Judgement, mdEscape(r.Condition), r.RepairSeconds)
	case r.Plausible && r.Judgement != "":
		return fmt.Sprintf("plausible (%s) `%s` %.0fs", r.Judgement, mdEscape(r.Condition), r.RepairSeconds)
	case r.Plausible:
		return fmt.Sprintf("plausible `%s` %.0fs", mdEscape(r.Condition), r.RepairSeconds)
	case r.Patched:
		return "not plausible"
	case r.TimedOut:
		return "timeout"
	case r.Withheld != nil:
		return fmt.Sprintf("— (withheld `%s`, %s)", mdEscape(r.Withheld.Condition), r.Withheld.verdict())
	}
	return "—"
}

// verdict is the judgement of a withheld patch: "correct", "plausible"
// or "not plausible".
func (w *WithheldJudged) verdict() string {
	switch {
	case w.Correct:
		return "correct"
	case w.Plausible:
		return "plausible"
	}
	return "not plausible"
}

// writeWithheld lists, per tool, the patches withheld as speculative on
// bugs where the tool printed none, judged as if printed: what
// withholding cost (correct ones) and saved (the others).
func writeWithheld(w io.Writer, results []*Result) {
	type count struct{ withheld, correct int }
	counts := map[string]*count{}
	var tools []string
	for _, r := range results {
		if r.Withheld == nil || r.Patched {
			continue
		}
		if counts[r.Tool] == nil {
			counts[r.Tool] = &count{}
			tools = append(tools, r.Tool)
		}
		counts[r.Tool].withheld++
		if r.Withheld.Correct {
			counts[r.Tool].correct++
		}
	}
	sort.Strings(tools)
	for _, t := range tools {
		c := counts[t]
		fmt.Fprintf(w, "\n%s withheld %d speculative patches on bugs it left unpatched; judged as if printed, %d would be correct.\n", t, c.withheld, c.correct)
	}
}

func mdEscape(s string) string {
	s = strings.ReplaceAll(s, "|", `\|`)
	return strings.Join(strings.Fields(s), " ")
}

func pivot(results []*Result) (tools []string, byBug map[string]map[string]*Result, bugs []string) {
	byBug = map[string]map[string]*Result{}
	seen := map[string]bool{}
	for _, r := range results {
		if byBug[r.Bug] == nil {
			byBug[r.Bug] = map[string]*Result{}
			bugs = append(bugs, r.Bug)
		}
		byBug[r.Bug][r.Tool] = r
		if !seen[r.Tool] {
			seen[r.Tool] = true
			tools = append(tools, r.Tool)
		}
	}
	sort.Strings(tools)
	sort.Strings(bugs)
	return tools, byBug, bugs
}

// WriteCSV writes one row per result.
func WriteCSV(w io.Writer, results []*Result) error {
	cw := csv.NewWriter(w)
	cw.Write([]string{"bug", "kind", "fault", "module", "tool", "exit_code", "timed_out", "patched", "plausible", "correct", "judgement", "condition", "expected", "repair_s", "validate_s", "go_test_s", "error"})
	for _, r := range results {
		cw.Write([]string{r.Bug, r.Kind, r.Fault, r.Module, r.Tool, strconv.Itoa(r.ExitCode), strconv.FormatBool(r.TimedOut),
			strconv.FormatBool(r.Patched), strconv.FormatBool(r.Plausible), strconv.FormatBool(r.Correct), r.Judgement,
			r.Condition, r.Expected, strconv.FormatFloat(r.RepairSeconds, 'f', 2, 64), strconv.FormatFloat(r.ValidateSeconds, 'f', 2, 64),
			strconv.FormatFloat(r.GoTestSeconds, 'f', 2, 64), r.Error})
	}
	cw.Flush()
	return cw.Error()
}

// WritePlot writes an SVG line chart: for each tool, the number of bugs
// with a plausible patch found within t seconds of repair time. It is
// hand-written SVG (no plotting dependency).
func WritePlot(w io.Writer, results []*Result) {
	const W, H, left, right, top, bottom = 640.0, 400.0, 60.0, 140.0, 30.0, 50.0
	tools, _, _ := pivot(results)
	curves := map[string][]float64{}
	maxT, maxN := 1.0, 1
	for _, r := range results {
		if r.Plausible {
			curves[r.Tool] = append(curves[r.Tool], r.RepairSeconds)
			maxT = math.Max(maxT, r.RepairSeconds)
		}
	}
	for _, ts := range curves {
		sort.Float64s(ts)
		maxN = max(maxN, len(ts))
	}
	x := func(t float64) float64 { return left + t/maxT*(W-left-right) }
	y := func(n int) float64 { return H - bottom - float64(n)/float64(maxN)*(H-top-bottom) }
	var b bytes.Buffer
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%.0f" height="%.0f" font-family="sans-serif" font-size="12">`+"\n", W, H)
	fmt.Fprintf(&b, `<rect width="100%%" height="100%%" fill="white"/>`+"\n")
	fmt.Fprintf(&b, `<text x="%.0f" y="18" font-size="14">bugs with a plausible patch within t seconds</text>`+"\n", left)
	fmt.Fprintf(&b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="black"/>`+"\n", left, y(0), x(maxT), y(0))
	fmt.Fprintf(&b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="black"/>`+"\n", left, y(0), left, y(maxN))
	for i := 0; i <= 4; i++ {
		t := maxT * float64(i) / 4
		fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" text-anchor="middle">%.0f</text>`+"\n", x(t), y(0)+16, t)
		n := int(math.Round(float64(maxN) * float64(i) / 4))
		fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" text-anchor="end">%d</text>`+"\n", left-6, y(n)+4, n)
	}
	fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" text-anchor="middle">repair time t (s)</text>`+"\n", x(maxT/2), H-10)
	colors := []string{"#1f77b4", "#d62728", "#2ca02c", "#9467bd"}
	for i, tool := range tools {
		c := colors[i%len(colors)]
		pts := []string{fmt.Sprintf("%.1f,%.1f", x(0), y(0))}
		for k, t := range curves[tool] {
			pts = append(pts, fmt.Sprintf("%.1f,%.1f", x(t), y(k)), fmt.Sprintf("%.1f,%.1f", x(t), y(k+1)))
		}
		pts = append(pts, fmt.Sprintf("%.1f,%.1f", x(maxT), y(len(curves[tool]))))
		fmt.Fprintf(&b, `<polyline fill="none" stroke="%s" stroke-width="2" points="%s"/>`+"\n", c, strings.Join(pts, " "))
		fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" fill="%s">%s (%d)</text>`+"\n", W-right+10, top+20+float64(i)*18, c, tool, len(curves[tool]))
	}
	b.WriteString("</svg>\n")
	w.Write(b.Bytes())
}

// WriteReports writes results.md, results.csv and fixed-over-time.svg
// into dir from its results-*.jsonl files.
func WriteReports(dir string) error {
	results, err := ReadResults(dir)
	if err != nil {
		return err
	}
	var md, cs, svg bytes.Buffer
	WriteMarkdown(&md, results)
	if err := WriteCSV(&cs, results); err != nil {
		return err
	}
	WritePlot(&svg, results)
	for name, data := range map[string][]byte{"results.md": md.Bytes(), "results.csv": cs.Bytes(), "fixed-over-time.svg": svg.Bytes()} {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			return err
		}
	}
	return nil
}
