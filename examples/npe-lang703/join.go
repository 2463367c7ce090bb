// Package join joins values.
package join

import (
	"fmt"
	"strings"
)

// Join writes the elements' strings separated by sep; a nil element
// writes nothing.
func Join(items []fmt.Stringer, sep string) string {
	var b strings.Builder
	for i, it := range items {
		if i > 0 {
			b.WriteString(sep)
		}
		b.WriteString(it.String())
	}
	return b.String()
}
