// Package validate holds the checks that pkg/posenc and pkg/posgraph run on
// sizes, configurations and positions before they touch any data, and the
// error both return (posenc.ParamError is this package's ParamError).
//
// Each check returns nil or a *ParamError naming the parameter, what it
// must be and the value it got. They are small on purpose: every exported
// entry point of the two packages validates all of its inputs before
// touching dst, or before adding a node to a graph.
package validate

import (
	"fmt"
	"math"
)

// ParamError reports a size, configuration or position that an encoding
// cannot use. Its message names the parameter and its value, for example
// "posenc: dim must be even, got 7".
type ParamError struct {
	Param  string // the parameter's name, as the documentation spells it
	Value  any    // the value that was given
	Reason string // what the value must be, e.g. "must be even"
}

// Error returns "posenc: <param> <reason>, got <value>".
func (e *ParamError) Error() string {
	return fmt.Sprintf("posenc: %s %s, got %v", e.Param, e.Reason, e.Value)
}

// Err returns a *ParamError for param, which got value and must be as
// reason says ("must be even").
func Err(param string, value any, reason string) error {
	return &ParamError{Param: param, Value: value, Reason: reason}
}

// Positive requires v > 0.
func Positive(param string, v int) error {
	if v <= 0 {
		return Err(param, v, "must be positive")
	}
	return nil
}

// NonNegative requires v >= 0.
func NonNegative(param string, v int) error {
	if v < 0 {
		return Err(param, v, "must be >= 0")
	}
	return nil
}

// EvenPositive requires v > 0 and even (the width of a vector of pairs).
func EvenPositive(param string, v int) error {
	if v <= 0 {
		return Err(param, v, "must be positive")
	}
	if v%2 != 0 {
		return Err(param, v, "must be even")
	}
	return nil
}

// Finite requires v to be neither NaN nor infinite.
func Finite(param string, v float64) error {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return Err(param, v, "must be finite")
	}
	return nil
}

// Base validates a frequency base: finite and greater than 1, or every
// frequency would be 1 (base 1) or grow with the dimension (base < 1).
func Base(param string, v float64) error {
	if err := Finite(param, v); err != nil {
		return err
	}
	if v <= 1 {
		return Err(param, v, "must be > 1")
	}
	return nil
}

// MaxPosition bounds positions so that position·frequency stays exact
// enough in float64 (2^40 positions keeps the angle's absolute error below
// 1e-3 radians at frequency 1) and so that position arithmetic cannot
// overflow.
const MaxPosition = 1 << 40

// Position requires 0 <= v <= MaxPosition.
func Position(param string, v int) error {
	if v < 0 {
		return Err(param, v, "must be >= 0")
	}
	if v > MaxPosition {
		return Err(param, v, fmt.Sprintf("must be <= %d", MaxPosition))
	}
	return nil
}

// Len requires a slice to have exactly the length the shapes ask for; the
// error names len(param).
func Len(param string, got, want int) error {
	if got != want {
		return Err("len("+param+")", got, fmt.Sprintf("must be %d", want))
	}
	return nil
}

// MulOverflows reports whether a*b overflows int, for non-negative a and b.
func MulOverflows(a, b int) bool {
	if a == 0 || b == 0 {
		return false
	}
	return a > math.MaxInt/b
}

// MaxElements bounds the size of a table a convenience function allocates,
// or a graph constant is built from (1<<31 elements, 8 GiB of float32), so
// that an absurd length is an error rather than an out-of-memory crash.
const MaxElements = 1 << 31

// Elements requires the product of factors (all non-negative) to be at most
// MaxElements; the error names param and lists the factors.
func Elements(param string, factors ...int) error {
	n := 1
	for _, f := range factors {
		if MulOverflows(n, f) || n*f > MaxElements {
			// A copy, so that factors does not escape and callers on hot
			// paths (ALiBiBiasTo) allocate nothing for the variadic slice.
			return Err(param, append([]int(nil), factors...), fmt.Sprintf("must describe at most %d elements", MaxElements))
		}
		n *= f
	}
	return nil
}
