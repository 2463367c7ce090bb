package collect

import (
	"slices"
	"strings"
	"testing"
)

// TestBranchNils: at a condition, the nil-ness of the values its branch
// reads comes right after the condition's own atoms, at most
// maxBranchNils; what the branch assigns, declares or reads in a function
// literal is not among them.
func TestBranchNils(t *testing.T) {
	f := load(t, "branchnils")
	site := f.prog.Sites[f.site(t, Cond, "route.go", 23)]
	var obs []string
	for _, o := range site.Observed {
		obs = append(obs, o.Expr)
	}
	i := slices.Index(obs, "r.next == nil")
	if i < 0 {
		t.Fatalf("r.next == nil not observed: %s", strings.Join(obs, ", "))
	}
	for _, o := range obs[:i] {
		if !strings.Contains(o, "m.Err") {
			t.Errorf("%s observed before the branch's reads: %s", o, strings.Join(obs, ", "))
		}
	}
	want := []string{"r.next == nil", "r.handler == nil", "hs == nil"}
	if got := obs[i:min(len(obs), i+len(want))]; !slices.Equal(got, want) {
		t.Errorf("after the atoms: %s, want %s", strings.Join(got, ", "), strings.Join(want, ", "))
	}
	if got := site.Observed[i+1].NilGuard; got != "r" {
		t.Errorf("r.handler == nil guarded by %q, want r", got)
	}
	for _, not := range []string{"local == nil", "m.Handler == nil", "r.fallback == nil", "r.extra == nil"} {
		if j := slices.Index(obs, not); j >= 0 && j < i+len(want)+3 {
			t.Errorf("%s observed at %d, among the branch's reads: %s", not, j, strings.Join(obs, ", "))
		}
	}
}
