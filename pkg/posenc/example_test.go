package posenc_test

import (
	"fmt"
	"strings"

	"github.com/posenc/course/pkg/posenc"
)

// row formats values with 4 decimals (and no "-0.0000").
func row[T posenc.Float](values []T) string {
	parts := make([]string, len(values))
	for i, v := range values {
		s := fmt.Sprintf("%.4f", float64(v))
		if s == "-0.0000" {
			s = "0.0000"
		}
		parts[i] = s
	}
	return "[" + strings.Join(parts, " ") + "]"
}

func ExampleSinusoidalTable() {
	// The table of Vaswani et al. for d_model = 4: even dimensions hold
	// sin(pos·ω_i), odd ones cos(pos·ω_i), with ω = (1, 1/100).
	table, err := posenc.SinusoidalTable[float64](posenc.NewSinusoidal(4), 0, 4)
	if err != nil {
		fmt.Println(err)
		return
	}
	for pos, r := range posenc.Rows(table, 4) {
		fmt.Println("PE", pos, row(r))
	}
	// Output:
	// PE 0 [0.0000 1.0000 0.0000 1.0000]
	// PE 1 [0.8415 0.5403 0.0100 1.0000]
	// PE 2 [0.9093 -0.4161 0.0200 0.9998]
	// PE 3 [0.1411 -0.9900 0.0300 0.9996]
}

func ExampleSinusoidalTo() {
	// Fill a caller-owned buffer with positions 1,000,000 and 1,000,001, in
	// tensor2tensor's [sin | cos] layout. Angles are computed in float64.
	s := posenc.NewSinusoidal(4).WithTensor2Tensor()
	dst := make([]float32, 2*4)
	if err := posenc.SinusoidalTo(dst, s, 1_000_000); err != nil {
		fmt.Println(err)
		return
	}
	for _, r := range posenc.Rows(dst, 4) {
		fmt.Println(row(r))
	}
	// Output:
	// [-0.3500 -0.5064 0.9368 0.8623]
	// [0.5991 -0.5063 0.8006 0.8624]
}

func ExampleAddSinusoidalTo() {
	// Token embeddings of two tokens, scaled by √d_model = 2 and added to
	// the position table, in place.
	emb := []float64{
		0.1, 0.1, 0.1, 0.1,
		0.1, 0.1, 0.1, 0.1,
	}
	if err := posenc.AddSinusoidalTo(emb, emb, posenc.NewSinusoidal(4), 0, true); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(row(emb[:4]))
	fmt.Println(row(emb[4:]))
	// Output:
	// [0.2000 1.2000 0.2000 1.2000]
	// [1.0415 0.7403 0.2100 1.2000]
}

func ExampleShiftMatrix() {
	// PE(pos+k) is a fixed linear map of PE(pos), whatever pos is.
	s := posenc.NewSinusoidal(4)
	t2, _ := posenc.ShiftMatrix(s, 2)
	table, _ := posenc.SinusoidalTable[float64](s, 0, 10)
	rows := posenc.Rows(table, 4)
	for _, pos := range []int{3, 7} {
		shifted := make([]float64, 4)
		for i := range 4 {
			for j := range 4 {
				shifted[i] += t2[i*4+j] * rows[pos][j]
			}
		}
		fmt.Println("T_2·PE", pos, row(shifted), "PE", pos+2, row(rows[pos+2]))
	}
	// Output:
	// T_2·PE 3 [-0.9589 0.2837 0.0500 0.9988] PE 5 [-0.9589 0.2837 0.0500 0.9988]
	// T_2·PE 7 [0.4121 -0.9111 0.0899 0.9960] PE 9 [0.4121 -0.9111 0.0899 0.9960]
}

func ExampleRoPE_InvFreq() {
	// The frequencies of a 16-dimensional head under each scaling, for a
	// model trained on 64 positions and stretched 4 times.
	for _, sc := range []posenc.Scaling{
		{},
		posenc.LinearScaling(4),
		posenc.NTKScaling(4),
		posenc.DynamicNTKScaling(4, 64, 128),
		posenc.YaRNScaling(4, 64),
		posenc.Llama3Scaling(4, 64),
	} {
		r := posenc.NewRoPE(16).WithScaling(sc)
		freq, err := r.InvFreq()
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf("%-7s %s attention ×%.4f\n", sc.Kind, row(freq), r.AttentionFactor())
	}
	// Output:
	// none    [1.0000 0.3162 0.1000 0.0316 0.0100 0.0032 0.0010 0.0003] attention ×1.0000
	// linear  [0.2500 0.0791 0.0250 0.0079 0.0025 0.0008 0.0003 0.0001] attention ×1.0000
	// ntk     [1.0000 0.2594 0.0673 0.0175 0.0045 0.0012 0.0003 0.0001] attention ×1.0000
	// dynamic [1.0000 0.2513 0.0631 0.0159 0.0040 0.0010 0.0003 0.0001] attention ×1.0000
	// yarn    [1.0000 0.2372 0.0500 0.0079 0.0025 0.0008 0.0003 0.0001] attention ×1.1386
	// llama3  [1.0000 0.2546 0.0255 0.0079 0.0025 0.0008 0.0003 0.0001] attention ×1.0000
}

func ExampleRotateTo() {
	// Rotate one 4-dimensional query to position 1: pair 0 turns by 1
	// radian, pair 1 by 1/100 radian.
	q := []float64{1, 0, 1, 0}
	dst := make([]float64, 4)
	if err := posenc.RotateTo(dst, q, posenc.NewRoPE(4), 1); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(row(dst))
	// Output:
	// [0.5403 0.8415 1.0000 0.0100]
}

func ExampleNewRoPECache() {
	// Build the cos/sin tables once, then rotate a [heads=1, seq=3, 4]
	// block of queries at positions 10, 11, 12 in place (halves layout).
	cache, err := posenc.NewRoPECache(posenc.NewRoPE(4).WithLayout(posenc.Halves), 16)
	if err != nil {
		fmt.Println(err)
		return
	}
	x := []float32{
		1, 1, 0, 0,
		1, 1, 0, 0,
		1, 1, 0, 0,
	}
	if err := posenc.ApplyRoPETo(x, x, cache, 3, 10); err != nil {
		fmt.Println(err)
		return
	}
	for _, r := range posenc.Rows(x, 4) {
		fmt.Println(row(r))
	}
	// Asking for positions the cache lacks is an error, not a panic.
	fmt.Println(posenc.ApplyRoPETo(x, x, cache, 3, 14))
	// Output:
	// [-0.8391 0.9950 -0.5440 0.0998]
	// [0.0044 0.9940 -1.0000 0.1098]
	// [0.8439 0.9928 -0.5366 0.1197]
	// posenc: start+seq_len must be <= the cache length 16, got 17
}

func ExampleApplyRoPEAtTo() {
	// Rotate two keys at explicit positions, as after a KV cache.
	cache, _ := posenc.NewRoPECache(posenc.NewRoPE(2), 100)
	k := []float64{1, 0, 1, 0}
	if err := posenc.ApplyRoPEAtTo(k, k, cache, []int{0, 42}); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(row(k))
	// Output:
	// [1.0000 0.0000 -0.4000 -0.9165]
}

func ExampleConvertQKWeightsTo() {
	// One head of 4 dimensions whose projection weights ([out, in], one
	// input) hold their row numbers: converting from Meta's interleaved
	// pairs to Hugging Face's halves moves rows (0, 1, 2, 3) to (0, 2, 1, 3).
	w := []float32{0, 1, 2, 3}
	dst := make([]float32, 4)
	r := posenc.NewRoPE(4) // interleaved
	if err := posenc.ConvertQKWeightsTo(dst, w, r, posenc.Halves, 1, 1, 0); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(dst)
	// Output:
	// [0 2 1 3]
}

func ExampleALiBiSlopes() {
	for _, heads := range []int{8, 12} {
		slopes, _ := posenc.ALiBiSlopes(heads)
		fmt.Println(heads, "heads:", row(slopes))
	}
	// Output:
	// 8 heads: [0.5000 0.2500 0.1250 0.0625 0.0312 0.0156 0.0078 0.0039]
	// 12 heads: [0.5000 0.2500 0.1250 0.0625 0.0312 0.0156 0.0078 0.0039 0.7071 0.3536 0.1768 0.0884]
}

func ExampleALiBiBias() {
	// The first of 2 heads (slope 2^−4 = 1/16), 4 positions, causal:
	// −m·(i−j) up to the diagonal, −Inf after it.
	bias, _ := posenc.ALiBiBias[float32](2, 4, true)
	for _, r := range posenc.Rows(bias[:16], 4) {
		fmt.Println(r)
	}
	// Output:
	// [0 -Inf -Inf -Inf]
	// [-0.0625 0 -Inf -Inf]
	// [-0.125 -0.0625 0 -Inf]
	// [-0.1875 -0.125 -0.0625 0]
}

func ExampleT5Buckets_Bucket() {
	// T5's encoder buckets (32 buckets, max distance 128) for key − query.
	t := posenc.NewT5Buckets()
	for _, rel := range []int{0, 1, -1, 7, 8, -8, 20, 100, 200, -200} {
		b, _ := t.Bucket(rel)
		fmt.Printf("%d→%d ", rel, b)
	}
	fmt.Println()
	// Output:
	// 0→0 1→17 -1→1 7→23 8→24 -8→8 20→26 100→31 200→31 -200→15
}

func ExampleLearned_CheckPositions() {
	// A learned table has no row for position 512 when max_len is 512.
	l := posenc.NewLearned(512, 768)
	fmt.Println(l.NumParams(), "parameters")
	fmt.Println(l.CheckPositions([]int{0, 511, 512}))
	// Output:
	// 393216 parameters
	// posenc: positions[2] is past the learned table: max_len is 512, so positions must be in [0, 512), got 512
}

func ExampleRoPETablesTo() {
	// The tables with which RoPE is two multiplications, a swap and an
	// addition: rotate(x) = x⊙C + swap(x)⊙S. Head dimension 4 at position 1.
	r := posenc.NewRoPE(4) // interleaved: pairs (0, 1) and (2, 3)
	c, s := make([]float64, 4), make([]float64, 4)
	if err := posenc.RoPETablesTo(c, s, r, 1); err != nil {
		panic(err)
	}
	fmt.Println("C =", row(c))
	fmt.Println("S =", row(s))
	a, b := r.Pair(1)
	fmt.Println("pair 1 is dimensions", a, b)
	// Output:
	// C = [0.5403 0.5403 1.0000 1.0000]
	// S = [-0.8415 0.8415 -0.0100 0.0100]
	// pair 1 is dimensions 2 3
}
