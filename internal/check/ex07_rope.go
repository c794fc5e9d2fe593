package check

import (
	"fmt"
	"math"

	"github.com/posenc/course/internal/catalog"
	"github.com/posenc/course/pkg/posenc"
)

func init() {
	registerExercise(Entry{
		Exercise: catalog.Exercise{Num: 7, Slug: "rope", Title: "RoPE, interleaved", Test: "TestRoPEInterleaved",
			Funcs: []string{"RotateInterleaved"}, Lesson: 4, Section: "Rotating a pair", Difficulty: catalog.Medium},
		Blurb: "rotate one head, pair by pair.",
		Hints: Hints{
			Read: []Section{secRotating, secRoPEFreqs},
			Idea: []string{
				"RoPE turns each pair of a query or key by an angle proportional to its position, each pair at " +
					"its own frequency, so that the dot product of a rotated query and key depends only on their " +
					"distance.",
			},
			Formula: []string{
				"- Pair i is (x[2i], x[2i+1]). It turns counterclockwise by pos·θ_i with θ_i = base^(−2i/d): x' " +
					"= x·cos − y·sin and y' = x·sin + y·cos.",
				"- A rotation the wrong way still gives scores that depend on m−n only; only the comparison with " +
					"the reference catches it.",
			},
			Code: []string{
				"- Read both old values first (`a, b := x[2*i], x[2*i+1]`), then write both new ones, into a new " +
					"slice: computing y' from the new x' is a classic slip.",
				"- `theta := math.Pow(base, -float64(2*i)/float64(d))` and `s, c := math.Sincos(float64(pos) * " +
					"theta)`, all in float64.",
			},
		},
		Cases:  ropeCases(posenc.Interleaved),
		Checks: func(cases any) *Exercise { return RoPEInterleaved(nil, cases.(RoPECases)) },
	})
}

var (
	hintRoPEWrongWay = newHint("rope/rotates the wrong way", secRotating,
		"your pairs rotate clockwise, by −pos·θ_i: the first member is x·cos − y·sin and the second x·sin + y·cos "+
			"(a counterclockwise rotation). The wrong way still gives relative scores, but the signs of every "+
			"offset flip and pretrained weights no longer match")
	hintRoPEHalvesForInterleaved = newHint("rope/halves instead of interleaved", secRoPELayouts,
		"you rotated the half-split pairs (x[i], x[i+d/2]), the GPT-NeoX / Hugging Face layout; this exercise uses "+
			"the interleaved layout, pairs (x[2i], x[2i+1])")
	hintRoPEExponent = newHint("rope/exponent", secRoPEFreqs,
		"the frequencies are off: θ_i = base^(−2i/d) with i the pair index; you used i/d or the dimension index")
	hintRoPEIntDiv = newHint("rope/integer division", secRoPEFreqs,
		"every pair turns by the same angle pos: θ_i came out as 1 because 2i/d was computed with integer division, "+
			"which is 0 for every pair. Convert before dividing: float64(2*i)/float64(d)")
	hintRoPEBase = newHint("rope/ignores base", secRoPEFreqs,
		"your angles use base 10000 whatever base is passed: Llama 3 uses base 500000; use the argument")
	hintRoPEOverwrite = newHint("rope/overwrote x before reading it", secRotating,
		"the second member of each pair is computed from the first member's new value: you wrote x'[a] and then "+
			"read it back to compute x'[b]. Keep the old x[a] in a variable (a, b := x[2i], x[2i+1]) and compute both "+
			"outputs from the old values")
	hintRoPEFloat32 = newHint("rope/float32 angles", secFloat32RoPE,
		"your values are right at small positions and drift at large ones: the angles pos·θ_i are computed in float32, "+
			"which holds about 7 digits. Compute them in float64")
	hintRoPEMutates = newHint("rope/mutates input", Section{},
		"your function rotated x in place, or returned x itself (at position 0, where nothing turns?): return a "+
			"new slice on every path and leave x unchanged (the same key is rotated to different positions by "+
			"different callers)")
	hintRoPERelative = generic("rope/relative fallback", secRelative,
		"rotate every pair by pos·θ_i, so that rotating q by m and k by n turns their dot product by (m−n)·θ_i only")
	hintRoPEFallback = generic("rope/fallback", secRotating,
		"rotate each pair (x[2i], x[2i+1]) by pos·θ_i with θ_i = base^(−2i/d); at d=4, pos=1 the first pair turns by "+
			"1 rad and the second by 0.01 rad")
)

// rotateWith rotates x, pairs laid out as layout says, by sign·pos·freq(i).
// With overwrite, the second member is computed from the first member's new
// value, as a learner who rotates in place without a temporary would.
func rotateWith(x []float64, pos int, layout posenc.Layout, sign float64, freq func(i int) float64, overwrite bool) []float64 {
	d := len(x)
	out := cloneVec(x)
	for i := range d / 2 {
		a, b := 2*i, 2*i+1
		if layout == posenc.Halves {
			a, b = i, i+d/2
		}
		s, c := math.Sincos(sign * float64(pos) * freq(i))
		out[a] = x[a]*c - x[b]*s
		if overwrite {
			out[b] = out[a]*s + x[b]*c
		} else {
			out[b] = x[a]*s + x[b]*c
		}
	}
	return out
}

// refRoPE is posenc's rotation of x at pos.
func refRoPE(x []float64, pos int, base float64, layout posenc.Layout) []float64 {
	out := make([]float64, len(x))
	if err := posenc.RotateTo(out, x, posenc.NewRoPE(len(x)).WithBase(base).WithLayout(layout), pos); err != nil {
		panic(err)
	}
	return out
}

func ropeFreq(d int, base float64) func(int) float64 {
	return func(i int) float64 { return math.Pow(base, -float64(2*i)/float64(d)) }
}

// ropeLayout describes one of the two exercises on rotating a head.
type ropeLayout struct {
	fnName    string
	layout    posenc.Layout
	other     posenc.Layout
	otherHint *Hint
	fallback  *Hint
	args      argHints
}

// diag names the idea behind a wrong rotation.
func (l ropeLayout) diag(got, x []float64, pos int, base float64) *Hint {
	d := len(x)
	f := ropeFreq(d, base)
	type v = variant[[]float64]
	vs := []v{
		{hintRoPEWrongWay, rotateWith(x, pos, l.layout, -1, f, false)},
		{hintRoPEIntDiv, rotateWith(x, pos, l.layout, 1, func(int) float64 { return 1 }, false)},
		{hintRoPEOverwrite, rotateWith(x, pos, l.layout, 1, f, true)},
		{l.otherHint, rotateWith(x, pos, l.other, 1, f, false)},
		{l.otherHint, rotateWith(x, pos, l.other, -1, f, false)},
		{hintRoPEExponent, rotateWith(x, pos, l.layout, 1, func(i int) float64 { return math.Pow(base, -float64(i)/float64(d)) }, false)},
		{hintRoPEExponent, rotateWith(x, pos, l.layout, 1, func(i int) float64 { return math.Pow(base, -float64(4*i)/float64(d)) }, false)},
	}
	if base != 10000 {
		vs = append(vs, v{hintRoPEBase, rotateWith(x, pos, l.layout, 1, ropeFreq(d, 10000), false)})
	}
	if hint := firstMatch(got, sameVec(1e-7), vs...); hint != nil {
		return hint
	}
	if len(got) != d {
		return nil
	}
	// float32 angles: the error of each output is at most its pair's angle error.
	angles := make([]float64, d)
	for i := range d / 2 {
		a, b := 2*i, 2*i+1
		if l.layout == posenc.Halves {
			a, b = i, i+d/2
		}
		angles[a] = float64(pos) * f(i) * (math.Abs(x[a]) + math.Abs(x[b]))
		angles[b] = angles[a]
	}
	if looksFloat32(got, refRoPE(x, pos, base, l.layout), angles) {
		return hintRoPEFloat32
	}
	return nil
}

// RotateCase is one rotation: the learner's function of x, pos and base
// must return Want, to within Tol.
type RotateCase struct {
	Name string
	X    []float64
	Pos  int
	Base float64
	Want []float64
	Tol  float64
}

// OffsetCase is RoPE's defining property on one query and one key: the
// score of q at M and k at N equals the score of q at M−N and k at 0.
type OffsetCase struct {
	Name string
	Q, K []float64
	M, N int
	Base float64
}

// RoPECases is the case table of exercises 7 and 8's rotation.
type RoPECases struct {
	Rotate []RotateCase `doc:"Rotate(X, Pos, Base) (RotateInterleaved in exercise 7, RotateHalves in exercise 8) must equal Want, to within Tol: the rotation of the RoFormer paper, as pkg/posenc computes it. The first row you can check by hand; the others have heads of 6 to 64 dimensions, another base, and positions near 1,000,000, where float32 angles drift."`
	Offset []OffsetCase `doc:"With the same Rotate, ⟨Rotate(Q, M), Rotate(K, N)⟩ must equal ⟨Rotate(Q, M−N), Rotate(K, 0)⟩: the score depends on the offset M−N only."`
}

// ropeCases returns the rotation rows in layout l.
func ropeCases(layout posenc.Layout) RoPECases {
	row := func(name string, x []float64, pos int, base, tol float64) RotateCase {
		return RotateCase{Name: name, X: x, Pos: pos, Base: base, Want: refRoPE(x, pos, base, layout), Tol: tol}
	}
	x8 := randVec(8, 41)
	return RoPECases{
		Rotate: []RotateCase{
			row("d=4_position_1", []float64{1, 0, 0.5, -2}, 1, 10000, 1e-9),
			row("position_0_changes_nothing", x8, 0, 10000, 1e-12),
			row("d=8_position_3", x8, 3, 10000, 1e-9),
			row("d=6_position_2", randVec(6, 46), 2, 10000, 1e-9),
			row("llama3_base_500000", randVec(16, 42), 100, 500000, 1e-9),
			row("positions_near_1e6", randVec(64, 43), 1_000_003, 10000, 1e-7),
		},
		Offset: []OffsetCase{
			{Name: "scores_depend_on_the_offset_only", Q: randVec(8, 44), K: randVec(8, 45), M: 7, N: 3, Base: 10000},
		},
	}
}

// rotateCall is how a message shows a call of the rotation.
func (l ropeLayout) rotateCall(x []float64, pos int, base float64) string {
	if len(x) <= 4 {
		return fmt.Sprintf("%s(x=%s, pos=%d, base=%g)", l.fnName, fmtVec(x, 0), pos, base)
	}
	return fmt.Sprintf("%s(x of length %d, pos=%d, base=%g)", l.fnName, len(x), pos, base)
}

// rotateCheck is a check of one rotation row.
func (l ropeLayout) rotateCheck(fn func(x []float64, pos int, base float64) []float64, c RotateCase) Check {
	call := l.rotateCall(c.X, c.Pos, c.Base)
	return Check{Name: c.Name, Call: call, Run: func() *Failure {
		x := cloneVec(c.X)
		got := fn(x, c.Pos, c.Base)
		if f := compareVec(call, got, c.Want, c.Tol, label("dimension"), func(got []float64) *Hint { return l.diag(got, c.X, c.Pos, c.Base) }, l.fallback); f != nil {
			return f
		}
		return l.args.check(call, got, arg{"x", x, c.X})
	}}
}

// offsetCheck is a check of RoPE's relative property.
func (l ropeLayout) offsetCheck(fn func(x []float64, pos int, base float64) []float64, c OffsetCase) Check {
	f := l.fnName
	return Check{Name: c.Name, Call: fmt.Sprintf("%s(q, %d, %g)", f, c.M, c.Base), Run: func() *Failure {
		a := dot(fn(cloneVec(c.Q), c.M, c.Base), fn(cloneVec(c.K), c.N, c.Base))
		b := dot(fn(cloneVec(c.Q), c.M-c.N, c.Base), fn(cloneVec(c.K), 0, c.Base))
		if closeTo(a, b, 1e-9) {
			return nil
		}
		return fail(hintRoPERelative,
			fmt.Sprintf("⟨%s(q, %d), %s(k, %d)⟩ = %s but ⟨%s(q, %d), %s(k, 0)⟩ = %s: both have offset %d, so they should be equal.",
				f, c.M, f, c.N, fmtNum(a), f, c.M-c.N, f, fmtNum(b), c.M-c.N))
	}}
}

// checks returns the checks of a rotation table.
func (l ropeLayout) checks(fn func(x []float64, pos int, base float64) []float64, cases RoPECases) []Check {
	var out []Check
	for _, c := range cases.Rotate {
		out = append(out, l.rotateCheck(fn, c))
	}
	for _, c := range cases.Offset {
		out = append(out, l.offsetCheck(fn, c))
	}
	return out
}

var interleavedRoPE = ropeLayout{
	fnName: "RotateInterleaved", layout: posenc.Interleaved, other: posenc.Halves,
	otherHint: hintRoPEHalvesForInterleaved, fallback: hintRoPEFallback,
	args: argHints{hintRoPEMutates, hintRoPEMutates},
}

// RoPEInterleaved returns exercise 7's checks of fn on cases.
func RoPEInterleaved(fn func(x []float64, pos int, base float64) []float64, cases RoPECases) *Exercise {
	return newExercise(7, interleavedRoPE.checks(fn, cases))
}
