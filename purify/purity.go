package purify

import (
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"text/tabwriter"
)

// Signature is how one test constituent executed one site: how often the
// condition was true (Then) and false (Else). The root package builds
// signatures from the evaluations of a ModeCover run per test (collect.Eval
// has Site, Outcome, Segment and Iteration).
type Signature struct {
	// Package is the import path of the test's package; Test the top-level
	// test's name.
	Package string `json:"package"`
	Test    string `json:"test"`
	// Site is the site ID.
	Site int `json:"site"`
	// Segment and Iteration identify the constituent (see Constituent);
	// Segment -1 when the test file was not marked: the whole test is then
	// one constituent.
	Segment   int `json:"segment"`
	Iteration int `json:"iteration"`
	// Then and Else count the true and false evaluations.
	Then int `json:"then"`
	Else int `json:"else"`
}

// TestID names a top-level test.
type TestID struct {
	Package string `json:"package"`
	Test    string `json:"test"`
}

// Class is the purity class of a test, on one site or overall.
type Class uint8

const (
	// Pure: the test evaluates the condition one way only (or not at all).
	Pure Class = iota
	// ImpureSplittable: the test evaluates it both ways, but each of its
	// constituents one way only; splitting makes it pure.
	ImpureSplittable
	// AbsolutelyImpure: some constituent evaluates it both ways.
	AbsolutelyImpure
)

var classNames = [...]string{"pure", "impure", "absolutely-impure"}

func (c Class) String() string {
	if int(c) < len(classNames) {
		return classNames[c]
	}
	return fmt.Sprintf("Class(%d)", c)
}

// MarshalText writes the class name.
func (c Class) MarshalText() ([]byte, error) { return []byte(c.String()), nil }

// TestPurity is the purity of one test.
type TestPurity struct {
	TestID
	// Class is the worst class over the sites the test reaches.
	Class Class `json:"class"`
	// Impure lists the sites on which the test is ImpureSplittable,
	// Absolute those on which it is AbsolutelyImpure, sorted.
	Impure   []int `json:"impure,omitempty"`
	Absolute []int `json:"absolute,omitempty"`
}

// SitePurity is how the tests reaching one site execute it.
type SitePurity struct {
	Site int `json:"site"`
	// Tests counts the tests reaching the site, by class on this site.
	Tests    int `json:"tests"`
	Pure     int `json:"pure"`
	Impure   int `json:"impure"`
	Absolute int `json:"absolutely_impure"`
	// PureBefore reports that every test reaching the site is pure on it;
	// PureAfter that every constituent reaching it is (no test is
	// absolutely impure on it).
	PureBefore bool `json:"pure_before"`
	PureAfter  bool `json:"pure_after"`
}

// Row is one line of the purity table: a package's tests and the sites
// they reach (Tables 4.3 and 4.5 of the thesis).
type Row struct {
	// Package is the test package; "total" for the whole.
	Package string `json:"package"`
	// Tests counts the tests, by overall class.
	Tests    int `json:"tests"`
	Pure     int `json:"pure"`
	Impure   int `json:"impure_without_impure_constituent"`
	Absolute int `json:"absolutely_impure"`
	// Sites counts the sites the tests reach; PureBefore and PureAfter
	// those purely covered before and after purification.
	Sites      int `json:"ifs"`
	PureBefore int `json:"purely_covered_before"`
	PureAfter  int `json:"purely_covered_after"`
}

// Increase is the relative increase of purely covered sites, in percent;
// ok is false when none was purely covered before.
func (row Row) Increase() (pct float64, ok bool) {
	if row.PureBefore == 0 {
		return 0, false
	}
	return 100 * float64(row.PureAfter-row.PureBefore) / float64(row.PureBefore), true
}

// Report is the result of Analyze.
type Report struct {
	// Rows has one row per test package, sorted, then Total.
	Rows  []Row `json:"packages"`
	Total Row   `json:"total"`
	// Tests and Sites are the details, sorted by package and test, and by
	// site.
	Tests []TestPurity `json:"tests"`
	Sites []SitePurity `json:"sites"`
}

// Analyze classifies tests and sites from signatures. tests lists every
// test, so that tests reaching no site count (as pure); tests appearing only
// in sigs are added. Signatures with no evaluation are ignored.
func Analyze(sigs []Signature, tests []TestID) *Report {
	type counts struct{ then, els int }
	type key struct {
		id   TestID
		site int
	}
	type cons struct{ seg, iter int }
	perTest := map[key]*counts{}
	perCons := map[key]map[cons]*counts{}
	known := map[TestID]bool{}
	for _, t := range tests {
		known[t] = true
	}
	for _, s := range sigs {
		id := TestID{s.Package, s.Test}
		known[id] = true
		if s.Then == 0 && s.Else == 0 {
			continue
		}
		k := key{id, s.Site}
		if perTest[k] == nil {
			perTest[k] = &counts{}
			perCons[k] = map[cons]*counts{}
		}
		perTest[k].then += s.Then
		perTest[k].els += s.Else
		c := cons{s.Segment, s.Iteration}
		if perCons[k][c] == nil {
			perCons[k][c] = &counts{}
		}
		perCons[k][c].then += s.Then
		perCons[k][c].els += s.Else
	}
	// class of each test on each site it reaches.
	onSite := map[key]Class{}
	for k, c := range perTest {
		cl := Pure
		if c.then > 0 && c.els > 0 {
			cl = ImpureSplittable
			for _, cc := range perCons[k] {
				if cc.then > 0 && cc.els > 0 {
					cl = AbsolutelyImpure
				}
			}
		}
		onSite[k] = cl
	}

	r := &Report{}
	byTest := map[TestID]*TestPurity{}
	for id := range known {
		byTest[id] = &TestPurity{TestID: id}
	}
	sites := map[int]*SitePurity{}
	for k, cl := range onSite {
		tp := byTest[k.id]
		tp.Class = max(tp.Class, cl)
		switch cl {
		case ImpureSplittable:
			tp.Impure = append(tp.Impure, k.site)
		case AbsolutelyImpure:
			tp.Absolute = append(tp.Absolute, k.site)
		}
		sp := sites[k.site]
		if sp == nil {
			sp = &SitePurity{Site: k.site}
			sites[k.site] = sp
		}
		sp.add(cl)
	}
	for _, tp := range byTest {
		sort.Ints(tp.Impure)
		sort.Ints(tp.Absolute)
		r.Tests = append(r.Tests, *tp)
	}
	sort.Slice(r.Tests, func(i, j int) bool {
		a, b := r.Tests[i], r.Tests[j]
		if a.Package != b.Package {
			return a.Package < b.Package
		}
		return a.Test < b.Test
	})
	for _, sp := range sites {
		sp.finish()
		r.Sites = append(r.Sites, *sp)
	}
	sort.Slice(r.Sites, func(i, j int) bool { return r.Sites[i].Site < r.Sites[j].Site })

	// Rows: per package, the package's tests and the sites they reach,
	// judged by those tests only.
	rows := map[string]*Row{}
	pkgSites := map[string]map[int]*SitePurity{}
	for _, tp := range r.Tests {
		row := rows[tp.Package]
		if row == nil {
			row = &Row{Package: tp.Package}
			rows[tp.Package] = row
			pkgSites[tp.Package] = map[int]*SitePurity{}
		}
		row.addTest(tp.Class)
		r.Total.addTest(tp.Class)
	}
	for k, cl := range onSite {
		ps := pkgSites[k.id.Package]
		sp := ps[k.site]
		if sp == nil {
			sp = &SitePurity{Site: k.site}
			ps[k.site] = sp
		}
		sp.add(cl)
	}
	for pkg, ps := range pkgSites {
		for _, sp := range ps {
			sp.finish()
			rows[pkg].addSite(*sp)
		}
	}
	for _, sp := range r.Sites {
		r.Total.addSite(sp)
	}
	for _, row := range rows {
		r.Rows = append(r.Rows, *row)
	}
	sort.Slice(r.Rows, func(i, j int) bool { return r.Rows[i].Package < r.Rows[j].Package })
	r.Total.Package = "total"
	return r
}

func (sp *SitePurity) add(cl Class) {
	sp.Tests++
	switch cl {
	case Pure:
		sp.Pure++
	case ImpureSplittable:
		sp.Impure++
	case AbsolutelyImpure:
		sp.Absolute++
	}
}

func (sp *SitePurity) finish() {
	sp.PureBefore = sp.Tests > 0 && sp.Pure == sp.Tests
	sp.PureAfter = sp.Tests > 0 && sp.Absolute == 0
}

func (row *Row) addTest(cl Class) {
	row.Tests++
	switch cl {
	case Pure:
		row.Pure++
	case ImpureSplittable:
		row.Impure++
	case AbsolutelyImpure:
		row.Absolute++
	}
}

func (row *Row) addSite(sp SitePurity) {
	row.Sites++
	if sp.PureBefore {
		row.PureBefore++
	}
	if sp.PureAfter {
		row.PureAfter++
	}
}

// WriteText writes the purity table: per package the tests by class and
// the ifs purely covered before and after purification.
func (r *Report) WriteText(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 8, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "package\ttests\tpure\timpure w/o impure constituent\tabsolutely impure\tifs\tpurely covered before\tafter\tincrease\t")
	rows := r.Rows
	if len(r.Rows) != 1 {
		rows = append(append([]Row(nil), r.Rows...), r.Total)
	}
	for _, row := range rows {
		inc := "-"
		if pct, ok := row.Increase(); ok {
			inc = fmt.Sprintf("%+.1f%%", pct)
		}
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%s\t\n", row.Package, row.Tests, row.Pure,
			row.Impure, row.Absolute, row.Sites, row.PureBefore, row.PureAfter, inc)
	}
	return tw.Flush()
}

// WriteJSON writes the report as indented JSON.
func (r *Report) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}

// Reaching returns the signatures of the constituents of test (in package
// pkg) that evaluate site, in constituent order. For per-fragment angelic
// values: force the failing constituent's (Run.ForceSegment and
// ForceIteration), take the others' evaluations as examples with their
// actual outcomes; a constituent with both Then and Else is absolutely
// impure on site and gives no single needed outcome.
func Reaching(sigs []Signature, pkg, test string, site int) []Signature {
	var out []Signature
	for _, s := range sigs {
		if s.Package == pkg && s.Test == test && s.Site == site && s.Then+s.Else > 0 {
			out = append(out, s)
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Segment != out[j].Segment {
			return out[i].Segment < out[j].Segment
		}
		return out[i].Iteration < out[j].Iteration
	})
	return out
}
