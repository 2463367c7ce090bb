// Package nilguard dereferences a nil pointer where a guard is missing.
package nilguard

import "fmt"

// Limits are optional limits of a service.
type Limits struct {
	MaxConns int
}

// Describe returns a one-line description of a service; lim may be nil
// (no limits).
func Describe(name string, lim *Limits) string {
	s := "service " + name
	s += fmt.Sprintf(" (max %d connections)", lim.MaxConns)
	return s
}
