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
// fix rejects. The judge proves what it can (identical, equivalent);
// for any other patch it takes the audit of the same bug and condition,
// and without one it does not count the patch correct (decide).
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

// auditOf finds the audit of the condition cond as a patch of the bug
// id (conditions compared after NormalizeCond).
func auditOf(audits []Audit, id, cond string) (Audit, bool) {
	for _, a := range audits {
		if a.Bug == id && NormalizeCond(a.Condition) == NormalizeCond(cond) {
			return a, true
		}
	}
	return Audit{}, false
}
