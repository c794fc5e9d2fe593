package check

import (
	"fmt"
	"math"

	"github.com/posenc/course/internal/catalog"
	"github.com/posenc/course/pkg/posenc"
)

func init() {
	registerExercise(Entry{
		Exercise: catalog.Exercise{Num: 12, Slug: "alibi", Title: "ALiBi slopes for any head count, and the bias", Test: "TestALiBi",
			Funcs: []string{"ALiBiSlopes", "ALiBiBias"}, Lesson: 6, Section: "The slopes", Difficulty: catalog.Medium},
		Blurb: "the authors' rule, including head counts that are not a power of two, and the causal and symmetric " +
			"bias.",
		Hints: Hints{
			Read: []Section{secSlopes, secALiBiBias},
			Idea: []string{
				"Each head gets a fixed slope from a geometric sequence that halves from head to head for 8 " +
					"heads; for head counts that are not a power of two, the authors interleave two such sequences. " +
					"The bias then penalises each key by its distance from the query, times the head's slope.",
			},
			Formula: []string{
				"- For a power of two n the slopes are 2^(−8k/n) for k = 1 … n.",
				"- Otherwise take the p = 2^⌊log₂ n⌋ slopes for p heads, then the 1st, 3rd, 5th, … slopes of the " +
					"2p sequence. For 12 heads: 1/2, 1/4, …, 1/256, then 2^−0.5, 2^−1.5, 2^−2.5, 2^−3.5.",
				"- bias[h][i][j] = −m_h·|i − j|; in the causal case the keys after the query (j > i) get −∞.",
			},
			Code: []string{
				"- `math.Exp2(-8*float64(k)/float64(n))`, in float64.",
				"- `math.Inf(-1)` for a masked key, not a large negative number.",
			},
		},
		Cases:  alibiCases(),
		Checks: func(cases any) *Exercise { return ALiBi(nil, nil, cases.(ALiBiCases)) },
	})
}

var (
	hintALiBiGeometric = newHint("alibi/plain geometric", secSlopes,
		"for a head count that is not a power of two, the slopes are not 2^(−8k/n): take the p = 2^⌊log₂ n⌋ slopes for "+
			"p heads, then the 1st, 3rd, 5th, … slopes of the 2p sequence (the authors' get_slopes). For 12 heads: "+
			"1/2, 1/4, …, 1/256, then 2^−0.5, 2^−1.5, 2^−2.5, 2^−3.5")
	hintALiBiFromZero = newHint("alibi/k from 0", secSlopes,
		"your first slope is 1: k runs from 1 to n, so the first slope is 2^(−8/n) (1/2 for 8 heads)")
	hintALiBiParity = newHint("alibi/even slopes", secSlopes,
		"the extra slopes are the 1st, 3rd, 5th, … of the 2p sequence (odd k, interleaving between the first p), "+
			"not the 2nd, 4th, … which repeat slopes you already have")
	hintALiBiFirstExtras = newHint("alibi/first extra slopes", secSlopes,
		"you took the first slopes of the 2p sequence (k = 1, 2, 3, …) for the extra heads: take every other one, "+
			"k = 1, 3, 5, …, so that the extra slopes fall between the first p slopes")
	hintALiBiIntDiv = newHint("alibi/integer division", secSlopes,
		"the exponent −8k/n was computed with integer division: for 12 heads the extra slopes come from n = 16, where "+
			"8/16 is 0 in integers. Compute it in float64: math.Exp2(-8*float64(k)/float64(n))")
	hintALiBiSign = newHint("alibi/wrong sign", secALiBiBias,
		"your bias has the wrong sign: it must be −m·distance, a penalty that grows with distance, so that far keys "+
			"score lower; with +m·distance attention prefers the farthest key")
	hintALiBiAbs = newHint("alibi/missing absolute value", secALiBiBias,
		"in the symmetric (non-causal) bias the distance is |i − j|: without the absolute value, keys after the query "+
			"get a positive bias, a reward that grows with distance")
	hintALiBiMask = newHint("alibi/no mask", secALiBiBias,
		"in the causal case keys after the query (j > i) must get −Inf, so that softmax gives them weight 0: the "+
			"ALiBi bias doubles as the causal mask")
	hintALiBiMaskSide = newHint("alibi/mask on the wrong side", secALiBiBias,
		"you masked the keys before the query: a causal model hides the keys after it, j > i, and keeps j ≤ i")
	hintALiBiLargeNegative = newHint("alibi/large negative instead of −Inf", secALiBiBias,
		"future keys get a large negative number instead of math.Inf(-1): it works in float64 until someone adds it to "+
			"scores of similar size or converts it to float16, where it overflows; the mask is −Inf, exactly")
	hintALiBiSlopesFallback = generic("alibi/slopes fallback", secSlopes,
		"for a power of two n the slopes are 2^(−8/n), 2^(−16/n), …, 2^(−8)")
	hintALiBiBiasFallback = generic("alibi/bias fallback", secALiBiBias,
		"bias[h][i][j] = −m_h·|i − j|, and −Inf for j > i when causal")
)

// geometric returns 2^(−8k/n) for k = from, from+step, …, count values.
func geometric(n, from, step, count int) []float64 {
	out := make([]float64, 0, count)
	for k := from; len(out) < count; k += step {
		out = append(out, math.Exp2(-8*float64(k)/float64(n)))
	}
	return out
}

// geometricIntDiv is geometric with −8k/n computed in integers.
func geometricIntDiv(n, from, step, count int, product bool) []float64 {
	out := make([]float64, 0, count)
	for k := from; len(out) < count; k += step {
		e := float64(-8/n) * float64(k)
		if product {
			e = float64(-8 * k / n)
		}
		out = append(out, math.Exp2(e))
	}
	return out
}

func diagALiBiSlopes(got []float64, heads int) *Hint {
	p := 1
	for p*2 <= heads {
		p *= 2
	}
	rest := heads - p
	type v = variant[[]float64]
	vs := []v{
		{hintALiBiIntDiv, append(geometricIntDiv(p, 1, 1, p, false), geometricIntDiv(2*p, 1, 2, rest, false)...)},
		{hintALiBiIntDiv, append(geometricIntDiv(p, 1, 1, p, true), geometricIntDiv(2*p, 1, 2, rest, true)...)},
		{hintALiBiFromZero, geometric(heads, 0, 1, heads)},
		{hintALiBiFromZero, append(geometric(p, 0, 1, p), geometric(2*p, 1, 2, rest)...)},
		{hintALiBiFromZero, append(geometric(p, 0, 1, p), geometric(2*p, 0, 2, rest)...)},
	}
	if rest > 0 {
		vs = append(vs,
			v{hintALiBiGeometric, geometric(heads, 1, 1, heads)},
			v{hintALiBiParity, append(geometric(p, 1, 1, p), geometric(2*p, 2, 2, rest)...)},
			v{hintALiBiFirstExtras, append(geometric(p, 1, 1, p), geometric(2*p, 1, 1, rest)...)},
		)
	}
	return firstMatch(got, sameVec(1e-12), vs...)
}

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

// alibiCells builds [heads][n][n] from cell(m, i, j).
func alibiCells(slopes []float64, n int, cell func(m float64, i, j int) float64) [][][]float64 {
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

// largeNegativeMask reports whether got is the causal bias with its future
// keys set to a large finite negative number instead of −Inf.
func largeNegativeMask(got, want [][][]float64) bool {
	if len(got) != len(want) {
		return false
	}
	seen := false
	for h := range got {
		if len(got[h]) != len(want[h]) {
			return false
		}
		for i := range got[h] {
			if len(got[h][i]) != len(want[h][i]) {
				return false
			}
			for j, g := range got[h][i] {
				w := want[h][i][j]
				switch {
				case math.IsInf(w, -1) && !math.IsInf(g, 0) && g <= -1e4:
					seen = true
				case !closeTo(g, w, 1e-12):
					return false
				}
			}
		}
	}
	return seen
}

func diagALiBiBias(got [][][]float64, slopes []float64, n int, causal bool) *Hint {
	flat := func(b [][][]float64) [][]float64 {
		var rows [][]float64
		for _, h := range b {
			rows = append(rows, h...)
		}
		return rows
	}
	same := func(a, b [][][]float64) bool { return len(a) == len(b) && sameTable(1e-12)(flat(a), flat(b)) }
	if causal && largeNegativeMask(got, refALiBiBias(slopes, n, true)) {
		return hintALiBiLargeNegative
	}
	abs := func(x int) float64 { return math.Abs(float64(x)) }
	type v = variant[[][][]float64]
	masked := func(f func(m float64, i, j int) float64) [][][]float64 {
		return alibiCells(slopes, n, func(m float64, i, j int) float64 {
			if causal && j > i {
				return math.Inf(-1)
			}
			return f(m, i, j)
		})
	}
	vs := []v{{hintALiBiSign, masked(func(m float64, i, j int) float64 { return m * abs(i-j) })}}
	if causal {
		vs = append(vs,
			v{hintALiBiSign, masked(func(m float64, i, j int) float64 { return m * float64(i-j) })},
			v{hintALiBiMask, alibiCells(slopes, n, func(m float64, i, j int) float64 { return -m * abs(i-j) })},
			v{hintALiBiMask, alibiCells(slopes, n, func(m float64, i, j int) float64 { return -m * float64(i-j) })},
			v{hintALiBiMask, alibiCells(slopes, n, func(m float64, i, j int) float64 { return -m * math.Max(float64(i-j), 0) })},
			v{hintALiBiMaskSide, alibiCells(slopes, n, func(m float64, i, j int) float64 {
				if j < i {
					return math.Inf(-1)
				}
				return -m * abs(i-j)
			})},
		)
	} else {
		vs = append(vs,
			v{hintALiBiAbs, alibiCells(slopes, n, func(m float64, i, j int) float64 { return -m * float64(i-j) })},
			v{hintALiBiAbs, alibiCells(slopes, n, func(m float64, i, j int) float64 { return -m * float64(j-i) })})
	}
	return firstMatch(got, same, vs...)
}

// SlopesCase is one call: ALiBiSlopes(Heads) must equal Want, to 1e-12.
type SlopesCase struct {
	Name  string
	Heads int
	Want  []float64
}

// BiasCase is one call: ALiBiBias(Slopes, N, Causal) must equal Want, to
// 1e-12 (−Inf exactly).
type BiasCase struct {
	Name   string
	Slopes []float64
	N      int
	Causal bool
	Want   [][][]float64
}

// ALiBiCases is exercise 12's case table.
type ALiBiCases struct {
	Slopes []SlopesCase `doc:"ALiBiSlopes(Heads) must equal Want, to 1e-12: the authors' get_slopes, for head counts that are powers of two and ones that are not."`
	Bias   []BiasCase   `doc:"ALiBiBias(Slopes, N, Causal) must equal Want, to 1e-12: Want[h][i][j] = −Slopes[h]·|i − j|, and −Inf for j > i when Causal."`
}

func alibiCases() ALiBiCases {
	slopes := func(heads int) SlopesCase {
		want, err := posenc.ALiBiSlopes(heads)
		if err != nil {
			panic(err)
		}
		return SlopesCase{fmt.Sprintf("slopes_for_%d_heads", heads), heads, want}
	}
	bias := func(name string, s []float64, n int, causal bool) BiasCase {
		return BiasCase{name, s, n, causal, refALiBiBias(s, n, causal)}
	}
	return ALiBiCases{
		Slopes: []SlopesCase{slopes(8), slopes(1), slopes(12), slopes(6), slopes(3), slopes(32), slopes(24)},
		Bias: []BiasCase{
			bias("symmetric_bias", []float64{0.5, 0.25}, 4, false),
			bias("causal_bias", []float64{0.5, 0.25}, 4, true),
			bias("one_token", []float64{0.5}, 1, true),
		},
	}
}

var alibiArgs = argHints{hintMutates, hintShares}

// biasCheck is a check of one bias row.
func biasCheck(biasFn func(slopes []float64, n int, causal bool) [][][]float64, c BiasCase) Check {
	call := fmt.Sprintf("ALiBiBias(slopes=%v, n=%d, causal=%v)", c.Slopes, c.N, c.Causal)
	return Check{Name: c.Name, Call: call, Run: func() *Failure {
		slopes := cloneVec(c.Slopes)
		got := biasFn(slopes, c.N, c.Causal)
		hint := orElse(diagALiBiBias(got, c.Slopes, c.N, c.Causal), hintALiBiBiasFallback)
		if len(got) != len(c.Slopes) {
			return fail(hint, fmt.Sprintf("%s returned %d heads; want %d", call, len(got), len(c.Slopes)))
		}
		for h := range got {
			if msg := shapeMsg(fmt.Sprintf("%s, head %d,", call, h), got[h], c.N, c.N); msg != "" {
				return fail(hint, msg)
			}
			if r, col := diffTable(got[h], c.Want[h], 1e-12); r >= 0 {
				return fail(hint, append([]string{call + ":"}, tableDiffLines(got[h], c.Want[h], r, col,
					func(i int) string { return fmt.Sprintf("head %d (slope %g), query %d", h, c.Slopes[h], i) }, label("key"))...)...)
			}
		}
		return alibiArgs.check(call, got, arg{"slopes", slopes, c.Slopes})
	}}
}

// ALiBi returns exercise 12's checks of slopesFn and biasFn on cases.
func ALiBi(slopesFn func(heads int) []float64, biasFn func(slopes []float64, n int, causal bool) [][][]float64, cases ALiBiCases) *Exercise {
	var checks []Check
	for _, c := range cases.Slopes {
		call := fmt.Sprintf("ALiBiSlopes(%d)", c.Heads)
		checks = append(checks, Check{Name: c.Name, Call: call, Run: func() *Failure {
			return compareVec(call, slopesFn(c.Heads), c.Want, 1e-12, func(h int) string { return fmt.Sprintf("head %d", h) },
				func(got []float64) *Hint { return diagALiBiSlopes(got, c.Heads) }, hintALiBiSlopesFallback)
		}})
	}
	for _, c := range cases.Bias {
		checks = append(checks, biasCheck(biasFn, c))
	}
	return newExercise(12, checks)
}
