package collect

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strconv"
	"strings"
)

// A twin guard is a guard the file writes right after the statement that
// precedes a guard site, elsewhere: where two loops of the file skip the
// same entries, a check added to one is often missing from the other.
// go-toml v2.3.0's encodeTable has
//
//	if shouldOmitEmpty(kv.Options, kv.Value) {
//		continue
//	}
//	if kv.Options.omitzero && shouldOmitZero(kv.Options, kv.Value) {
//		continue
//	}
//
// and encodeTableInline, whose loop has the first guard only, missed the
// second. StrategyTwin offers the second guard's exit at the site after
// the first, with its condition (Exit.Guard), which the repair validates
// before the conditions synthesized for that exit, as a sibling's
// (sibling.go). Recorded states cannot give such a condition when it calls
// what cannot be observed (shouldOmitZero calls a method of an interface).
//
// A twin is taken only when the statements before it and before the site
// read the same, on one line, or both are the first statements of loops
// whose headers read the same (for _, kv := range t.kvs {, go-toml
// v2.0.5's encodeTable and encodeTableInline); in range loops over values
// of the same type, the loop variables' names do not count, and the twin
// is read with the site's (shouldOmitEmpty(kv.Options, kv.Value) at the
// top of the loop over t.kvs becomes shouldOmitEmpty(table.Options,
// table.Value) at the top of the loop over t.tables); when it is an `if` without init or else
// whose body is one exit statement (`continue`, `break`, or a return of
// the function's result types) without a string literal (a message says
// where it was written); when its condition and exit type-check at the
// site; and when the site's block does not already hold it.
//
// A twin is also taken before the same statement, its string literals
// aside, when the guard's exit repeats the literals of the statement
// after it (and writes no other): the guard special-cases the error the
// statement returns. BurntSushi/toml v1.5.0's lexKeyEnd has
//
//	if r == '\n' {
//		return lx.errorPrevLine(fmt.Errorf("expected '.' or '=', but got %q instead", r))
//	}
//	return lx.errorf("expected '.' or '=', but got %q instead", r)
//
// and lexValue, ending in return lx.errorf("expected value but found %q
// instead", r), missed the guard; the twin there is read with lexValue's
// message in place of lexKeyEnd's.

// maxTwinExits bounds the twin guards offered at one site.
const maxTwinExits = 2

// guardAfter is an if statement of the file without init or else whose
// body is one statement, with the statement before it (prev) and the
// function around it.
type guardAfter struct {
	prev ast.Stmt
	ifs  *ast.IfStmt
	fn   *ast.FuncDecl
	// loopVar is the value variable of the range loop around it, when it
	// was indexed under a key where that name is left out (rangeKey).
	loopVar string
	// next is, for a twin before the same statement (afterKey), that
	// statement, and lits its string literals, which the exit repeats:
	// the site's own replace them.
	next ast.Stmt
	lits []string
}

// guardsAfter indexes the file's one-exit ifs by the one-line text of the
// statement before them, in source order.
func (o *observer) guardsAfter(src []byte, tf *token.File) map[string][]guardAfter {
	if o.facts.guardsAfter != nil {
		return o.facts.guardsAfter
	}
	index := map[string][]guardAfter{}
	for _, d := range o.file.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Body == nil {
			continue
		}
		add := func(key string, g guardAfter) {
			if key != "" {
				index[key] = append(index[key], g)
			}
		}
		ast.PreorderStack(fd.Body, nil, func(n ast.Node, stack []ast.Node) bool {
			stmts := stmtList(n)
			var loopVar, elem string
			if len(stmts) > 1 {
				loopVar, elem = o.rangeVar(append(slices.Clip(stack), n))
			}
			for j := 0; j < len(stmts); j++ {
				ifs := oneExitIf(stmts[j])
				if ifs == nil {
					continue
				}
				if j > 0 {
					prev := oneLineSource(src, tf, stmts[j-1])
					add(prev, guardAfter{prev: stmts[j-1], ifs: ifs, fn: fd})
					add(rangeKey(elem, loopVar, prev), guardAfter{prev: stmts[j-1], ifs: ifs, fn: fd, loopVar: loopVar})
				}
				if j+1 < len(stmts) {
					key, lits := afterKey(src, tf, stmts[j+1])
					if key != "" && repeatsOnly(ifs.Body, lits) {
						add(key, guardAfter{ifs: ifs, fn: fd, next: stmts[j+1], lits: lits})
					}
				}
			}
			// The first statement of a loop's body follows the loop's
			// header: two loops over the same entries, or over entries
			// of the same type.
			if loop, body := loopOf(n); loop != nil && len(body.List) > 0 {
				if ifs := oneExitIf(body.List[0]); ifs != nil {
					add(loopHeader(src, tf, loop, body), guardAfter{prev: loop, ifs: ifs, fn: fd})
					v, e := o.rangeVar([]ast.Node{loop, body})
					add(firstKey(v, e), guardAfter{prev: loop, ifs: ifs, fn: fd, loopVar: v})
				}
			}
			return true
		})
	}
	o.facts.guardsAfter = index
	return index
}

// twinGuards are the exits of the twin guards of the site before stmt,
// whose ancestors are stack, in source order.
func (o *observer) twinGuards(stmt ast.Stmt, stack []ast.Node, sig *types.Signature, src []byte, tf *token.File, inLoop, breakable bool) []Exit {
	list := enclosingList(stmt, stack)
	i := slices.Index(list, stmt)
	if i < 0 {
		return nil
	}
	var prev ast.Stmt  // the statement before, or the loop whose body starts with stmt
	var keys [2]string // the exact key, and the one without the loop variable's name
	loopVar, elem := o.rangeVar(stack)
	if i > 0 {
		prev, keys[0] = list[i-1], oneLineSource(src, tf, list[i-1])
		keys[1] = rangeKey(elem, loopVar, keys[0])
	} else if k := slices.IndexFunc(stack, func(n ast.Node) bool { b, ok := n.(*ast.BlockStmt); return ok && len(b.List) > 0 && b.List[0] == stmt }); k > 0 {
		if loop, body := loopOf(stack[k-1]); loop != nil && body == stack[k] {
			prev, keys[0] = loop, loopHeader(src, tf, loop, body)
			keys[1] = firstKey(loopVar, elem)
		}
	}
	index := o.guardsAfter(src, tf)
	var twins []guardAfter
	for _, key := range keys {
		if key != "" {
			twins = append(twins, index[key]...)
		}
	}
	key, siteLits := afterKey(src, tf, stmt)
	if key != "" {
		twins = append(twins, index[key]...)
	}
	if len(twins) == 0 {
		return nil
	}
	here := stmtTexts(list, src, tf)
	var out []Exit
	for _, tw := range twins {
		if len(out) >= maxTwinExits {
			break
		}
		if tw.next == nil && tw.prev == prev || tw.next == stmt {
			continue
		}
		// A twin from a loop over another variable of the same type
		// reads the site's variable; one before the same statement, the
		// site's string literals.
		adapt := func(text string) string {
			if tw.next != nil {
				return replaceLits(text, tw.lits, siteLits)
			}
			if tw.loopVar == "" || tw.loopVar == loopVar {
				return text
			}
			return renameIdent(text, tw.loopVar, loopVar)
		}
		if text := adapt(oneLineSource(src, tf, tw.ifs)); text == "" || here[text] {
			continue
		}
		body, guard := adapt(oneLineSource(src, tf, tw.ifs.Body.List[0])), adapt(oneLineSource(src, tf, tw.ifs.Cond))
		if body == "" || guard == "" || tw.next == nil && hasString(tw.ifs.Body) || slices.ContainsFunc(out, func(e Exit) bool { return e.Body == body && e.Guard == guard }) || !o.exitCompiles(tw.ifs.Body.List[0], adapt, sig, src, tf, inLoop, breakable) || !o.boolAt(guard) {
			continue
		}
		out = append(out, Exit{Body: body, Strategy: StrategyTwin, Guard: guard, From: tw.fn.Name.Name})
	}
	return out
}

// afterKey is the key of a twin guard before stmt: its one-line text
// with each string literal written ‹›, and the literals, in source
// order; "" when it has none.
func afterKey(src []byte, tf *token.File, stmt ast.Stmt) (string, []string) {
	text := oneLineSource(src, tf, stmt)
	if text == "" || strings.Contains(text, "‹›") {
		return "", nil
	}
	lits := stringLits(stmt)
	if len(lits) == 0 {
		return "", nil
	}
	return "before " + replaceLits(text, lits, slices.Repeat([]string{"‹›"}, len(lits))), lits
}

// replaceLits replaces, in the Go source text, each string literal of
// old with the one of new at the same index; "" when new has fewer.
func replaceLits(text string, old, new []string) string {
	if len(new) < len(old) {
		return ""
	}
	var pairs []string
	for k, lit := range old {
		pairs = append(pairs, lit, "\x00"+strconv.Itoa(k)+"\x00")
	}
	text = strings.NewReplacer(pairs...).Replace(text)
	pairs = pairs[:0]
	for k := range old {
		pairs = append(pairs, "\x00"+strconv.Itoa(k)+"\x00", new[k])
	}
	return strings.NewReplacer(pairs...).Replace(text)
}

// repeatsOnly reports whether body writes string literals and only
// those of lits.
func repeatsOnly(body ast.Node, lits []string) bool {
	written := stringLits(body)
	return len(written) > 0 && !slices.ContainsFunc(written, func(lit string) bool { return !slices.Contains(lits, lit) })
}

// stringLits returns the string literals written in n, as written, in
// source order.
func stringLits(n ast.Node) []string {
	var lits []string
	ast.Inspect(n, func(n ast.Node) bool {
		if lit, ok := n.(*ast.BasicLit); ok && lit.Kind == token.STRING {
			lits = append(lits, lit.Value)
		}
		return true
	})
	return lits
}

// rangeVar returns the value variable of the innermost range loop whose
// body holds the top of stack, and the type of its values; "" when there
// is none, or it is not a plain identifier.
func (o *observer) rangeVar(stack []ast.Node) (name, elem string) {
	for k := len(stack) - 1; k > 0; k-- {
		r, ok := stack[k-1].(*ast.RangeStmt)
		if !ok || r.Body != stack[k] {
			continue
		}
		id, ok := r.Value.(*ast.Ident)
		if !ok || id.Name == "_" {
			return "", ""
		}
		t := o.info.TypeOf(id)
		if t == nil {
			return "", ""
		}
		return id.Name, types.TypeString(t, nil)
	}
	return "", ""
}

// oneExitIf returns s when it is an if without init or else whose body is
// one statement, nil otherwise.
func oneExitIf(s ast.Stmt) *ast.IfStmt {
	ifs, ok := s.(*ast.IfStmt)
	if !ok || ifs.Init != nil || ifs.Else != nil || len(ifs.Body.List) != 1 {
		return nil
	}
	return ifs
}

// firstKey is the key of the first statement of a range loop over values
// of type elem named v; "" without v.
func firstKey(v, elem string) string {
	if v == "" {
		return ""
	}
	return "first in a range over " + elem
}

// rangeKey is the key of a statement in a range loop over values of type
// elem, named v, with v left out of text: kv.Options and table.Options
// read the same in two loops over entries.
func rangeKey(elem, v, text string) string {
	if v == "" || text == "" || renameIdent(text, v, "·") == text {
		return ""
	}
	return "in a range over " + elem + ": " + renameIdent(text, v, "·")
}

// renameIdent replaces the identifier old by new in the Go source text,
// but not as a selector's field or method (x.old) nor in a literal.
func renameIdent(text, old, new string) string {
	var b strings.Builder
	quote := byte(0)
	for i := 0; i < len(text); {
		c := text[i]
		switch {
		case quote != 0:
			b.WriteByte(c)
			if c == '\\' && i+1 < len(text) {
				b.WriteByte(text[i+1])
				i += 2
				continue
			}
			if c == quote {
				quote = 0
			}
			i++
			continue
		case c == '"' || c == '\'' || c == '`':
			quote = c
			b.WriteByte(c)
			i++
			continue
		case isIdentByte(c):
			j := i
			for j < len(text) && isIdentByte(text[j]) {
				j++
			}
			word := text[i:j]
			if word == old && (i == 0 || text[i-1] != '.') {
				word = new
			}
			b.WriteString(word)
			i = j
			continue
		}
		b.WriteByte(c)
		i++
	}
	return b.String()
}

func isIdentByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c >= 0x80
}

// loopOf returns n and its body when n is a for or range loop.
func loopOf(n ast.Node) (ast.Stmt, *ast.BlockStmt) {
	switch n := n.(type) {
	case *ast.ForStmt:
		return n, n.Body
	case *ast.RangeStmt:
		return n, n.Body
	}
	return nil, nil
}

// loopHeader is the text of a loop up to its body, on one line and marked
// as a header ("for _, kv := range t.kvs {"), "" when it spans lines.
func loopHeader(src []byte, tf *token.File, loop ast.Stmt, body *ast.BlockStmt) string {
	start, end := tf.Offset(loop.Pos()), tf.Offset(body.Lbrace)
	if start < 0 || end >= len(src) || start >= end {
		return ""
	}
	h := strings.TrimSpace(string(src[start:end]))
	if strings.ContainsAny(h, "\n`") || strings.Contains(h, "//") || strings.Contains(h, "/*") {
		return ""
	}
	return h + " {"
}

// hasString reports whether n writes a string literal: a message says
// where it was written (go-toml's unmarshalDateTime and
// unmarshalLocalTime start alike, and the first's "datetime" in the
// second's error is a wrong message; sibling.go adapts those words).
func hasString(n ast.Node) bool {
	return len(stringLits(n)) > 0
}

// exitCompiles reports whether s, an exit statement of another place in
// the file (its text adapted to the site by adapt), compiles at the site: an unlabelled continue in a loop, an
// unlabelled break that leaves a loop, or a return whose results
// type-check at the site and are assignable to sig's.
func (o *observer) exitCompiles(s ast.Stmt, adapt func(string) string, sig *types.Signature, src []byte, tf *token.File, inLoop, breakable bool) bool {
	switch s := s.(type) {
	case *ast.BranchStmt:
		switch {
		case s.Label != nil:
			return false
		case s.Tok == token.CONTINUE:
			return inLoop
		case s.Tok == token.BREAK:
			return breakable
		}
	case *ast.ReturnStmt:
		if sig == nil || len(s.Results) != sig.Results().Len() {
			return false
		}
		for k, r := range s.Results {
			t, err := o.typeAt(adapt(oneLineSource(src, tf, r)))
			if err != nil || !types.AssignableTo(t, sig.Results().At(k).Type()) {
				return false
			}
		}
		return true
	}
	return false
}

// boolAt reports whether expr type-checks at the site as a boolean.
func (o *observer) boolAt(expr string) bool {
	t, err := o.typeAt(expr)
	return err == nil && isBool(t)
}

// stmtTexts is the set of the one-line texts of list's statements: what
// a block already holds.
func stmtTexts(list []ast.Stmt, src []byte, tf *token.File) map[string]bool {
	here := map[string]bool{}
	for _, s := range list {
		here[oneLineSource(src, tf, s)] = true
	}
	return here
}

// enclosingList is the statement list that holds stmt: that of the
// innermost block, case or select clause among its ancestors.
func enclosingList(stmt ast.Stmt, stack []ast.Node) []ast.Stmt {
	for k := len(stack) - 1; k >= 0; k-- {
		if l := stmtList(stack[k]); slices.Index(l, stmt) >= 0 {
			return l
		}
	}
	return nil
}

// stmtList is the statement list of a block or clause, nil for other
// nodes.
func stmtList(n ast.Node) []ast.Stmt {
	switch n := n.(type) {
	case *ast.BlockStmt:
		return n.List
	case *ast.CaseClause:
		return n.Body
	case *ast.CommClause:
		return n.Body
	}
	return nil
}
