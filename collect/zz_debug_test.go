package collect

import (
	"context"
	"os"
	"strconv"
	"testing"
)

func TestZZDebugObserved(t *testing.T) {
	dir := os.Getenv("ZZDIR")
	if dir == "" {
		t.Skip()
	}
	line, _ := strconv.Atoi(os.Getenv("ZZLINE"))
	prog, err := Load(context.Background(), dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range prog.Sites {
		if s.Line != line {
			continue
		}
		t.Logf("site %v %s:%d %q", s.Kind, s.File, s.Line, s.Original)
		for _, o := range s.Observed {
			t.Logf("   %v %s", o.Call, o.Expr)
		}
	}
}
