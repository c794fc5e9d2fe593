package sincos

import (
	"math"
	"math/rand/v2"
	"strconv"
	"testing"
)

// TestProductShortcut checks the premise of Product's shortcut: below 1e-9,
// math.Sincos(lo) is exactly (lo, 1), so rotating by lo with the formula
// gives the same bits as calling it.
func TestProductShortcut(t *testing.T) {
	rng := rand.New(rand.NewPCG(83, 0x9e3779b97f4a7c15))
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
			if gs, gc := Product(p, w); gs != ws || gc != wc {
				t.Errorf("Product(%g, %g) = (%v, %v); want (%v, %v)", p, w, gs, gc, ws, wc)
			}
		}
	}
}

// TestProductIsExact checks Product against the angle computed from the
// exact product p·w: for w = 2^−k the product is exact in float64, so
// math.Sincos(p·w) is the reference.
func TestProductIsExact(t *testing.T) {
	for _, p := range []float64{0, 1, 7, 1 << 20, 1<<40 - 3} {
		for _, k := range []int{0, 3, 17, 40} {
			w := math.Ldexp(1, -k)
			ws, wc := math.Sincos(p * w)
			if gs, gc := Product(p, w); gs != ws || gc != wc {
				t.Errorf("Product(%g, 2^-%d) = (%v, %v); want (%v, %v)", p, k, gs, gc, ws, wc)
			}
		}
	}
}

// The plain loops of Table and Cache, as their doc comments state them.

func refTable(dim, rows, start int, freq, emb []float64, scale float64, interleaved bool) []float64 {
	dst := make([]float64, rows*dim)
	for r := range rows {
		for i, w := range freq {
			s, c := Product(float64(start+r), w)
			a, b := 2*i, 2*i+1
			if !interleaved {
				a, b = i, i+dim/2
			}
			if emb != nil {
				s += emb[r*dim+a] * scale
				c += emb[r*dim+b] * scale
			}
			dst[r*dim+a], dst[r*dim+b] = s, c
		}
	}
	return dst
}

func refCache(rows, start int, freq []float64, amp float64) (sinOut, cosOut []float64) {
	sinOut, cosOut = make([]float64, rows*len(freq)), make([]float64, rows*len(freq))
	for r := range rows {
		for i, w := range freq {
			s, c := Product(float64(start+r), w)
			sinOut[r*len(freq)+i], cosOut[r*len(freq)+i] = s*amp, c*amp
		}
	}
	return sinOut, cosOut
}

// maxTableError is the recurrence's bound: AnchorRows−1 steps of a few
// float64 ulps each, on values of size up to a few units.
const maxTableError = 1e-13

// vaswani returns Vaswani et al.'s frequencies base^(−2i/dim).
func vaswani(dim int) []float64 {
	freq := make([]float64, dim/2)
	for i := range freq {
		freq[i] = math.Pow(10000, -float64(2*i)/float64(dim))
	}
	return freq
}

func maxAbsDiff[T float32 | float64](got []T, want []float64) float64 {
	worst := 0.0
	for i := range want {
		worst = max(worst, math.Abs(float64(got[i])-want[i]))
	}
	return worst
}

// The shapes: a short table, one past a block of anchors, more pairs than
// one tile (pairTile) with a tail of pairs not a multiple of 4, and a table
// large enough to be split over the workers; positions from 0 and from far.
var shapes = []struct{ dim, rows int }{{2, 1}, {6, AnchorRows + 1}, {2*pairTile + 10, 3}, {1024, 300}}
var starts = []int{0, 999_900, 1 << 39}

func TestTableIsItsLoop(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 0x9e3779b97f4a7c15))
	for _, sh := range shapes {
		freq := vaswani(sh.dim)
		emb := make([]float64, sh.rows*sh.dim)
		for i := range emb {
			emb[i] = rng.Float64() - 0.5
		}
		for _, start := range starts {
			for _, interleaved := range []bool{true, false} {
				for _, withEmb := range []bool{false, true} {
					what := "Table dim " + strconv.Itoa(sh.dim) + " rows " + strconv.Itoa(sh.rows) +
						" from " + strconv.Itoa(start) + " interleaved " + strconv.FormatBool(interleaved) +
						" emb " + strconv.FormatBool(withEmb)
					var e []float64
					if withEmb {
						e = emb
					}
					want := refTable(sh.dim, sh.rows, start, freq, e, 1.5, interleaved)
					got := make([]float64, len(want))
					k := Get[float64](len(freq))
					copy(k.Freq(), freq)
					k.Table(got, e, 1.5, start, interleaved)
					if d := maxAbsDiff(got, want); d > maxTableError {
						t.Errorf("%s: max error %.3g; want <= %g", what, d, maxTableError)
					}
					// float32 rows go through the AVX2 kernels: each value is
					// the float64 one rounded once, give or take one rounding
					// boundary (half an ulp of float32, 6e-8 near 1).
					got32 := make([]float32, len(want))
					var e32 []float32
					if withEmb {
						e32 = make([]float32, len(emb))
						for i, v := range emb {
							e32[i] = float32(v)
						}
						want = refTable(sh.dim, sh.rows, start, freq, widen(e32), 1.5, interleaved)
					}
					k32 := Get[float32](len(freq))
					copy(k32.Freq(), freq)
					k32.Table(got32, e32, 1.5, start, interleaved)
					if d := maxAbsDiff(got32, want); d > 2.4e-7 {
						t.Errorf("%s, float32: max error %.3g; want <= 2.4e-7", what, d)
					}
				}
			}
		}
	}
}

func TestCacheIsItsLoop(t *testing.T) {
	for _, sh := range shapes {
		freq := vaswani(sh.dim)
		for _, start := range starts {
			wantS, wantC := refCache(sh.rows, start, freq, 1.25)
			gotS, gotC := make([]float64, len(wantS)), make([]float64, len(wantC))
			k := Get[float64](len(freq))
			copy(k.Freq(), freq)
			k.Cache(gotS, gotC, 1.25, start)
			what := "Cache pairs " + strconv.Itoa(len(freq)) + " rows " + strconv.Itoa(sh.rows) + " from " + strconv.Itoa(start)
			if d := max(maxAbsDiff(gotS, wantS), maxAbsDiff(gotC, wantC)); d > maxTableError {
				t.Errorf("%s: max error %.3g; want <= %g", what, d, maxTableError)
			}
		}
	}
}

// TestTableInPlace checks that emb may be dst itself.
func TestTableInPlace(t *testing.T) {
	const dim, rows = 8, 5
	freq := vaswani(dim)
	emb := make([]float64, dim*rows)
	for i := range emb {
		emb[i] = float64(i%5) - 2
	}
	want := refTable(dim, rows, 3, freq, emb, 2, true)
	k := Get[float64](len(freq))
	copy(k.Freq(), freq)
	k.Table(emb, emb, 2, 3, true)
	if d := maxAbsDiff(emb, want); d > maxTableError {
		t.Errorf("in place: max error %.3g; want <= %g", d, maxTableError)
	}
}

func widen(s []float32) []float64 {
	out := make([]float64, len(s))
	for i, v := range s {
		out[i] = float64(v)
	}
	return out
}
