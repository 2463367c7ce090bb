// Package equiv decides whether two Go boolean conditions, written at the
// same point of a type-checked package, are equal for every value of
// their operands. The benchmark's judge uses it: a plausible patch whose
// condition is equivalent to the developer's is correct whatever the
// tests cover.
//
// The conditions are translated into one Z3 formula each, over:
//   - integer and floating-point operands as Z3 integers and reals
//     (linear and non-linear +, -, *; a float operand may be NaN, which
//     makes every comparison but != false; unsigned operands, len and
//     cap are not negative);
//   - booleans as Z3 booleans;
//   - other comparable operands (strings, pointers, interfaces) as
//     values whose constants (each string literal, nil) are distinct.
//
// Everything else (a call, a field, an index, /, %, a conversion, a
// string ordering) is an uninterpreted operand named by its text: the
// same text in both conditions is the same value, which holds because
// both are evaluated in the same state. The translation only loses
// facts, so "equivalent" is sound for what it models; it ignores
// evaluation order and overflow (a condition that panics where the
// other short-circuits counts as equal).
//
// It needs Z3 (cgo): a build without it (-tags noz3, or cgo off) proves
// nothing and says so.
package equiv
