// Package packagename is a Go rendering of a bug of
// ClassUtils.getPackageName in Apache Commons Lang, studied in
// B-Refactoring (Xuan et al., IST 2016): an empty class name is not
// checked, and indexing its first byte panics.
package packagename

import "strings"

// Class is a Java class, known by its binary name ("java.util.Map$Entry",
// "[Ljava.lang.String;" for an array); a nil *Class stands for Java's null.
type Class struct {
	Name string
}

// PackageName returns the package of c ("java.util" for java.util.Map),
// "" for nil, an empty name or a class in the default package.
func PackageName(c *Class) string {
	if c == nil {
		return ""
	}
	name := c.Name
	// Strip the array encoding.
	for name[0] == '[' {
		name = name[1:]
	}
	// Strip the object type encoding.
	if name[0] == 'L' && name[len(name)-1] == ';' {
		name = name[1:]
	}
	i := strings.LastIndexByte(name, '.')
	if i == -1 {
		return ""
	}
	return name[:i]
}
