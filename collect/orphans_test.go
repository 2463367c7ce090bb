package collect

import (
	"fmt"
	"slices"
	"testing"
)

// TestOrphans: the package's orphans are its unexported functions and
// methods that only their own bodies call, its unused unexported
// constants, its fields that nothing reads, and its exported fields that
// nothing uses; the guard sites of a function with a one-exit guard whose
// operands have orphan siblings are offered that guard written with
// them, the one with the most orphans first, where it compiles, and
// where no orphan stands for two different names.
func TestOrphans(t *testing.T) {
	f := load(t, "orphans")
	d := f.prog.pkgs["example.com/orphans"]
	var names []string
	for obj := range d.orphans() {
		names = append(names, obj.Name())
	}
	slices.Sort(names)
	if got, want := fmt.Sprint(names), "[Ignore errEmpty isEmpty modeUnused omitempty tryMethod unusedLimit]"; got != want {
		t.Errorf("orphans = %s, want %s", got, want)
	}
	twins := func(line int) string {
		var out []string
		for _, e := range f.prog.Sites[f.site(t, Guard, "o.go", line)].Exits {
			if e.Strategy == StrategyTwin {
				out = append(out, fmt.Sprintf("if %s { %s } (%s)", e.Guard, e.Body, e.From))
			}
		}
		return fmt.Sprint(out)
	}
	for _, tc := range []struct {
		name string
		line int
		want string
	}{
		{"before opts is declared: none compiles", 47, "[]"},
		{"the most orphans first", 48, "[if opts.omitempty && isEmpty(v) { continue } (orphans isEmpty, omitempty) if opts.omitempty { continue } (orphans omitempty)]"},
		{"a method of the same receiver", 73, "[if s.tryMethod(x) { return } (orphans tryMethod)]"},
		{"a function without such guards", 77, "[]"},
		{"the exit's results rewritten too", 104, "[if isEmpty(v) { return errEmpty(v) } (orphans errEmpty, isEmpty)]"},
		{"one orphan for two names: none", 122, "[]"},
		{"one orphan for one name twice", 131, "[if m >= modeUnused && m != modeUnused { return 1 } (orphans modeUnused)]"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := twins(tc.line); got != tc.want {
				t.Errorf("line %d: twins = %s, want %s", tc.line, got, tc.want)
			}
		})
	}
}
