package nopol

import (
	"strings"
	"testing"

	"github.com/nopol-go/nopol/collect"
)

const patchSrc = `package p

type point struct{ x, y int }

type celsius float64

func f(p *point, xs []int, i int) (int, error) {
	total := 0
	if p.x <= 0 ||
		p.y > 3 {
		total++
	}
	total += p.x
	v := xs[i]
	return total + v, nil
}

func g(i int) (point, celsius, string, []int, [2]int, bool) {
	x := []int{1}
	_ = x[i]
	return point{}, 0, "", nil, [2]int{}, true
}
`

func TestPatchSource(t *testing.T) {
	file := "/m/p.go"
	tests := []struct {
		name  string
		site  collect.Site
		style collect.GuardStyle
		cond  string
		want  string // the changed lines, as in the patched file
	}{{
		name: "multi-line condition: its lines kept",
		site: collect.Site{Kind: collect.Cond, File: file, Line: 9, Col: 5},
		cond: "p.x < 0 || p.y > 3",
		want: "\tif p.x < 0 ||\n\t\tp.y > 3 {\n\t\ttotal++\n",
	}, {
		name: "multi-line condition replaced whole: one line",
		site: collect.Site{Kind: collect.Cond, File: file, Line: 9, Col: 5},
		cond: "i > 2",
		want: "\tif i > 2 {\n\t\ttotal++\n",
	}, {
		name:  "guard wrap",
		site:  collect.Site{Kind: collect.Guard, File: file, Line: 13, Col: 2},
		style: collect.GuardWrap,
		cond:  "p != nil",
		want:  "\tif p != nil {\n\t\ttotal += p.x\n\t}\n\tv := xs[i]\n",
	}, {
		name:  "guard return",
		site:  collect.Site{Kind: collect.Guard, File: file, Line: 14, Col: 2},
		style: collect.GuardReturn,
		cond:  "i >= len(xs)",
		want:  "\tif i >= len(xs) {\n\t\treturn 0, nil\n\t}\n\tv := xs[i]\n",
	}, {
		name:  "zero values of local and composite types",
		site:  collect.Site{Kind: collect.Guard, File: file, Line: 20, Col: 2},
		style: collect.GuardReturn,
		cond:  "i >= len(x)",
		want:  "\tif i >= len(x) {\n\t\treturn point{}, 0, \"\", nil, [2]int{}, false\n\t}\n\t_ = x[i]\n",
	}, {
		name:  "the site's return statement first",
		site:  collect.Site{Kind: collect.Guard, File: file, Line: 14, Col: 2, Exits: []collect.Exit{{Body: "return -1, errShort", Strategy: collect.StrategyReuse}}},
		style: collect.GuardReturn,
		cond:  "i >= len(xs)",
		want:  "\tif i >= len(xs) {\n\t\treturn -1, errShort\n\t}\n\tv := xs[i]\n",
	}}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := patchSource([]byte(patchSrc), tc.site, tc.style, tc.cond)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(got), tc.want) {
				t.Errorf("patched file lacks\n%s\ngot\n%s", tc.want, got)
			}
		})
	}
	if _, err := patchSource([]byte(patchSrc), collect.Site{Kind: collect.Cond, File: file, Line: 8, Col: 2}, 0, "true"); err == nil {
		t.Error("patching a non-if succeeded")
	}
}
