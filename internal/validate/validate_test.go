package validate

import (
	"math"
	"testing"
)

// TestChecks checks each check on the values either side of its bound, and
// the exact messages, which posenc and posgraph promise and their tests
// quote.
func TestChecks(t *testing.T) {
	for _, tc := range []struct {
		name string
		err  error
		want string // "" for nil
	}{
		{"Positive(1)", Positive("n", 1), ""},
		{"Positive(0)", Positive("n", 0), "posenc: n must be positive, got 0"},
		{"Positive(-3)", Positive("q_len", -3), "posenc: q_len must be positive, got -3"},
		{"NonNegative(0)", NonNegative("start", 0), ""},
		{"NonNegative(-1)", NonNegative("start", -1), "posenc: start must be >= 0, got -1"},
		{"EvenPositive(2)", EvenPositive("dim", 2), ""},
		{"EvenPositive(0)", EvenPositive("dim", 0), "posenc: dim must be positive, got 0"},
		{"EvenPositive(7)", EvenPositive("dim", 7), "posenc: dim must be even, got 7"},
		{"Finite(1e308)", Finite("x", 1e308), ""},
		{"Finite(NaN)", Finite("x", math.NaN()), "posenc: x must be finite, got NaN"},
		{"Finite(-Inf)", Finite("x", math.Inf(-1)), "posenc: x must be finite, got -Inf"},
		{"Base(1.0000001)", Base("base", 1.0000001), ""},
		{"Base(1)", Base("base", 1), "posenc: base must be > 1, got 1"},
		{"Base(+Inf)", Base("base", math.Inf(1)), "posenc: base must be finite, got +Inf"},
		{"Position(2^40)", Position("pos", MaxPosition), ""},
		{"Position(2^40+1)", Position("pos", MaxPosition+1), "posenc: pos must be <= 1099511627776, got 1099511627777"},
		{"Position(-1)", Position("pos", -1), "posenc: pos must be >= 0, got -1"},
		{"Len(4, 4)", Len("dst", 4, 4), ""},
		{"Len(3, 4)", Len("dst", 3, 4), "posenc: len(dst) must be 4, got 3"},
		{"Elements(2^31)", Elements("n×dim", 1<<16, 1<<15), ""},
		{"Elements(0, huge)", Elements("n×dim", 0, math.MaxInt), ""},
		{"Elements(2^31+)", Elements("n×dim", 1<<16, 1<<15+1), "posenc: n×dim must describe at most 2147483648 elements, got [65536 32769]"},
		{"Elements(overflow)", Elements("heads×q_len×k_len", 1<<40, 1<<40, 2), "posenc: heads×q_len×k_len must describe at most 2147483648 elements, got [1099511627776 1099511627776 2]"},
	} {
		got := ""
		if tc.err != nil {
			got = tc.err.Error()
		}
		if got != tc.want {
			t.Errorf("%s: error %q; want %q", tc.name, got, tc.want)
		}
	}
}

func TestMulOverflows(t *testing.T) {
	for _, tc := range []struct {
		a, b int
		want bool
	}{
		{0, math.MaxInt, false}, {math.MaxInt, 1, false}, {1 << 31, 1 << 31, false},
		{math.MaxInt/2 + 1, 2, true}, {1 << 32, 1 << 31, true},
	} {
		if got := MulOverflows(tc.a, tc.b); got != tc.want {
			t.Errorf("MulOverflows(%d, %d) = %v; want %v", tc.a, tc.b, got, tc.want)
		}
	}
}

// TestElementsAllocatesNothing checks that a passing Elements call costs
// no allocation for its variadic slice (ALiBiBiasTo calls it on a hot path).
func TestElementsAllocatesNothing(t *testing.T) {
	a, b, c := 32, 4096, 4096
	if allocs := testing.AllocsPerRun(100, func() {
		if Elements("heads×q_len×k_len", a, b, c) != nil {
			t.Fatal("unexpected error")
		}
	}); allocs != 0 {
		t.Errorf("Elements: %v allocations per call; want 0", allocs)
	}
}
