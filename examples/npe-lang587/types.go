// Package types names the dynamic types of values.
package types

import "reflect"

// TypeNames returns the name of the dynamic type of each value; a nil
// value has the empty name.
func TypeNames(vals []any) []string {
	out := make([]string, len(vals))
	for i, v := range vals {
		out[i] = reflect.TypeOf(v).String()
	}
	return out
}
