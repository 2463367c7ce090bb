package collect

import (
	"sort"
	"strconv"
	"strings"
)

// wrap is an edit that surrounds the bytes [start, end) of a file with
// prefix and suffix. Wraps of one file are nested or disjoint, like the
// syntax they come from.
//
// Instrumentation edits the source text instead of printing a rewritten
// syntax tree: every inserted text is free of newlines, so every original
// line keeps its number and content (only columns on edited lines move),
// comments and directives stay where they were, and panics and test
// failures still report the user's file:line.
type wrap struct {
	start, end     int
	prefix, suffix string
}

// splice applies wraps to src.
func splice(src []byte, wraps []wrap) []byte {
	type insert struct {
		off    int
		suffix bool
		size   int // length of the wrapped range, to order nested edits
		order  int // index of the wrap: of two on the same range, the first is outer
		text   string
	}
	var ins []insert
	for i, w := range wraps {
		ins = append(ins, insert{w.start, false, w.end - w.start, i, w.prefix})
		ins = append(ins, insert{w.end, true, w.end - w.start, i, w.suffix})
	}
	sort.SliceStable(ins, func(i, j int) bool {
		a, b := ins[i], ins[j]
		if a.off != b.off {
			return a.off < b.off
		}
		if a.suffix != b.suffix {
			return a.suffix // close what ends here before opening what starts
		}
		if a.size != b.size {
			if a.suffix {
				return a.size < b.size // inner closes first
			}
			return a.size > b.size // outer opens first
		}
		if a.suffix {
			return a.order > b.order
		}
		return a.order < b.order
	})
	var b strings.Builder
	b.Grow(len(src) + 64*len(ins))
	last := 0
	for _, in := range ins {
		b.Write(src[last:in.off])
		b.WriteString(in.text)
		last = in.off
	}
	b.Write(src[last:])
	return []byte(b.String())
}

// noSnapshot are the snapshot arguments of a site without observations.
const noSnapshot = `"", nil`

// snapSource returns the Go source of the snapshot arguments of a hook
// call: the kinds of the observed expressions as a string ("ibs...") and
// one function that evaluates the i-th of them. One function per site, with
// a switch, keeps the instrumented code small (a closure per value makes
// compiling large packages several times slower); the hook calls it under
// recover for each i, so a panic makes one value missing.
func snapSource(obs []Observed) string {
	if len(obs) == 0 {
		return noSnapshot
	}
	var kinds, b strings.Builder
	b.WriteString("func(nopolI int) NopolValue { switch nopolI {")
	for i, ob := range obs {
		b.WriteString(" case " + strconv.Itoa(i) + ": return ")
		letter := byte(0)
		if ob.Call {
			letter = 0x20 // upper case: the hook bounds its time
		}
		switch ob.Kind {
		case KindBool:
			kinds.WriteByte('b' - letter)
			b.WriteString("NopolB(bool(" + ob.Expr + "))")
		case KindInt:
			kinds.WriteByte('i' - letter)
			b.WriteString("NopolI(int64(" + ob.Expr + "))")
		case KindFloat:
			kinds.WriteByte('f' - letter)
			b.WriteString("NopolF(float64(" + ob.Expr + "))")
		case KindString:
			kinds.WriteByte('s' - letter)
			b.WriteString("NopolS(string(" + ob.Expr + "))")
		}
		b.WriteString(";")
	}
	b.WriteString(" }; return NopolValue{} }")
	return strconv.Quote(kinds.String()) + ", " + b.String()
}

// siteWraps returns the instrumentation edits of site i: the site's own,
// then those of its condition's atoms.
//
// A condition c with atoms becomes
//
//	NopolCondA(3, func(nopolA []NopolValue) bool { return bool(c') }, "bi", kinds, snap)
//
// where c' is c with each atom a (of kind b, i, f or s) replaced by
// NopolAB(nopolA, k, a) (NopolAI, NopolAF, NopolAS): the value of a,
// recorded in slot k of an array private to this evaluation when nopolA
// is not nil (in snapshot runs). The hooks are generic so that a keeps
// its type; in packages or files of a language version before Go 1.18,
// only atoms of type bool, int, float64 and string get hooks, the
// non-generic NopolAPB, NopolAPI, NopolAPF and NopolAPS.
//
// A condition on one line without function literals is also written a
// second time, as it is, for the runs where the site is quiet (neither
// forced, flipped, printed nor snapshot; see NopolQ in the hook):
//
//	(NopolQ(3) && NopolV(3, bool(c)) || !NopolQ(3) && NopolCond(3, ...))
//
// so that there it costs what it costs plain and a test the compiler
// inlines (plus, in cover mode, one call that counts), instead of calls
// and a closure. NopolQ is fixed
// for the process before any code of the package runs, so exactly one of
// the two copies is evaluated.
//
// Without snapshots (the first build, for coverage and forced runs), the
// snapshot arguments are `"", nil`: the functions that evaluate the
// observed expressions are most of the instrumented code to compile, and
// only snapshot runs call them (see Instrument).
func (prog *Program) siteWraps(i int, snapshots bool) []wrap {
	s, syn := &prog.Sites[i], &prog.syn[i]
	if syn.off {
		return nil
	}
	snap := syn.snap
	if !snapshots {
		snap = noSnapshot
	}
	id := strconv.Itoa(s.ID)
	if s.Kind == Cond && len(syn.atoms) > 0 {
		kinds := make([]byte, syn.natoms)
		ws := []wrap{{syn.start, syn.end,
			"NopolCondA(" + id + ", func(nopolA []NopolValue) bool { return bool(", ""}}
		for _, a := range syn.atoms {
			c := "bifs"[a.kind-1 : a.kind]
			kinds[a.slot] = c[0]
			hook := "NopolA"
			if a.plain {
				hook = "NopolAP"
			}
			ws = append(ws, wrap{a.start, a.end,
				hook + strings.ToUpper(c) + "(nopolA, " + strconv.Itoa(a.slot) + ", ", ")"})
		}
		ws[0].suffix = ") }, " + strconv.Quote(string(kinds)) + ", " + snap + ")"
		return prog.withQuietCopy(ws, i)
	}
	if s.Kind == Cond {
		return prog.withQuietCopy([]wrap{{syn.start, syn.end,
			"NopolCond(" + id + ", func() bool { return bool(",
			") }, " + snap + ")"}}, i)
	}
	if !s.CanWrap && len(s.Exits) == 0 {
		return nil // its exits were left out (see leaveOut)
	}
	call := "if nopolG := NopolGuard(" + id + ", " + snap + "); "
	var exits strings.Builder
	for k, e := range s.Exits {
		if k > 0 || s.CanWrap {
			exits.WriteString(" else ")
		}
		exits.WriteString("if nopolG == " + strconv.Itoa(2+k) + " { " + e.Body + " }")
	}
	if s.CanWrap {
		return []wrap{{syn.start, syn.end, call + "nopolG == 0 { ", " }" + exits.String()}}
	}
	// Exits only, before the statement: its declarations stay in scope.
	return []wrap{{syn.start, syn.start, call + strings.TrimPrefix(exits.String(), "if ") + "; ", ""}}
}

// withQuietCopy adds to the wraps ws of Cond site i the quiet copy of
// its condition, when it has one (see siteWraps): its text as the file
// has it (read by findSites).
func (prog *Program) withQuietCopy(ws []wrap, i int) []wrap {
	syn := &prog.syn[i]
	if !syn.copyable {
		return ws
	}
	id, text := strconv.Itoa(prog.Sites[i].ID), string(prog.sources[syn.file][syn.start:syn.end])
	ws[0].prefix = "(NopolQ(" + id + ") && NopolV(" + id + ", bool(" + text + ")) || !NopolQ(" + id + ") && " + ws[0].prefix
	ws[0].suffix += ")"
	return ws
}
