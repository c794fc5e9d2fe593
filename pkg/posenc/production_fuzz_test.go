package posenc

import (
	"math"
	"testing"
)

// FuzzPositionIDsFromMask: any mask gives IDs (real tokens counting from 0,
// pads 1) or a *ParamError naming the entry that is not 0 or 1.
func FuzzPositionIDsFromMask(f *testing.F) {
	f.Add([]byte{0, 0, 1, 1})
	f.Add([]byte{1, 2})
	f.Fuzz(func(t *testing.T, b []byte) {
		mask := make([]int, len(b))
		for i, v := range b {
			mask[i] = int(v % 3)
		}
		ids, err := PositionIDsFromMask(mask)
		mustBeParamError(t, err)
		if err != nil {
			return
		}
		next := 0
		for i, m := range mask {
			if m == 1 && ids[i] != next || m == 0 && ids[i] != 1 {
				t.Fatalf("mask %v ids %v", mask, ids)
			}
			next += m
		}
	})
}

// FuzzPacked: any lengths give IDs that restart at each document and a
// block-diagonal causal mask, or a *ParamError.
func FuzzPacked(f *testing.F) {
	f.Add([]byte{3, 2, 1}, int8(0))
	f.Add([]byte{0}, int8(-3))
	f.Fuzz(func(t *testing.T, b []byte, neg int8) {
		lens := make([]int, 0, len(b)+1)
		for _, v := range b[:min(len(b), 8)] {
			lens = append(lens, int(v%12))
		}
		if neg < 0 {
			lens = append(lens, int(neg))
		}
		ids, err := PackedPositionIDs(lens)
		mustBeParamError(t, err)
		mask, err2 := PackedCausalMask(lens)
		mustBeParamError(t, err2)
		if (err == nil) != (err2 == nil) {
			t.Fatalf("%v: %v vs %v", lens, err, err2)
		}
		if err != nil {
			return
		}
		n := len(ids)
		for i := range n {
			for j := range n {
				// Same document and causal exactly when i−j ≤ ids[i].
				if want := j <= i && i-j <= ids[i]; mask[i*n+j] != want {
					t.Fatalf("%v: mask[%d][%d] = %v", lens, i, j, mask[i*n+j])
				}
			}
		}
	})
}

// FuzzRotateBy: any offset rotates a key as RotateTo would, or is a
// *ParamError; norms are kept.
func FuzzRotateBy(f *testing.F) {
	f.Add(8, 5, 3, 10000.0, 0.5)
	f.Add(6, 100, -60, 500.0, -2.0)
	f.Add(3, 0, 1<<41, 1.0, 1.0)
	f.Fuzz(func(t *testing.T, d, n, delta int, base, v float64) {
		v = fuzzValue(v)
		d = boundLen(d, 64)
		r := NewRoPE(d).WithBase(base)
		k := make([]float64, d)
		for i := range k {
			k[i] = v * float64(i%5-2)
		}
		out := make([]float64, d)
		err := RotateBy(out, k, r, delta)
		mustBeParamError(t, err)
		if err != nil {
			return
		}
		if a, b := math.Sqrt(dot(k, k)), math.Sqrt(dot(out, out)); math.Abs(a-b) > 1e-9*(1+a) {
			t.Fatalf("norm %g → %g", a, b)
		}
	})
}

// FuzzStreamingKept: the cache holds min(total, sinks+window) tokens in
// increasing order, or the call is a *ParamError.
func FuzzStreamingKept(f *testing.F) {
	f.Add(1000, 4, 512)
	f.Add(3, 0, 0)
	f.Fuzz(func(t *testing.T, total, sinks, window int) {
		total = total % 5000
		kept, err := StreamingKept(total, sinks%100, window%100)
		mustBeParamError(t, err)
		if err != nil {
			return
		}
		if len(kept) != min(total, sinks%100+window%100) {
			t.Fatalf("len %d", len(kept))
		}
		for i := 1; i < len(kept); i++ {
			if kept[i] <= kept[i-1] {
				t.Fatalf("%v", kept)
			}
		}
	})
}

// FuzzFormatRound: rounding is idempotent, monotone in magnitude and within
// half an ulp; the bits decode back to the value.
func FuzzFormatRound(f *testing.F) {
	f.Add(257.0, 0)
	f.Add(65520.0, 3)
	f.Add(1e-40, 2)
	f.Fuzz(func(t *testing.T, x float64, fmtIdx int) {
		fm := Format(int(uint(fmtIdx) % 4))
		y := fm.Round(x)
		if math.IsNaN(x) {
			return
		}
		if fm.Round(y) != y && !math.IsNaN(y) {
			t.Fatalf("%v.Round not idempotent at %g", fm, x)
		}
		if !math.IsInf(y, 0) && math.Abs(y-x) > math.Abs(x)*math.Ldexp(1, -formatSpecs[fm].p)+math.Ldexp(1, formatSpecs[fm].emin-formatSpecs[fm].p) {
			t.Fatalf("%v.Round(%g) = %g too far", fm, x, y)
		}
		if fm == BFloat16 && BFloat16Bits(x) != uint16(math.Float32bits(float32(y))>>16) {
			t.Fatalf("bits of %g", x)
		}
		if fm == Float16 && !math.IsInf(y, 0) {
			b := Float16Bits(x)
			e, m := int(b>>10&0x1F), float64(b&0x3FF)
			v := math.Ldexp(m, -24)
			if e > 0 {
				v = math.Ldexp(1+m/1024, e-15)
			}
			if b&0x8000 != 0 {
				v = -v
			}
			if v != y {
				t.Fatalf("Float16Bits(%g) = %#04x decodes to %g; want %g", x, b, v, y)
			}
		}
	})
}

// FuzzRelativePropertyError: any precision, sizes and positions give a
// non-negative error (+Inf allowed) or a *ParamError.
func FuzzRelativePropertyError(f *testing.F) {
	f.Add(8, 5, 0, 4000, 0, 2, 1, 1, 0.5)
	f.Add(7, -1, 3, 1<<41, 9, 0, 0, 0, 1.0)
	f.Fuzz(func(t *testing.T, d, m, n, shift, fInv, fPos, fAngle, fCos int, v float64) {
		v = fuzzValue(v)
		d = boundLen(d, 32)
		q := make([]float64, d)
		for i := range q {
			q[i] = v * float64(i%3-1)
		}
		p := RoPEPrecision{Format(fInv % 5), Format(fPos % 5), Format(fAngle % 5), Format(fCos % 5)}
		e, err := RelativePropertyError(q, q, NewRoPE(d), p, m, n, shift)
		mustBeParamError(t, err)
		if err == nil && (math.IsNaN(e) || e < 0) {
			t.Fatalf("error %g", e)
		}
	})
}

// FuzzMRoPE: any segments give IDs whose count is the tokens', or a
// *ParamError; any sections give axes with the sections' counts, or a
// *ParamError; text IDs rotate as 1-D RoPE.
func FuzzMRoPE(f *testing.F) {
	f.Add(2, 1, 2, 3, 2, 16, 24, 24, false)
	f.Add(0, 0, 0, 0, 1, 24, 20, 20, true)
	f.Add(-1, 1, 0, 3, 0, 1, 2, 1, true)
	f.Fuzz(func(t *testing.T, text, gt, gh, gw, after, s0, s1, s2 int, interleaved bool) {
		segs := []MRoPESegment{{Text: text % 50}, {Grid: [3]int{gt % 5, gh % 20, gw % 20}}, {Text: after % 50}}
		ids, err := MRoPEPositionIDs(segs)
		mustBeParamError(t, err)
		if err == nil {
			want := segs[0].Text + segs[1].Grid[0]*segs[1].Grid[1]*segs[1].Grid[2] + segs[2].Text
			if len(ids) != want {
				t.Fatalf("%d ids for %d tokens", len(ids), want)
			}
		}
		sections := []int{s0 % 40, s1 % 40, s2 % 40}
		pairs := sections[0] + sections[1] + sections[2]
		axes, err := MRoPEAxes(sections, pairs, interleaved)
		mustBeParamError(t, err)
		if err != nil {
			return
		}
		r := NewRoPE(2 * pairs).WithLayout(Halves)
		x := make([]float64, 2*pairs)
		for i := range x {
			x[i] = float64(i%4) - 1.5
		}
		a, b := make([]float64, len(x)), make([]float64, len(x))
		if err := RotateMRoPETo(a, x, r, [3]int{17, 17, 17}, axes); err != nil {
			t.Fatal(err)
		}
		_ = RotateTo(b, x, r, 17)
		if d, _ := maxAbsDiff(a, b); d != 0 {
			t.Fatalf("text differs by %g", d)
		}
	})
}

// FuzzRotate2D: any head size, θ, angle and position give a rotation that
// keeps the norm, or a *ParamError.
func FuzzRotate2D(f *testing.F) {
	f.Add(16, 100.0, 0.7, 3, 5, 4, 4, false)
	f.Add(14, 1.0, math.NaN(), -1, 0, 0, 3, true)
	f.Fuzz(func(t *testing.T, d int, theta, phi float64, px, py, h, w int, mixed bool) {
		_, _, err := GridPositions(h%100, w%100)
		mustBeParamError(t, err)
		d = boundLen(d, 64)
		var fx, fy []float64
		if mixed {
			fx, fy, err = MixedFreqs(d, theta, phi)
		} else {
			fx, fy, err = AxialFreqs(d, theta)
		}
		mustBeParamError(t, err)
		if err != nil {
			return
		}
		x := make([]float64, d)
		for i := range x {
			x[i] = float64(i%3) - 1
		}
		out := make([]float64, d)
		err = Rotate2DTo(out, x, fx, fy, px, py)
		mustBeParamError(t, err)
		if err == nil {
			if a, b := dot(x, x), dot(out, out); math.Abs(a-b) > 1e-9*(1+a) {
				t.Fatalf("norm² %g → %g", a, b)
			}
		}
	})
}
