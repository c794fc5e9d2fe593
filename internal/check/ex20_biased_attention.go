package check

import (
	"math"
	"strings"

	"github.com/posenc/course/internal/catalog"
)

func init() {
	registerExercise(Entry{
		Exercise: catalog.Exercise{Num: 20, Slug: "biased_attention", Title: "A position bias inside softmax attention", Test: "TestBiasedAttention",
			Funcs: []string{"BiasedAttention"}, Lesson: 6, Section: "What it does to attention", Difficulty: catalog.Easy},
		Blurb: "add an ALiBi or T5 bias to the logits, −Inf included.",
		Hints: Hints{
			Read: []Section{secALiBiAttention},
			Idea: []string{
				"A position bias, ALiBi's or T5's, joins the attention logits: after the √d scaling and before " +
					"the softmax. A bias of −∞ masks a key.",
			},
			Formula: []string{
				"- s_ij = q_i·k_j/√d + bias[i][j], with d = len(q[0]); then the softmax over j, with the row " +
					"maximum subtracted; then Σ_j w_ij·v_j.",
				"- exp(−∞) = 0 gives a masked key weight 0, as it should.",
			},
			Code: []string{
				"- Exercise 1's code with the bias added after the division: `dot(q[i], " +
					"k[j])/math.Sqrt(float64(d)) + bias[i][j]`. Leave −Inf as it is, and bias as it is.",
			},
		},
		Cases:  biasedAttentionCases(),
		Checks: func(cases any) *Exercise { return BiasedAttention(nil, cases.(BiasedAttentionCases)) },
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
		"your function changed one of its arguments (the −Inf of a causal bias replaced in place, or q scaled in "+
			"place?): compute into new slices and leave q, k, v and bias as they were")
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

// BiasedCase is one call: BiasedAttention(Q, K, V, Bias) must equal Want,
// to 1e-9. About says what Bias is.
type BiasedCase struct {
	Name          string
	Q, K, V, Bias [][]float64
	About         string
	Want          [][]float64
}

// BiasedAttentionCases is exercise 20's case table.
type BiasedAttentionCases struct {
	Attention []BiasedCase `doc:"BiasedAttention(Q, K, V, Bias) must equal Want, to 1e-9: softmax(Q·Kᵀ/√d + Bias)·V, with exp(−Inf) = 0 for a masked key."`
}

func biasedAttentionCases() BiasedAttentionCases {
	x := randTable(4, 4, 111)
	alibiSym := refALiBiBias([]float64{0.5}, 4, false)[0]
	alibiCausal := refALiBiBias([]float64{0.5}, 4, true)[0]
	zero := make([][]float64, 4)
	for i := range zero {
		zero[i] = make([]float64, 4)
	}
	row := func(name, about string, q, k, v, bias [][]float64) BiasedCase {
		return BiasedCase{name, q, k, v, bias, about, refAttention(q, k, v, attentionOpts{bias: bias})}
	}
	return BiasedAttentionCases{Attention: []BiasedCase{
		row("symmetric_alibi_bias", "ALiBi bias −|i−j|/2", x, x, x, alibiSym),
		row("causal_alibi_bias_masks_future_keys", "causal ALiBi bias with −Inf above the diagonal", x, x, x, alibiCausal),
		row("two_queries_five_keys_t5_like_bias", "a 2×5 bias", randTable(2, 4, 112), randTable(5, 4, 113), randTable(5, 3, 114), randTable(2, 5, 115)),
		row("zero_bias_is_plain_attention", "a zero bias", x, randTable(4, 4, 116), randTable(4, 2, 117), zero),
		row("large_scores_stay_finite", "ALiBi bias −|i−j|/2", scaled(x, 40), scaled(x, 40), x, alibiSym),
	}}
}

// biasScaleVariants are the answers with the scores divided by d, or by
// the number of keys or its square root, instead of √d.
func biasScaleVariants(q, k, v, bias [][]float64) []variant[[][]float64] {
	var out []variant[[][]float64]
	for _, sv := range scaleVariants(q, k, v, bias) {
		if sv.hint != hintAttentionNoScale { // exercise 20 names that one its own way
			out = append(out, sv)
		}
	}
	return out
}

// probeFiniteBias names the idea behind a NaN answer for a bias with −Inf:
// the learner's answer for a finite bias says which mistake it was.
func probeFiniteBias(fn func(q, k, v, bias [][]float64) [][]float64) *Hint {
	x := randTable(4, 4, 111)
	alibiSym := refALiBiBias([]float64{0.5}, 4, false)[0]
	got := fn(cloneTable(x), cloneTable(x), cloneTable(x), cloneTable(alibiSym))
	type vv = variant[[][]float64]
	return firstMatch(got, sameTable(1e-9),
		vv{hintBiasAfterSoftmax, refAfterSoftmax(x, x, x, alibiSym)},
		vv{hintBiasSubtracted, refAttention(x, x, x, attentionOpts{bias: negate(alibiSym)})},
		vv{hintBiasScaled, refAttention(x, x, x, attentionOpts{bias: alibiSym, biasFirst: true})},
		vv{hintBiasNoScale, refAttention(x, x, x, attentionOpts{bias: alibiSym, scale: func(int) float64 { return 1 }})})
}

// diagBiased names the idea behind a wrong biased attention.
func diagBiased(got [][]float64, c BiasedCase, fn func(q, k, v, bias [][]float64) [][]float64) *Hint {
	q, k, v, bias := c.Q, c.K, c.V, c.Bias
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
	if h := narrow(matchAll(got, sameTable(1e-9), append(vs, biasScaleVariants(q, k, v, bias)...)...), func() []*Hint {
		p := attentionProbe // more keys than its width: d and the number of keys differ
		pb := randTable(len(p.q), len(p.k), 118)
		got := fn(cloneTable(p.q), cloneTable(p.k), cloneTable(p.v), cloneTable(pb))
		return matchAll(got, sameTable(1e-9), biasScaleVariants(p.q, p.k, p.v, pb)...)
	}); h != nil {
		return h
	}
	// A −Inf in the bias turns several mistakes into NaN: the learner's
	// answer for a finite bias says which one.
	for _, row := range nanRows(got) {
		switch {
		case row && hasInf(bias):
			return orElse(probeFiniteBias(fn), hintBiasFallback)
		case row:
			return hintAttentionOverflow
		}
	}
	return nil
}

var biasedArgs = argHints{hintBiasMutates, hintBiasMutates}

// BiasedAttention returns exercise 20's checks of fn on cases.
func BiasedAttention(fn func(q, k, v, bias [][]float64) [][]float64, cases BiasedAttentionCases) *Exercise {
	var checks []Check
	for _, c := range cases.Attention {
		call := attentionCall("BiasedAttention", c.Q, c.K, c.V, ", "+c.About)
		checks = append(checks, Check{Name: c.Name, Call: call,
			PanicDiag: func(msg string) *Hint {
				if len(c.Q) != len(c.K) && strings.Contains(msg, "index out of range") {
					return hintBiasTransposed
				}
				return nil
			},
			Run: func() *Failure {
				q, k, v, bias := cloneTable(c.Q), cloneTable(c.K), cloneTable(c.V), cloneTable(c.Bias)
				got := fn(q, k, v, bias)
				if f := compareTable(call, got, c.Want, 1e-9, label("query"), label("column"),
					func(got [][]float64) *Hint { return diagBiased(got, c, fn) }, hintBiasFallback); f != nil {
					return f
				}
				return biasedArgs.check(call, got, arg{"q", q, c.Q}, arg{"k", k, c.K}, arg{"v", v, c.V}, arg{"bias", bias, c.Bias})
			}})
	}
	return newExercise(20, checks)
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
