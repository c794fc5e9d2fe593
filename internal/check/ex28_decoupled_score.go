package check

import (
	"fmt"
	"math"

	"github.com/posenc/course/internal/catalog"
	"github.com/posenc/course/pkg/posenc"
)

func init() {
	registerExercise(Entry{
		Exercise: catalog.Exercise{Num: 28, Slug: "decoupled_score", Title: "DeepSeek's decoupled score", Test: "TestDecoupledScore",
			Funcs: []string{"DecoupledScore"}, Lesson: 9, Section: secDecoupled.Title, Difficulty: catalog.Medium},
		Blurb: "multi-head latent attention's logit: a position-free part plus a rotary part, each a dot product.",
		Hints: Hints{
			Read: []Section{secDecoupled},
			Idea: []string{
				"MLA keeps RoPE apart: each head is a position-free part, made from the cached latent, and a small " +
					"rotary part; the score adds the two dot products, and only the rotary one carries the distance.",
			},
			Formula: []string{
				"- qNope·kNope + ⟨R(m)·qRope, R(n)·kRope⟩, interleaved pairs (2i, 2i+1), ω_i = base^(−2i/d) with " +
					"d = len(qRope), the rotary part's own size.",
				"- ⟨R(m)q, R(n)k⟩ = ⟨R(m−n)q, k⟩: you may rotate the query alone, by m − n.",
			},
			Code: []string{
				"- Rotate copies (or compute each rotated pair into local variables), never the arguments.",
			},
		},
		Cases:  decoupledCases(),
		Checks: func(cases any) *Exercise { return DecoupledScore(nil, cases.(DecoupledScoreCases)) },
	})
}

var secDecoupled = Section{9, "DeepSeek's decoupled RoPE"}

var (
	hintDecRotatesNope = newHint("decoupled/rotates the position-free part", secDecoupled,
		"only the rotary part rotates: qNope·kNope is the position-free part, added as it is. Rotating the whole "+
			"head is what MLA avoids, so that the latent keys can be used without rotation")
	hintDecSamePosition = newHint("decoupled/no rotation", secDecoupled,
		"the rotary part must carry the distance: rotate the query's rotary part to m and the key's to n (or the "+
			"query's by m − n). Rotating both to the same position, or not at all, leaves no position in the score")
	hintDecSign = newHint("decoupled/sign of the distance", secDecoupled,
		"⟨R(m)q, R(n)k⟩ = ⟨R(m−n)q, k⟩: rotating the query alone, rotate it by m − n, not n − m")
	hintDecNoNope = newHint("decoupled/position-free part missing", secDecoupled,
		"the score is the sum of both parts: add qNope·kNope to the rotary part's dot product")
	hintDecHalves = newHint("decoupled/half-split layout", secDecoupled,
		"DeepSeek rotates pairs of neighbours, (2i, 2i+1) (rope_interleave), not the half-split pairs (i, i+d/2)")
	hintDecWholeHeadDim = newHint("decoupled/frequencies from the whole head", secDecoupled,
		"the rotary part's frequencies are base^(−2i/d) with d = len(qRope), its own size, not the size of the "+
			"whole head (nope + rope)")
	hintDecIntExponent = newHint("decoupled/integer exponent", secDecoupled,
		"the exponent 2i/d was computed with integer division, so every pair turns at frequency 1: convert to "+
			"float64 before dividing")
	hintDecFloat32 = newHint("decoupled/float32 angles", secFloat32RoPE,
		"your score is off by as much as float32 angles would make it: compute m·ω_i and n·ω_i in float64 (at "+
			"m = 4,100 a float32 angle is off by up to 2·10^−4 rad)")
	hintDecScaled = newHint("decoupled/softmax scale", secDecoupled,
		"the logit asked for is before the softmax scale: do not divide by √d here")
	hintDecMutates = newHint("decoupled/mutates", Section{},
		"your function changed its arguments (rotated qRope or kRope in place, most likely): rotate copies")
	hintDecFallback = generic("decoupled/fallback", secDecoupled,
		"the score is qNope·kNope + ⟨R(m)·qRope, R(n)·kRope⟩ with interleaved RoPE over len(qRope) dimensions")
)

// refDecoupled is posenc.DecoupledScore with interleaved pairs.
func refDecoupled(qN, kN, qR, kR []float64, base float64, m, n int) float64 {
	s, err := posenc.DecoupledScore(qN, kN, qR, kR, posenc.NewRoPE(len(qR)).WithBase(base), m, n)
	if err != nil {
		panic(err)
	}
	return s
}

// rotateDec rotates v to pos over pairs laid out by halves or interleaved,
// with frequencies base^(−2i/den) (rotateWith, exercise 7's helper).
func rotateDec(v []float64, pos int, base float64, den int, halves bool) []float64 {
	layout := posenc.Interleaved
	if halves {
		layout = posenc.Halves
	}
	return rotateWith(v, pos, layout, 1, func(i int) float64 { return math.Pow(base, -float64(2*i)/float64(den)) }, false)
}

func diagDecoupled(got float64, c DecoupledCase) *Hint {
	d := len(c.QRope)
	nope := dot(c.QNope, c.KNope)
	rope := func(qm, kn int, den int, halves bool) float64 {
		return dot(rotateDec(c.QRope, qm, c.Base, den, halves), rotateDec(c.KRope, kn, c.Base, den, halves))
	}
	whole := func() float64 {
		q := append(cloneVec(c.QNope), c.QRope...)
		k := append(cloneVec(c.KNope), c.KRope...)
		return dot(rotateDec(q, c.M, c.Base, len(q), false), rotateDec(k, c.N, c.Base, len(k), false))
	}
	withFreq := func(freq func(i int) float64, angle func(pos int, w float64) float64) float64 {
		rot := func(v []float64, pos int) []float64 {
			out := cloneVec(v)
			for i := range len(v) / 2 {
				s, co := math.Sincos(angle(pos, freq(i)))
				out[2*i], out[2*i+1] = v[2*i]*co-v[2*i+1]*s, v[2*i]*s+v[2*i+1]*co
			}
			return out
		}
		return nope + dot(rot(c.QRope, c.M), rot(c.KRope, c.N))
	}
	product := func(pos int, w float64) float64 { return float64(pos) * w }
	intExp := withFreq(func(i int) float64 { return math.Pow(c.Base, -float64(2*i/d)) }, product)
	f32 := withFreq(ropeFreq(d, c.Base), func(pos int, w float64) float64 { return float64(float32(pos) * float32(w)) })
	// float32 angles: a right answer where they stay within 1e-9 too, or a
	// wrong one off by no more than they can make it.
	bound := 1e-6 + 4e-7*float64(max(c.M, c.N)+1)*math.Sqrt(dot(c.QRope, c.QRope)*dot(c.KRope, c.KRope))
	f32Fits := closeTo(f32, c.Want, 1e-9)
	if !closeTo(got, c.Want, 1e-9) {
		f32Fits = math.Abs(got-c.Want) <= bound
	}
	observeHint(hintDecFloat32, f32Fits)
	type v = variant[float64]
	size := float64(len(c.QNope) + d)
	h := uniqueMatch(got, func(a, b float64) bool { return closeTo(a, b, 1e-9) },
		v{hintDecSamePosition, nope + dot(c.QRope, c.KRope)},
		v{hintDecNoNope, rope(c.M, c.N, d, false)},
		v{hintDecSign, nope + rope(c.N, c.M, d, false)},
		v{hintDecHalves, nope + rope(c.M, c.N, d, true)},
		v{hintDecWholeHeadDim, nope + rope(c.M, c.N, d+len(c.QNope), false)},
		v{hintDecRotatesNope, whole()},
		v{hintDecIntExponent, intExp},
		v{hintDecScaled, c.Want / math.Sqrt(size)},
		v{hintDecScaled, c.Want / math.Sqrt(float64(d))},
		v{hintDecScaled, c.Want / math.Sqrt(float64(len(c.QNope)))},
	)
	if h == nil && f32Fits && !closeTo(got, c.Want, 1e-9) {
		return hintDecFloat32
	}
	return h
}

// DecoupledCase is one call: DecoupledScore(QNope, KNope, QRope, KRope,
// Base, M, N) must equal Want, to 1e-9.
type DecoupledCase struct {
	Name                       string
	QNope, KNope, QRope, KRope []float64
	Base                       float64
	M, N                       int
	Want                       float64
}

// DecoupledScoreCases is exercise 28's case table.
type DecoupledScoreCases struct {
	Scores []DecoupledCase `doc:"DecoupledScore(QNope, KNope, QRope, KRope, Base, M, N) must equal Want, to 1e-9: QNope·KNope + ⟨R(M)·QRope, R(N)·KRope⟩, interleaved RoPE over len(QRope) dimensions (posenc.DecoupledScore)."`
}

func decoupledCases() DecoupledScoreCases {
	row := func(name string, nope, rope int, base float64, m, n int, seed uint64) DecoupledCase {
		qN, kN := randVec(nope, seed), randVec(nope, seed+1)
		qR, kR := randVec(rope, seed+2), randVec(rope, seed+3)
		return DecoupledCase{name, qN, kN, qR, kR, base, m, n, refDecoupled(qN, kN, qR, kR, base, m, n)}
	}
	return DecoupledScoreCases{Scores: []DecoupledCase{
		row("query_after_key", 6, 4, 10000, 7, 3, 281),
		row("query_before_key", 4, 6, 10000, 2, 9, 285),
		row("same_position", 3, 4, 10000, 5, 5, 289),
		row("deepseek_sizes_128_plus_64_far_apart", 128, 64, 10000, 4100, 17, 293),
		row("small_base_3_plus_2", 3, 2, 100, 1, 0, 297),
	}}
}

var decoupledArgs = argHints{hintDecMutates, hintDecMutates}

// DecoupledScore returns exercise 28's checks of fn on cases.
func DecoupledScore(fn func(qNope, kNope, qRope, kRope []float64, base float64, m, n int) float64, cases DecoupledScoreCases) *Exercise {
	var checks []Check
	for _, c := range cases.Scores {
		call := fmt.Sprintf("DecoupledScore(%d position-free and %d rotary dims, base=%g, m=%d, n=%d)", len(c.QNope), len(c.QRope), c.Base, c.M, c.N)
		checks = append(checks, Check{Name: c.Name, Call: call, Run: func() *Failure {
			qN, kN, qR, kR := cloneVec(c.QNope), cloneVec(c.KNope), cloneVec(c.QRope), cloneVec(c.KRope)
			got := fn(qN, kN, qR, kR, c.Base, c.M, c.N)
			noteFallback(hintDecFallback)
			if closeTo(got, c.Want, 1e-9) {
				observePass(func(got float64) *Hint { return diagDecoupled(got, c) }, got)
			} else {
				return fail(orElse(diagDecoupled(got, c), hintDecFallback), fmt.Sprintf("%s = %s; want %s", call, fmtNum(got), fmtNum(c.Want)))
			}
			return decoupledArgs.check(call, got, arg{"qNope", qN, c.QNope}, arg{"kNope", kN, c.KNope},
				arg{"qRope", qR, c.QRope}, arg{"kRope", kR, c.KRope})
		}})
	}
	return newExercise(28, checks)
}
