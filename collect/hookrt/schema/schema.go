package schema

import (
	nopolos "os"
	nopolstrconv "strconv"
)

// NopolCand selects the candidate of a schema binary (NOPOL_CAND).
var NopolCand = func() int {
	n, err := nopolstrconv.Atoi(nopolos.Getenv("NOPOL_CAND"))
	if err != nil {
		return -1
	}
	return n
}()
