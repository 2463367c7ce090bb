package benchmarks

import (
	"encoding/json"
	"fmt"
	"os"
)

// An Audit is a person's verdict on a plausible patch the judge
// accepted or rejected, kept beside the dataset (audit.json) because the
// judge's "states" criterion accepts conditions that agree with the
// developer's only on the states the suite records: go-toml's parsefloat
// patch agrees on all of them and accepts `+05e3`, which the developer's
// fix rejects. They are the cases a stricter judge must decide as the
// person did; the report does not read them yet (RESULTS.md gives the
// figures by hand).
type Audit struct {
	Bug       string `json:"bug"`
	Condition string `json:"condition"`
	// Judge is the judge's verdict ("identical", "states" or "wrong"),
	// ByHand the person's ("correct" or "wrong").
	Judge  string `json:"judge"`
	ByHand string `json:"by_hand"`
	// How is "run" (the patched and the developer's tree run on an input
	// no test has) or "read" (their code and callers read); Why says
	// where they differ.
	How string `json:"how"`
	Why string `json:"why"`
}

// LoadAudits reads the audits of file, a JSON array.
func LoadAudits(file string) ([]Audit, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	var out []Audit
	if err := json.Unmarshal(data, &out); err != nil {
		return nil, fmt.Errorf("%s: %v", file, err)
	}
	for i, a := range out {
		if a.Bug == "" || a.Condition == "" || a.ByHand != "correct" && a.ByHand != "wrong" || a.How != "run" && a.How != "read" || a.Why == "" {
			return nil, fmt.Errorf("%s: audit %d (%s): want a bug, a condition, by_hand correct or wrong, how run or read, and why", file, i+1, a.Bug)
		}
	}
	return out, nil
}
