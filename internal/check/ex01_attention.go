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
		Hints: Hints{
			Read: []Section{secThreeWords},
			Idea: []string{
				"Attention compares every query with every key, turns each query's scores into weights that sum " +
					"to 1, and averages the values with those weights. Build it in three stages that you can check " +
					"by hand on the first row of the test's table.",
			},
			Formula: []string{
				"- Scores: s_ij = q_i·k_j/√d, with d the width of a query and a key (len(q[0])), not the number " +
					"of keys.",
				"- Weights: a softmax across each row i, over the keys j. Subtract the row's own largest score " +
					"m_i first, w_ij = exp(s_ij − m_i)/Σ_j exp(s_ij − m_i): the weights do not change, and a score " +
					"of 1000 no longer overflows to +Inf (Inf/Inf is NaN). One maximum for the whole matrix is not " +
					"enough: a row whose scores are all far below it gets exp(−1000) = 0 everywhere, and 0/0 is NaN.",
				"- Row i of the result is Σ_j w_ij·v_j.",
			},
			Code: []string{
				"- `s[i][j] = dot(q[i], k[j]) / math.Sqrt(float64(len(q[0])))`; then `top := slices.Max(s[i])` " +
					"and `math.Exp(s[i][j] - top)`, divided by the row's sum; then `out[i][c] += w[i][j] * v[j][c]`, " +
					"in a new row for each query.",
			},
		},
		Cases:  attentionCases(),
		Checks: func(cases any) *Exercise { return Attention(nil, cases.(AttentionCases)) },
	})
}

var (
	hintAttentionNoScale = newHint("attention/no scale", secThreeWords,
		"the scores are not divided by √d: s_ij = q_i·k_j/√d keeps the softmax from saturating as d grows")
	hintAttentionByD = newHint("attention/divided by d", secThreeWords,
		"the scores are divided by d instead of √d")
	hintAttentionByKeys = newHint("attention/scaled by the number of keys", secThreeWords,
		"the scores are divided by the number of keys (or its square root): the scale is √d, with d the width of a "+
			"query and a key (len(q[0])), whatever the number of keys")
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
	hintAttentionShares = newHint("attention/returns an input", Section{},
		"your result shares memory with q, k or v (a row of v returned as it is, when one key takes all the "+
			"weight?): build every row of the result in a new slice")
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

// scaleVariants are the answers of attention with a wrong scale or
// normalisation, for bias (nil for none).
func scaleVariants(q, k, v, bias [][]float64) []variant[[][]float64] {
	n := float64(len(k))
	type v2 = variant[[][]float64]
	return []v2{
		{hintAttentionNoScale, refAttention(q, k, v, attentionOpts{bias: bias, scale: func(int) float64 { return 1 }})},
		{hintAttentionByD, refAttention(q, k, v, attentionOpts{bias: bias, scale: func(d int) float64 { return float64(d) }})},
		{hintAttentionByKeys, refAttention(q, k, v, attentionOpts{bias: bias, scale: func(int) float64 { return n }})},
		{hintAttentionByKeys, refAttention(q, k, v, attentionOpts{bias: bias, scale: func(int) float64 { return math.Sqrt(n) }})},
	}
}

// attentionProbe is an input whose number of keys differs from its width:
// dividing by d and by the number of keys give different answers there.
var attentionProbe = struct{ q, k, v [][]float64 }{randTable(2, 4, 8), randTable(3, 4, 9), randTable(3, 2, 10)}

// diagAttention names the idea behind a wrong attention output. loud says
// which queries have large scores: NaN there means exp overflowed; NaN only
// in the quiet rows means one maximum was subtracted for all rows. When the
// number of keys equals the width, the learner's answer on attentionProbe
// tells dividing by d from dividing by the number of keys.
func diagAttention(got, q, k, v [][]float64, loud []bool, fn func(q, k, v [][]float64) [][]float64) *Hint {
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
	vs := append(scaleVariants(q, k, v, nil),
		v2{hintAttentionAxis, refAttention(q, k, v, attentionOpts{overQueries: true})},
		v2{hintAttentionWeights, refAttention(q, k, v, attentionOpts{weightsOnly: true})})
	return narrow(matchAll(got, sameTable(1e-9), vs...), func() []*Hint {
		p := attentionProbe
		return matchAll(fn(cloneTable(p.q), cloneTable(p.k), cloneTable(p.v)), sameTable(1e-9), scaleVariants(p.q, p.k, p.v, nil)...)
	})
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

// AttentionCase is one call: Attention(Q, K, V) must equal Want, to within
// Tol.
type AttentionCase struct {
	Name    string
	Q, K, V [][]float64
	Want    [][]float64
	Tol     float64
}

// AttentionCases is exercise 1's case table.
type AttentionCases struct {
	Attention []AttentionCase `doc:"Attention(Q, K, V) must equal Want, softmax(Q·Kᵀ/√d)·V computed in float64, to within Tol. The first row you can check by hand; the scores of the later rows need the √d scale, reach 1000 (where exp overflows), or are loud for one query and quiet for another."`
}

func attentionCases() AttentionCases {
	row := func(name string, q, k, v [][]float64) AttentionCase {
		return AttentionCase{Name: name, Q: q, K: k, V: v, Want: refAttention(q, k, v, attentionOpts{}), Tol: 1e-9}
	}
	q3, k4, v4 := randTable(3, 4, 1), randTable(4, 4, 2), randTable(4, 3, 3)
	// One query whose scores reach 1000 and one whose scores stay near 0:
	// a single maximum for the whole matrix sends the quiet row to 0/0.
	qLoud := [][]float64{{50, 50, 50, 50}, {0.01, -0.02, 0.03, 0.01}}
	kLoud := [][]float64{{10, 10, 10, 10}, {9, 9, 9, 9}, {10, 9, 10, 9}}
	return AttentionCases{Attention: []AttentionCase{
		row("one_query_two_keys", [][]float64{{1, 0}}, [][]float64{{1, 0}, {0, 1}}, [][]float64{{1, 2}, {3, 4}}),
		row("three_queries_four_keys", q3, k4, v4),
		row("scores_need_the_sqrt_d_scale", scaled(randTable(2, 16, 4), 2), scaled(randTable(5, 16, 5), 2), randTable(5, 2, 6)),
		row("large_scores_stay_finite", scaled(q3, 60), scaled(k4, 60), v4),
		row("one_loud_query_one_quiet_query", qLoud, kLoud, randTable(3, 2, 7)),
		row("one_key_takes_all_the_weight", randTable(2, 3, 12), randTable(1, 3, 13), randTable(1, 2, 14)),
	}}
}

// attentionCall is how a message shows a call of attention.
func attentionCall(fn string, q, k, v [][]float64, extra string) string {
	if len(q)*len(q[0])+len(k)*len(k[0])+len(v)*len(v[0]) <= 12 {
		return fmt.Sprintf("%s(q=%s, k=%s, v=%s%s)", fn, fmtTable(q), fmtTable(k), fmtTable(v), extra)
	}
	return fmt.Sprintf("%s(q %d×%d, k %d×%d, v %d×%d%s)", fn, len(q), len(q[0]), len(k), len(k[0]), len(v), len(v[0]), extra)
}

var attentionArgs = argHints{hintAttentionMutates, hintAttentionShares}

// Attention returns exercise 1's checks of fn on cases.
func Attention(fn func(q, k, v [][]float64) [][]float64, cases AttentionCases) *Exercise {
	var checks []Check
	for _, c := range cases.Attention {
		call := attentionCall("Attention", c.Q, c.K, c.V, "")
		loud := loudRows(c.Q, c.K)
		checks = append(checks, Check{Name: c.Name, Call: call, Run: func() *Failure {
			q, k, v := cloneTable(c.Q), cloneTable(c.K), cloneTable(c.V)
			got := fn(q, k, v)
			if f := compareTable(call, got, c.Want, c.Tol, label("query"), label("column"),
				func(got [][]float64) *Hint { return diagAttention(got, c.Q, c.K, c.V, loud, fn) }, hintAttentionFallback); f != nil {
				return f
			}
			return attentionArgs.check(call, got, arg{"q", q, c.Q}, arg{"k", k, c.K}, arg{"v", v, c.V})
		}})
	}
	return newExercise(1, checks)
}
