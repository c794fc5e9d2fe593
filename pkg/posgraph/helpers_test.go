package posgraph

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/posenc/course/pkg/posenc"
)

// Helpers shared by the tests of this package: comparisons, random inputs,
// and checks of *posenc.ParamError panics.

// assertClose fails t when got and want differ by more than tol anywhere;
// equal infinities compare equal, so −Inf masks match.
func assertClose[T, U posenc.Float](t *testing.T, what string, got []T, want []U, tol float64) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: len(got) = %d; want %d", what, len(got), len(want))
	}
	for i := range got {
		g, w := float64(got[i]), float64(want[i])
		if g == w {
			continue
		}
		if math.IsNaN(g) || math.IsNaN(w) || math.IsInf(g, 0) || math.IsInf(w, 0) || math.Abs(g-w) > tol {
			t.Fatalf("%s[%d] = %v; want %v (tolerance %.3g)", what, i, g, w, tol)
		}
	}
}

// randSlice returns n values uniform in [−1, 1).
func randSlice[T posenc.Float](rng *rand.Rand, n int) []T {
	s := make([]T, n)
	for i := range s {
		s[i] = T(2*rng.Float64() - 1)
	}
	return s
}

func newRand(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15)) }

func dot(a, b []float64) float64 {
	s := 0.0
	for i := range a {
		s += a[i] * b[i]
	}
	return s
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

// wantGraphPanic runs build, which must panic with a *posenc.ParamError
// naming param and value (the graph layer's error path).
func wantGraphPanic(t *testing.T, param, value string, build func()) {
	t.Helper()
	var recovered any
	func() {
		defer func() { recovered = recover() }()
		build()
	}()
	if recovered == nil {
		t.Fatalf("no panic; want a *ParamError for %s = %s", param, value)
	}
	err, ok := recovered.(error)
	if !ok {
		t.Fatalf("panic value %T (%v); want a *ParamError", recovered, recovered)
	}
	var pe *posenc.ParamError
	if !errors.As(err, &pe) {
		t.Fatalf("err = %T (%v); want a *posenc.ParamError", err, err)
	}
	checkParamMessage(t, pe.Error(), param, value)
}

// ropeName names a configuration in test messages.
func ropeName(r posenc.RoPE) string {
	return fmt.Sprintf("RoPE(head_dim=%d, rotary_dim=%d, %s)", r.HeadDim, r.Rot(), r.Layout)
}
