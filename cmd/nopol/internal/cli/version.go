package cli

import (
	"context"
	"flag"
	"fmt"
	"runtime"
	"runtime/debug"
	"strings"

	"github.com/nopol-go/nopol/synth"
)

func init() {
	Register(&Command{Name: "version", Short: "print nopol's version, its Go version and its synthesis backends", Run: runVersion})
}

func runVersion(ctx context.Context, env *Env, args []string) error {
	fs := flag.NewFlagSet("version", flag.ContinueOnError)
	fs.SetOutput(env.Stderr)
	fs.Usage = func() {
		fmt.Fprintln(env.Stderr, "Usage: nopol version\n\nVersion prints the version of nopol (its module version, or the VCS\nrevision it was built from), the Go version that built it and the\nsynthesis backends built in (z3 needs cgo and libz3).")
	}
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		fs.Usage()
		return ErrUsage
	}
	fmt.Fprintf(env.Stdout, "nopol %s, built with %s, synthesis backends: %s\n", version(), runtime.Version(), strings.Join(synth.Backends(), ", "))
	return nil
}

// version is the main module's version, or the VCS revision (with
// "+dirty" for a modified tree) of a build from a checkout.
func version() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "(unknown)"
	}
	v := info.Main.Version
	if v != "" && v != "(devel)" {
		return v
	}
	rev, dirty := "", false
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	if rev == "" {
		return "(devel)"
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	if dirty {
		rev += "+dirty"
	}
	return "(devel " + rev + ")"
}
