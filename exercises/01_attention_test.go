package exercises

import (
	"fmt"
	"math"
	"testing"
)

var exAttention = exInfo{file: "exercises/01_attention.go", funcs: "Attention", lesson: "lesson 1, permutation invariance"}

func TestAttention(t *testing.T) { runExercise(t, exAttention, attentionCases(Attention)) }

var (
	hintAttentionNoScale = newHint("attention/no scale",
		"the scores are not divided by √d: s_ij = q_i·k_j/√d keeps the softmax from saturating as d grows "+
			"(lesson 1, “Three words, two orders”).")
	hintAttentionByD = newHint("attention/divided by d",
		"the scores are divided by d instead of √d (lesson 1, “Three words, two orders”).")
	hintAttentionAxis = newHint("attention/softmax axis",
		"the softmax runs over the queries (down each column) instead of over the keys: for each query i, "+
			"normalise exp(s_ij) over j so that row i's weights sum to 1 (lesson 1, “Three words, two orders”).")
	hintAttentionWeights = newHint("attention/weights only",
		"you returned the attention weights: multiply them by v, so that row i is Σ_j w_ij·v_j "+
			"(lesson 1, “Three words, two orders”).")
	hintAttentionOverflow = newHint("attention/overflow",
		"exp of a large score overflows to +Inf and Inf/Inf is NaN: subtract each row's largest score before exp; "+
			"the softmax does not change (lesson 1, “Three words, two orders”).")
	hintAttentionMutates = newHint("attention/mutates input",
		"your function changed its input: compute into new slices and leave q, k and v as they were.")
)

// refAttentionOpts selects the known wrong variants of refAttention.
type refAttentionOpts struct {
	scale       func(d int) float64 // divides the scores; √d when nil
	overQueries bool                // normalise down columns instead of across rows
	weightsOnly bool                // return the weights, not weights·v
}

// refAttention computes attention in float64, from the formula, with the
// row maximum subtracted (so large scores are exact, not NaN).
func refAttention(q, k, v [][]float64, o refAttentionOpts) [][]float64 {
	d := len(q[0])
	div := math.Sqrt(float64(d))
	if o.scale != nil {
		div = o.scale(d)
	}
	s := make([][]float64, len(q))
	for i := range q {
		s[i] = make([]float64, len(k))
		for j := range k {
			for c := range d {
				s[i][j] += q[i][c] * k[j][c]
			}
			s[i][j] /= div
		}
	}
	w := make([][]float64, len(q))
	for i := range w {
		w[i] = make([]float64, len(k))
	}
	if o.overQueries {
		for j := range k {
			top := math.Inf(-1)
			for i := range q {
				top = math.Max(top, s[i][j])
			}
			sum := 0.0
			for i := range q {
				w[i][j] = math.Exp(s[i][j] - top)
				sum += w[i][j]
			}
			for i := range q {
				w[i][j] /= sum
			}
		}
	} else {
		for i := range q {
			top := math.Inf(-1)
			for _, x := range s[i] {
				top = math.Max(top, x)
			}
			sum := 0.0
			for j := range k {
				w[i][j] = math.Exp(s[i][j] - top)
				sum += w[i][j]
			}
			for j := range k {
				w[i][j] /= sum
			}
		}
	}
	if o.weightsOnly {
		return w
	}
	out := make([][]float64, len(q))
	for i := range q {
		out[i] = make([]float64, len(v[0]))
		for j := range k {
			for c := range v[0] {
				out[i][c] += w[i][j] * v[j][c]
			}
		}
	}
	return out
}

// diagAttention names the idea behind a wrong attention output.
func diagAttention(got, q, k, v [][]float64) string {
	for _, row := range got {
		for _, x := range row {
			if math.IsNaN(x) || math.IsInf(x, 0) {
				return hintAttentionOverflow
			}
		}
	}
	return diagFirst(got, exSameTable(1e-9),
		exVariant[[][]float64]{hintAttentionNoScale, refAttention(q, k, v, refAttentionOpts{scale: func(int) float64 { return 1 }})},
		exVariant[[][]float64]{hintAttentionByD, refAttention(q, k, v, refAttentionOpts{scale: func(d int) float64 { return float64(d) }})},
		exVariant[[][]float64]{hintAttentionAxis, refAttention(q, k, v, refAttentionOpts{overQueries: true})},
		exVariant[[][]float64]{hintAttentionWeights, refAttention(q, k, v, refAttentionOpts{weightsOnly: true})},
	)
}

func attentionCases(fn func(q, k, v [][]float64) [][]float64) []exCase {
	const fallback = "row i of the result is Σ_j softmax_j(q_i·k_j/√d)·v_j; compute one row by hand and compare " +
		"(lesson 1, “Three words, two orders”)."
	check := func(name string, q, k, v [][]float64, small bool) exCase {
		call := fmt.Sprintf("Attention(q %d×%d, k %d×%d, v %d×%d)", len(q), len(q[0]), len(k), len(k[0]), len(v), len(v[0]))
		if small {
			call = fmt.Sprintf("Attention(q=%s, k=%s, v=%s)", exFmtTable(q), exFmtTable(k), exFmtTable(v))
		}
		return exTableCheck{
			name: name, call: call,
			got:  func() [][]float64 { return fn(exCloneTable(q), exCloneTable(k), exCloneTable(v)) },
			want: refAttention(q, k, v, refAttentionOpts{}), tol: 1e-9,
			row: exLabel("query"), col: exLabel("column"),
			diag:     func(got [][]float64) string { return diagAttention(got, q, k, v) },
			fallback: fallback,
		}.exCase()
	}
	scaled := func(t [][]float64, f float64) [][]float64 {
		out := exCloneTable(t)
		for _, r := range out {
			for i := range r {
				r[i] *= f
			}
		}
		return out
	}
	q3, k4, v4 := refRandTable(3, 4, 1), refRandTable(4, 4, 2), refRandTable(4, 3, 3)
	return []exCase{
		check("one_query_two_keys",
			[][]float64{{1, 0}}, [][]float64{{1, 0}, {0, 1}}, [][]float64{{1, 2}, {3, 4}}, true),
		check("three_queries_four_keys", q3, k4, v4, false),
		check("scores_need_the_sqrt_d_scale", scaled(refRandTable(2, 16, 4), 2), scaled(refRandTable(5, 16, 5), 2), refRandTable(5, 2, 6), false),
		check("large_scores_stay_finite", scaled(q3, 60), scaled(k4, 60), v4, false),
		{name: "inputs_unchanged", call: "Attention(q, k, v)", run: func() string {
			q, k, v := exCloneTable(q3), exCloneTable(k4), exCloneTable(v4)
			fn(q, k, v)
			for _, p := range [][2][][]float64{{q, q3}, {k, k4}, {v, v4}} {
				if r, _ := exDiffTable(p[0], p[1], 0); r >= 0 {
					return exMsg(hintAttentionMutates, "", "Attention(q, k, v) changed one of its arguments.")
				}
			}
			return ""
		}},
	}
}
