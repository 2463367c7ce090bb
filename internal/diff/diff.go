// Package diff renders unified diffs of text files, as printed by nopol fix
// and accepted by `git apply` and `patch -p1`.
package diff

import (
	"fmt"
	"strings"
)

// Context is the number of unchanged lines shown around a change.
const Context = 3

// Unified returns the unified diff turning old into new, with headers
// "--- a/<path>" and "+++ b/<path>"; "" when they are equal. The changed
// region is found after removing the common prefix and suffix, so the cost
// is quadratic only in the size of the change.
func Unified(path string, old, new []byte) string {
	if string(old) == string(new) {
		return ""
	}
	a, b := Lines(string(old)), Lines(string(new))
	ops := lineOps(a, b)
	var out strings.Builder
	fmt.Fprintf(&out, "--- a/%s\n+++ b/%s\n", path, path)
	for _, h := range hunks(ops) {
		writeHunk(&out, h, ops)
	}
	return out.String()
}

// Lines splits s after each newline; a last line without newline is
// marked by a missing "\n".
func Lines(s string) []string {
	if s == "" {
		return nil
	}
	lines := strings.SplitAfter(s, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}

type opKind byte

const (
	keep opKind = ' '
	del  opKind = '-'
	add  opKind = '+'
)

// op is one line of the edit script with its line numbers (0-based) in a
// and b.
type op struct {
	kind   opKind
	line   string
	ai, bi int
}

// CommonEnds returns how many first lines (pre) and, of the rest, how
// many last lines (suf) a and b share.
func CommonEnds(a, b []string) (pre, suf int) {
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		pre++
	}
	for suf < len(a)-pre && suf < len(b)-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	return pre, suf
}

func lineOps(a, b []string) []op {
	pre, suf := CommonEnds(a, b)
	var ops []op
	for i := 0; i < pre; i++ {
		ops = append(ops, op{keep, a[i], i, i})
	}
	ops = append(ops, lcsOps(a[pre:len(a)-suf], b[pre:len(b)-suf], pre, pre)...)
	for k := 0; k < suf; k++ {
		i, j := len(a)-suf+k, len(b)-suf+k
		ops = append(ops, op{keep, a[i], i, j})
	}
	return ops
}

// lcsOps is the edit script of a longest common subsequence, deletions
// before insertions within a change.
func lcsOps(a, b []string, ao, bo int) []op {
	n, m := len(a), len(b)
	l := make([][]int, n+1)
	for i := range l {
		l[i] = make([]int, m+1)
	}
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			if a[i] == b[j] {
				l[i][j] = l[i+1][j+1] + 1
			} else {
				l[i][j] = max(l[i+1][j], l[i][j+1])
			}
		}
	}
	var ops []op
	i, j := 0, 0
	for i < n || j < m {
		switch {
		case i < n && j < m && a[i] == b[j]:
			ops = append(ops, op{keep, a[i], ao + i, bo + j})
			i, j = i+1, j+1
		case j == m || (i < n && l[i+1][j] >= l[i][j+1]):
			ops = append(ops, op{del, a[i], ao + i, bo + j})
			i++
		default:
			ops = append(ops, op{add, b[j], ao + i, bo + j})
			j++
		}
	}
	return ops
}

// hunk is a range of ops [start, end).
type hunk struct{ start, end int }

func hunks(ops []op) []hunk {
	var hs []hunk
	for i, o := range ops {
		if o.kind == keep {
			continue
		}
		start, end := max(0, i-Context), min(len(ops), i+1+Context)
		if n := len(hs); n > 0 && start <= hs[n-1].end {
			hs[n-1].end = max(hs[n-1].end, end)
			continue
		}
		hs = append(hs, hunk{start, end})
	}
	return hs
}

func writeHunk(w *strings.Builder, h hunk, ops []op) {
	var na, nb int
	for _, o := range ops[h.start:h.end] {
		if o.kind != add {
			na++
		}
		if o.kind != del {
			nb++
		}
	}
	first := ops[h.start]
	fmt.Fprintf(w, "@@ -%s +%s @@\n", rangeOf(first.ai, na), rangeOf(first.bi, nb))
	for _, o := range ops[h.start:h.end] {
		w.WriteByte(byte(o.kind))
		w.WriteString(o.line)
		if !strings.HasSuffix(o.line, "\n") {
			w.WriteString("\n\\ No newline at end of file\n")
		}
	}
}

// rangeOf formats a hunk range: 1-based start, count omitted when 1, and
// the line before the range when empty.
func rangeOf(start, n int) string {
	switch n {
	case 0:
		return fmt.Sprintf("%d,0", start)
	case 1:
		return fmt.Sprintf("%d", start+1)
	}
	return fmt.Sprintf("%d,%d", start+1, n)
}
