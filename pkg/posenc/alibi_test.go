package posenc

import (
	"math"
	"testing"
)

// authorsGetSlopes is a transcription of get_slopes from the ALiBi authors'
// code (ofirpress/attention_with_linear_biases, fairseq/models/transformer.py,
// TransformerDecoder.__init__), recursion included:
//
//	def get_slopes_power_of_2(n):
//	    start = 2**(-2**-(log2(n)-3)); ratio = start
//	    return [start*ratio**i for i in range(n)]
//	if log2(n).is_integer(): return get_slopes_power_of_2(n)
//	closest = 2**floor(log2(n))
//	return get_slopes_power_of_2(closest) + get_slopes(2*closest)[0::2][:n-closest]
func authorsGetSlopes(n int) []float64 {
	powerOf2 := func(n int) []float64 {
		start := math.Pow(2, -math.Pow(2, -(math.Log2(float64(n))-3)))
		ratio := start
		out := make([]float64, n)
		for i := range out {
			out[i] = start * math.Pow(ratio, float64(i))
		}
		return out
	}
	if l := math.Log2(float64(n)); l == math.Trunc(l) {
		return powerOf2(n)
	}
	closest := int(math.Pow(2, math.Floor(math.Log2(float64(n)))))
	out := powerOf2(closest)
	next := authorsGetSlopes(2 * closest)
	for i := 0; i < len(next) && len(out) < n; i += 2 { // [0::2][:n-closest]
		out = append(out, next[i])
	}
	return out
}

func TestALiBiSlopesMatchAuthors(t *testing.T) {
	for heads := 1; heads <= 64; heads++ {
		got, err := ALiBiSlopes(heads)
		if err != nil {
			t.Fatal(err)
		}
		want := authorsGetSlopes(heads)
		if len(got) != len(want) {
			t.Fatalf("heads %d: %d slopes; want %d", heads, len(got), len(want))
		}
		for i := range got {
			// start·ratio^i and 2^(−8k/n) round differently by an ulp or two.
			if !relClose(got[i], want[i], 1e-14) {
				t.Errorf("heads %d: slope[%d] = %.17g; want %.17g (authors' get_slopes)", heads, i, got[i], want[i])
			}
		}
	}
}

// TestALiBiSlopesTwelveHeads shows that for a head count that is not a
// power of two the slopes are not the geometric sequence 2^(−8k/n).
func TestALiBiSlopesTwelveHeads(t *testing.T) {
	got, _ := ALiBiSlopes(12)
	want := []float64{1.0 / 2, 1.0 / 4, 1.0 / 8, 1.0 / 16, 1.0 / 32, 1.0 / 64, 1.0 / 128, 1.0 / 256,
		math.Pow(2, -0.5), math.Pow(2, -1.5), math.Pow(2, -2.5), math.Pow(2, -3.5)}
	assertClose(t, "ALiBiSlopes(12)", got, want, 1e-16)
	differ := 0
	for k := 1; k <= 12; k++ {
		if !relClose(got[k-1], math.Exp2(-8*float64(k)/12), 1e-6) {
			differ++
		}
	}
	if differ == 0 {
		t.Error("ALiBiSlopes(12) equals the plain geometric 2^(−8k/12); want the authors' interleaved rule")
	}
	// 8 heads: the paper's 1/2, 1/4, …, 1/256.
	got, _ = ALiBiSlopes(8)
	assertClose(t, "ALiBiSlopes(8)", got, []float64{0.5, 0.25, 0.125, 0.0625, 1.0 / 32, 1.0 / 64, 1.0 / 128, 1.0 / 256}, 0)
}

// TestALiBiBiasRows checks each row against −m·|i−j| (the paper's Figure 3).
// The authors' code adds m·j instead, which differs from it by a constant
// per row that softmax ignores; posenc uses the shift 0, so rows are
// exactly −m·|i−j|, and causal rows are −Inf after the query.
func TestALiBiBiasRows(t *testing.T) {
	slopes, _ := ALiBiSlopes(5)
	for _, tc := range []struct{ qLen, kLen int }{{7, 7}, {1, 9}, {3, 10}, {300, 300}} {
		for _, causal := range []bool{false, true} {
			bias64 := make([]float64, len(slopes)*tc.qLen*tc.kLen)
			if err := ALiBiBiasTo(bias64, slopes, tc.qLen, tc.kLen, causal); err != nil {
				t.Fatal(err)
			}
			bias32 := make([]float32, len(bias64))
			if err := ALiBiBiasTo(bias32, slopes, tc.qLen, tc.kLen, causal); err != nil {
				t.Fatal(err)
			}
			for h, m := range slopes {
				for i := range tc.qLen {
					q := tc.kLen - tc.qLen + i // query position: the last qLen keys
					row := bias64[(h*tc.qLen+i)*tc.kLen : (h*tc.qLen+i+1)*tc.kLen]
					row32 := bias32[(h*tc.qLen+i)*tc.kLen : (h*tc.qLen+i+1)*tc.kLen]
					for j := range row {
						if causal && j > q {
							if !math.IsInf(row[j], -1) || !math.IsInf(float64(row32[j]), -1) {
								t.Fatalf("causal %d×%d head %d [%d, %d] = %v, %v; want −Inf", tc.qLen, tc.kLen, h, i, j, row[j], row32[j])
							}
							continue
						}
						want := -m * math.Abs(float64(q-j))
						if row[j] != want {
							t.Fatalf("%d×%d causal %v head %d [%d, %d] = %v; want −%v·|%d−%d| = %v",
								tc.qLen, tc.kLen, causal, h, i, j, row[j], m, q, j, want)
						}
						if row32[j] != float32(want) {
							t.Fatalf("float32 [%d, %d] = %v; want %v rounded once", i, j, row32[j], float32(want))
						}
					}
				}
			}
		}
	}
}

func TestALiBiBiasConvenience(t *testing.T) {
	for _, causal := range []bool{false, true} {
		got, err := ALiBiBias[float32](12, 9, causal)
		if err != nil {
			t.Fatal(err)
		}
		slopes, _ := ALiBiSlopes(12)
		want := make([]float32, 12*9*9)
		if err := ALiBiBiasTo(want, slopes, 9, 9, causal); err != nil {
			t.Fatal(err)
		}
		assertClose(t, "ALiBiBias", got, want, 0)
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
			k.RunRows(lo, len(slopes)*qLen)
			if lo > 0 {
				k.RunRows(0, lo)
			}
			for i := range got {
				if math.Float32bits(got[i]) != math.Float32bits(want[i]) {
					t.Fatalf("causal %v, chunks [0, %d) [%d, …): [%d] = %v; want %v", causal, lo, lo, i, got[i], want[i])
				}
			}
		}
	}
}
