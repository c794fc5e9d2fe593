package posenc

import (
	"math"
	"math/big"
	"testing"

	"github.com/posenc/course/pkg/posenc/internal/sincos"
)

// vaswaniRow is PE(pos) straight from Vaswani et al. 2017, "Attention Is All
// You Need", section 3.5 (https://arxiv.org/abs/1706.03762):
//
//	PE(pos, 2i) = sin(pos / base^(2i/d)),  PE(pos, 2i+1) = cos(pos / base^(2i/d))
//
// laid out interleaved, or as [sin | cos] halves.
func vaswaniRow(d int, base float64, l Layout, pos int) []float64 {
	row := make([]float64, d)
	for i := range d / 2 {
		angle := float64(pos) / math.Pow(base, float64(2*i)/float64(d))
		if l == Halves {
			row[i], row[d/2+i] = math.Sin(angle), math.Cos(angle)
		} else {
			row[2*i], row[2*i+1] = math.Sin(angle), math.Cos(angle)
		}
	}
	return row
}

// t2tTimingSignal is a float64 transcription of tensor2tensor's
// get_timing_signal_1d (tensor2tensor/layers/common_attention.py) for one
// position and an even number of channels:
//
//	num_timescales = channels // 2
//	log_timescale_increment = log(max_timescale / min_timescale) / max(num_timescales − 1, 1)
//	inv_timescales = min_timescale · exp(arange(num_timescales) · −log_timescale_increment)
//	signal = concat([sin(position · inv_timescales), cos(position · inv_timescales)])
func t2tTimingSignal(position, channels int, minTimescale, maxTimescale float64) []float64 {
	numTimescales := channels / 2
	logTimescaleIncrement := math.Log(maxTimescale/minTimescale) / float64(max(numTimescales-1, 1))
	signal := make([]float64, channels)
	for i := range numTimescales {
		invTimescale := minTimescale * math.Exp(float64(i)*-logTimescaleIncrement)
		scaledTime := float64(position) * invTimescale
		signal[i] = math.Sin(scaledTime)
		signal[numTimescales+i] = math.Cos(scaledTime)
	}
	return signal
}

// piDigits is π to 100 decimal places, for bigSincos.
const piDigits = "3.1415926535897932384626433827950288419716939937510582097494459230781640628620899862803482534211706798"

// bigSincos returns sin and cos of the exact product p·w, reducing the
// angle modulo 2π in 320-bit arithmetic before the one float64 math.Sincos:
// a reference that does not depend on how float64 rounds p·w.
func bigSincos(p int, w float64) (sin, cos float64) {
	const prec = 320
	x := new(big.Float).SetPrec(prec).SetInt64(int64(p))
	x.Mul(x, new(big.Float).SetPrec(prec).SetFloat64(w)) // exact: 41 + 53 bits
	twoPi, _ := new(big.Float).SetPrec(prec).SetString(piDigits)
	twoPi.Mul(twoPi, new(big.Float).SetPrec(prec).SetInt64(2))
	k, _ := new(big.Float).SetPrec(prec).Quo(x, twoPi).Int(nil) // p·w ≥ 0: floor
	r := new(big.Float).SetPrec(prec).SetInt(k)
	r.Mul(r, twoPi)
	r.Sub(x, r)
	rf, _ := r.Float64()
	return math.Sincos(rf)
}

// compensatedSincos is sin and cos of the exact product p·w to first order:
// math.FMA gives the rounding error lo of fl(p·w) exactly, and
// sin(hi + lo) = sin(hi) + lo·cos(hi) + O(lo²), with lo ≤ 1.2e-10 below
// position 2^20 (so the neglected term is below 1e-20).
func compensatedSincos(p int, w float64) (sin, cos float64) {
	pf := float64(p)
	hi := pf * w
	lo := math.FMA(pf, w, -hi)
	s, c := math.Sincos(hi)
	return s + lo*c, c - lo*s
}

// assertRounded4 checks that got, rounded to 4 decimals, is want.
func assertRounded4[T Float](t *testing.T, what string, got []T, want []float64) {
	t.Helper()
	for i := range want {
		if r := math.Round(float64(got[i])*1e4) / 1e4; math.Abs(r-want[i]) > 1e-9 {
			t.Errorf("%s[%d] = %v, rounded %.4f; want %.4f", what, i, got[i], r, want[i])
		}
	}
}

func TestSinusoidalGoldenDModel4(t *testing.T) {
	// The golden row of Vaswani et al.'s table: d_model = 4, position 3, ω = (1, 1/100).
	want := []float64{0.1411, -0.9900, 0.0300, 0.9996}
	got, err := SinusoidalTable[float64](NewSinusoidal(4), 3, 1)
	if err != nil {
		t.Fatal(err)
	}
	assertRounded4(t, "PE(3), d_model=4", got, want)
}

func TestSinusoidalGoldenDModel8(t *testing.T) {
	// d_model = 8: ω = 1, 0.1, 0.01, 0.001. Values computed in float64 from
	// the paper's formula (section 3.5) and rounded to 4 decimals.
	want := map[int][]float64{
		0: {0.0000, 1.0000, 0.0000, 1.0000, 0.0000, 1.0000, 0.0000, 1.0000},
		1: {0.8415, 0.5403, 0.0998, 0.9950, 0.0100, 1.0000, 0.0010, 1.0000},
		5: {-0.9589, 0.2837, 0.4794, 0.8776, 0.0500, 0.9988, 0.0050, 1.0000},
	}
	table, err := SinusoidalTable[float64](NewSinusoidal(8), 0, 6)
	if err != nil {
		t.Fatal(err)
	}
	rows := Rows(table, 8)
	for pos, w := range want {
		assertRounded4(t, "PE("+itoa(pos)+"), d_model=8", rows[pos], w)
	}
}

func TestSinusoidalMatchesPaperFormula(t *testing.T) {
	for _, tc := range []struct {
		name   string
		s      Sinusoidal
		start  int
		n      int
		layout Layout
	}{
		{"d64 interleaved", NewSinusoidal(64), 0, 300, Interleaved},
		{"d512 interleaved from 1000", NewSinusoidal(512), 1000, 140, Interleaved},
		{"d6 halves base 100", NewSinusoidal(6).WithBase(100).WithLayout(Halves), 17, 200, Halves},
		{"d2", NewSinusoidal(2), 5, 3, Interleaved},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := tc.s.Dim
			got64, err := SinusoidalTable[float64](tc.s, tc.start, tc.n)
			if err != nil {
				t.Fatal(err)
			}
			got32, err := SinusoidalTable[float32](tc.s, tc.start, tc.n)
			if err != nil {
				t.Fatal(err)
			}
			want := make([]float64, 0, tc.n*d)
			for r := range tc.n {
				want = append(want, vaswaniRow(d, tc.s.Base, tc.layout, tc.start+r)...)
			}
			// exp(−2i/d·ln base) and 1/base^(2i/d) differ by an ulp or two:
			// angles below 2000 then agree to ~1e-12.
			assertClose(t, "float64", got64, want, 1e-11)
			assertClose(t, "float32", got32, want, 6e-8)
		})
	}
}

func TestSinusoidalMatchesTensor2Tensor(t *testing.T) {
	for _, tc := range []struct {
		dim  int
		base float64
	}{{2, 10000}, {4, 10000}, {16, 10000}, {128, 10000}, {10, 500}} {
		s := NewSinusoidal(tc.dim).WithBase(tc.base).WithTensor2Tensor()
		if s.Layout != Halves || s.Spacing != SpacingT2T {
			t.Fatalf("WithTensor2Tensor() = %+v; want Halves and SpacingT2T", s)
		}
		got, err := SinusoidalTable[float64](s, 0, 64)
		if err != nil {
			t.Fatal(err)
		}
		for pos, row := range Rows(got, tc.dim) {
			want := t2tTimingSignal(pos, tc.dim, 1, tc.base)
			assertClose(t, "t2t d="+itoa(tc.dim)+" pos="+itoa(pos), row, want, 1e-12)
		}
	}
}

func TestSinusoidalFrequencies(t *testing.T) {
	freq, err := NewSinusoidal(8).Frequencies()
	if err != nil {
		t.Fatal(err)
	}
	assertClose(t, "Vaswani d=8", freq, []float64{1, 0.1, 0.01, 0.001}, 1e-15)
	// tensor2tensor's lowest frequency is exactly 1/base; Vaswani's is
	// base^(−(d−2)/d), just above it.
	freq, _ = NewSinusoidal(8).WithTensor2Tensor().Frequencies()
	assertClose(t, "T2T d=8", freq, []float64{1, math.Pow(10000, -1.0/3), math.Pow(10000, -2.0/3), 1e-4}, 1e-15)
	if _, err := (Sinusoidal{Dim: 8}).Frequencies(); err == nil {
		t.Error("zero Sinusoidal: err = nil; want base error")
	}
}

func TestSinusoidalStartOffsetAndRows(t *testing.T) {
	s := NewSinusoidal(32)
	all, err := SinusoidalTable[float64](s, 0, 700)
	if err != nil {
		t.Fatal(err)
	}
	rows := Rows(all, 32)
	for _, start := range []int{1, 127, 128, 129, 555} {
		part, err := SinusoidalTable[float64](s, start, 700-start)
		if err != nil {
			t.Fatal(err)
		}
		for r, row := range Rows(part, 32) {
			assertClose(t, "row "+itoa(start+r), row, rows[start+r], 1e-13)
		}
	}
}

func TestSinusoidalValuesInUnitRange(t *testing.T) {
	for _, s := range []Sinusoidal{NewSinusoidal(256), NewSinusoidal(64).WithTensor2Tensor(), NewSinusoidal(10).WithBase(2)} {
		for _, start := range []int{0, 999_000, 1 << 39} {
			t32, err := SinusoidalTable[float32](s, start, 1000)
			if err != nil {
				t.Fatal(err)
			}
			t64, _ := SinusoidalTable[float64](s, start, 1000)
			if !finiteIn(t32, 1) || !finiteIn(t64, 1) {
				t.Errorf("%+v from %d: a value is outside [−1, 1]", s, start)
			}
		}
	}
}

func TestAddSinusoidalTo(t *testing.T) {
	rng := newRand(1)
	for _, s := range []Sinusoidal{NewSinusoidal(16), NewSinusoidal(12).WithTensor2Tensor()} {
		for _, scale := range []bool{false, true} {
			const rows, start = 300, 42
			d := s.Dim
			emb := randSlice[float64](rng, rows*d)
			pe, _ := SinusoidalTable[float64](s, start, rows)
			k := 1.0
			if scale {
				k = math.Sqrt(float64(d)) // Vaswani et al., section 3.4
			}
			want := make([]float64, len(emb))
			for i := range want {
				want[i] = emb[i]*k + pe[i]
			}
			got := make([]float64, len(emb))
			if err := AddSinusoidalTo(got, emb, s, start, scale); err != nil {
				t.Fatal(err)
			}
			assertClose(t, "float64", got, want, 1e-13)

			// float32, in place (dst == emb), rounded once.
			emb32 := make([]float32, len(emb))
			for i, v := range emb {
				emb32[i] = float32(v)
			}
			want32 := make([]float64, len(emb))
			for i := range want32 {
				want32[i] = float64(emb32[i])*k + pe[i]
			}
			if err := AddSinusoidalTo(emb32, emb32, s, start, scale); err != nil {
				t.Fatal(err)
			}
			for i := range emb32 {
				if d := math.Abs(float64(emb32[i]) - want32[i]); d > 6e-8*math.Max(1, math.Abs(want32[i])) {
					t.Fatalf("float32 in place [%d] = %v; want %v", i, emb32[i], want32[i])
				}
			}
		}
	}
}

// TestShiftMatrix checks PE(pos+k) = T_k·PE(pos): the relative-position
// property of section 3.5, for positive and negative k, in both layouts.
func TestShiftMatrix(t *testing.T) {
	for _, s := range []Sinusoidal{
		NewSinusoidal(16),
		NewSinusoidal(16).WithLayout(Halves),
		NewSinusoidal(8).WithTensor2Tensor(),
		NewSinusoidal(6).WithBase(100),
	} {
		d := s.Dim
		table, err := SinusoidalTable[float64](s, 0, 3000)
		if err != nil {
			t.Fatal(err)
		}
		rows := Rows(table, d)
		for _, k := range []int{0, 1, 2, 5, -1, -3, -17, 1000, -1000} {
			m, err := ShiftMatrix(s, k)
			if err != nil {
				t.Fatal(err)
			}
			for _, pos := range []int{1000, 1001, 1234, 1999} {
				got := make([]float64, d)
				for r := range d {
					got[r] = dot(m[r*d:(r+1)*d], rows[pos])
				}
				assertClose(t, s.Layout.String()+" k="+itoa(k)+" pos="+itoa(pos), got, rows[pos+k], 1e-11)
			}
		}
	}
	// T_0 is the identity.
	m, _ := ShiftMatrix(NewSinusoidal(4), 0)
	assertClose(t, "T_0", m, []float64{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1}, 0)
}

// TestSinusoidalFloat32PrecisionUpToMillion checks windows of float32 rows
// (anchor rows and recurrence rows alike) against math.Sin and math.Cos of
// the float64 angle, computed directly for every value.
func TestSinusoidalFloat32PrecisionUpToMillion(t *testing.T) {
	for _, s := range []Sinusoidal{NewSinusoidal(512), NewSinusoidal(256).WithTensor2Tensor()} {
		freq, _ := s.Frequencies()
		d := s.Dim
		for _, start := range []int{0, 4093, 65_000, 524_200, 999_700} {
			const n = 301 // crosses two anchors, ending at 1,000,000 for the last window
			got, err := SinusoidalTable[float32](s, start, n)
			if err != nil {
				t.Fatal(err)
			}
			want := make([]float64, n*d)
			for r := range n {
				for i, w := range freq {
					a, b := pairIndex(s.Layout, d, i)
					want[r*d+a], want[r*d+b] = math.Sincos(float64(start+r) * w)
				}
			}
			assertClose(t, s.Layout.String()+" from "+itoa(start), got, want, 6e-8)
		}
	}
}

// TestSinusoidalFloat32PrecisionHugePositions checks windows near 2^40/1000
// and near 2^40 itself against bigSincos. There a direct math.Sin(p·ω) is
// no reference: fl(p·ω) is itself off by up to half an ulp of p·ω, 1.2e-7
// radians at 1.1e9, twice float32's resolution near 1.
func TestSinusoidalFloat32PrecisionHugePositions(t *testing.T) {
	s := NewSinusoidal(128)
	freq, _ := s.Frequencies()
	for _, start := range []int{(1<<40)/1000 - 130, (1 << 40) / 1000, 1<<40 - 200} {
		const n = 200
		got, err := SinusoidalTable[float32](s, start, n)
		if err != nil {
			t.Fatal(err)
		}
		directWorst := 0.0
		for r := range n {
			for i, w := range freq {
				sn, cs := bigSincos(start+r, w)
				gs, gc := float64(got[r*128+2*i]), float64(got[r*128+2*i+1])
				if math.Abs(gs-sn) > 6e-8 || math.Abs(gc-cs) > 6e-8 {
					t.Fatalf("PE(%d) pair %d = (%v, %v); want (%v, %v) within 6e-8", start+r, i, gs, gc, sn, cs)
				}
				ds, _ := math.Sincos(float64(start+r) * w)
				directWorst = math.Max(directWorst, math.Abs(ds-sn))
			}
		}
		t.Logf("from %d: direct math.Sin(fl(p·ω)) is off by up to %.2g", start, directWorst)
	}
}

// TestSinusoidalRecurrenceBound checks every value of a long float64 table
// against an exact sin/cos of its angle.
//
// Between anchors each row is the previous one rotated by ω (angle
// addition). A rotation preserves length, so the rounding of each step (a
// few float64 ulps, ~1e-16, from the four products and the step's own
// sin/cos of ω) is never amplified: after n steps the error has grown
// linearly to about n·few·1e-16. Every sincos.AnchorRows rows the kernel restarts
// from an exact math.Sincos of the position (with the product's rounding
// error compensated), which resets the error, so the bound is that of
// sincos.AnchorRows−1 = 127 steps, ~1e-14, however long the table: 8192 rows are 64
// anchors, and the worst row must still be far below 1e-12.
func TestSinusoidalRecurrenceBound(t *testing.T) {
	if sincos.AnchorRows > 1024 {
		t.Fatalf("sincos.AnchorRows = %d: the bound below assumes short runs between anchors", sincos.AnchorRows)
	}
	for _, tc := range []struct {
		s    Sinusoidal
		rows int
	}{
		{NewSinusoidal(1024), 8192},
		{NewSinusoidal(256).WithTensor2Tensor(), 1024},
	} {
		const start = 999_000
		s, d := tc.s, tc.s.Dim
		got := make([]float64, tc.rows*d)
		if err := SinusoidalTo(got, s, start); err != nil {
			t.Fatal(err)
		}
		freq, _ := s.Frequencies()
		worst := 0.0
		for r := range tc.rows {
			row := got[r*d : (r+1)*d]
			for i, w := range freq {
				sn, cs := compensatedSincos(start+r, w)
				a, b := pairIndex(s.Layout, d, i)
				worst = math.Max(worst, math.Max(math.Abs(row[a]-sn), math.Abs(row[b]-cs)))
			}
		}
		if worst >= 1e-12 {
			t.Errorf("%s %d×%d from %d: max error %.3g; want < 1e-12", s.Layout, tc.rows, d, start, worst)
		}
		// Tighter: 127 steps of at most ~5 ulps each stay below 1e-13, while
		// 8191 steps without re-anchoring reach ~5e-13 here, so this is what
		// fails if the anchors stop resetting the error.
		if worst >= 1e-13 {
			t.Errorf("%s %d×%d from %d: max error %.3g; want < 1e-13 (sincos.AnchorRows−1 steps' worth)", s.Layout, tc.rows, d, start, worst)
		}
		t.Logf("%s %d×%d from %d: max error %.3g", s.Layout, tc.rows, d, start, worst)
	}
	// The compensated reference itself agrees with the 320-bit one.
	for _, p := range []int{999_000, 999_777, 1_007_191} {
		for _, w := range []float64{1, 0.9821, 1e-4, 0.0317} {
			s1, c1 := compensatedSincos(p, w)
			s2, c2 := bigSincos(p, w)
			if math.Abs(s1-s2) > 1e-15 || math.Abs(c1-c2) > 1e-15 {
				t.Errorf("compensatedSincos(%d, %v) = (%v, %v); bigSincos = (%v, %v)", p, w, s1, c1, s2, c2)
			}
		}
	}
}

// TestNaiveFloat32AnglesAreWrong shows why angles are computed in float64:
// rounding position·ω to float32 at position 1,000,000 (float32's spacing
// there is 0.0625) moves sin by more than 1e-2.
func TestNaiveFloat32AnglesAreWrong(t *testing.T) {
	s := NewSinusoidal(512)
	freq, _ := s.Frequencies()
	const pos = 1_000_000
	good, _ := SinusoidalTable[float32](s, pos, 1)
	naiveWorst, goodWorst := 0.0, 0.0
	for i, w := range freq {
		angle32 := float32(pos) * float32(w)
		naive := float32(math.Sin(float64(angle32)))
		want := math.Sin(float64(pos) * w)
		naiveWorst = math.Max(naiveWorst, math.Abs(float64(naive)-want))
		goodWorst = math.Max(goodWorst, math.Abs(float64(good[2*i])-want))
	}
	if naiveWorst <= 1e-2 {
		t.Errorf("naive float32 angles: max error %.3g; want > 1e-2 (the reason for float64 angles)", naiveWorst)
	}
	if goodWorst > 6e-8 {
		t.Errorf("SinusoidalTable[float32]: max error %.3g; want <= 6e-8", goodWorst)
	}
	t.Logf("at position %d: naive float32 angles off by %.3g, posenc by %.3g", pos, naiveWorst, goodWorst)
}

func TestRowsAndLayoutString(t *testing.T) {
	flat := []int{1, 2, 3, 4, 5, 6}
	rows := Rows(flat, 3)
	if len(rows) != 2 || rows[1][0] != 4 || cap(rows[0]) != 3 {
		t.Errorf("Rows(flat, 3) = %v; want [[1 2 3] [4 5 6]] with capped rows", rows)
	}
	if Rows(flat, 4) != nil || Rows(flat, 0) != nil {
		t.Error("Rows with a non-dividing or zero cols: want nil")
	}
	for l, want := range map[Layout]string{Interleaved: "interleaved", Halves: "halves", Layout(7): "Layout(invalid)"} {
		if got := l.String(); got != want {
			t.Errorf("Layout(%d).String() = %q; want %q", int(l), got, want)
		}
	}
}
