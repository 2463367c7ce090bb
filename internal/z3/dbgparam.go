package z3

/*
#include <stdlib.h>
#include <z3.h>
*/
import "C"

import (
	"os"
	"strings"
	"unsafe"
)

func init() {
	for _, kv := range strings.Fields(os.Getenv("Z3PARAMS")) {
		k, v, _ := strings.Cut(kv, "=")
		ck, cv := C.CString(k), C.CString(v)
		C.Z3_global_param_set(ck, cv)
		C.free(unsafe.Pointer(ck))
		C.free(unsafe.Pointer(cv))
	}
}
