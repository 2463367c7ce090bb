// Package benchcmd is the nopol bench command (the bug dataset of
// benchmarks/: mine, seed, verify, run the tools, report, purified,
// mutrepair, transparency, tree). It registers itself with package cli;
// cmd/nopol imports it for that.
package benchcmd
