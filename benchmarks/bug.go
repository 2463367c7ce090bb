package benchmarks

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
)

// Kinds of bugs.
const (
	KindReal    = "real"    // mined from two consecutive releases
	KindSeeded  = "seeded"  // a single mutation of a condition
	KindExample = "example" // a small hand-written bug (tests, docs)
)

// Faults: what the patch changes.
const (
	FaultCondition = "condition"     // an if condition differs
	FaultGuard     = "missing-guard" // the buggy tree lacks a guard the fixed one has
)

// Bug is one entry of the dataset, stored as bugs/<ID>.json.
type Bug struct {
	// Identity.

	// ID is unique, lowercase, [a-z0-9._-]; it is also the file name.
	ID string `json:"id"`
	// Kind is real, seeded or example.
	Kind string `json:"kind"`
	// Fault is condition or missing-guard.
	Fault string `json:"fault"`

	// Where the fixed tree comes from.

	// Module and Version name the fixed tree on the Go module proxy.
	Module  string `json:"module"`
	Version string `json:"version"`
	// Local, for example bugs only, is a directory (relative to the bug
	// file) holding the fixed tree instead of the proxy.
	Local string `json:"local,omitempty"`
	// BuggyVersion is, for real bugs, the release the buggy condition
	// comes from.
	BuggyVersion string `json:"buggy_version,omitempty"`

	// The fault.

	// Package is the package directory relative to the module root ("."
	// for the root).
	Package string `json:"package"`
	// File is the file relative to the module root; Line the line of the
	// if statement in the buggy tree; Func the enclosing function.
	File string `json:"file"`
	Line int    `json:"line"`
	Func string `json:"func,omitempty"`
	// BuggyCondition and FixedCondition are the conditions as printed by
	// go/printer; BuggyCondition is empty for a missing guard.
	BuggyCondition string `json:"buggy_condition"`
	FixedCondition string `json:"fixed_condition"`
	// Mutation names the seeded mutation operator.
	Mutation string `json:"mutation,omitempty"`
	// Patch is the unified diff that turns the fixed tree into the buggy
	// one (paths a/<File> and b/<File>).
	Patch string `json:"patch"`
	// FailingTests are the top-level tests of Package that fail on the
	// buggy tree; all of the package's tests pass on the fixed tree.
	FailingTests []string `json:"failing_tests"`
	// Tests is the number of top-level tests of the package.
	Tests int `json:"tests,omitempty"`
}

var idRE = regexp.MustCompile(`^[a-z0-9][a-z0-9._-]*$`)

// Check reports the first problem of a bug entry.
func (b *Bug) Check() error {
	switch {
	case !idRE.MatchString(b.ID):
		return fmt.Errorf("bad id %q", b.ID)
	case b.Kind != KindReal && b.Kind != KindSeeded && b.Kind != KindExample:
		return fmt.Errorf("%s: bad kind %q", b.ID, b.Kind)
	case b.Fault != FaultCondition && b.Fault != FaultGuard:
		return fmt.Errorf("%s: bad fault %q", b.ID, b.Fault)
	case b.Module == "" || (b.Version == "" && b.Local == ""):
		return fmt.Errorf("%s: module and version required", b.ID)
	case b.Kind == KindReal && b.BuggyVersion == "":
		return fmt.Errorf("%s: real bug without buggy_version", b.ID)
	case b.Package == "" || b.File == "" || b.Line <= 0:
		return fmt.Errorf("%s: package, file and line required", b.ID)
	case filepath.ToSlash(filepath.Dir(b.File)) != b.Package:
		return fmt.Errorf("%s: file %s not in package %s", b.ID, b.File, b.Package)
	case b.FixedCondition == "":
		return fmt.Errorf("%s: fixed_condition required", b.ID)
	case (b.BuggyCondition == "") != (b.Fault == FaultGuard):
		return fmt.Errorf("%s: buggy_condition must be empty exactly for a missing guard", b.ID)
	case len(b.FailingTests) == 0:
		return fmt.Errorf("%s: no failing tests", b.ID)
	}
	if _, err := ParsePatch(b.Patch); err != nil {
		return fmt.Errorf("%s: %v", b.ID, err)
	}
	if !strings.Contains(b.Patch, "--- a/"+b.File+"\n") {
		return fmt.Errorf("%s: patch does not touch %s", b.ID, b.File)
	}
	return nil
}

// LoadBugs reads every bugs/*.json file of dir, sorted by id.
func LoadBugs(dir string) ([]*Bug, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil {
		return nil, err
	}
	if len(files) == 0 {
		abs, _ := filepath.Abs(dir)
		return nil, fmt.Errorf("no bug files (*.json) in %s: run nopol bench inside nopol's repository, or give the dataset with -bugs", abs)
	}
	var bugs []*Bug
	for _, f := range files {
		b, err := LoadBug(f)
		if err != nil {
			return nil, err
		}
		bugs = append(bugs, b)
	}
	sort.Slice(bugs, func(i, j int) bool { return bugs[i].ID < bugs[j].ID })
	return bugs, nil
}

// LoadBug reads one bug file; the file name must be <id>.json.
func LoadBug(file string) (*Bug, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, fmt.Errorf("loading bug: %v", err)
	}
	var b Bug
	dec := json.NewDecoder(strings.NewReader(string(data)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&b); err != nil {
		return nil, fmt.Errorf("loading bug %s: %v", file, err)
	}
	if want := strings.TrimSuffix(filepath.Base(file), ".json"); b.ID != want {
		return nil, fmt.Errorf("loading bug %s: id %q does not match the file name", file, b.ID)
	}
	if b.Local != "" {
		b.Local = filepath.Join(filepath.Dir(file), b.Local)
	}
	return &b, nil
}

// SaveBug writes b as dir/<id>.json.
func SaveBug(dir string, b *Bug) error {
	data, err := json.MarshalIndent(b, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, b.ID+".json"), append(data, '\n'), 0o644)
}

// SelectBugs keeps the bugs whose id is in ids (all when ids is empty); an
// unknown id is an error.
func SelectBugs(bugs []*Bug, ids []string) ([]*Bug, error) {
	if len(ids) == 0 {
		return bugs, nil
	}
	byID := map[string]*Bug{}
	for _, b := range bugs {
		byID[b.ID] = b
	}
	var out []*Bug
	for _, id := range ids {
		b, ok := byID[id]
		if !ok {
			return nil, fmt.Errorf("selecting bugs: unknown bug %q (see benchmarks/bugs)", id)
		}
		out = append(out, b)
	}
	return out, nil
}

// slug turns a module path into an id prefix: github.com/blang/semver/v4 →
// semver-v4.
func slug(module string) string {
	parts := strings.Split(strings.TrimPrefix(module, "gopkg.in/"), "/")
	last := parts[len(parts)-1]
	if len(parts) > 1 && regexp.MustCompile(`^v\d+$`).MatchString(last) {
		last = parts[len(parts)-2] + "-" + last
	}
	last = strings.ToLower(last)
	return regexp.MustCompile(`[^a-z0-9.-]+`).ReplaceAllString(last, "-")
}

// ShortList keeps at most n bugs for quick runs: one per module where
// possible, the smallest packages (fewest tests) first.
func ShortList(bugs []*Bug, n int) []*Bug {
	sorted := append([]*Bug(nil), bugs...)
	sort.SliceStable(sorted, func(i, j int) bool { return sorted[i].Tests < sorted[j].Tests })
	var out []*Bug
	seen := map[string]bool{}
	for pass := 0; pass < 2 && len(out) < n; pass++ {
		for _, b := range sorted {
			if len(out) >= n {
				break
			}
			if (pass == 0 && seen[b.Module]) || (pass == 1 && slicesContains(out, b)) {
				continue
			}
			seen[b.Module] = true
			out = append(out, b)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

func slicesContains(bs []*Bug, b *Bug) bool {
	for _, x := range bs {
		if x == b {
			return true
		}
	}
	return false
}

// pattern is the go package pattern of b's package ("." or "./dir").
func (b *Bug) pattern() string {
	if b.Package == "." {
		return "."
	}
	return "./" + filepath.ToSlash(b.Package)
}
