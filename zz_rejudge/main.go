package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"

	"github.com/nopol-go/nopol/benchmarks"
)

func main() {
	f, _ := os.Open(os.Args[1])
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		var m map[string]any
		if json.Unmarshal(sc.Bytes(), &m) != nil {
			continue
		}
		p, _ := m["plausible"].(bool)
		c, _ := m["correct"].(bool)
		cond, _ := m["condition"].(string)
		exp, _ := m["expected"].(string)
		if p && !c && cond != "" && exp != "" && benchmarks.NormalizeCond(cond) == benchmarks.NormalizeCond(exp) {
			fmt.Println(m["bug"])
		}
	}
}
