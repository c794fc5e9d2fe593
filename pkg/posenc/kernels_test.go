package posenc

import (
	"math"
	"testing"
)

// TestSincosProductShortcut checks the premise of sincosProduct's shortcut:
// below 1e-9, math.Sincos(lo) is exactly (lo, 1), so rotating by lo with
// the formula gives the same bits as calling it.
func TestSincosProductShortcut(t *testing.T) {
	rng := newRand(83)
	for range 10000 {
		lo := (2*rng.Float64() - 1) * math.Pow(10, -9-12*rng.Float64()) // |lo| in (1e-21, 1e-9)
		if s, c := math.Sincos(lo); s != lo || c != 1 {
			t.Fatalf("math.Sincos(%g) = (%g, %g); want exactly (%g, 1)", lo, s, c, lo)
		}
	}
	// And the whole function agrees with the unshortened rotation.
	for _, p := range []float64{1, 12345, 999_999, 1 << 28} {
		for _, w := range []float64{1, 0.31622776601683794, 1.0000000000000002e-4, 0.0178} {
			hi := p * w
			lo := math.FMA(p, w, -hi)
			sh, ch := math.Sincos(hi)
			sl, cl := math.Sincos(lo)
			ws, wc := sh*cl+ch*sl, ch*cl-sh*sl
			if gs, gc := sincosProduct(p, w); gs != ws || gc != wc {
				t.Errorf("sincosProduct(%g, %g) = (%v, %v); want (%v, %v)", p, w, gs, gc, ws, wc)
			}
		}
	}
}

// TestALiBiRowsFromAnyChunkStart checks the shifted-copy rows of
// alibiKernel against directly computed ones whatever row a chunk of work
// starts at (the first row of a chunk is computed, the others copied).
func TestALiBiRowsFromAnyChunkStart(t *testing.T) {
	slopes, _ := ALiBiSlopes(3)
	const qLen, kLen = 7, 11
	for _, causal := range []bool{false, true} {
		want := make([]float32, len(slopes)*qLen*kLen)
		k := &alibiKernel[float32]{dst: want, slopes: slopes, qLen: qLen, kLen: kLen, causal: causal}
		for r := range len(slopes) * qLen {
			k.fillRow(want[r*kLen:(r+1)*kLen], slopes[r/qLen], kLen-qLen+r%qLen)
		}
		for lo := range len(slopes) * qLen {
			got := make([]float32, len(want))
			k.dst = got
			k.runRows(lo, len(slopes)*qLen)
			if lo > 0 {
				k.runRows(0, lo)
			}
			for i := range got {
				if math.Float32bits(got[i]) != math.Float32bits(want[i]) {
					t.Fatalf("causal %v, chunks [0, %d) [%d, …): [%d] = %v; want %v", causal, lo, lo, i, got[i], want[i])
				}
			}
		}
	}
}
