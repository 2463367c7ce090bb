package nopol

import "github.com/nopol-go/nopol/collect"

// Printed messages: a failing test that printed the message of a branch
// (an error's text, a panic's) took that branch, where the developer
// may have meant it not to. Localize ranks the condition of such a
// branch, and the sites of the functions it calls, first (after the
// entries of a runaway recursion), whatever their scores:
// BurntSushi/toml's TestToml printed `Invalid integer "0xDEADBEEF":
// cannot have leading zeroes`, the message of `if
// numHasLeadingZero(it.val) {`, whose callee had the faulty condition.
// Its failing subtests and its passing ones reach the same code (its
// table test's harness runs every case whatever -run selects), so 1050
// sites scored alike, the faulty one not among the first 60; first, it
// is repaired as the developer did.

// maxPrinted is the most conditions printedSites puts first: more
// branches whose messages the failing tests printed say little of which
// was wrongly taken.
const maxPrinted = 3

// printedSites are the Cond sites whose then-branch has a message that
// the output of a failing test's coverage run shows (the branch taken in
// that run), with the sites of the functions their conditions call;
// none when there are more than maxPrinted such conditions.
func (r *repairer) printedSites() map[int]bool {
	var outputs []string
	taken := map[int]bool{}
	for _, k := range r.failing {
		res, ok := r.cover[k]
		if !ok {
			continue
		}
		outputs = append(outputs, res.Output)
		for id, n := range res.Reached {
			if n[1] > 0 {
				taken[id] = true
			}
		}
	}
	printed := map[int]bool{}
	var callees []collect.Callee
	for id, s := range r.prog.Sites {
		if s.Kind != collect.Cond || s.Then == nil || !taken[id] || !anyPrinted(s.Then.Messages, outputs) {
			continue
		}
		printed[id] = true
		callees = append(callees, s.Callees...)
	}
	if len(printed) > maxPrinted {
		return nil
	}
	for id, s := range r.prog.Sites {
		for _, c := range callees {
			if s.File == c.File && c.Line >= s.FuncLines[0] && c.Line <= s.FuncLines[1] {
				printed[id] = true
			}
		}
	}
	return printed
}

// anyPrinted reports whether one of outputs shows one of messages (format
// strings).
func anyPrinted(messages, outputs []string) bool {
	for _, m := range messages {
		re := collect.MessagePattern(m)
		for _, out := range outputs {
			if re.MatchString(out) {
				return true
			}
		}
	}
	return false
}
