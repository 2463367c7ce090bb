package collect

import (
	"context"
	"go/ast"
	"go/parser"
	"go/token"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
)

func TestExits(t *testing.T) {
	f := load(t, "exits")
	tests := []struct {
		line int
		wrap bool
		want string // strategy:body, "|"-separated
	}{
		// Before `n := ...`: the reused return's sentinel is not
		// offered twice.
		{17, false, `reuse-return:return 0, io.EOF|zero-values:return 0, nil|error-new:return 0, fmt.Errorf("Read: invalid off %v", off)`},
		// Before the final return: not itself.
		{21, false, `reuse-return:return 0, io.EOF|zero-values:return 0, nil|error-new:return 0, fmt.Errorf("Read: invalid off %v", off)`},
		// `return -1, err` names an err declared in a block: not reused;
		// the package's sentinel the function uses instead.
		{26, false, `zero-values:return 0, nil|error-sentinel:return 0, ErrShort|error-new:return 0, fmt.Errorf("Parse: invalid s %q", s)`},
		{31, false, `zero-values:return 0, nil|error-sentinel:return 0, ErrShort|error-new:return 0, fmt.Errorf("Parse: invalid s %q", s)`},
		// Before a loop; in a loop, in a switch: continue, not break; in
		// the loop's body: both.
		{37, false, `reuse-return:return total|zero-values:return 0`},
		{40, true, `continue:continue|reuse-return:return total|zero-values:return 0`},
		{42, true, `continue:continue|reuse-return:return total|zero-values:return 0|break:break`},
		// An in-scope value of the result type (NpeFix s4c).
		{50, false, `zero-values:return nil|in-scope-value:return n`},
		// Named results: a bare return, also as their zero values.
		{55, true, `reuse-return:return|error-new:return 0, fmt.Errorf("Named: invalid x %v", x)`},
		{56, false, `error-new:return 0, fmt.Errorf("Named: invalid x %v", x)`},
		// A named result shadowed: the zero values are written out.
		{63, true, `reuse-return:return x|zero-values:return 0`},
		// A literal over several lines, reused on one line once y is
		// declared.
		{70, false, `reuse-return:return nil|error-new:return fmt.Errorf("Multi: invalid x %v", x)`},
		{71, false, `reuse-return:return nil|reuse-return:return &multiErr{ code: y, }|error-new:return fmt.Errorf("Multi: invalid x %v", x)`},
		{72, false, `reuse-return:return &multiErr{ code: y, }|error-new:return fmt.Errorf("Multi: invalid x %v", x)`},
		// A method of the same receiver and signature, the closest by
		// name (isTableName ties on words but is not a method).
		{89, false, `zero-values:return false|delegate:return e.isMarshalerTable(v)|in-scope-value:return true`},
		// A parameter of the callee filled by a local of its type.
		{102, false, `zero-values:return false|delegate:return e.encodeString(rv)|in-scope-value:return true`},
		// One word in common is no variant of the same operation.
		{110, false, `zero-values:return false|in-scope-value:return true`},
		// The first three returns, then the one that passes on its
		// error (Exit.Err: the variable it returns as the error).
		{130, false, `reuse-return:return 0, ErrShort|reuse-return:return 0, io.EOF|reuse-return:return -1, ErrShort|reuse-return:return 0, err (err err)|zero-values:return 0, nil|error-new:return 0, fmt.Errorf("Prop: invalid s %q", s)`},
	}
	for _, tt := range tests {
		var site *Site
		for i, s := range f.prog.Sites {
			if s.Kind == Guard && s.Line == tt.line && strings.HasSuffix(s.File, "/ex.go") {
				site = &f.prog.Sites[i]
			}
		}
		if site == nil {
			t.Errorf("ex.go:%d: no guard site", tt.line)
			continue
		}
		var got []string
		for _, e := range site.Exits {
			s := e.Strategy + ":" + e.Body
			if e.Err != "" {
				s += " (err " + e.Err + ")"
			}
			got = append(got, s)
		}
		if site.CanWrap != tt.wrap || strings.Join(got, "|") != tt.want {
			t.Errorf("ex.go:%d `%s`: wrap=%v exits\n%s\nwant wrap=%v\n%s", tt.line, site.Original, site.CanWrap, strings.Join(got, "|"), tt.wrap, tt.want)
		}
	}

	// Every exit compiles where it is spliced, and a forced exit leaves
	// by it: Sum's `continue` before `total += x` leaves only the switch's 10;
	// Read's error-new exit returns the new error.
	f = instrument(t, "exits")
	const pkg = "example.com/exits/ex"
	for _, tc := range []struct {
		test     string
		line     int
		strategy string
		output   string
	}{
		{"TestSum", 42, StrategyContinue, "Sum = 10"},
		{"TestRead", 21, StrategyErrNew, `Read = 0, Read: invalid off 1`},
		{"TestMulti", 70, StrategyReuse, "Multi(0) = <nil>"},
		{"TestIsTable", 89, StrategyDelegate, "isTable(1) = false"},
		{"TestDecodeLocalTime", 31, StrategySibling, "decodeLocalTime = cannot decode a local time into -1"},
	} {
		file := "ex.go"
		if tc.strategy == StrategySibling {
			file = "sib.go"
		}
		id := f.site(t, Guard, file, tc.line)
		res, err := f.build.Run(context.Background(), Run{Package: pkg, Test: tc.test, Mode: ModeCover, ForceSegment: -1,
			Force: map[int]bool{id: false}, ForceExit: map[int]int{id: f.exit(t, id, tc.strategy)}})
		if err != nil {
			t.Fatal(err)
		}
		if res.Passed || !strings.Contains(res.Output, tc.output) {
			t.Errorf("%s with the %s exit at ex.go:%d: passed=%v, want a failure with %q:\n%s", tc.test, tc.strategy, tc.line, res.Passed, tc.output, res.Output)
		}
	}
	f.checkUntouched(t)
}

// TestSiblingExits: the guarded returns a method borrows from the
// methods of its receiver one name word away (sibling.go).
func TestSiblingExits(t *testing.T) {
	f := load(t, "exits")
	for _, tt := range []struct {
		line  int
		want  string // strategy:body, "|"-separated
		guard string // the sibling exit's guard " in " its sibling
	}{
		// A sibling's guarded return, its word replaced (date → time);
		// not decodeLocalDateTime's ("datetime" names the sibling still),
		// not a return of a sentinel or of a local of the sibling's.
		{31, `sibling-return:return fmt.Errorf("cannot decode a local time into %d", n)|error-new:return fmt.Errorf("decoder.decodeLocalTime: invalid s %q", s)|delegate:return d.decodeLocalDateTime(s, n)`, "n < 0 && d.strict in decodeLocalDate"},
		// A word dropped in place (local); decodeLocalDate is two words
		// away ("a time date" is no message).
		{35, `sibling-return:return fmt.Errorf("cannot decode a datetime into %d", n)|error-new:return fmt.Errorf("decoder.decodeDateTime: invalid s %q", s)|delegate:return d.decodeLocalDateTime(s, n)`, "n < 0 in decodeLocalDateTime"},
		// A word added: a literal naming the sibling cannot say which;
		// a parameter renamed (count): the guard does not carry over.
		{39, `error-new:return fmt.Errorf("decoder.decodeLocalDateTimeZone: invalid s %q", s)|delegate:return d.decodeLocalDateTime(s, count)`, ""},
		// A word added right after the verb: the phrase of the
		// sibling's other words gets it in front.
		{56, `sibling-return:return fmt.Errorf("cannot parse a local datetime into %d", n)|error-new:return fmt.Errorf("parser.parseLocalDateTime: invalid s %q", s)|delegate:return p.parseDateTime(s, n)`, "n < 0 in parseDateTime"},
		// A field of a parameter (vi.High) carries over as the
		// parameter its uses name: isCanonical's vers, Version's
		// prefix; not path, of the same type.
		{81, `reuse-return:return nil|sibling-return:return &versionError{Version: vers, Err: fmt.Errorf("must be of the form v1.2.3")}|error-new:return fmt.Errorf("file.AddExclude: invalid path %q", path)`, "!isCanonical(vers) in AddRetract (vi.High as vers)"},
		// No parameter's name is pointed to (old, new): none.
		{86, `reuse-return:return nil|error-new:return fmt.Errorf("file.AddReplace: invalid old %q", old)`, ""},
		// A field path used as a method's receiver (s.To.ok()) and
		// converted (string(s.To)) carries over by its own name (To).
		{105, `reuse-return:return nil|sibling-return:return &versionError{Version: string(to), Err: fmt.Errorf("bad end")}|error-new:return fmt.Errorf("file.AddPoint: invalid from %q", from)`, "!to.ok() in AddSpan (s.To as to)"},
		// A function is no sibling of a method.
		{43, `error-new:return fmt.Errorf("decodeLocalTime: invalid s %q", s)`, ""},
	} {
		site := guardSiteAt(t, f, "sib.go", tt.line)
		if site == nil {
			continue
		}
		var got []string
		for _, e := range site.Exits {
			got = append(got, e.Strategy+":"+e.Body)
			if e.Strategy == StrategySibling && strings.TrimSuffix(e.Guard+" in "+e.From+" ("+e.Params+")", " ()") != tt.guard {
				t.Errorf("sib.go:%d: the sibling's exit %q has guard %q in %q, want %q", tt.line, e.Body, e.Guard, e.From, tt.guard)
			}
		}
		if strings.Join(got, "|") != tt.want {
			t.Errorf("sib.go:%d `%s`: exits\n%s\nwant\n%s", tt.line, site.Original, strings.Join(got, "|"), tt.want)
		}
	}
}

func TestOneWordAway(t *testing.T) {
	for _, c := range []struct {
		sibling, fn string
		ok          bool
		from, to    string
		shared      int
		literal     string // the sibling's literal
		adapted     string // "" when it still names the sibling
	}{
		{"unmarshalLocalDate", "decoder.unmarshalLocalTime", true, "date", "time", 2, "local date", "local time"},
		{"unmarshalLocalDateTime", "decoder.unmarshalDateTime", true, "local", "", 3, "local datetime", "datetime"},
		{"unmarshalLocalDateTime", "decoder.unmarshalLocalTime", true, "date", "", 3, "local datetime", ""},
		{"unmarshalLocalDate", "decoder.unmarshalLocalDateTime", true, "", "time", 3, "local date", ""},
		{"unmarshalLocalDate", "decoder.unmarshalLocalDateTime", true, "", "time", 3, "%s: bad %d", "%s: bad %d"},
		// A word added right after the verb goes in front of the
		// sibling's others, written together or apart, in any case.
		{"unmarshalDateTime", "decoder.unmarshalLocalDateTime", true, "", "local", 3, "datetime", "local datetime"},
		{"unmarshalDateTime", "decoder.unmarshalLocalDateTime", true, "", "local", 3, "Date time: bad datetime", "Local date time: bad local datetime"},
		{"unmarshalDateTime", "decoder.unmarshalLocalDateTime", true, "", "local", 3, "a date, then a time", ""},
		{"unmarshalDateTime", "decoder.unmarshalLocalDateTime", true, "", "local", 3, "datetimes", ""},
		{"parseInt", "parseUInt", true, "", "u", 2, "bad int", ""},
		{"parseDate", "parseTime", true, "date", "time", 1, "Date: bad DATE", "Time: bad TIME"},
		{"unmarshalLocalDate", "decoder.unmarshalDateTime", false, "", "", 0, "", ""},
		{"readA", "writeB", false, "", "", 0, "", ""},
		{"encode", "decode", false, "", "", 0, "", ""},
	} {
		ch, shared, ok := oneWordAway(c.sibling, c.fn)
		if ok != c.ok || ch.from != c.from || ch.to != c.to || shared != c.shared {
			t.Errorf("oneWordAway(%s, %s) = %+v, %d, %v; want %q → %q, %d, %v", c.sibling, c.fn, ch, shared, ok, c.from, c.to, c.shared, c.ok)
		}
		if !ok {
			continue
		}
		src := "package p\nvar x = " + strconv.Quote(c.literal) + "\n"
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, "p.go", src, 0)
		if err != nil {
			t.Fatal(err)
		}
		lit := f.Decls[0].(*ast.GenDecl).Specs[0].(*ast.ValueSpec).Values[0]
		got, adapted := ch.adapt([]byte(src), fset.File(f.Pos()), lit, nil)
		want := ""
		if c.adapted != "" {
			want = strconv.Quote(c.adapted)
		}
		if adapted != (c.adapted != "") || got != want {
			t.Errorf("%s → %s: %q adapted to %s, %v; want %s", c.sibling, c.fn, c.literal, got, adapted, want)
		}
	}
}

func TestRenameWord(t *testing.T) {
	for _, c := range []struct{ name, from, to, want string }{
		{"durationType", "duration", "time", "timeType"},
		{"errBadDate", "date", "time", "errBadTime"},
		{"ErrLocalDate", "local", "", "ErrDate"},
		{"localDate", "local", "", "date"},
		{"date", "date", "", "date"},
		{"datetime", "date", "time", "datetime"},
		{"max_date", "date", "time", "max_time"},
	} {
		if got := renameWord(c.name, c.from, c.to); got != c.want {
			t.Errorf("renameWord(%s, %s, %s) = %s, want %s", c.name, c.from, c.to, got, c.want)
		}
	}
}

// TestLeaveOut: the compiler's complaint about an instrumented file
// (named by a relative path) costs the sites of the function it names;
// without a position, every guard's exits.
func TestLeaveOut(t *testing.T) {
	// A program of its own: dropping changes its sites.
	prog, err := Load(context.Background(), extract(t, "exits"), nil)
	if err != nil {
		t.Fatal(err)
	}
	replace := map[string]string{}
	var sum int
	for _, s := range prog.Sites {
		if strings.HasSuffix(s.File, "ex.go") {
			replace[s.File] = "/tmp/ov/src/3_ex.go"
		}
		if s.Func == "Sum" {
			sum++
		}
	}
	msg := "# example.com/exits/ex\n../ov/src/3_ex.go:45:1: missing return\n"
	dropped := prog.leaveOut(msg, replace)
	if len(dropped) != sum || sum == 0 {
		t.Errorf("dropped %v, want Sum's %d sites", dropped, sum)
	}
	for i, s := range prog.Sites {
		if (s.Func == "Sum") != (len(prog.siteWraps(i, true)) == 0) {
			t.Errorf("%s:%d in %s: instrumented %v", s.File, s.Line, s.Func, prog.siteWraps(i, true))
		}
	}
	prog.leaveOut("exit status 1", replace)
	for _, s := range prog.Sites {
		if len(s.Exits) > 0 && s.Func != "Sum" { // Sum's sites are out already
			t.Errorf("%s:%d keeps its exits", s.File, s.Line)
		}
	}
}

func TestSharedWords(t *testing.T) {
	for _, c := range []struct {
		a, b          string
		shared, extra int
	}{
		{"encoderState.isArrayOfTables", "isMarshalerArrayOfTables", 4, 1},
		{"encoderState.encodeRoot", "encodeMarshalerRoot", 2, 1},
		{"decoder.unmarshalInteger", "unmarshalFloat", 1, 1},
		{"parseHTTPBody", "readHTTPBody", 2, 1},
		{"Parse", "format_value", 0, 2},
	} {
		if s, e := sharedWords(c.a, c.b); s != c.shared || e != c.extra {
			t.Errorf("sharedWords(%s, %s) = %d, %d; want %d, %d (words %q)", c.a, c.b, s, e, c.shared, c.extra, camelWords(c.b))
		}
	}
}

// TestPanicExits: a panic exit where a test of the program expects a
// panic: the function's own panic as written, else a new one in the form
// of the package's panics (panics.go); the tests that expect one, also
// through a helper. A forced panic exit panics. (TestExits: none where no
// test expects a panic.)
func TestPanicExits(t *testing.T) {
	f := load(t, "panics")
	want := map[string]map[string]bool{"example.com/panics/pa": {"TestHalf": true, "TestThird": true}}
	if !reflect.DeepEqual(f.prog.PanicTests, want) {
		t.Errorf("PanicTests = %v, want %v", f.prog.PanicTests, want)
	}
	for _, tt := range []struct {
		file string
		line int
		want string // the panic exit's strategy:body, "" for none
	}{
		{"pa/pa.go", 11, `panic:panic(errors.New("negative index"))`},
		{"pa/pa.go", 17, `panic-new:panic(errors.New("Half: invalid input"))`},
		{"pa/pa.go", 18, `panic-new:panic(errors.New("Half: invalid input"))`},
		{"pa/pa.go", 24, `panic-new:panic(errors.New("Third: invalid input"))`},
		{"pa/pa.go", 28, `panic:panic(errors.New("negative: " + string(rune(m))))`},
		{"nopa/nopa.go", 6, `panic-new:panic("Half: invalid input")`},
	} {
		i := slices.IndexFunc(f.prog.Sites, func(s Site) bool {
			return s.Kind == Guard && s.Line == tt.line && strings.HasSuffix(s.File, "/"+tt.file)
		})
		if i < 0 {
			t.Errorf("%s:%d: no guard site", tt.file, tt.line)
			continue
		}
		got := ""
		for _, e := range f.prog.Sites[i].Exits {
			if e.Strategy == StrategyPanic || e.Strategy == StrategyPanicNew {
				got = e.Strategy + ":" + e.Body
			}
		}
		if got != tt.want {
			t.Errorf("%s:%d `%s`: panic exit %q, want %q", tt.file, tt.line, f.prog.Sites[i].Original, got, tt.want)
		}
	}

	fi := instrument(t, "panics")
	id := fi.site(t, Guard, "pa.go", 17)
	res, err := fi.build.Run(context.Background(), Run{Package: "example.com/panics/pa", Test: "TestHalf", Mode: ModeCover, ForceSegment: -1,
		Force: map[int]bool{id: false}, ForceExit: map[int]int{id: fi.exit(t, id, StrategyPanicNew)}})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Passed {
		t.Errorf("TestHalf with the panic exit at pa.go:17 fails:\n%s", res.Output)
	}
	fi.checkUntouched(t)
}

// TestTwinGuards: a guard the file writes after the statement that
// precedes a site, elsewhere, is offered there first, with its
// condition (twin.go).
func TestTwinGuards(t *testing.T) {
	f := load(t, "exits")
	for _, tt := range []struct {
		file string // twin.go when empty
		line int
		want string // the twin exits, "body if guard in From", "|"-separated
	}{
		// Inline misses the guard Lines (and Size) write after `if
		// empty(e) {...}`, and Name's, whose return is a string too.
		{line: 33, want: "continue if e.skip && e.size == 0 in Lines|return e.name if e.size < 0 in Name"},
		// Lines has its guard already; Name's return is no []string.
		{line: 18, want: ""},
		{line: 44, want: "continue if e.skip && e.size == 0 in Lines"},
		// Size has Lines' guard; Name's return is no int.
		{line: 59, want: ""},
		// Nothing follows the same statement elsewhere with a guard.
		{line: 62, want: ""},
		// The first statement of a loop's body follows its header: the
		// loops with the same header start with `if empty(e)`, which
		// Lines has already.
		{line: 15, want: ""},
		// Count's loop has the same header and lacks it.
		{line: 104, want: "continue if empty(e) in Lines"},
		// Pairs' second loop ranges over entries under another name:
		// the guards of the loops over entries, read with y.
		{line: 120, want: "continue if empty(y) in Lines"},
		// Its first loop has that guard; Lines' second guard follows
		// the same statement, read with x (Name's returns no []string).
		{line: 117, want: "continue if x.skip && x.size == 0 in Lines"},
		// Caption has Lines' and Name's guards already, and Title's
		// returns a message.
		{line: 87, want: ""},
		// Before the same statement, its message aside: KeyEnd's guard,
		// with Value's message (Quote's writes its own, and is none).
		{file: "twinerr.go", line: 23, want: `return prevLine(fmt.Errorf("expected a value but got %q", r)) if r == '\n' in KeyEnd`},
		{file: "twinerr.go", line: 31, want: `return prevLine(fmt.Errorf("expected a key but got %q", r)) if r == '\n' in KeyEnd`},
		// KeyEnd has it already.
		{file: "twinerr.go", line: 15, want: ""},
	} {
		file := "twin.go"
		if tt.file != "" {
			file = tt.file
		}
		site := guardSiteAt(t, f, file, tt.line)
		if site == nil {
			continue
		}
		var got []string
		for _, e := range site.Exits {
			if e.Strategy == StrategyTwin {
				got = append(got, e.Body+" if "+e.Guard+" in "+e.From)
			}
		}
		if strings.Join(got, "|") != tt.want {
			t.Errorf("twin.go:%d `%s`: twin exits\n%s\nwant\n%s", tt.line, site.Original, strings.Join(got, "|"), tt.want)
		}
	}
}

// guardSiteAt returns the guard site of f's file (base name) at line, or
// reports that there is none and returns nil.
func guardSiteAt(t *testing.T, f *fixture, file string, line int) *Site {
	t.Helper()
	i := slices.IndexFunc(f.prog.Sites, func(s Site) bool {
		return s.Kind == Guard && s.Line == line && strings.HasSuffix(s.File, "/"+file)
	})
	if i < 0 {
		t.Errorf("%s:%d: no guard site", file, line)
		return nil
	}
	return &f.prog.Sites[i]
}

// TestBranchGuards checks the guard sites before a break or continue: one
// right in a loop's body takes a guard (exit continue, or wrapped), one in
// an if's branch or a switch's case does not (the if's condition is the
// site).
func TestSoleLoopStep(t *testing.T) {
	f := load(t, "exits")
	for _, tt := range []struct {
		line  int
		spins bool
	}{
		{26, true},  // i++, alone in a loop whose condition reads i and calls a pure function
		{30, true},  // i += 2, the same
		{33, false}, // the loop's post changes its state
		{36, false}, // the condition does not read n
		{39, false}, // the condition calls pop, which changes what it reads next
	} {
		i := slices.IndexFunc(f.prog.Sites, func(s Site) bool {
			return s.Kind == Guard && s.Line == tt.line && strings.HasSuffix(s.File, "/loops.go")
		})
		if i < 0 {
			if !tt.spins {
				t.Errorf("loops.go:%d: no guard site", tt.line)
			}
			continue
		}
		s := f.prog.Sites[i]
		cont := slices.ContainsFunc(s.Exits, func(e Exit) bool { return e.Body == "continue" })
		if s.CanWrap == tt.spins || cont == tt.spins {
			t.Errorf("loops.go:%d `%s`: wrap %v, continue %v; want both %v", tt.line, s.Original, s.CanWrap, cont, !tt.spins)
		}
	}
}

func TestBranchGuards(t *testing.T) {
	f := load(t, "exits")
	for _, tt := range []struct {
		line int
		site bool
	}{
		{7, true},   // break, alone in a for loop's body
		{11, false}, // break in an if's branch
		{13, true},  // continue in a range loop's body
		{17, false}, // break in a switch case
	} {
		i := slices.IndexFunc(f.prog.Sites, func(s Site) bool {
			return s.Kind == Guard && s.Line == tt.line && strings.HasSuffix(s.File, "/loops.go")
		})
		if (i >= 0) != tt.site {
			t.Errorf("loops.go:%d: guard site %v, want %v", tt.line, i >= 0, tt.site)
			continue
		}
		if i < 0 {
			continue
		}
		s := f.prog.Sites[i]
		if !s.CanWrap || !slices.ContainsFunc(s.Exits, func(e Exit) bool { return e.Body == "continue" }) {
			t.Errorf("loops.go:%d `%s`: wrap %v, exits %v; want wrap and continue", tt.line, s.Original, s.CanWrap, s.Exits)
		}
	}
}

func TestRenameIdent(t *testing.T) {
	for _, tt := range []struct{ text, want string }{
		{"shouldOmitEmpty(kv.Options, kv.Value)", "shouldOmitEmpty(table.Options, table.Value)"},
		{"x.kv != kv", "x.kv != table"},
		{`kv.Name == "kv" || kvs > 0`, `table.Name == "kv" || kvs > 0`},
		{`r == '\'' && kv.ok`, `r == '\'' && table.ok`},
	} {
		if got := renameIdent(tt.text, "kv", "table"); got != tt.want {
			t.Errorf("renameIdent(%q) = %q, want %q", tt.text, got, tt.want)
		}
	}
}

// TestNewNil: zero values are marked NewNil where they return a nil the
// function never returns (testdata/newnil.txtar). Where a return of the
// function is the zero values already (Find's return nil), they are that
// reused return, not a zero-values exit.
func TestNewNil(t *testing.T) {
	f := load(t, "newnil")
	tests := []struct {
		line int
		want string // "new", "old" or "none" (no zero-values exit)
	}{
		{10, "new"},  // Set: c.n++
		{16, "none"}, // Find: c := m[k]
		{25, "old"},  // Get: k += "!"
		{31, "old"},  // Check: s += "!"
		{37, "new"},  // Build: n++
	}
	for _, tt := range tests {
		site := f.prog.Sites[f.site(t, Guard, "nn.go", tt.line)]
		got := "none"
		if i := slices.IndexFunc(site.Exits, func(e Exit) bool { return e.Strategy == StrategyZero }); i >= 0 {
			got = map[bool]string{true: "new", false: "old"}[site.Exits[i].NewNil]
		}
		if got != tt.want {
			t.Errorf("nn.go:%d `%s`: zero values %s, want %s (exits %v)", tt.line, site.Original, got, tt.want, site.Exits)
		}
	}
}
