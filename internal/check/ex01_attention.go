package check

import (
	"fmt"
	"math"

	"github.com/posenc/course/internal/catalog"
)

func init() {
	registerExercise(Entry{
		Exercise: catalog.Exercise{Num: 1, Slug: "attention", Title: "Attention without positions", Test: "TestAttention",
			Funcs: []string{"Attention"}, Lesson: 1, Section: "Three words, two orders", Difficulty: catalog.Easy},
		Blurb: "write $\\operatorname{softmax}(QK^\\top/\\sqrt d)\\,V$ yourself.",
		Hints: []string{
			"- Write it as three loops you can check by hand: scores s_ij = q_i·k_j/√d, then a softmax across " +
				"each row i (over the keys j), then row i of the result is Σ_j w_ij·v_j.",
			"- Subtract each row's own largest score before `math.Exp`: the softmax does not change, and a score " +
				"of 1000 no longer overflows to +Inf (Inf/Inf is NaN). One maximum for the whole matrix is not " +
				"enough: a row whose scores are all far below it gets exp(−1000) = 0 everywhere, and 0/0 is NaN.",
		},
		Checks: func() *Exercise { return Attention(nil) },
	})
}

var (
	hintAttentionNoScale = newHint("attention/no scale", secThreeWords,
		"the scores are not divided by √d: s_ij = q_i·k_j/√d keeps the softmax from saturating as d grows")
	hintAttentionByD = newHint("attention/divided by d", secThreeWords,
		"the scores are divided by d instead of √d")
	hintAttentionAxis = newHint("attention/softmax axis", secThreeWords,
		"the softmax runs over the queries (down each column) instead of over the keys: for each query i, "+
			"normalise exp(s_ij) over j so that row i's weights sum to 1")
	hintAttentionWeights = newHint("attention/weights only", secThreeWords,
		"you returned the attention weights: multiply them by v, so that row i is Σ_j w_ij·v_j")
	hintAttentionOverflow = newHint("attention/overflow", secThreeWords,
		"exp of a large score overflows to +Inf, and Inf/Inf is NaN: subtract each row's largest score before exp; "+
			"the softmax does not change")
	hintAttentionGlobalMax = newHint("attention/one max for all rows", secThreeWords,
		"you subtracted one maximum for the whole score matrix: a query whose scores are all far below it gets "+
			"exp(−1000) = 0 for every key, and 0/0 is NaN. Subtract each row's own largest score")
	hintAttentionMutates = newHint("attention/mutates input", Section{},
		"your function changed its input: compute into new slices and leave q, k and v as they were")
	hintAttentionFallback = generic("attention/fallback", secThreeWords,
		"row i of the result is Σ_j softmax_j(q_i·k_j/√d)·v_j; compute one row by hand and compare")
)

// attentionOpts selects the known wrong variants of refAttention.
type attentionOpts struct {
	scale       func(d int) float64 // divides the scores; √d when nil
	overQueries bool                // normalise down columns instead of across rows
	weightsOnly bool                // return the weights, not weights·v
	bias        [][]float64         // added to the scaled scores (exercise 20)
	biasFirst   bool                // add the bias before dividing by the scale
}

// refAttention computes attention in float64, from the formula, with the
// row maximum subtracted (so large scores are exact, not NaN).
func refAttention(q, k, v [][]float64, o attentionOpts) [][]float64 {
	d := len(q[0])
	div := math.Sqrt(float64(d))
	if o.scale != nil {
		div = o.scale(d)
	}
	s := make([][]float64, len(q))
	for i := range q {
		s[i] = make([]float64, len(k))
		for j := range k {
			s[i][j] = dot(q[i], k[j])
			if o.bias != nil && o.biasFirst {
				s[i][j] += o.bias[i][j]
			}
			s[i][j] /= div
			if o.bias != nil && !o.biasFirst {
				s[i][j] += o.bias[i][j]
			}
		}
	}
	w := softmaxRows(s)
	if o.overQueries {
		w = transpose(softmaxRows(transpose(s)))
	}
	if o.weightsOnly {
		return w
	}
	return matMul(w, v)
}

// softmaxRows normalises each row of s, subtracting its maximum first.
func softmaxRows(s [][]float64) [][]float64 {
	w := make([][]float64, len(s))
	for i, row := range s {
		top := math.Inf(-1)
		for _, x := range row {
			top = math.Max(top, x)
		}
		w[i] = make([]float64, len(row))
		sum := 0.0
		for j, x := range row {
			w[i][j] = math.Exp(x - top)
			sum += w[i][j]
		}
		for j := range row {
			w[i][j] /= sum
		}
	}
	return w
}

func transpose(m [][]float64) [][]float64 {
	if len(m) == 0 {
		return nil
	}
	t := make([][]float64, len(m[0]))
	for j := range t {
		t[j] = make([]float64, len(m))
		for i := range m {
			t[j][i] = m[i][j]
		}
	}
	return t
}

// matMul returns a·b.
func matMul(a, b [][]float64) [][]float64 {
	out := make([][]float64, len(a))
	for i := range a {
		out[i] = make([]float64, len(b[0]))
		for j := range b {
			for c := range b[0] {
				out[i][c] += a[i][j] * b[j][c]
			}
		}
	}
	return out
}

// nanRows reports which rows of got hold a NaN or an infinity.
func nanRows(got [][]float64) []bool {
	out := make([]bool, len(got))
	for i, row := range got {
		for _, x := range row {
			if math.IsNaN(x) || math.IsInf(x, 0) {
				out[i] = true
			}
		}
	}
	return out
}

// diagAttention names the idea behind a wrong attention output. loud says
// which queries have large scores: NaN there means exp overflowed; NaN only
// in the quiet rows means one maximum was subtracted for all rows.
func diagAttention(got, q, k, v [][]float64, loud []bool) *Hint {
	bad := nanRows(got)
	anyBad, loudBad := false, false
	for i, b := range bad {
		anyBad = anyBad || b
		loudBad = loudBad || (b && i < len(loud) && loud[i])
	}
	switch {
	case loudBad:
		return hintAttentionOverflow
	case anyBad && loud != nil:
		return hintAttentionGlobalMax
	}
	type v2 = variant[[][]float64]
	return firstMatch(got, sameTable(1e-9),
		v2{hintAttentionNoScale, refAttention(q, k, v, attentionOpts{scale: func(int) float64 { return 1 }})},
		v2{hintAttentionByD, refAttention(q, k, v, attentionOpts{scale: func(d int) float64 { return float64(d) }})},
		v2{hintAttentionAxis, refAttention(q, k, v, attentionOpts{overQueries: true})},
		v2{hintAttentionWeights, refAttention(q, k, v, attentionOpts{weightsOnly: true})},
	)
}

// loudRows marks the queries whose largest score is above 700, where exp
// overflows.
func loudRows(q, k [][]float64) []bool {
	out := make([]bool, len(q))
	for i := range q {
		for j := range k {
			if dot(q[i], k[j])/math.Sqrt(float64(len(q[0]))) > 700 {
				out[i] = true
			}
		}
	}
	return out
}

func scaled(t [][]float64, f float64) [][]float64 {
	out := cloneTable(t)
	for _, r := range out {
		for i := range r {
			r[i] *= f
		}
	}
	return out
}

// Attention returns exercise 1's checks of fn.
func Attention(fn func(q, k, v [][]float64) [][]float64) *Exercise {
	check := func(name string, q, k, v [][]float64, small bool) Case {
		call := fmt.Sprintf("Attention(q %d×%d, k %d×%d, v %d×%d)", len(q), len(q[0]), len(k), len(k[0]), len(v), len(v[0]))
		if small {
			call = fmt.Sprintf("Attention(q=%s, k=%s, v=%s)", fmtTable(q), fmtTable(k), fmtTable(v))
		}
		loud := loudRows(q, k)
		return tableCheck{
			name: name, call: call,
			got:  func() [][]float64 { return fn(cloneTable(q), cloneTable(k), cloneTable(v)) },
			want: refAttention(q, k, v, attentionOpts{}), tol: 1e-9,
			row: label("query"), col: label("column"),
			diag:     func(got [][]float64) *Hint { return diagAttention(got, q, k, v, loud) },
			fallback: hintAttentionFallback,
		}.check()
	}
	q3, k4, v4 := randTable(3, 4, 1), randTable(4, 4, 2), randTable(4, 3, 3)
	// One query whose scores reach 1000 and one whose scores stay near 0:
	// a single maximum for the whole matrix sends the quiet row to 0/0.
	qLoud := [][]float64{{50, 50, 50, 50}, {0.01, -0.02, 0.03, 0.01}}
	kLoud := [][]float64{{10, 10, 10, 10}, {9, 9, 9, 9}, {10, 9, 10, 9}}
	vLoud := randTable(3, 2, 7)
	return newExercise(1, []Case{
		check("one_query_two_keys",
			[][]float64{{1, 0}}, [][]float64{{1, 0}, {0, 1}}, [][]float64{{1, 2}, {3, 4}}, true),
		check("three_queries_four_keys", q3, k4, v4, false),
		check("scores_need_the_sqrt_d_scale", scaled(randTable(2, 16, 4), 2), scaled(randTable(5, 16, 5), 2), randTable(5, 2, 6), false),
		check("large_scores_stay_finite", scaled(q3, 60), scaled(k4, 60), v4, false),
		check("one_loud_query_one_quiet_query", qLoud, kLoud, vLoud, false),
		unchangedTable("inputs_unchanged", "Attention(q, k, v)", append(append(cloneTable(q3), k4...), v4...),
			func(all [][]float64) { fn(all[:3], all[3:7], all[7:]) }, hintAttentionMutates),
	})
}
