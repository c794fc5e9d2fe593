package asm

import (
	"math"
	"math/rand/v2"
	"strconv"
	"testing"
)

// Each exported function is checked, bit for bit, against the plain loop of
// its doc comment, written out again below, on lengths that exercise the
// AVX2 body (multiples of 4), the Go tail (the rest) and both together, out
// of place and in place, for float32 and float64, with the AVX2 kernels on
// and (where they exist) off: see paths.

// The plain loops, as the doc comments state them.

func refRotateInterleaved[T Float](out, src []T, cs, sn []float64) {
	for i := range cs {
		a, b := float64(src[2*i]), float64(src[2*i+1])
		out[2*i] = T(float64(a*cs[i]) - float64(b*sn[i]))
		out[2*i+1] = T(float64(a*sn[i]) + float64(b*cs[i]))
	}
}

func refRotateHalves[T Float](out1, out2, src1, src2 []T, cs, sn []float64) {
	for i := range cs {
		a, b := float64(src1[i]), float64(src2[i])
		out1[i] = T(float64(a*cs[i]) - float64(b*sn[i]))
		out2[i] = T(float64(a*sn[i]) + float64(b*cs[i]))
	}
}

func refRotatePairs(sn, cs, stepSin, stepCos []float64) {
	for i := range sn {
		s, c := sn[i], cs[i]
		sn[i] = float64(s*stepCos[i]) + float64(c*stepSin[i])
		cs[i] = float64(c*stepCos[i]) - float64(s*stepSin[i])
	}
}

func refStepInterleaved[T Float](out []T, sn, cs, stepSin, stepCos []float64) {
	for i := range sn {
		out[2*i], out[2*i+1] = T(sn[i]), T(cs[i])
	}
	refRotatePairs(sn, cs, stepSin, stepCos)
}

func refStepHalves[T Float](outS, outC []T, sn, cs, stepSin, stepCos []float64) {
	for i := range sn {
		outS[i], outC[i] = T(sn[i]), T(cs[i])
	}
	refRotatePairs(sn, cs, stepSin, stepCos)
}

// lengths are pair counts: empty, tail only, body only, body and tail.
var lengths = []int{0, 1, 3, 4, 5, 7, 8, 12, 13, 64, 130}

func newRand(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15)) }

func randFloats[T Float](rng *rand.Rand, n int) []T {
	s := make([]T, n)
	for i := range s {
		s[i] = T(8*rng.Float64() - 4)
	}
	return s
}

// angles returns the cos and sin of n random angles.
func angles(rng *rand.Rand, n int) (cs, sn []float64) {
	cs, sn = make([]float64, n), make([]float64, n)
	for i := range cs {
		sn[i], cs[i] = math.Sincos(2 * math.Pi * rng.Float64())
	}
	return cs, sn
}

func sameBits[T Float](t *testing.T, what string, got, want []T) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d values; want %d", what, len(got), len(want))
	}
	for i := range got {
		if math.Float64bits(float64(got[i])) != math.Float64bits(float64(want[i])) {
			t.Fatalf("%s: [%d] = %v; the plain loop gives %v", what, i, got[i], want[i])
		}
	}
}

func TestRotationsAreTheirLoops(t *testing.T) {
	testRotations[float32](t)
	testRotations[float64](t)
}

// halves adapts a function on two halves to one slice of 2·len(cs) pairs'
// values followed by others: [first halves | second halves | rest].
func halves[T Float](f func(out1, out2, src1, src2 []T, cs, sn []float64)) func(out, src []T, cs, sn []float64) {
	return func(out, src []T, cs, sn []float64) {
		n := len(cs)
		f(out[:n], out[n:2*n], src[:n], src[n:2*n], cs, sn)
	}
}

func testRotations[T Float](t *testing.T) {
	rng := newRand(1)
	for _, rot := range []struct {
		name    string
		fn, ref func(out, src []T, cs, sn []float64)
	}{
		{"RotateInterleaved", RotateInterleaved[T], refRotateInterleaved[T]},
		{"RotateHalves", halves(RotateHalves[T]), halves(refRotateHalves[T])},
	} {
		for _, avx2 := range paths() {
			for _, n := range lengths {
				what := name[T](rot.name, avx2, n)
				src := randFloats[T](rng, 2*n+2) // two more values than the pairs: left alone
				cs, sn := angles(rng, n)
				want := append([]T(nil), src...)
				rot.ref(want, src, cs, sn)
				got := append([]T(nil), src...)
				withAVX2(avx2, func() { rot.fn(got, src, cs, sn) })
				sameBits(t, what, got, want)
				inPlace := append([]T(nil), src...)
				withAVX2(avx2, func() { rot.fn(inPlace, inPlace, cs, sn) })
				sameBits(t, what+" in place", inPlace, want)
			}
		}
	}
}

func TestStepIsItsLoop(t *testing.T) {
	testStep[float32](t)
	testStep[float64](t)
}

func testStep[T Float](t *testing.T) {
	rng := newRand(3)
	for _, avx2 := range paths() {
		for _, n := range lengths {
			what := name[T]("Step", avx2, n)
			stepCos, stepSin := angles(rng, n)
			for _, interleaved := range []bool{true, false} {
				cs, sn := angles(rng, n)
				wantS, wantC := append([]float64(nil), sn...), append([]float64(nil), cs...)
				want, got := make([]T, 2*n), make([]T, 2*n)
				gotS, gotC := append([]float64(nil), sn...), append([]float64(nil), cs...)
				if interleaved {
					refStepInterleaved(want, wantS, wantC, stepSin, stepCos)
					withAVX2(avx2, func() { StepInterleaved(got, gotS, gotC, stepSin, stepCos) })
				} else {
					refStepHalves(want[:n], want[n:], wantS, wantC, stepSin, stepCos)
					withAVX2(avx2, func() { StepHalves(got[:n], got[n:], gotS, gotC, stepSin, stepCos) })
				}
				what := what + " interleaved " + strconv.FormatBool(interleaved)
				sameBits(t, what+" row", got, want)
				sameBits(t, what+" next sin", gotS, wantS)
				sameBits(t, what+" next cos", gotC, wantC)
			}
		}
	}
}

func TestRotatePairsIsItsLoop(t *testing.T) {
	rng := newRand(4)
	for _, n := range lengths {
		stepCos, stepSin := angles(rng, n)
		cs, sn := angles(rng, n)
		wantS, wantC := append([]float64(nil), sn...), append([]float64(nil), cs...)
		refRotatePairs(wantS, wantC, stepSin, stepCos)
		RotatePairs(sn, cs, stepSin, stepCos)
		sameBits(t, "RotatePairs sin, n="+strconv.Itoa(n), sn, wantS)
		sameBits(t, "RotatePairs cos, n="+strconv.Itoa(n), cs, wantC)
	}
}

// TestRotationsByKnownAngles checks the loops themselves on angles whose
// results are exact, so that a loop and its reference that were both wrong
// the same way would still fail.
func TestRotationsByKnownAngles(t *testing.T) {
	// Pairs rotated by 90°, 0°, −90°, 0°, then 90° again (a tail after
	// the AVX2 body).
	cs := []float64{0, 1, 0, 1, 0}
	sn := []float64{1, 0, -1, 0, 1}
	for _, avx2 := range paths() {
		src := []float32{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}
		out := make([]float32, 10)
		withAVX2(avx2, func() { RotateInterleaved(out, src, cs, sn) })
		// (1, 2) → (−2, 1), (5, 6) → (6, −5), (9, 10) → (−10, 9).
		sameBits(t, name[float32]("RotateInterleaved", avx2, 5), out, []float32{-2, 1, 3, 4, 6, -5, 7, 8, -10, 9})
		o1, o2 := make([]float32, 5), make([]float32, 5)
		withAVX2(avx2, func() { RotateHalves(o1, o2, src[:5], src[5:], cs, sn) })
		// Pairs (1, 6), (2, 7), (3, 8), (4, 9), (5, 10).
		sameBits(t, name[float32]("RotateHalves first half", avx2, 5), o1, []float32{-6, 2, 8, 4, -10})
		sameBits(t, name[float32]("RotateHalves second half", avx2, 5), o2, []float32{1, 7, -3, 9, 5})

		// One step of 90° from (sin, cos) = (0, 1), (1, 0), (0.5, 0.25),
		// (−1, 0), (0.75, −0.5): stored as they are, then rotated to (1, 0),
		// (0, −1), (0.25, −0.5), (0, 1), (−0.5, −0.75).
		stepSin, stepCos := []float64{1, 1, 1, 1, 1}, []float64{0, 0, 0, 0, 0}
		next := [][2]float64{{1, 0}, {0, -1}, {0.25, -0.5}, {0, 1}, {-0.5, -0.75}}
		for _, interleaved := range []bool{true, false} {
			s := []float64{0, 1, 0.5, -1, 0.75}
			c := []float64{1, 0, 0.25, 0, -0.5}
			row := make([]float32, 10)
			var want []float32
			if interleaved {
				withAVX2(avx2, func() { StepInterleaved(row, s, c, stepSin, stepCos) })
				want = []float32{0, 1, 1, 0, 0.5, 0.25, -1, 0, 0.75, -0.5}
			} else {
				withAVX2(avx2, func() { StepHalves(row[:5], row[5:], s, c, stepSin, stepCos) })
				want = []float32{0, 1, 0.5, -1, 0.75, 1, 0, 0.25, 0, -0.5}
			}
			what := name[float32]("Step interleaved "+strconv.FormatBool(interleaved), avx2, 5)
			sameBits(t, what+" row", row, want)
			for i, w := range next {
				if s[i] != w[0] || c[i] != w[1] {
					t.Errorf("%s: pair %d stepped to (%v, %v); want (%v, %v)", what, i, s[i], c[i], w[0], w[1])
				}
			}
		}
	}
}

func name[T Float](fn string, avx2 bool, n int) string {
	elem, kernel := "float64", "Go loop"
	if is32[T]() {
		elem = "float32"
	}
	if avx2 {
		kernel = "AVX2"
	}
	return fn + "[" + elem + "] (" + kernel + ", " + strconv.Itoa(n) + " pairs)"
}
