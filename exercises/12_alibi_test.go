package exercises

import (
	"fmt"
	"math"
	"testing"

	"github.com/posenc/course/pkg/posenc"
)

var exALiBi = exInfo{file: "exercises/12_alibi.go", funcs: "ALiBiSlopes and ALiBiBias", lesson: "lesson 6, ALiBi"}

func TestALiBi(t *testing.T) { runExercise(t, exALiBi, alibiCases(ALiBiSlopes, ALiBiBias)) }

var (
	hintALiBiGeometric = newHint("alibi/plain geometric",
		"for a head count that is not a power of two, the slopes are not 2^(−8k/n): take the p = 2^⌊log₂ n⌋ slopes for "+
			"p heads, then the 1st, 3rd, 5th, … slopes of the 2p sequence (the authors' get_slopes). For 12 heads: "+
			"1/2, 1/4, …, 1/256, then 2^−0.5, 2^−1.5, 2^−2.5, 2^−3.5 (lesson 6, “The slopes”).")
	hintALiBiFromZero = newHint("alibi/k from 0",
		"your first slope is 1: k runs from 1 to n, so the first slope is 2^(−8/n) (1/2 for 8 heads) "+
			"(lesson 6, “The slopes”).")
	hintALiBiParity = newHint("alibi/even slopes",
		"the extra slopes are the 1st, 3rd, 5th, … of the 2p sequence (odd k, interleaving between the first p), "+
			"not the 2nd, 4th, … which repeat slopes you already have (lesson 6, “The slopes”).")
	hintALiBiSign = newHint("alibi/wrong sign",
		"your bias has the wrong sign: it must be −m·distance, a penalty that grows with distance, so that far keys "+
			"score lower; with +m·distance attention prefers the farthest key (lesson 6, “What the bias looks like”).")
	hintALiBiMask = newHint("alibi/no mask",
		"in the causal case keys after the query (j > i) must get −Inf, so that softmax gives them weight 0: the "+
			"ALiBi bias doubles as the causal mask (lesson 6, “What the bias looks like”).")
)

// refALiBiBias is posenc's bias as [heads][n][n].
func refALiBiBias(slopes []float64, n int, causal bool) [][][]float64 {
	flat := make([]float64, len(slopes)*n*n)
	if err := posenc.ALiBiBiasTo(flat, slopes, n, n, causal); err != nil {
		panic(err)
	}
	out := make([][][]float64, len(slopes))
	for h := range out {
		out[h] = posenc.Rows(flat[h*n*n:(h+1)*n*n], n)
	}
	return out
}

// refALiBiCells builds [heads][n][n] from cell(m, i, j).
func refALiBiCells(slopes []float64, n int, cell func(m float64, i, j int) float64) [][][]float64 {
	out := make([][][]float64, len(slopes))
	for h, m := range slopes {
		out[h] = make([][]float64, n)
		for i := range n {
			out[h][i] = make([]float64, n)
			for j := range n {
				out[h][i][j] = cell(m, i, j)
			}
		}
	}
	return out
}

// refGeometric returns 2^(−8k/n) for k = from, …, from+count−1, step step.
func refGeometric(n, from, step, count int) []float64 {
	out := make([]float64, 0, count)
	for k := from; len(out) < count; k += step {
		out = append(out, math.Exp2(-8*float64(k)/float64(n)))
	}
	return out
}

func diagALiBiSlopes(got []float64, heads int) string {
	p := 1
	for p*2 <= heads {
		p *= 2
	}
	type v = exVariant[[]float64]
	return diagFirst(got, exSameVec(1e-12),
		v{hintALiBiGeometric, refGeometric(heads, 1, 1, heads)},
		v{hintALiBiFromZero, refGeometric(heads, 0, 1, heads)},
		v{hintALiBiFromZero, append(refGeometric(p, 0, 1, p), refGeometric(2*p, 1, 2, heads-p)...)[:heads]},
		v{hintALiBiParity, append(refGeometric(p, 1, 1, p), refGeometric(2*p, 2, 2, heads-p)...)[:heads]},
	)
}

func diagALiBiBias(got [][][]float64, slopes []float64, n int, causal bool) string {
	flat := func(b [][][]float64) [][]float64 {
		var rows [][]float64
		for _, h := range b {
			rows = append(rows, h...)
		}
		return rows
	}
	same := func(a, b [][][]float64) bool { return exSameTable(1e-12)(flat(a), flat(b)) }
	abs := func(x int) float64 { return math.Abs(float64(x)) }
	type v = exVariant[[][][]float64]
	vs := []v{{hintALiBiSign, refALiBiCells(slopes, n, func(m float64, i, j int) float64 {
		if causal && j > i {
			return math.Inf(-1)
		}
		return m * abs(i-j)
	})}}
	if causal {
		vs = append(vs,
			v{hintALiBiMask, refALiBiCells(slopes, n, func(m float64, i, j int) float64 { return -m * abs(i-j) })},
			v{hintALiBiMask, refALiBiCells(slopes, n, func(m float64, i, j int) float64 { return -m * float64(i-j) })},
			v{hintALiBiMask, refALiBiCells(slopes, n, func(m float64, i, j int) float64 { return -m * math.Max(float64(i-j), 0) })},
			v{hintALiBiSign, refALiBiCells(slopes, n, func(m float64, i, j int) float64 { return m * float64(i-j) })},
		)
	}
	return diagFirst(got, same, vs...)
}

func alibiCases(slopesFn func(heads int) []float64, biasFn func(slopes []float64, n int, causal bool) [][][]float64) []exCase {
	slopes := func(heads int) exCase {
		want, err := posenc.ALiBiSlopes(heads)
		if err != nil {
			panic(err)
		}
		return exVecCheck{
			name: fmt.Sprintf("slopes_for_%d_heads", heads), call: fmt.Sprintf("ALiBiSlopes(%d)", heads),
			got: func() []float64 { return slopesFn(heads) }, want: want, tol: 1e-12,
			label:    func(h int) string { return fmt.Sprintf("head %d", h) },
			diag:     func(got []float64) string { return diagALiBiSlopes(got, heads) },
			fallback: "for a power of two n the slopes are 2^(−8/n), 2^(−16/n), …, 2^(−8) (lesson 6, “The slopes”).",
		}.exCase()
	}
	bias := func(name string, s []float64, n int, causal bool) exCase {
		call := fmt.Sprintf("ALiBiBias(slopes=%v, n=%d, causal=%v)", s, n, causal)
		want := refALiBiBias(s, n, causal)
		return exCase{name: name, call: call, run: func() string {
			got := biasFn(append([]float64(nil), s...), n, causal)
			hint := diagALiBiBias(got, s, n, causal)
			const fallback = "bias[h][i][j] = −m_h·|i − j|, and −Inf for j > i when causal (lesson 6, “What the bias looks like”)."
			if len(got) != len(s) {
				return exMsg(hint, fallback, fmt.Sprintf("%s returned %d heads; want %d", call, len(got), len(s)))
			}
			for h := range got {
				if msg := checkShape(fmt.Sprintf("%s, head %d,", call, h), got[h], n, n); msg != "" {
					return exMsg(hint, fallback, msg)
				}
				if r, c := exDiffTable(got[h], want[h], 1e-12); r >= 0 {
					return exMsg(hint, fallback, append([]string{call + ":"}, exTableDiffLines(got[h], want[h], r, c,
						func(i int) string { return fmt.Sprintf("head %d (slope %g), query %d", h, s[h], i) }, exLabel("key"))...)...)
				}
			}
			return ""
		}}
	}
	return []exCase{
		slopes(8),
		slopes(1),
		slopes(12),
		slopes(6),
		bias("symmetric_bias", []float64{0.5, 0.25}, 4, false),
		bias("causal_bias", []float64{0.5, 0.25}, 4, true),
	}
}
