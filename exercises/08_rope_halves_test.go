package exercises

import (
	"fmt"
	"testing"

	"github.com/posenc/course/pkg/posenc"
)

var exRoPEHalves = exInfo{file: "exercises/08_rope_halves.go", funcs: "RotateHalves and InterleavedToHalves", lesson: "lesson 4, RoPE"}

func TestRoPEHalves(t *testing.T) {
	runExercise(t, exRoPEHalves, ropeHalvesCases(RotateHalves, InterleavedToHalves))
}

var (
	hintRoPEInterleavedForHalves = newHint("rope/interleaved instead of halves",
		"you rotated the interleaved pairs (x[2i], x[2i+1]); the half-split layout pairs x[i] with x[i+d/2], "+
			"as Hugging Face's rotate_half does (lesson 4, “Two layouts”).")
	hintConvertInverse = newHint("rope/converter inverted",
		"your converter goes the other way, from halves to interleaved: the pair at interleaved dimensions (2i, 2i+1) "+
			"must land at (i, i+d/2), so out[i] = v[2i] and out[i+d/2] = v[2i+1] (lesson 4, “Converting checkpoints”).")
)

// refInterleavedToHalves applies posenc's layout permutation to v.
func refInterleavedToHalves(v []float64, from, to posenc.Layout) []float64 {
	perm, err := posenc.LayoutPermutation(len(v), 0, from, to)
	if err != nil {
		panic(err)
	}
	out := make([]float64, len(v))
	for j, p := range perm {
		out[j] = v[p]
	}
	return out
}

func ropeHalvesCases(rotate func(x []float64, pos int, base float64) []float64, convert func(v []float64) []float64) []exCase {
	cases := ropeLayoutCases("RotateHalves", rotate, posenc.Halves, posenc.Interleaved, hintRoPEInterleavedForHalves,
		"rotate each pair (x[i], x[i+d/2]) by pos·θ_i with θ_i = base^(−2i/d) (lesson 4, “Two layouts”).")
	const convFallback = "out[i] = v[2i] and out[i+d/2] = v[2i+1] (lesson 4, “Converting checkpoints”)."
	conv := func(d int) exCase {
		v := make([]float64, d)
		for i := range v {
			v[i] = float64(i)
		}
		call := fmt.Sprintf("InterleavedToHalves(%s)", exFmtVec(v, 0))
		return exVecCheck{
			name: fmt.Sprintf("convert_d=%d", d), call: call,
			got:  func() []float64 { return convert(append([]float64(nil), v...)) },
			want: refInterleavedToHalves(v, posenc.Interleaved, posenc.Halves), tol: 0, label: exLabel("dimension"),
			diag: func(got []float64) string {
				return diagFirst(got, exSameVec(0),
					exVariant[[]float64]{hintConvertInverse, refInterleavedToHalves(v, posenc.Halves, posenc.Interleaved)})
			},
			fallback: convFallback,
		}.exCase()
	}
	x := refRandVec(8, 51)
	const pos, base = 9, 10000.0
	commute := exVecCheck{
		name: "convert_then_rotate", call: "RotateHalves(InterleavedToHalves(x), 9, 10000)",
		got:  func() []float64 { return rotate(convert(append([]float64(nil), x...)), pos, base) },
		want: refInterleavedToHalves(refRoPE(x, pos, base, posenc.Interleaved), posenc.Interleaved, posenc.Halves),
		tol:  1e-9, label: exLabel("dimension"),
		fallback: "both layouts rotate the same pairs by the same angles, so converting first and rotating in halves " +
			"must give the converted interleaved rotation (lesson 4, “Converting checkpoints”).",
	}.exCase()
	return append(cases, conv(8), conv(6), commute)
}
