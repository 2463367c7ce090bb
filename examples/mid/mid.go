// Package mid is a Go rendering of a bug of StringUtils.mid in Apache
// Commons Lang, studied in B-Refactoring (Xuan et al., IST 2016): a
// negative length is not rejected.
package mid

// Mid returns at most length bytes of str starting at pos: "" when pos is
// beyond the end or length is negative, from the start when pos is
// negative, up to the end when length reaches past it.
func Mid(str string, pos, length int) string {
	if pos > len(str) {
		return ""
	}
	if pos < 0 {
		pos = 0
	}
	if len(str) <= pos+length {
		return str[pos:]
	}
	return str[pos : pos+length]
}
