package gotest

import (
	"bytes"
	"fmt"
)

// Output limits. A test that prints without end must not make nopol slow
// or large: what a process writes is kept up to a cap per stream, the
// head and the tail, with a line saying how much was cut between them.
const (
	// DefaultMaxOutput is the cap per stream of a process's output kept
	// in its Outcome when Invocation.MaxOutput is 0.
	DefaultMaxOutput = 8 << 20
	// maxTestOutput is the cap of one test's output in a summary.
	maxTestOutput = 256 << 10
	// maxLine is the longest line handed to a line parser; the rest of a
	// longer line is dropped.
	maxLine = 64 << 10
)

// CutMarker starts the line that replaces the middle of an output cut to
// its cap.
const CutMarker = "[nopol: cut "

// capBuffer keeps the first head bytes and the last tail bytes written to
// it, and counts the rest. Writes are linear in their length whatever the
// total.
type capBuffer struct {
	head, tail int
	h          []byte
	ring       []byte // the last bytes written past head, ring[pos:]+ring[:pos] when full
	pos        int
	full       bool
	total      int64
}

// newCapBuffer keeps at most max bytes: a quarter from the head, the rest
// from the tail. max < 0 keeps everything.
func newCapBuffer(max int) *capBuffer {
	if max < 0 {
		return &capBuffer{head: -1}
	}
	if max == 0 {
		max = DefaultMaxOutput
	}
	return &capBuffer{head: max / 4, tail: max - max/4}
}

func (b *capBuffer) Write(p []byte) (int, error) {
	n := len(p)
	b.total += int64(n)
	if b.head < 0 {
		b.h = append(b.h, p...)
		return n, nil
	}
	if room := b.head - len(b.h); room > 0 {
		k := min(room, len(p))
		b.h = append(b.h, p[:k]...)
		p = p[k:]
	}
	if len(p) == 0 || b.tail <= 0 {
		return n, nil
	}
	if len(p) >= b.tail {
		b.ring = append(b.ring[:0], p[len(p)-b.tail:]...)
		b.pos, b.full = 0, true
		return n, nil
	}
	if !b.full {
		if len(b.ring)+len(p) <= b.tail {
			b.ring = append(b.ring, p...)
			if len(b.ring) == b.tail {
				b.pos, b.full = 0, true
			}
			return n, nil
		}
		// Fill up to tail, then wrap.
		k := b.tail - len(b.ring)
		b.ring = append(b.ring, p[:k]...)
		p = p[k:]
		b.pos, b.full = 0, true
	}
	for len(p) > 0 {
		k := copy(b.ring[b.pos:], p)
		p = p[k:]
		b.pos = (b.pos + k) % b.tail
	}
	return n, nil
}

// Bytes returns what was kept, with a cut line where bytes were dropped.
func (b *capBuffer) Bytes() []byte {
	if b.head < 0 || !b.full || b.total <= int64(b.head+b.tail) {
		if b.full {
			return append(append(bytes.Clone(b.h), b.ring[b.pos:]...), b.ring[:b.pos]...)
		}
		return append(bytes.Clone(b.h), b.ring...)
	}
	cut := b.total - int64(b.head) - int64(b.tail)
	out := make([]byte, 0, b.head+b.tail+64)
	out = append(out, b.h...)
	out = append(out, fmt.Sprintf("\n%s%d bytes of output]\n", CutMarker, cut)...)
	out = append(out, b.ring[b.pos:]...)
	return append(out, b.ring[:b.pos]...)
}

// capText accumulates a text up to a cap, as capBuffer, in linear time.
type capText struct{ b *capBuffer }

func (t *capText) add(s string) {
	if t.b == nil {
		t.b = newCapBuffer(maxTestOutput)
	}
	t.b.Write([]byte(s))
}

func (t *capText) String() string {
	if t.b == nil {
		return ""
	}
	return string(t.b.Bytes())
}

// lineWriter calls fn with each complete line written to it (without the
// newline); a line longer than maxLine is cut to maxLine. Close hands over
// a last line without newline.
type lineWriter struct {
	fn      func(line []byte)
	buf     []byte
	discard bool // the current line is past maxLine
}

func (w *lineWriter) Write(p []byte) (int, error) {
	n := len(p)
	for len(p) > 0 {
		i := bytes.IndexByte(p, '\n')
		chunk := p
		if i >= 0 {
			chunk = p[:i]
		}
		if !w.discard {
			if room := maxLine - len(w.buf); len(chunk) > room {
				w.buf = append(w.buf, chunk[:room]...)
				w.discard = true
			} else {
				w.buf = append(w.buf, chunk...)
			}
		}
		if i < 0 {
			break
		}
		w.fn(w.buf)
		w.buf, w.discard = w.buf[:0], false
		p = p[i+1:]
	}
	return n, nil
}

// Close flushes a last unterminated line.
func (w *lineWriter) Close() {
	if len(w.buf) > 0 {
		w.fn(w.buf)
		w.buf = w.buf[:0]
	}
}
