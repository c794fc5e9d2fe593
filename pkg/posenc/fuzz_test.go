package posenc

import (
	"errors"
	"math"
	"slices"
	"testing"

	"github.com/posenc/course/internal/validate"
)

// Fuzz targets for every host entry point. Each asserts that nothing
// panics and that a call either returns a *ParamError or produces finite,
// in-range output. Sizes are bounded inside the bodies: lengths are reduced
// modulo a few thousand, and configurations that are valid but would make
// the library allocate gigabytes are skipped, while absurd ones still go
// through the error path (which allocates nothing).

// boundLen maps any int to a length in [0, limit].
func boundLen(n, limit int) int { return int(uint(n) % uint(limit+1)) }

// mustBeParamError fails t unless err is nil or a *ParamError.
func mustBeParamError(t *testing.T, err error) {
	t.Helper()
	var pe *ParamError
	if err != nil && !errors.As(err, &pe) {
		t.Fatalf("err = %T %v; want a *ParamError", err, err)
	}
}

// fuzzValue maps a fuzzed float to a finite input value of modest size.
func fuzzValue(v float64) float64 {
	if math.IsNaN(v) || math.IsInf(v, 0) || math.Abs(v) > 1e6 {
		return 0.5
	}
	return v
}

func FuzzSinusoidalTo(f *testing.F) {
	f.Add(8, 10000.0, 0, 0, 0, 64)
	f.Add(6, 100.0, 1, 1, 999_999, 600)
	f.Add(7, 10000.0, 0, 0, 0, 14)
	f.Add(8, 1.0, 0, 0, 0, 8)
	f.Add(8, math.NaN(), 0, 0, 0, 8)
	f.Add(2, 10000.0, 0, 1, 1<<40-2, 4)
	f.Add(-4, 10000.0, 3, 0, -1, 8)
	f.Add(1<<40, 10000.0, 0, 0, 0, 1)
	f.Fuzz(func(t *testing.T, dim int, base float64, layout, spacing, start, n int) {
		s := Sinusoidal{Dim: dim, Base: base, Layout: Layout(layout), Spacing: Spacing(spacing)}
		dst32 := make([]float32, boundLen(n, 4096))
		err := SinusoidalTo(dst32, s, start)
		mustBeParamError(t, err)
		if err == nil && !finiteIn(dst32, 1) {
			t.Fatalf("%+v from %d: values outside [−1, 1]: %v", s, start, dst32)
		}
		dst64 := make([]float64, len(dst32))
		err64 := SinusoidalTo(dst64, s, start)
		if (err == nil) != (err64 == nil) {
			t.Fatalf("float32 err %v, float64 err %v", err, err64)
		}
		if err == nil {
			assertClose(t, "float32 vs float64", dst32, dst64, 6e-8)
		}
		if rows := boundLen(n, 64); dim <= 1024 {
			table, err := SinusoidalTable[float32](s, start, rows)
			mustBeParamError(t, err)
			if err == nil && (len(table) != rows*dim || !finiteIn(table, 1)) {
				t.Fatalf("SinusoidalTable: %d values (want %d) or out of range", len(table), rows*dim)
			}
		}
		freq, err := s.Frequencies()
		mustBeParamError(t, err)
		for _, w := range freq {
			if !(w > 0 && w <= 1) {
				t.Fatalf("frequency %v outside (0, 1]", w)
			}
		}
	})
}

func FuzzAddSinusoidalTo(f *testing.F) {
	f.Add(8, 10000.0, 0, 64, 64, 0.25, true)
	f.Add(16, 500.0, 12345, 160, 160, -3.0, false)
	f.Add(8, 10000.0, 0, 64, 63, 1.0, true)
	f.Add(4, 0.0, 0, 0, 0, 1.0, true)
	f.Fuzz(func(t *testing.T, dim int, base float64, start, nDst, nEmb int, v float64, scale bool) {
		s := NewSinusoidal(dim).WithBase(base)
		v = fuzzValue(v)
		dst := make([]float32, boundLen(nDst, 4096))
		emb := make([]float32, boundLen(nEmb, 4096))
		for i := range emb {
			emb[i] = float32(v)
		}
		err := AddSinusoidalTo(dst, emb, s, start, scale)
		mustBeParamError(t, err)
		if err != nil {
			return
		}
		k := 1.0
		if scale {
			k = math.Sqrt(float64(dim))
		}
		if bound := math.Abs(float64(float32(v)))*k + 1; !finiteIn(dst, bound*(1+1e-6)) {
			t.Fatalf("values outside ±%v", bound)
		}
	})
}

func FuzzShiftMatrix(f *testing.F) {
	f.Add(8, 10000.0, 0, 0, 3)
	f.Add(6, 100.0, 1, 1, -1000)
	f.Add(9, 10000.0, 0, 0, 1)
	f.Add(8, 10000.0, 0, 0, 1<<41)
	f.Add(1<<20, 10000.0, 0, 0, 1)
	f.Fuzz(func(t *testing.T, dim int, base float64, layout, spacing, k int) {
		if dim > 256 && dim <= 1<<16 {
			t.Skip("valid but large: a dim×dim matrix of gigabytes")
		}
		s := Sinusoidal{Dim: dim, Base: base, Layout: Layout(layout), Spacing: Spacing(spacing)}
		m, err := ShiftMatrix(s, k)
		mustBeParamError(t, err)
		if err != nil {
			return
		}
		if len(m) != dim*dim || !finiteIn(m, 1) {
			t.Fatalf("len %d (want %d) or values outside [−1, 1]", len(m), dim*dim)
		}
		// T_k is a rotation: its rows are orthonormal.
		for i := 0; i < dim && i < 16; i++ {
			for j := 0; j < dim && j < 16; j++ {
				want := 0.0
				if i == j {
					want = 1
				}
				if got := dot(m[i*dim:(i+1)*dim], m[j*dim:(j+1)*dim]); math.Abs(got-want) > 1e-12 {
					t.Fatalf("row %d · row %d = %v; want %v", i, j, got, want)
				}
			}
		}
	})
}

// fuzzRoPE builds a RoPE from fuzzed fields.
func fuzzRoPE(headDim, rotaryDim int, base float64, layout, kind int, factor float64, origLen, seqLen int,
	betaFast, betaSlow, low, high, attn float64) RoPE {
	return RoPE{HeadDim: headDim, RotaryDim: rotaryDim, Base: base, Layout: Layout(layout), Scaling: Scaling{
		Kind: ScalingKind(kind), Factor: factor, OriginalLen: origLen, SeqLen: seqLen,
		BetaFast: betaFast, BetaSlow: betaSlow, LowFreqFactor: low, HighFreqFactor: high, AttentionFactor: attn,
		Proportion: attn, // p-RoPE's fraction reuses the last float
	}}
}

func FuzzRotateTo(f *testing.F) {
	f.Add(8, 0, 10000.0, 0, 0, 1.0, 0, 0, 0.0, 0.0, 0.0, 0.0, 0.0, 5, 8, 8, 0.5)
	f.Add(12, 4, 500000.0, 1, 4, 4.0, 4096, 0, 16.0, 2.0, 0.0, 0.0, 1.3, 100_000, 12, 12, -2.0)
	f.Add(8, 0, 10000.0, 0, 5, 8.0, 8192, 0, 0.0, 0.0, 1.0, 4.0, 0.0, 1<<40, 8, 8, 1.0)
	f.Add(8, 0, 10000.0, 0, 3, 2.0, 10, 1000, 0.0, 0.0, 0.0, 0.0, 0.0, 7, 8, 8, 1.0)
	f.Add(7, 0, 10000.0, 0, 0, 1.0, 0, 0, 0.0, 0.0, 0.0, 0.0, 0.0, 0, 7, 7, 1.0)
	f.Add(8, 10, 1.0, 2, 9, math.NaN(), -1, -1, -1.0, math.Inf(1), -2.0, 0.0, -1.0, -1, 3, 9, 1.0)
	f.Add(16, 0, 10000.0, 1, 6, 0.0, 0, 0, 0.0, 0.0, 0.0, 0.0, 0.25, 1000, 16, 16, 1.0) // p-RoPE
	f.Fuzz(func(t *testing.T, headDim, rotaryDim int, base float64, layout, kind int, factor float64, origLen, seqLen int,
		betaFast, betaSlow, low, high, attn float64, pos, nX, nDst int, v float64) {
		r := fuzzRoPE(headDim, rotaryDim, base, layout, kind, factor, origLen, seqLen, betaFast, betaSlow, low, high, attn)
		v = fuzzValue(v)
		x := make([]float64, boundLen(nX, 1024))
		for i := range x {
			x[i] = v * float64(i%3-1)
		}
		dst := make([]float64, boundLen(nDst, 1024))
		err := RotateTo(dst, x, r, pos)
		mustBeParamError(t, err)
		if err != nil {
			return
		}
		af := r.AttentionFactor()
		nx, nd := math.Sqrt(dot(x, x)), math.Sqrt(dot(dst, dst))
		if af*nx < 1e300 && (!finiteIn(dst, math.Inf(1)) || nd > math.Max(af, 1)*nx*(1+1e-12)+1e-300) {
			t.Fatalf("|R x| = %v; want finite and at most %v·|x| = %v", nd, math.Max(af, 1), math.Max(af, 1)*nx)
		}
	})
}

func FuzzRoPECacheApply(f *testing.F) {
	f.Add(8, 0, 10000.0, 0, 0, 1.0, 0, 0, 0.0, 0.0, 0.0, 0.0, 0.0, 32, 4, 3, 2, 5, 31, 0.5)
	f.Add(16, 8, 10000.0, 1, 4, 8.0, 64, 0, 32.0, 1.0, 0.0, 0.0, 0.0, 100, 10, 90, 3, 0, 99, -1.0)
	f.Add(8, 0, 500000.0, 0, 5, 8.0, 8192, 0, 0.0, 0.0, 1.0, 4.0, 0.0, 16, 16, 0, 1, 15, 16, 2.0)
	f.Add(8, 0, 10000.0, 0, 3, 4.0, 16, 64, 0.0, 0.0, 0.0, 0.0, 0.0, 64, 8, 60, 2, -1, 3, 1.0)
	f.Add(8, 0, 10000.0, 0, 1, 0.5, 0, 0, 0.0, 0.0, 0.0, 0.0, 0.0, 0, 0, 0, 0, 0, 0, 1.0)
	f.Fuzz(func(t *testing.T, headDim, rotaryDim int, base float64, layout, kind int, factor float64, origLen, seqLen int,
		betaFast, betaSlow, low, high, attn float64, maxLen, seq, start, batch, p0, p1 int, v float64) {
		if headDim > 1024 {
			t.Skip("valid but large head dims: caches of gigabytes")
		}
		r := fuzzRoPE(headDim, rotaryDim, base, layout, kind, factor, origLen, seqLen, betaFast, betaSlow, low, high, attn)
		cache, err := NewRoPECache(r, boundLen(maxLen, 256)-1) // −1 reaches max_len 0
		mustBeParamError(t, err)
		if err != nil {
			if cache != nil {
				t.Fatal("error with a non-nil cache")
			}
			return
		}
		af := r.AttentionFactor()
		if !finiteIn(cache.Cos(), af) || !finiteIn(cache.Sin(), af) {
			t.Fatalf("cache values outside ±%v", af)
		}
		v = fuzzValue(v)
		seq = boundLen(seq, 32) - 1
		n := max(seq, 0) * headDim * boundLen(batch, 3)
		x := make([]float32, n)
		for i := range x {
			x[i] = float32(v * float64(i%5-2))
		}
		bound := math.Max(af, 1) * 2 * math.Sqrt(float64(headDim)) * math.Abs(float64(float32(v))) // ≥ |R x| ≥ any entry
		check := func(what string, err error, out []float32) {
			t.Helper()
			mustBeParamError(t, err)
			if err == nil && bound < 1e30 && !finiteIn(out, bound*(1+1e-6)+1e-30) {
				t.Fatalf("%s: values outside ±%v", what, bound)
			}
		}
		dst := make([]float32, len(x))
		check("ApplyRoPETo", ApplyRoPETo(dst, x, cache, seq, start), dst)
		positions := []int{p0, p1, p0 / 2}[:boundLen(p1, 3)]
		x2 := x[:min(len(x), len(positions)*headDim)]
		dst2 := make([]float32, len(x2))
		check("ApplyRoPEAtTo", ApplyRoPEAtTo(dst2, x2, cache, positions), dst2)
	})
}

func FuzzInvFreq(f *testing.F) {
	f.Add(128, 0, 10000.0, 0, 4, 4.0, 4096, 0, 0.0, 0.0, 0.0, 0.0, 0.0)
	f.Add(128, 64, 500000.0, 1, 5, 8.0, 8192, 0, 0.0, 0.0, 1.0, 4.0, 0.0)
	f.Add(64, 0, 10000.0, 0, 3, 1e300, 1, 1<<40, 0.0, 0.0, 0.0, 0.0, 0.0)
	f.Add(32, 0, 1e308, 0, 5, 2.0, 1, 0, 0.0, 0.0, 0.5, 0.75, 0.0)
	f.Add(32, 0, 10000.0, 0, 4, 2.0, 6, 0, 0.0, 0.0, 0.0, 0.0, 0.0)
	f.Add(3, 0, 0.0, 7, -1, -1.0, -1, -1, -1.0, -1.0, -1.0, -1.0, -1.0)
	f.Add(512, 0, 1e6, 1, 6, 1.0, 0, 0, 0.0, 0.0, 0.0, 0.0, 0.25) // p-RoPE
	f.Fuzz(func(t *testing.T, headDim, rotaryDim int, base float64, layout, kind int, factor float64, origLen, seqLen int,
		betaFast, betaSlow, low, high, attn float64) {
		if headDim > 1<<16 {
			t.Skip("large head dims only allocate more")
		}
		r := fuzzRoPE(headDim, rotaryDim, base, layout, kind, factor, origLen, seqLen, betaFast, betaSlow, low, high, attn)
		freq, err := r.InvFreq()
		mustBeParamError(t, err)
		if (err == nil) != (r.Validate() == nil) {
			t.Fatalf("InvFreq err %v but Validate err %v", err, r.Validate())
		}
		if err != nil {
			return
		}
		if len(freq) != r.Rot()/2 {
			t.Fatalf("%d frequencies; want %d", len(freq), r.Rot()/2)
		}
		for i, w := range freq {
			if !(w >= 0 && w <= 1) {
				t.Fatalf("frequency %d = %v outside [0, 1]", i, w)
			}
		}
		if af := r.AttentionFactor(); !(af > 0) || math.IsInf(af, 0) {
			t.Fatalf("AttentionFactor() = %v; want finite and positive", af)
		}
	})
}

func FuzzALiBi(f *testing.F) {
	f.Add(8, 16, 16, true, 0.0, 2048)
	f.Add(12, 3, 10, false, 0.0, 360)
	f.Add(5, 4, 3, true, 0.0, 60)
	f.Add(0, 1, 1, false, 0.0, 0)
	f.Add(3, 2, 2, true, math.NaN(), 12)
	f.Add(1<<17, 2, 2, true, 0.0, 12)
	f.Fuzz(func(t *testing.T, heads, qLen, kLen int, causal bool, slope float64, nDst int) {
		slopes, err := ALiBiSlopes(heads)
		mustBeParamError(t, err)
		if err == nil {
			if len(slopes) != heads {
				t.Fatalf("%d slopes; want %d", len(slopes), heads)
			}
			for _, m := range slopes {
				if !(m > 0 && m <= 1) {
					t.Fatalf("slope %v outside (0, 1]", m)
				}
			}
		}
		if heads < 1 || heads > 16 {
			slopes = []float64{0.5}
		}
		if slope != 0 {
			slopes = append(slopes[:len(slopes):len(slopes)], slope) // may be NaN or negative
		}
		dst := make([]float32, boundLen(nDst, 8192))
		err = ALiBiBiasTo(dst, slopes, qLen, kLen, causal)
		mustBeParamError(t, err)
		if err != nil {
			return
		}
		for r := range len(slopes) * qLen {
			q := kLen - qLen + r%qLen
			for j, b := range dst[r*kLen : (r+1)*kLen] {
				m := slopes[r/qLen]
				switch {
				case causal && j > q:
					if !math.IsInf(float64(b), -1) {
						t.Fatalf("row %d key %d = %v; want −Inf", r, j, b)
					}
				case math.IsNaN(float64(b)) || math.IsInf(float64(b), 0) || float64(b) != float64(float32(-m*math.Abs(float64(q-j)))):
					t.Fatalf("row %d key %d = %v; want %v", r, j, b, -m*math.Abs(float64(q-j)))
				}
			}
		}
	})
}

func FuzzT5Buckets(f *testing.F) {
	f.Add(32, 128, true, 200, 8, 8, 64)
	f.Add(32, 128, false, -1000, 3, 20, 60)
	f.Add(4, 3, true, 1<<40, 1, 1, 1)
	f.Add(3, 10, true, 0, 2, 2, 4)
	f.Add(1<<20, 1<<40, false, -(1 << 40), 2, 2, 4)
	f.Fuzz(func(t *testing.T, numBuckets, maxDistance int, bidirectional bool, rel, qLen, kLen, nDst int) {
		tb := T5Buckets{NumBuckets: numBuckets, MaxDistance: maxDistance, Bidirectional: bidirectional}
		b, err := tb.Bucket(rel)
		mustBeParamError(t, err)
		if err == nil && (b < 0 || b >= numBuckets) {
			t.Fatalf("Bucket(%d) = %d outside [0, %d)", rel, b, numBuckets)
		}
		if err == nil && !bidirectional && rel >= 0 && b != 0 {
			t.Fatalf("causal Bucket(%d) = %d; want 0 for keys after the query", rel, b)
		}
		dst := make([]int32, boundLen(nDst, 4096))
		err = tb.BucketsTo(dst, qLen, kLen)
		mustBeParamError(t, err)
		if err == nil {
			for _, b := range dst {
				if b < 0 || int(b) >= numBuckets {
					t.Fatalf("BucketsTo: bucket %d outside [0, %d)", b, numBuckets)
				}
			}
		}
	})
}

func FuzzConvertQKWeights(f *testing.F) {
	f.Add(8, 0, 0, 1, 2, 3, 0, 48, 48)
	f.Add(10, 4, 1, 0, 3, 2, 1, 60, 60)
	f.Add(8, 0, 0, 1, 2, 3, 0, 48, 47)
	f.Add(7, 0, 2, 5, 0, 0, 3, 0, 0)
	f.Add(1<<40, 0, 0, 1, 1, 1, 0, 1, 1)
	f.Fuzz(func(t *testing.T, headDim, rotaryDim, from, to, numHeads, inDim, outAxis, nW, nDst int) {
		if headDim > 4096 && headDim <= validate.MaxElements {
			t.Skip("valid but large: a permutation of gigabytes")
		}
		perm, err := LayoutPermutation(headDim, rotaryDim, Layout(from), Layout(to))
		mustBeParamError(t, err)
		if err == nil {
			sorted := slices.Sorted(slices.Values(perm))
			for i, p := range sorted {
				if p != i {
					t.Fatalf("LayoutPermutation = %v: not a permutation", perm)
				}
			}
		}
		w := make([]float32, boundLen(nW, 4096))
		for i := range w {
			w[i] = float32(i)
		}
		dst := make([]float32, boundLen(nDst, 4096))
		r := RoPE{HeadDim: headDim, RotaryDim: rotaryDim, Base: 10000, Layout: Layout(from)}
		err = ConvertQKWeightsTo(dst, w, r, Layout(to), numHeads, inDim, outAxis)
		mustBeParamError(t, err)
		if err == nil {
			got := slices.Sorted(slices.Values(dst))
			if !slices.Equal(got, w) {
				t.Fatal("converted weights are not a permutation of the original ones")
			}
		}
	})
}

func FuzzLearned(f *testing.F) {
	f.Add(512, 8, 0, 511, 3, 4096, 24)
	f.Add(4, 3, 4, 0, 0, 12, 9)
	f.Add(0, 8, 0, 0, 0, 0, 0)
	f.Add(1<<40, 1<<40, 0, 1, 2, 3, 4)
	f.Fuzz(func(t *testing.T, maxLen, dim, p0, p1, p2, nTable, nDst int) {
		l := NewLearned(maxLen, dim)
		positions := []int{p0, p1, p2}
		err := l.CheckPositions(positions)
		mustBeParamError(t, err)
		if err == nil {
			for _, p := range positions {
				if p < 0 || p >= maxLen {
					t.Fatalf("CheckPositions accepted %d with max_len %d", p, maxLen)
				}
			}
		}
		table := make([]float64, boundLen(nTable, 4096))
		for i := range table {
			table[i] = float64(i)
		}
		dst := make([]float64, boundLen(nDst, 4096))
		err = LearnedLookupTo(dst, table, l, positions)
		mustBeParamError(t, err)
		if err == nil {
			for i, p := range positions {
				for c := range dim {
					if dst[i*dim+c] != table[p*dim+c] {
						t.Fatalf("row %d col %d = %v; want table[%d, %d] = %v", i, c, dst[i*dim+c], p, c, table[p*dim+c])
					}
				}
			}
		}
	})
}

func FuzzRoPETablesTo(f *testing.F) {
	f.Add(8, 0, 10000.0, 0, 0, 1.0, 0, 0, 0.0, 0.0, 0.0, 0.0, 0.0, 24, 24, 3)
	f.Add(12, 4, 500000.0, 1, 4, 4.0, 4096, 0, 16.0, 2.0, 0.0, 0.0, 1.3, 36, 36, 100_000)
	f.Add(8, 0, 10000.0, 0, 3, 2.0, 10, 1000, 0.0, 0.0, 0.0, 0.0, 0.0, 8, 16, 1<<40-1)
	f.Add(7, 0, 10000.0, 0, 0, 1.0, 0, 0, 0.0, 0.0, 0.0, 0.0, 0.0, 0, 7, -1)
	f.Fuzz(func(t *testing.T, headDim, rotaryDim int, base float64, layout, kind int, factor float64, origLen, seqLen int,
		betaFast, betaSlow, low, high, attn float64, nC, nS, start int) {
		r := fuzzRoPE(headDim, rotaryDim, base, layout, kind, factor, origLen, seqLen, betaFast, betaSlow, low, high, attn)
		c, s := make([]float64, boundLen(nC, 4096)), make([]float64, boundLen(nS, 4096))
		err := RoPETablesTo(c, s, r, start)
		mustBeParamError(t, err)
		if err != nil {
			return
		}
		// Each pair's (C, S) is (cos, ±sin) times the attention factor, so
		// C² + S² = af² on rotary dimensions; pass-through ones are (1, 0).
		af := r.AttentionFactor()
		for row := 0; row < len(c); row += r.HeadDim {
			for j := range r.HeadDim {
				cv, sv := c[row+j], s[row+j]
				if j >= r.Rot() {
					if cv != 1 || sv != 0 {
						t.Fatalf("pass-through dim %d: (%v, %v); want (1, 0)", j, cv, sv)
					}
					continue
				}
				if d := math.Abs(cv*cv + sv*sv - af*af); !(d <= 1e-9*math.Max(1, af*af)) {
					t.Fatalf("dim %d: C² + S² = %v; want af² = %v", j, cv*cv+sv*sv, af*af)
				}
			}
		}
	})
}
