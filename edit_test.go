package nopol

import "testing"

func TestLineEdit(t *testing.T) {
	const old = "a\nif x > 0 {\n\tf()\n}\nz\n"
	for _, tc := range []struct {
		name, new                     string
		start, end, startByte, endCol int
		oldText, newText              string
	}{
		{"condition changed", "a\nif x >= 0 {\n\tf()\n}\nz\n", 2, 2, 2, 11, "if x > 0 {\n", "if x >= 0 {\n"},
		// A guard inserted before f() replaces f()'s line with itself
		// and the guard.
		{"guard inserted", "a\nif x > 0 {\n\tif g {\n\t\treturn\n\t}\n\tf()\n}\nz\n", 3, 3, 13, 5, "\tf()\n", "\tif g {\n\t\treturn\n\t}\n\tf()\n"},
		{"statement wrapped", "a\nif x > 0 {\n\tif g {\n\t\tf()\n\t}\n}\nz\n", 3, 3, 13, 5, "\tf()\n", "\tif g {\n\t\tf()\n\t}\n"},
		{"appended at the end", old + "y\n", 5, 5, 20, 2, "z\n", "z\ny\n"},
	} {
		e, ok := lineEdit("f.go", []byte(old), []byte(tc.new))
		if !ok {
			t.Fatalf("%s: no edit", tc.name)
		}
		if e.StartLine != tc.start || e.EndLine != tc.end || e.StartByte != tc.startByte || e.EndCol != tc.endCol || e.Old != tc.oldText || e.New != tc.newText {
			t.Errorf("%s: %+v", tc.name, e)
		}
		if got := old[:e.StartByte] + e.New + old[e.EndByte:]; got != tc.new {
			t.Errorf("%s: applying the edit gives %q, want %q", tc.name, got, tc.new)
		}
	}
	if _, ok := lineEdit("f.go", []byte(old), []byte(old)); ok {
		t.Error("an edit between equal files")
	}
}
