package schema

import (
	nopolos "os"
	nopolstrconv "strconv"
	nopolatomic "sync/atomic"
)

// NopolCand selects the candidate of a schema binary (NOPOL_CAND).
var NopolCand = func() int {
	n, err := nopolstrconv.Atoi(nopolos.Getenv("NOPOL_CAND"))
	if err != nil {
		return -1
	}
	return n
}()

// nopolCandLimit, when > 0 (NOPOL_CAND_LIMIT), bounds the evaluations of
// the schema's sites in one run, counted in nopolCandEvals: past it the
// run is taken as hung (a candidate that makes a loop spin) and the
// process ends with status 3.
var (
	nopolCandLimit = func() int64 {
		n, err := nopolstrconv.ParseInt(nopolos.Getenv("NOPOL_CAND_LIMIT"), 10, 64)
		if err != nil {
			return 0
		}
		return n
	}()
	nopolCandEvals int64
)

// NopolCandAt counts an evaluation of a schema's site and returns
// NopolCand.
func NopolCandAt() int {
	if nopolCandLimit > 0 && nopolatomic.AddInt64(&nopolCandEvals, 1) == nopolCandLimit {
		nopolos.Stdout.WriteString("\nnopol-hang: the evaluation limit was reached\n")
		nopolos.Exit(3)
	}
	return NopolCand
}
