package check

import (
	"fmt"
	"math"
	"strings"

	"github.com/posenc/course/internal/catalog"
)

func init() {
	registerExercise(Entry{
		Exercise: catalog.Exercise{Num: 20, Slug: "biased_attention", Title: "A position bias inside softmax attention", Test: "TestBiasedAttention",
			Funcs: []string{"BiasedAttention"}, Lesson: 6, Section: "What it does to attention", Difficulty: catalog.Easy},
		Blurb: "add an ALiBi or T5 bias to the logits, −Inf included.",
		Hints: []string{
			"- The bias joins the scaled logits: s_ij = q_i·k_j/√d + bias[i][j], then the softmax over j, then " +
				"Σ_j w_ij·v_j.",
			"- With the row maximum subtracted, exp(−Inf) = 0 gives a masked key weight 0, as it should.",
		},
		Checks: func() *Exercise { return BiasedAttention(nil) },
	})
}

var (
	hintBiasScaled = newHint("biased attention/bias divided by √d", secALiBiAttention,
		"the bias is added after the scores are scaled: s_ij = q_i·k_j/√d + bias[i][j]. Adding it before dividing by "+
			"√d shrinks it, and ALiBi's slopes are calibrated for the scaled scores")
	hintBiasAfterSoftmax = newHint("biased attention/bias after softmax", secALiBiAttention,
		"the bias goes inside the softmax, on the logits: softmax(q·kᵀ/√d + bias). Added to the weights after the "+
			"softmax it is no longer a penalty, and −Inf would make every weight −Inf")
	hintBiasSubtracted = newHint("biased attention/bias subtracted", secALiBiAttention,
		"add the bias, do not subtract it: ALiBi's bias is already negative (a penalty), and subtracting it rewards "+
			"distant keys")
	hintBiasTransposed = newHint("biased attention/bias transposed", secALiBiAttention,
		"bias[i][j] belongs to query i and key j, the same indices as the score s_ij: you used bias[j][i]")
	hintBiasIgnored = newHint("biased attention/bias ignored", secALiBiAttention,
		"your scores leave the bias out: add bias[i][j] to each scaled score before the softmax")
	hintBiasNoScale = newHint("biased attention/no √d", secThreeWords,
		"the scores q_i·k_j must still be divided by √d before the bias is added")
	hintBiasMutates = newHint("biased attention/mutates input", Section{},
		"your function changed one of its arguments: compute into new slices")
	hintBiasFallback = generic("biased attention/fallback", secALiBiAttention,
		"row i of the result is Σ_j softmax_j(q_i·k_j/√d + bias[i][j])·v_j")
)

// refAfterSoftmax adds the bias to the softmax weights, as a confused learner
// would.
func refAfterSoftmax(q, k, v, bias [][]float64) [][]float64 {
	w := refAttention(q, k, v, attentionOpts{weightsOnly: true})
	for i := range w {
		for j := range w[i] {
			w[i][j] += bias[i][j]
		}
	}
	return matMul(w, v)
}

func negate(t [][]float64) [][]float64 {
	out := cloneTable(t)
	for _, r := range out {
		for i := range r {
			r[i] = -r[i]
		}
	}
	return out
}

// BiasedAttention returns exercise 20's checks of fn.
func BiasedAttention(fn func(q, k, v, bias [][]float64) [][]float64) *Exercise {
	x := randTable(4, 4, 111)
	alibiSym := refALiBiBias([]float64{0.5}, 4, false)[0]
	probeFinite := func() *Hint {
		got := fn(cloneTable(x), cloneTable(x), cloneTable(x), cloneTable(alibiSym))
		type vv = variant[[][]float64]
		return firstMatch(got, sameTable(1e-9),
			vv{hintBiasAfterSoftmax, refAfterSoftmax(x, x, x, alibiSym)},
			vv{hintBiasSubtracted, refAttention(x, x, x, attentionOpts{bias: negate(alibiSym)})},
			vv{hintBiasScaled, refAttention(x, x, x, attentionOpts{bias: alibiSym, biasFirst: true})},
			vv{hintBiasNoScale, refAttention(x, x, x, attentionOpts{bias: alibiSym, scale: func(int) float64 { return 1 }})})
	}
	alibiCausal := refALiBiBias([]float64{0.5}, 4, true)[0]
	check := func(name, what string, q, k, v, bias [][]float64) Case {
		call := fmt.Sprintf("BiasedAttention(q %d×%d, k %d×%d, v %d×%d, %s)", len(q), len(q[0]), len(k), len(k[0]), len(v), len(v[0]), what)
		return tableCheck{
			name: name, call: call,
			got:  func() [][]float64 { return fn(cloneTable(q), cloneTable(k), cloneTable(v), cloneTable(bias)) },
			want: refAttention(q, k, v, attentionOpts{bias: bias}), tol: 1e-9,
			row: label("query"), col: label("column"),
			diag: func(got [][]float64) *Hint {
				type vv = variant[[][]float64]
				vs := []vv{
					{hintBiasIgnored, refAttention(q, k, v, attentionOpts{})},
					{hintBiasScaled, refAttention(q, k, v, attentionOpts{bias: bias, biasFirst: true})},
					{hintBiasAfterSoftmax, refAfterSoftmax(q, k, v, bias)},
					{hintBiasSubtracted, refAttention(q, k, v, attentionOpts{bias: negate(bias)})},
					{hintBiasNoScale, refAttention(q, k, v, attentionOpts{bias: bias, scale: func(int) float64 { return 1 }})},
				}
				if len(q) == len(k) {
					vs = append(vs, vv{hintBiasTransposed, refAttention(q, k, v, attentionOpts{bias: transpose(bias)})})
				}
				if h := firstMatch(got, sameTable(1e-9), vs...); h != nil {
					return h
				}
				// A −Inf in the bias turns several mistakes into NaN: the
				// learner's answer for a finite bias says which one.
				for _, row := range nanRows(got) {
					switch {
					case row && hasInf(bias):
						return orElse(probeFinite(), hintBiasFallback)
					case row:
						return hintAttentionOverflow
					}
				}
				return nil
			},
			fallback: hintBiasFallback,
			panicDiag: func(msg string) *Hint {
				if len(q) != len(k) && strings.Contains(msg, "index out of range") {
					return hintBiasTransposed
				}
				return nil
			},
		}.check()
	}
	q2, k5, v5 := randTable(2, 4, 112), randTable(5, 4, 113), randTable(5, 3, 114)
	t5 := randTable(2, 5, 115) // one learned scalar per (query, key) bucket
	zero := make([][]float64, 4)
	for i := range zero {
		zero[i] = make([]float64, 4)
	}
	return newExercise(20, []Case{
		check("symmetric_alibi_bias", "ALiBi bias −|i−j|/2", x, x, x, alibiSym),
		check("causal_alibi_bias_masks_future_keys", "causal ALiBi bias with −Inf above the diagonal", x, x, x, alibiCausal),
		check("two_queries_five_keys_t5_like_bias", "a 2×5 bias", q2, k5, v5, t5),
		check("zero_bias_is_plain_attention", "a zero bias", x, randTable(4, 4, 116), randTable(4, 2, 117), zero),
		check("large_scores_stay_finite", "ALiBi bias −|i−j|/2", scaled(x, 40), scaled(x, 40), x, alibiSym),
		unchangedTable("inputs_unchanged", "BiasedAttention(q, k, v, bias)", append(append(append(cloneTable(x), x...), x...), alibiCausal...),
			func(all [][]float64) { fn(all[:4], all[4:8], all[8:12], all[12:]) }, hintBiasMutates),
	})
}

func hasInf(t [][]float64) bool {
	for _, r := range t {
		for _, x := range r {
			if math.IsInf(x, 0) {
				return true
			}
		}
	}
	return false
}
