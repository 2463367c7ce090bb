package packagename

import "testing"

func TestPackageName(t *testing.T) {
	for _, tc := range []struct{ name, want string }{
		{"java.util.Map", "java.util"},
		{"java.util.Map$Entry", "java.util"},
		{"[Ljava.lang.String;", "java.lang"},
		{"[[[I", ""},
		{"String", ""},
	} {
		if got := PackageName(&Class{Name: tc.name}); got != tc.want {
			t.Errorf("PackageName(%q) = %q, want %q", tc.name, got, tc.want)
		}
	}
}

func TestPackageNameNil(t *testing.T) {
	if got := PackageName(nil); got != "" {
		t.Errorf("PackageName(nil) = %q", got)
	}
}

func TestPackageNameEmpty(t *testing.T) {
	if got := PackageName(&Class{}); got != "" {
		t.Errorf("PackageName(empty) = %q", got)
	}
}
