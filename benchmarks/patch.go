package benchmarks

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/rogpeppe/go-internal/diff"
)

// MakePatch returns the unified diff from old to new of file (a path
// relative to the module root), with a/ and b/ prefixes.
func MakePatch(file string, old, new []byte) string {
	d := diff.Diff("a/"+file, old, "b/"+file, new)
	s := string(d)
	if i := strings.Index(s, "\n"); strings.HasPrefix(s, "diff ") && i >= 0 {
		s = s[i+1:]
	}
	return s
}

// FilePatch is the part of a unified diff that touches one file.
type FilePatch struct {
	// Path is the file relative to the module root (the +++ name
	// without its b/ prefix).
	Path  string
	Hunks []Hunk
}

// Hunk is one @@ section: its lines keep their ' ', '-' or '+' prefix.
type Hunk struct {
	OldStart int
	Lines    []string
}

// ParsePatch splits a unified diff into file patches.
func ParsePatch(patch string) ([]FilePatch, error) {
	var fps []FilePatch
	lines := strings.SplitAfter(patch, "\n")
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		switch {
		case strings.HasPrefix(l, "+++ "):
			name := strings.TrimSpace(strings.TrimPrefix(l, "+++ "))
			if j := strings.IndexByte(name, '\t'); j >= 0 {
				name = name[:j]
			}
			name = strings.TrimPrefix(name, "b/")
			fps = append(fps, FilePatch{Path: name})
		case strings.HasPrefix(l, "@@ "):
			if len(fps) == 0 {
				return nil, fmt.Errorf("parsing patch: hunk before +++ line")
			}
			f := strings.Fields(l)
			if len(f) < 3 {
				return nil, fmt.Errorf("parsing patch: bad hunk header %q", strings.TrimSpace(l))
			}
			start, oldN, err := hunkRange(f[1], "-")
			if err != nil {
				return nil, fmt.Errorf("parsing patch: bad hunk header %q", strings.TrimSpace(l))
			}
			_, newN, err := hunkRange(f[2], "+")
			if err != nil {
				return nil, fmt.Errorf("parsing patch: bad hunk header %q", strings.TrimSpace(l))
			}
			// The header's counts say where the hunk ends: a removed
			// "-- x" or added "++ x" line reads like a file header.
			h := Hunk{OldStart: start}
			for i+1 < len(lines) && len(lines[i+1]) > 0 && strings.ContainsRune(" -+\\", rune(lines[i+1][0])) {
				next := lines[i+1]
				if next[0] != '\\' && oldN <= 0 && newN <= 0 {
					break
				}
				i++
				switch next[0] {
				case '\\':
					continue
				case ' ':
					oldN--
					newN--
				case '-':
					oldN--
				case '+':
					newN--
				}
				h.Lines = append(h.Lines, next)
			}
			if oldN > 0 || newN > 0 {
				return nil, fmt.Errorf("parsing patch: hunk %q ends early", strings.TrimSpace(l))
			}
			fp := &fps[len(fps)-1]
			fp.Hunks = append(fp.Hunks, h)
		}
	}
	if len(fps) == 0 {
		return nil, fmt.Errorf("parsing patch: no file in patch")
	}
	for _, fp := range fps {
		if len(fp.Hunks) == 0 {
			return nil, fmt.Errorf("parsing patch: no hunk for %s", fp.Path)
		}
	}
	return fps, nil
}

// hunkRange parses one side of a hunk header, "-start,count" or
// "+start" (count 1).
func hunkRange(field, sign string) (start, count int, err error) {
	if !strings.HasPrefix(field, sign) {
		return 0, 0, fmt.Errorf("no %s range", sign)
	}
	s, c, ok := strings.Cut(field[1:], ",")
	if start, err = strconv.Atoi(s); err != nil {
		return 0, 0, err
	}
	count = 1
	if ok {
		if count, err = strconv.Atoi(c); err != nil || count < 0 {
			return 0, 0, fmt.Errorf("bad count %q", c)
		}
	}
	return start, count, nil
}

// Apply applies fp to src; the context and removed lines must match
// exactly (no fuzz), but a hunk may be found away from its stated line.
func (fp FilePatch) Apply(src []byte) ([]byte, error) {
	lines := strings.SplitAfter(string(src), "\n")
	if len(lines) > 0 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	var out []string
	pos := 0
	for _, h := range fp.Hunks {
		var old, new []string
		for _, l := range h.Lines {
			body := l[1:]
			if !strings.HasSuffix(body, "\n") {
				body += "\n"
			}
			if l[0] != '+' {
				old = append(old, body)
			}
			if l[0] != '-' {
				new = append(new, body)
			}
		}
		at := -1
		for d := 0; d < len(lines); d++ {
			for _, cand := range []int{h.OldStart - 1 + d, h.OldStart - 1 - d} {
				if cand >= pos && cand+len(old) <= len(lines) && equalLines(lines[cand:cand+len(old)], old) {
					at = cand
					break
				}
			}
			if at >= 0 {
				break
			}
		}
		if at < 0 {
			return nil, fmt.Errorf("applying patch to %s: hunk at line %d does not match", fp.Path, h.OldStart)
		}
		out = append(out, lines[pos:at]...)
		out = append(out, new...)
		pos = at + len(old)
	}
	out = append(out, lines[pos:]...)
	var buf bytes.Buffer
	for _, l := range out {
		buf.WriteString(l)
	}
	return buf.Bytes(), nil
}

func equalLines(a, b []string) bool {
	for i := range a {
		if strings.TrimRight(a[i], "\n") != strings.TrimRight(b[i], "\n") {
			return false
		}
	}
	return true
}

// ApplyPatchDir applies a unified diff to the files under dir.
func ApplyPatchDir(dir, patch string) error {
	fps, err := ParsePatch(patch)
	if err != nil {
		return err
	}
	for _, fp := range fps {
		path := filepath.Join(dir, filepath.FromSlash(fp.Path))
		src, err := os.ReadFile(path)
		if err != nil {
			return fmt.Errorf("applying patch: %v", err)
		}
		res, err := fp.Apply(src)
		if err != nil {
			return err
		}
		if err := os.WriteFile(path, res, 0o644); err != nil {
			return fmt.Errorf("applying patch: %v", err)
		}
	}
	return nil
}
