// Package synth finds a boolean condition that is consistent with examples
// recorded at a repair site.
//
// # Problems
//
// A [Spec] lists the expressions observed at a site (variables, fields,
// lengths, nil-ness checks), the constants of the surrounding code, the
// original condition and the examples: for each execution, the value of every
// observed expression and the outcome the condition must have. [Solve] returns
// candidate conditions as Go expressions over the observed expressions, each
// re-checked in Go against every example, best first.
//
// # Backends
//
// The "z3" backend encodes the problem as component-based synthesis (Jha et
// al., ICSE 2010): each component (a comparison, an arithmetic or boolean
// operator, an input or a constant) has a location variable; well-formedness
// and connection constraints make the locations a program, and one copy of the
// components' semantics per example makes it agree with the examples. The
// component set grows level by level, smallest first, and solutions already
// found are blocked to enumerate distinct ones. Interchangeable
// comparisons are ordered by their operands, operator and literal value,
// so that k == 17 || k == 23 (one input compared twice with the free
// literal) is a term. An input whose values have names (Input.Enum) is
// compared with == and != only.
//
// The "enum" backend needs no cgo: it enumerates expressions bottom-up by size
// and keeps one expression per vector of values on the examples
// (observational equivalence). It is used when the binary is built with the
// noz3 build tag, and serves as a baseline for the Z3 backend.
//
// # Ranking
//
// Candidates with fewer components rank first; then those reusing the
// original condition's operands and operators, code constants over invented
// ones, and the text closest to the original. An input is one component,
// but a call the code never makes, which the observer built over other
// operands (Input.Invented: strings.Contains(val, ",")), counts its
// arguments too, as the comparison it stands beside (val == "") does.
package synth
