// Package hookrt is the runtime hook that nopol adds to every
// instrumented package (see collect/hook.go): the forcing of conditions,
// the recording of observed values and the test constituent markers.
//
// It is never imported. It is a package so that the compiler, vet and
// staticcheck check the hook's source; collect embeds hook.go and atoms.go,
// renames the package to the instrumented one and writes the number of
// sites into nopolNumSites. Its names start with Nopol (exported, for
// external test packages) or nopol, and its imports are renamed, so that
// they do not clash with the package's own.
package hookrt
