package synth

import (
	"encoding/json"
	"fmt"
	"strconv"
)

// Kind is the Go kind of an observed expression, as the solver sees it.
type Kind uint8

// The kinds an observed expression can have. Nil-ness checks such as
// "p == nil" are observed as Bool inputs; lengths such as "len(s)" as Int.
const (
	Bool Kind = iota + 1
	Int
	Float
	String
)

func (k Kind) String() string {
	switch k {
	case Bool:
		return "bool"
	case Int:
		return "int"
	case Float:
		return "float"
	case String:
		return "string"
	}
	return "kind(" + strconv.Itoa(int(k)) + ")"
}

// MarshalJSON encodes k by name ("bool", "int", "float", "string"); an
// unknown kind is encoded as its number.
func (k Kind) MarshalJSON() ([]byte, error) {
	if k < Bool || k > String {
		return json.Marshal(uint8(k))
	}
	return json.Marshal(k.String())
}

// UnmarshalJSON decodes a kind name or number.
func (k *Kind) UnmarshalJSON(b []byte) error {
	var name string
	if err := json.Unmarshal(b, &name); err != nil {
		var n uint8
		if err := json.Unmarshal(b, &n); err != nil {
			return fmt.Errorf("kind: want a name or a number, got %s", b)
		}
		*k = Kind(n)
		return nil
	}
	for c := Bool; c <= String; c++ {
		if c.String() == name {
			*k = c
			return nil
		}
	}
	return fmt.Errorf("unknown kind %q (want bool, int, float or string)", name)
}

// Input is one expression observed at a site: its Go source text, as it may
// appear in the repaired condition, and its kind.
type Input struct {
	Expr string `json:"expr"`
	Kind Kind   `json:"kind"`
	// Char reports an integer input of type byte or rune: an integer
	// compared with it prints as a character literal ('_', not 95).
	Char bool `json:"char,omitempty"`
	// Enum reports an integer input whose values have names (reflect.Kind,
	// time.Month): the z3 backend compares it only with == and != (an
	// ordering holds for the names declared between its bounds too).
	Enum bool `json:"enum,omitempty"`
	// Invented reports a call the code under repair never makes, built by
	// the observer over other operands (strings.Contains(val, ",")):
	// Rank costs it as the components it is written with, its call and
	// each argument, as it costs `val == ","`.
	Invented bool `json:"invented,omitempty"`
	// Groups are the enumerations the code compares the input with the
	// names of (collect.Observed.Groups): a constant of one of them goes
	// with it before another of the same value (snapLiterals).
	Groups []string `json:"groups,omitempty"`
}

// Value is the value of an observed expression in one execution.
// Only the field matching Kind is meaningful. A Missing value could not be
// observed (for example a field of a nil pointer): a candidate that would
// evaluate it on that example, without a short-circuit protecting it, is
// rejected, as the Go program would panic there.
type Value struct {
	Kind    Kind    `json:"kind"`
	Bool    bool    `json:"bool,omitempty"`
	Int     int64   `json:"int,omitempty"`
	Float   float64 `json:"float,omitempty"`
	Str     string  `json:"str,omitempty"`
	Missing bool    `json:"missing,omitempty"`
}

// BoolValue builds a Value, as IntValue, FloatValue, StringValue and
// MissingValue do.
func BoolValue(b bool) Value     { return Value{Kind: Bool, Bool: b} }
func IntValue(i int64) Value     { return Value{Kind: Int, Int: i} }
func FloatValue(f float64) Value { return Value{Kind: Float, Float: f} }
func StringValue(s string) Value { return Value{Kind: String, Str: s} }
func MissingValue(k Kind) Value  { return Value{Kind: k, Missing: true} }
func (v Value) String() string   { return v.GoString() }

// GoString renders v as a Go literal ("<missing>" for a missing value).
func (v Value) GoString() string {
	if v.Missing {
		return "<missing>"
	}
	switch v.Kind {
	case Bool:
		return strconv.FormatBool(v.Bool)
	case Int:
		return strconv.FormatInt(v.Int, 10)
	case Float:
		s := strconv.FormatFloat(v.Float, 'g', -1, 64)
		return s
	case String:
		return strconv.Quote(v.Str)
	}
	return fmt.Sprintf("value(%d)", v.Kind)
}

// Constant is a constant found in the code around the site: a literal of the
// enclosing function or a named constant of the package. Expr is its Go source
// ("0", "maxDepth", `""`), used when it appears in a candidate.
type Constant struct {
	Expr  string `json:"expr"`
	Value Value  `json:"value"`
	// Factor: the code writes the literal only as a base or a scale
	// (collect.Constant.Factor).
	Factor bool `json:"factor,omitempty"`
	// Bound: the code orders something against this character
	// (collect.Constant.Bound).
	Bound bool `json:"bound,omitempty"`
	// Group is the enumeration the constant is a name of
	// (collect.Constant.Group), "" for none.
	Group string `json:"group,omitempty"`
}

// Example is one execution of the site: the value of every input (parallel to
// Spec.Inputs) and the outcome the condition must have there.
type Example struct {
	Values []Value `json:"values"`
	Want   bool    `json:"want"`
	// Origin says where the example comes from (a test name), for messages.
	Origin string `json:"origin,omitempty"`
}

// Spec is a synthesis problem: find a boolean expression over Inputs and
// Constants whose value on every example is the example's Want.
type Spec struct {
	// Inputs are the observed expressions, in a fixed order.
	Inputs []Input `json:"inputs"`
	// Constants are the code's constants usable in a candidate.
	Constants []Constant `json:"constants,omitempty"`
	// Original is the Go source of the condition being replaced, used for
	// ranking; empty for a missing guard.
	Original string `json:"original,omitempty"`
	// Examples are the input/output pairs every candidate must satisfy.
	Examples []Example `json:"examples"`
	// PredicateEquality lets candidates compare two boolean inputs with
	// == or != ((p == nil) != (q == nil)). Off, they are not built: an
	// exclusive or of two predicates fits recorded states too easily to
	// be a fix (nopol's rule predicate-equality) unless the original has
	// one.
	PredicateEquality bool `json:"predicate_equality,omitempty"`
}

// Validate reports the first structural problem of s: values that do not
// match their input's kind, or a wrong number of values.
func (s *Spec) Validate() error {
	for i, in := range s.Inputs {
		if in.Kind < Bool || in.Kind > String {
			return fmt.Errorf("input %d (%s): unknown kind %d", i, in.Expr, in.Kind)
		}
		if in.Expr == "" {
			return fmt.Errorf("input %d: empty expression", i)
		}
	}
	for i, c := range s.Constants {
		if c.Value.Kind < Bool || c.Value.Kind > String || c.Value.Missing {
			return fmt.Errorf("constant %d (%s): bad value", i, c.Expr)
		}
	}
	for i, ex := range s.Examples {
		if len(ex.Values) != len(s.Inputs) {
			return fmt.Errorf("example %d: %d values for %d inputs", i, len(ex.Values), len(s.Inputs))
		}
		for j, v := range ex.Values {
			if v.Kind != s.Inputs[j].Kind {
				return fmt.Errorf("example %d: value %d is %s, input %s is %s", i, j, v.Kind, s.Inputs[j].Expr, s.Inputs[j].Kind)
			}
		}
	}
	return nil
}
