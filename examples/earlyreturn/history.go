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

// Recent returns the n-th most recent command (0 is the last one), or ""
// when the history is shorter.
func (h *History) Recent(n int) string {
	i := len(h.entries) - 1 - n
	h.reads++
	return h.entries[i]
}
