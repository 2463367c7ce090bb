package packagename

import "testing"

// TestPackageName has the cases of Commons Lang's
// test_getPackageName_String in one test function, one statement each:
// nil (Java's null) takes the early return, the names do not, and the
// empty name panics.
func TestPackageName(t *testing.T) {
	assertPackageName(t, "java.util", &Class{Name: "java.util.Map"})
	assertPackageName(t, "java.util", &Class{Name: "java.util.Map$Entry"})
	assertPackageName(t, "java.lang", &Class{Name: "[Ljava.lang.String;"})
	assertPackageName(t, "", &Class{Name: "[[[I"})
	assertPackageName(t, "", nil)
	assertPackageName(t, "", &Class{Name: ""})
}

// assertPackageName checks PackageName(c) like JUnit's assertEquals.
func assertPackageName(t *testing.T, want string, c *Class) {
	t.Helper()
	if got := PackageName(c); got != want {
		t.Errorf("PackageName(%+v) = %q, want %q", c, got, want)
	}
}
