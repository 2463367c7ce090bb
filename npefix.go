package nopol

import (
	"context"
	"slices"
	"strings"

	"github.com/nopol-go/nopol/collect"
)

// maxNilFrames bounds the frames of a nil-dereference panic whose
// statements get NpeFix's replacements: the innermost of the module's
// code and its caller (which may have passed the nil).
const maxNilFrames = 2

// nilDeref is the runtime's message of a nil dereference.
const nilDeref = "nil pointer dereference"

// nilFixes is the NpeFix tier (collect.NilFix): where a failing test's
// coverage run panicked with a nil dereference, the statements of the
// innermost frames of the module's code get `if x == nil { x = v }`
// before them, x an operand they dereference (or, in the caller's frame,
// pass to a call) and v an in-scope value of its type or a new instance,
// in collect's order; each is validated as a
// patched file on the whole suite, and the first that passes is the
// patch. The condition is not synthesized: NpeFix replaces a value only
// where it is nil. It returns how many replacements it tried.
func (r *repairer) nilFixes(ctx context.Context) (n int, done bool, err error) {
	if r.opts.Kinds&KindGuard == 0 {
		return 0, false, nil
	}
	type target struct {
		site collect.Site
		fix  collect.NilFix
	}
	var targets []target
	if !slices.ContainsFunc(r.failing, func(k testKey) bool { return strings.Contains(r.cover[k].Output, nilDeref) }) {
		return 0, false, nil
	}
	seen := map[string]bool{}
	for _, stack := range r.panicStacks() {
		for i, loc := range stack[:min(len(stack), maxNilFrames)] {
			for _, site := range r.prog.Sites {
				if site.Kind != collect.Guard || site.File != loc.File || site.Line != loc.Line {
					continue
				}
				for _, fix := range site.NilFixes {
					key := site.File + "\x00" + fix.Operand + "\x00" + fix.Body
					// An operand passed to a call, in the
					// panicking frame, is not what it dereferenced.
					if seen[key] || (fix.Passed && i == 0) || !r.strategyWanted(style{strategy: fix.Strategy}) {
						continue
					}
					seen[key] = true
					targets = append(targets, target{site, fix})
				}
			}
		}
	}
	if len(targets) == 0 {
		return 0, false, nil
	}
	r.enter(phaseValidation)
	r.logf("npefix: a failing test dereferences nil; trying %s", plural(len(targets), "replacement"))
	for i, t := range targets {
		if err := ctx.Err(); err != nil {
			return i, false, err
		}
		site := t.site
		site.Exits = []collect.Exit{{Body: t.fix.Body, Strategy: t.fix.Strategy}}
		st := style{name: "replace", guard: collect.GuardExit(0), strategy: t.fix.Strategy, exit: t.fix.Body}
		c := candidate{src: t.fix.Operand + " == nil", method: "npefix"}
		rep := SiteReport{ID: site.ID, Kind: kindName(site.Kind), File: r.relPath(site.File), Line: site.Line, Col: site.Col,
			Func: site.Func, Original: site.Original, Style: st.name, Strategy: st.strategy, Exit: st.exit, Method: "npefix"}
		r.ranked, r.spec = nil, nil
		done, err := r.tryPatch(ctx, site, st, c, "npefix "+strings.Join([]string{t.fix.Strategy, "`" + t.fix.Body + "` if"}, " "), &rep)
		if err != nil {
			return i + 1, false, err
		}
		if rep.Outcome == "" {
			rep.Outcome = "the suite fails"
		}
		r.res.Sites = append(r.res.Sites, rep)
		if done {
			return i + 1, true, nil
		}
	}
	return len(targets), false, nil
}
