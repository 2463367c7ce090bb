package nopol

import "testing"

// TestAnalogous checks the reused return's operand replaced as the new
// guard replaces it, and left alone otherwise.
func TestAnalogous(t *testing.T) {
	for _, tc := range []struct{ body, guard, cond, want string }{
		{"return &InvalidVersionError{Version: vi.Low, Err: errors.New(\"must be v1.2.3\")}", "!isCanonicalVersion(vi.Low)", "!isCanonicalVersion(vi.High)",
			"return &InvalidVersionError{Version: vi.High, Err: errors.New(\"must be v1.2.3\")}"},
		{"return nil, fmt.Errorf(\"bad %s\", a)", "a == \"\"", "b == \"\"", "return nil, fmt.Errorf(\"bad %s\", b)"},
		{"return x.a.Low", "x.a.Low < 0", "x.a.High < 0", "return x.a.High"},
		// Not one operand replaced: the return stays as written.
		{"return lo", "lo < 0", "lo < 0 || hi < 0", "return lo"},
		{"return lo", "lo < 0", "hi > 0", "return lo"},
		{"return lo", "", "hi < 0", "return lo"},
		// The operand is not in the return, or only as a field or method name.
		{"return errBad", "lo < 0", "hi < 0", "return errBad"},
		{"return p.lo, s.lo()", "lo < 0", "hi < 0", "return p.lo, s.lo()"},
	} {
		if got := analogous(tc.body, tc.guard, tc.cond); got != tc.want {
			t.Errorf("analogous(%q, %q, %q) = %q, want %q", tc.body, tc.guard, tc.cond, got, tc.want)
		}
	}
}
