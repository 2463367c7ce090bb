package collect

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strconv"
	"strings"
	"unicode"
)

// A sibling is a function of the same file and receiver whose name is one
// word away from the function of a guard site: unmarshalLocalDate beside
// unmarshalLocalTime (a word replaced), unmarshalLocalDateTime beside
// unmarshalDateTime (a word more), or the reverse. Siblings do the same
// job on different inputs, and a guard one of them has is often the guard
// another one misses (go-toml v2.3.0 added the same type check to four
// of them). StrategySibling offers a sibling's guarded return, its string
// literals saying the function's word where they said the sibling's:
//
//	if v.Kind() != reflect.Interface && v.Type() != timeType {
//		return unstable.NewParserError(d.p.Raw(value.Raw), "%s", d.typeMismatchString("local date", v.Type()))
//	}
//
// in unmarshalLocalDate gives unmarshalLocalTime the exit
// `return unstable.NewParserError(…, d.typeMismatchString("local time", v.Type()))`
// and the guard's condition (Exit.Guard), which the repair validates
// before the conditions synthesized for that exit.
//
// A return is taken only when every variable it and its guard read is a
// parameter or the receiver of the sibling, and the function has one of
// the same name and type at the site; when it builds its value (a call
// or a composite literal: `return err`, `return nil` are no sibling's);
// and when no string literal in it names the sibling after the
// adaptation (a literal saying "local datetime" is no message for
// unmarshalLocalTime). A word the function's name adds right after the
// verb goes in front of the phrase of the sibling's other words:
// unmarshalDateTime's "datetime" is unmarshalLocalDateTime's "local
// datetime" (go-toml v2.3.0).

// maxSiblingExits bounds the sibling returns offered at one site.
const maxSiblingExits = 2

// siblingReturns are the exits a site's function fn can borrow from its
// siblings, the closest sibling first (most words shared, then by name).
func (o *observer) siblingReturns(fn ast.Node, sig *types.Signature, src []byte, tf *token.File) []Exit {
	fd, ok := fn.(*ast.FuncDecl)
	if !ok || fd.Body == nil {
		return nil
	}
	inner := o.pkg.Scope().Innermost(o.pos)
	if inner == nil {
		return nil
	}
	var out []Exit
	for _, s := range o.siblingsOf(fd) {
		for _, ret := range o.returnsOf(s.decl) {
			if len(out) >= maxSiblingExits {
				return out
			}
			if ret.guard == nil || len(ret.stmt.Results) != sig.Results().Len() || !builds(ret.stmt) {
				continue
			}
			subst, ok := o.paramsCarryOver([]ast.Node{ret.stmt, ret.guard}, s.sig, sig, inner)
			if !ok {
				continue
			}
			results := make([]string, len(ret.stmt.Results))
			for i, r := range ret.stmt.Results {
				text, adapted := s.words.adapt(src, tf, r, subst)
				t, err := o.typeAt(text)
				if !adapted || err != nil || !types.AssignableTo(t, sig.Results().At(i).Type()) {
					ok = false
					break
				}
				results[i] = text
			}
			guard, adapted := s.words.adapt(src, tf, ret.guard, subst)
			if !ok || !adapted || o.checkExpr(guard) != nil {
				continue
			}
			out = append(out, Exit{Body: "return " + strings.Join(results, ", "), Strategy: StrategySibling, Guard: guard, From: s.decl.Name.Name, Params: carried(subst)})
		}
	}
	return out
}

// A sibling is a function of the file one name word away from another.
type sibling struct {
	decl   *ast.FuncDecl
	sig    *types.Signature
	shared int
	words  wordChange
}

// siblingsOf are the siblings of fd in its file, closest first (most words
// shared, then by name), found once per function: every guard site of fd
// asks.
func (o *observer) siblingsOf(fd *ast.FuncDecl) []sibling {
	if sibs, ok := o.facts.siblings[fd]; ok {
		return sibs
	}
	var sibs []sibling
	for _, d := range o.file.Decls {
		g, ok := d.(*ast.FuncDecl)
		if !ok || g == fd || g.Body == nil || !sameReceiver(fd, g, o.info) {
			continue
		}
		obj, ok := o.info.Defs[g.Name].(*types.Func)
		if !ok {
			continue
		}
		ch, shared, ok := oneWordAway(g.Name.Name, fd.Name.Name)
		if !ok {
			continue
		}
		sibs = append(sibs, sibling{g, obj.Signature(), shared, ch})
	}
	slices.SortStableFunc(sibs, func(a, b sibling) int {
		if a.shared != b.shared {
			return b.shared - a.shared
		}
		return strings.Compare(a.decl.Name.Name, b.decl.Name.Name)
	})
	if o.facts.siblings == nil {
		o.facts.siblings = map[*ast.FuncDecl][]sibling{}
	}
	o.facts.siblings[fd] = sibs
	return sibs
}

// sameReceiver reports whether f and g are both package-level functions
// or both methods of the same named type.
func sameReceiver(f, g *ast.FuncDecl, info *types.Info) bool {
	if (f.Recv == nil) != (g.Recv == nil) {
		return false
	}
	if f.Recv == nil {
		return true
	}
	base := func(fd *ast.FuncDecl) types.Type {
		if len(fd.Recv.List) == 0 {
			return nil
		}
		t := info.TypeOf(fd.Recv.List[0].Type)
		if p, ok := t.(*types.Pointer); ok {
			t = p.Elem()
		}
		return t
	}
	a, b := base(f), base(g)
	return a != nil && b != nil && types.Identical(a, b)
}

// builds reports whether ret builds a value: it has a call or a
// composite literal.
func builds(ret *ast.ReturnStmt) bool {
	found := false
	ast.Inspect(ret, func(n ast.Node) bool {
		switch n.(type) {
		case *ast.CallExpr, *ast.CompositeLit:
			found = true
		case *ast.FuncLit:
			return false
		}
		return !found
	})
	return found
}

// paramsCarryOver reports whether every variable the nodes read (not a
// field, not a package variable) is a parameter or the receiver of from
// that carries over to the site, where to is the function's signature;
// the nodes declare nothing. A name carries over as itself when it means
// a parameter or the receiver of to, of the same type, at the site.
// Otherwise a parameter of from, or a field path rooted at one
// (`vi.High`), carries over as the parameter of to of its type whose name
// its uses point to (see paramNamed), and subst maps each such
// expression to that name: AddRetract's
//
//	if !isCanonicalVersion(vi.High) {
//		return &module.InvalidVersionError{Version: vi.High, ...}
//
// is, in AddExclude(path, vers string), `!isCanonicalVersion(vers)` and
// `Version: vers`: isCanonicalVersion's parameter is vers, and vers
// begins Version; path has no such tie.
func (o *observer) paramsCarryOver(nodes []ast.Node, from, to *types.Signature, inner *types.Scope) (subst map[ast.Node]string, ok bool) {
	isParam := func(sig *types.Signature, v *types.Var) bool {
		if sig.Recv() == v {
			return true
		}
		for p := range sig.Params().Variables() {
			if p == v {
				return true
			}
		}
		return false
	}
	paramOf := func(e ast.Expr) *types.Var {
		id, isID := ast.Unparen(e).(*ast.Ident)
		if !isID {
			return nil
		}
		v, isVar := o.info.Uses[id].(*types.Var)
		if !isVar || !isParam(from, v) {
			return nil
		}
		return v
	}
	// The field paths rooted at a parameter (the longest: Inspect visits
	// vi.High before vi), with that parameter and the names their uses
	// point to.
	type path struct {
		e    ast.Expr
		root *ast.Ident
		uses []string
	}
	var paths []path
	for _, n := range nodes {
		var stack []ast.Node
		ast.Inspect(n, func(n ast.Node) bool {
			if n == nil {
				stack = stack[:len(stack)-1]
				return true
			}
			stack = append(stack, n)
			e, isExpr := n.(ast.Expr)
			if !isExpr {
				return true
			}
			if _, isSel := e.(*ast.SelectorExpr); !isSel && paramOf(e) == nil {
				return true
			}
			root, names := fieldPath(e, o.info)
			if root == nil || paramOf(root) == nil {
				return true
			}
			paths = append(paths, path{e, root, append(names, usedAs(e, stack, o.info)...)})
			stack = stack[:len(stack)-1] // no nil call follows a false
			return false
		})
	}
	subst = map[ast.Node]string{}
	for _, p := range paths {
		v := paramOf(p.root)
		_, got := inner.LookupParent(p.root.Name, o.pos)
		if w, isVar := got.(*types.Var); isVar && isParam(to, w) && types.Identical(w.Type(), v.Type()) {
			continue // carried over as itself
		}
		if from.Recv() == v {
			return nil, false
		}
		name := paramNamed(to, o.info.TypeOf(p.e), p.uses, func(name string) types.Object {
			_, got := inner.LookupParent(name, o.pos)
			return got
		})
		if name == "" {
			return nil, false
		}
		subst[p.e] = name
	}
	// Any other variable read is a local of the sibling's.
	ok = true
	for _, n := range nodes {
		ok = ok && o.namesIn(n, func(id *ast.Ident, obj types.Object) bool {
			v, isVar := obj.(*types.Var)
			if !isVar || v.IsField() || v.Pkg() != nil && v.Parent() == v.Pkg().Scope() {
				return true // a package's constant, function, type or variable
			}
			return isParam(from, v) // a parameter: carried over above
		})
	}
	return subst, ok
}

// carried says what subst replaces ("vi.High as vers, vi.Low as vers"),
// each once, in the order of the source.
func carried(subst map[ast.Node]string) string {
	var es []ast.Node
	for e := range subst {
		es = append(es, e)
	}
	slices.SortFunc(es, func(a, b ast.Node) int { return int(a.Pos() - b.Pos()) })
	var out []string
	for _, e := range es {
		if s := types.ExprString(e.(ast.Expr)) + " as " + subst[e]; !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return strings.Join(out, ", ")
}

// fieldPath returns the parameter or variable a selector path of fields
// starts from (vi of vi.High) with the path's names, last first; nil when
// e is no such path (a method value, a package's member).
func fieldPath(e ast.Expr, info *types.Info) (root *ast.Ident, names []string) {
	for {
		switch x := ast.Unparen(e).(type) {
		case *ast.Ident:
			return x, append(names, x.Name)
		case *ast.SelectorExpr:
			sel := info.Selections[x]
			if sel == nil || sel.Kind() != types.FieldVal {
				return nil, nil
			}
			names = append(names, x.Sel.Name)
			e = x.X
		default:
			return nil, nil
		}
	}
}

// usedAs are the names the place of e points to: the parameter of the
// function it is passed to (isCanonicalVersion's vers), the field it is
// the value of in a composite literal (Version).
func usedAs(e ast.Expr, stack []ast.Node, info *types.Info) []string {
	if len(stack) < 2 {
		return nil
	}
	switch p := stack[len(stack)-2].(type) {
	case *ast.CallExpr:
		sig, ok := info.TypeOf(p.Fun).(*types.Signature)
		if !ok {
			return nil
		}
		for i, a := range p.Args {
			if a == e && i < sig.Params().Len() && !(sig.Variadic() && i >= sig.Params().Len()-1) {
				return []string{sig.Params().At(i).Name()}
			}
		}
	case *ast.KeyValueExpr:
		if k, ok := p.Key.(*ast.Ident); ok && p.Value == e {
			return []string{k.Name}
		}
	}
	return nil
}

// paramNamed is the parameter of sig (not its receiver) of type t, seen
// as itself at the site (lookup), whose name the names point to best:
// the same name (case aside), or one beginning the other with three
// letters or more (vers, Version). "" when none does, or two do equally.
func paramNamed(sig *types.Signature, t types.Type, names []string, lookup func(string) types.Object) string {
	score := func(p string) int {
		best := 0
		p = strings.ToLower(p)
		for _, n := range names {
			n = strings.ToLower(n)
			switch {
			case n == p:
				best = max(best, 2)
			case min(len(n), len(p)) >= 3 && (strings.HasPrefix(n, p) || strings.HasPrefix(p, n)):
				best = max(best, 1)
			}
		}
		return best
	}
	best, bestScore, tie := "", 0, false
	for p := range sig.Params().Variables() {
		if t == nil || !types.Identical(p.Type(), t) || lookup(p.Name()) != p {
			continue
		}
		switch sc := score(p.Name()); {
		case sc > bestScore:
			best, bestScore, tie = p.Name(), sc, false
		case sc == bestScore && sc > 0:
			tie = true
		}
	}
	if tie || bestScore == 0 {
		return ""
	}
	return best
}

// A wordChange is how a sibling's name becomes the function's: the word
// of the sibling's that the function does not have (from, "" when the
// function's name only adds a word) and the function's that the sibling
// does not have (to, "" when it only drops one); rest are the sibling's
// other words but its first (the verb the family shares: unmarshal).
type wordChange struct {
	from, to string
	rest     []string
	// front is set when the function's name adds its word right after
	// the verb, before all of the sibling's others (unmarshalDateTime,
	// unmarshalLocalDateTime).
	front bool
}

// oneWordAway returns how sibling's name becomes fn's when the two are
// one word apart, in place (one replaced, added or dropped: LocalDate,
// LocalTime; LocalDateTime, DateTime; not LocalDate, DateTime) and share
// at least one, with the number they share.
func oneWordAway(sibling, fn string) (ch wordChange, shared int, ok bool) {
	s, f := camelWords(sibling), camelWords(fn)
	without := func(ws []string, i int) []string { return slices.Concat(ws[:i:i], ws[i+1:]) }
	switch {
	case len(s) == len(f):
		for i := range s {
			if s[i] != f[i] {
				if ch.from != "" || slices.Contains(f, s[i]) || slices.Contains(s, f[i]) {
					return wordChange{}, 0, false
				}
				ch.from, ch.to = s[i], f[i]
			}
		}
	case len(s) == len(f)+1:
		for i := range s {
			if slices.Equal(without(s, i), f) && !slices.Contains(f, s[i]) {
				ch.from = s[i]
			}
		}
	case len(f) == len(s)+1:
		for i := range f {
			if slices.Equal(without(f, i), s) && !slices.Contains(s, f[i]) {
				// A word of one or two letters (U of UInt) is no
				// word of a message.
				ch.to, ch.front = f[i], i == 1 && len(f[i]) > 2
			}
		}
	}
	shared = min(len(s), len(f))
	if ch.from == "" && ch.to == "" {
		return wordChange{}, 0, false
	}
	if len(s) == len(f) {
		shared--
	}
	if shared == 0 {
		return wordChange{}, 0, false
	}
	for _, w := range s[1:] {
		if w != ch.from {
			ch.rest = append(ch.rest, w)
		}
	}
	return ch, shared, true
}

// adapt returns n's source on one line with the expressions of subst
// replaced by their names (see paramsCarryOver) and the sibling's word
// replaced by the function's (or dropped) in its string literals and in
// the names it uses (renameWord), and ok false
// when a literal still names the sibling: its word inside another
// ("datetime" when the word is date), or, when the function's name only
// adds a word, any of the sibling's words but the first (a literal that
// says "local date" cannot say which "local date time" is meant).
func (ch wordChange) adapt(src []byte, tf *token.File, n ast.Node, subst map[ast.Node]string) (string, bool) {
	start := tf.Offset(n.Pos())
	text := []byte(string(src[start:tf.Offset(n.End())]))
	type edit struct {
		from, to int
		text     string
	}
	var edits []edit
	ok := true
	ast.Inspect(n, func(n ast.Node) bool {
		if name, ok := subst[n]; ok {
			edits = append(edits, edit{tf.Offset(n.Pos()) - start, tf.Offset(n.End()) - start, name})
			return false
		}
		if id, isID := n.(*ast.Ident); isID && ch.from != "" {
			// durationType in decodeDuration is timeType in decodeTime
			// (the result must type-check at the site).
			if name := renameWord(id.Name, ch.from, ch.to); name != id.Name {
				edits = append(edits, edit{tf.Offset(id.Pos()) - start, tf.Offset(id.End()) - start, name})
			}
			return false
		}
		lit, isLit := n.(*ast.BasicLit)
		if !ok || !isLit || lit.Kind != token.STRING {
			return ok
		}
		s, err := strconv.Unquote(lit.Value)
		if err != nil {
			ok = false
			return false
		}
		if ch.from == "" {
			t, named := ch.prefixPhrase(s)
			if named {
				ok = false
			} else if t != s {
				edits = append(edits, edit{tf.Offset(lit.Pos()) - start, tf.Offset(lit.End()) - start, quoteLike(lit.Value, t)})
			}
			return false
		}
		t := replaceWord(s, ch.from, ch.to)
		if strings.Contains(strings.ToLower(t), ch.from) {
			ok = false
			return false
		}
		if t != s {
			edits = append(edits, edit{tf.Offset(lit.Pos()) - start, tf.Offset(lit.End()) - start, quoteLike(lit.Value, t)})
		}
		return false
	})
	if !ok {
		return "", false
	}
	for i := len(edits) - 1; i >= 0; i-- {
		e := edits[i]
		text = append(text[:e.from:e.from], append([]byte(e.text), text[e.to:]...)...)
	}
	t := joinLines(string(text))
	return t, t != ""
}

// quoteLike quotes s as the literal lit is quoted (raw when it was and s
// allows it).
func quoteLike(lit, s string) string {
	if lit[0] == '`' && !strings.Contains(s, "`") {
		return "`" + s + "`"
	}
	return strconv.Quote(s)
}

// prefixPhrase adapts the string s of a sibling whose name the
// function's adds a word to (ch.from is ""): when the word comes right
// after the verb (ch.front), each whole phrase of the sibling's other
// words, written together or apart ("datetime", "date time"), gets it
// in front ("local datetime" in unmarshalLocalDateTime for
// unmarshalDateTime's "datetime"); named reports that s still names the
// sibling: one of those words outside such a phrase, or any of them when
// the word comes elsewhere (a literal that says "local date" cannot say
// which "local date time" is meant).
func (ch wordChange) prefixPhrase(s string) (t string, named bool) {
	lower := strings.ToLower(s)
	hasRest := func(x string) bool {
		return slices.ContainsFunc(ch.rest, func(w string) bool { return strings.Contains(x, w) })
	}
	if !ch.front || len(ch.rest) == 0 || len(lower) != len(s) {
		return s, hasRest(lower)
	}
	var b, left strings.Builder // left: s without the phrases
	i := 0
	for i < len(s) {
		n := 0
		for _, sep := range []string{"", " "} {
			p := strings.Join(ch.rest, sep)
			if strings.HasPrefix(lower[i:], p) && (i == 0 || !isWordByte(lower[i-1])) && (i+len(p) == len(s) || !isWordByte(lower[i+len(p)])) {
				n = len(p)
				break
			}
		}
		if n == 0 {
			b.WriteByte(s[i])
			left.WriteByte(lower[i])
			i++
			continue
		}
		left.WriteByte(' ')
		word := ch.to
		if c := s[i]; c >= 'A' && c <= 'Z' {
			word = strings.ToUpper(word[:1]) + word[1:]
			b.WriteString(word + " " + strings.ToLower(s[i:i+1]) + s[i+1:i+n])
		} else {
			b.WriteString(word + " " + s[i:i+n])
		}
		i += n
	}
	// What is left once the phrases are out must not name the sibling.
	return b.String(), hasRest(left.String())
}

// replaceWord replaces the whole word from (lower case) in s, in any case,
// by to in the same case (Date → Time, DATE → TIME), or drops it with a
// space beside it when to is "".
func replaceWord(s, from, to string) string {
	lower := strings.ToLower(s)
	var b strings.Builder
	i := 0
	for {
		k := strings.Index(lower[i:], from)
		if k < 0 {
			b.WriteString(s[i:])
			return b.String()
		}
		k += i
		end := k + len(from)
		if k > 0 && isWordByte(s[k-1]) || end < len(s) && isWordByte(s[end]) {
			b.WriteString(s[i:end])
			i = end
			continue
		}
		word := s[k:end]
		switch {
		case to == "":
			b.WriteString(s[i:k])
			if end < len(s) && s[end] == ' ' {
				end++
			} else if b.Len() > 0 && strings.HasSuffix(b.String(), " ") {
				str := b.String()
				b.Reset()
				b.WriteString(str[:len(str)-1])
			}
		case strings.ToUpper(word) == word && len(word) > 1:
			b.WriteString(s[i:k] + strings.ToUpper(to))
		case unicode.IsUpper(rune(word[0])):
			b.WriteString(s[i:k] + strings.ToUpper(to[:1]) + to[1:])
		default:
			b.WriteString(s[i:k] + to)
		}
		i = end
	}
}

// renameWord is name with its camel-case word from replaced by to (in the
// word's case) or dropped, name itself when it has no such word or would
// lose its only one.
func renameWord(name, from, to string) string {
	var parts []string
	rs := []rune(name)
	start := 0
	for i := 1; i <= len(rs); i++ {
		if i == len(rs) || rs[i] == '_' || unicode.IsUpper(rs[i]) && (unicode.IsLower(rs[i-1]) || i+1 < len(rs) && unicode.IsLower(rs[i+1]) && unicode.IsUpper(rs[i-1])) {
			parts = append(parts, string(rs[start:i]))
			start = i
		}
	}
	changed := false
	var out []string
	for _, p := range parts {
		if strings.ToLower(strings.Trim(p, "_")) != from {
			out = append(out, p)
			continue
		}
		changed = true
		if to == "" {
			continue
		}
		w := to
		if word := strings.TrimLeft(p, "_"); unicode.IsUpper([]rune(word)[0]) {
			w = strings.ToUpper(to[:1]) + to[1:]
		}
		out = append(out, p[:len(p)-len(strings.TrimLeft(p, "_"))]+w)
	}
	if !changed || len(out) == 0 {
		return name
	}
	if r := []rune(out[0]); unicode.IsUpper(r[0]) != unicode.IsUpper(rs[0]) {
		// The first word dropped: the next keeps the name's export.
		if unicode.IsUpper(rs[0]) {
			out[0] = strings.ToUpper(string(r[0])) + string(r[1:])
		} else {
			out[0] = strings.ToLower(string(r[0])) + string(r[1:])
		}
	}
	return strings.Join(out, "")
}

func isWordByte(c byte) bool {
	return c == '_' || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}

// OneWordAway reports whether the function names a and b are one word
// apart (oneWordAway: one replaced, added or dropped, at least one
// shared): RangeInt and RangeInt64, LocalDate and LocalDateTime.
func OneWordAway(a, b string) bool {
	_, _, ok := oneWordAway(a, b)
	return ok
}
