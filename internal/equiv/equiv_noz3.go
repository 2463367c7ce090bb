//go:build !cgo || noz3

package equiv

import (
	"context"
	"errors"
	"go/token"
	"go/types"
)

// Equivalent needs Z3: in a build without it (no cgo, or -tags noz3) it
// proves nothing, and says so.
func Equivalent(ctx context.Context, fset *token.FileSet, pkg *types.Package, pos token.Pos, a, b string) (bool, error) {
	return false, errors.New("built without Z3 (cgo off or -tags noz3): conditions cannot be proven equivalent")
}
