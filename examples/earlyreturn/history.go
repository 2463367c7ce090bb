// Package earlyreturn indexes out of range where an early return is
// missing.
package earlyreturn

// History keeps the commands typed in a shell session.
type History struct {
	entries []string
	reads   int
}

// Add records a command.
func (h *History) Add(cmd string) {
	h.entries = append(h.entries, cmd)
}

// Last returns the most recent command, or "" when there is none.
func (h *History) Last() string {
	h.reads++
	return h.entries[len(h.entries)-1]
}
