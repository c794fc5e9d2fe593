package posenc

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

func paramErr(param string, value any, reason string) error {
	return &ParamError{Param: param, Value: value, Reason: reason}
}

// The checks below return nil or a *ParamError. They are small on purpose:
// every exported entry point validates all of its inputs before touching dst.

func checkPositive(param string, v int) error {
	if v <= 0 {
		return paramErr(param, v, "must be positive")
	}
	return nil
}

func checkNonNegative(param string, v int) error {
	if v < 0 {
		return paramErr(param, v, "must be >= 0")
	}
	return nil
}

func checkEvenPositive(param string, v int) error {
	if v <= 0 {
		return paramErr(param, v, "must be positive")
	}
	if v%2 != 0 {
		return paramErr(param, v, "must be even")
	}
	return nil
}

func checkFinite(param string, v float64) error {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return paramErr(param, v, "must be finite")
	}
	return nil
}

// checkBase validates a frequency base: finite and greater than 1, or every
// frequency would be 1 (base 1) or grow with the dimension (base < 1).
func checkBase(param string, v float64) error {
	if err := checkFinite(param, v); err != nil {
		return err
	}
	if v <= 1 {
		return paramErr(param, v, "must be > 1")
	}
	return nil
}

// maxPosition bounds positions so that position·frequency stays exact enough
// in float64 (2^40 positions keeps the angle's absolute error below 1e-3
// radians at frequency 1) and so that position arithmetic cannot overflow.
const maxPosition = 1 << 40

func checkPosition(param string, v int) error {
	if v < 0 {
		return paramErr(param, v, "must be >= 0")
	}
	if v > maxPosition {
		return paramErr(param, v, fmt.Sprintf("must be <= %d", maxPosition))
	}
	return nil
}

// checkLen checks that a slice has exactly the length the shapes ask for.
func checkLen(param string, got, want int) error {
	if got != want {
		return paramErr("len("+param+")", got, fmt.Sprintf("must be %d", want))
	}
	return nil
}

// mulOverflows reports whether a*b overflows int, for non-negative a and b.
func mulOverflows(a, b int) bool {
	if a == 0 || b == 0 {
		return false
	}
	return a > math.MaxInt/b
}

// maxElements bounds the size of a table a convenience function allocates
// (1<<31 elements, 8 GiB of float32), so that an absurd length is an error
// rather than an out-of-memory crash.
const maxElements = 1 << 31

func checkElements(param string, factors ...int) error {
	n := 1
	for _, f := range factors {
		if mulOverflows(n, f) || n*f > maxElements {
			// A copy, so that factors does not escape and callers on hot
			// paths (ALiBiBiasTo) allocate nothing for the variadic slice.
			return paramErr(param, append([]int(nil), factors...), fmt.Sprintf("must describe at most %d elements", maxElements))
		}
		n *= f
	}
	return nil
}
