package posenc

import (
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// Helpers shared by the tests of this package: comparisons, random inputs,
// and checks of *ParamError results and panics.

// maxAbsDiff returns the largest |a[i] − b[i]| and its index; NaN counts as
// +Inf and equal infinities as 0, so that −Inf masks compare equal.
func maxAbsDiff[T, U Float](a []T, b []U) (float64, int) {
	if len(a) != len(b) {
		return math.Inf(1), -1
	}
	worst, at := 0.0, -1
	for i := range a {
		x, y := float64(a[i]), float64(b[i])
		var d float64
		switch {
		case x == y: // includes equal infinities
		case math.IsNaN(x) || math.IsNaN(y) || math.IsInf(x, 0) || math.IsInf(y, 0):
			d = math.Inf(1)
		default:
			d = math.Abs(x - y)
		}
		if d > worst || at < 0 {
			worst, at = d, i
		}
	}
	return worst, at
}

// assertClose fails t when a and b differ by more than tol anywhere.
func assertClose[T, U Float](t *testing.T, what string, got []T, want []U, tol float64) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: len(got) = %d; want %d", what, len(got), len(want))
	}
	if d, i := maxAbsDiff(got, want); d > tol {
		t.Errorf("%s: max |got − want| = %.3g at index %d (got %v; want %v), tolerance %.3g",
			what, d, i, got[i], want[i], tol)
	}
}

// relClose reports whether a and b agree to a relative tolerance.
func relClose(a, b, rel float64) bool {
	if a == b {
		return true
	}
	return math.Abs(a-b) <= rel*math.Max(math.Abs(a), math.Abs(b))
}

// randSlice returns n values uniform in [−1, 1).
func randSlice[T Float](rng *rand.Rand, n int) []T {
	s := make([]T, n)
	for i := range s {
		s[i] = T(2*rng.Float64() - 1)
	}
	return s
}

func newRand(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15)) }

// toF64 converts a slice to float64.
func toF64[T Float](s []T) []float64 {
	out := make([]float64, len(s))
	for i, v := range s {
		out[i] = float64(v)
	}
	return out
}

func dot(a, b []float64) float64 {
	s := 0.0
	for i := range a {
		s += a[i] * b[i]
	}
	return s
}

// wantParamError fails t unless err is a *ParamError whose message starts
// with "posenc: <param> " and ends with ", got <value>", the format every
// host entry point promises.
func wantParamError(t *testing.T, err error, param, value string) {
	t.Helper()
	if err == nil {
		t.Fatalf("err = nil; want a *ParamError for %s = %s", param, value)
	}
	var pe *ParamError
	if !errors.As(err, &pe) {
		t.Fatalf("err = %T (%v); want a *ParamError", err, err)
	}
	checkParamMessage(t, pe.Error(), param, value)
}

// checkParamMessage checks the "posenc: <param> <reason>, got <value>" text.
func checkParamMessage(t *testing.T, msg, param, value string) {
	t.Helper()
	if !strings.HasPrefix(msg, "posenc: "+param+" ") {
		t.Errorf("error %q; want it to start with %q", msg, "posenc: "+param+" ")
	}
	if !strings.HasSuffix(msg, ", got "+value) {
		t.Errorf("error %q; want it to end with %q", msg, ", got "+value)
	}
}

// finiteIn reports whether every value is finite and within [−bound, bound].
func finiteIn[T Float](s []T, bound float64) bool {
	for _, v := range s {
		f := float64(v)
		if math.IsNaN(f) || math.IsInf(f, 0) || math.Abs(f) > bound {
			return false
		}
	}
	return true
}
