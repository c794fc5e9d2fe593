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
		Hints: []string{
			"- Rotate each pair (x[2i], x[2i+1]) counterclockwise by pos·θ_i with θ_i = base^(−2i/d): x' = x·cos " +
				"− y·sin, y' = x·sin + y·cos.",
			"- Read both old values first (`a, b := x[2i], x[2i+1]`), then write both new ones: computing y' from " +
				"the new x' is a classic slip.",
			"- A rotation the wrong way still gives scores that depend on m−n only; only the comparison with the " +
				"reference catches it.",
		},
		Checks: func() *Exercise { return RoPEInterleaved(nil) },
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
		"your function rotated x in place: return a new slice and leave x unchanged (the same key is rotated to "+
			"different positions by different callers)")
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

// cases are the checks shared by exercises 7 and 8.
func (l ropeLayout) cases(fn func(x []float64, pos int, base float64) []float64) []Case {
	check := func(name string, x []float64, pos int, base float64, tol float64) Case {
		call := fmt.Sprintf("%s(x of length %d, pos=%d, base=%g)", l.fnName, len(x), pos, base)
		if len(x) <= 4 {
			call = fmt.Sprintf("%s(x=%s, pos=%d, base=%g)", l.fnName, fmtVec(x, 0), pos, base)
		}
		return vecCheck{
			name: name, call: call,
			got:  func() []float64 { return fn(cloneVec(x), pos, base) },
			want: refRoPE(x, pos, base, l.layout), tol: tol, label: label("dimension"),
			diag:     func(got []float64) *Hint { return l.diag(got, x, pos, base) },
			fallback: l.fallback,
		}.check()
	}
	x8, x16, x64 := randVec(8, 41), randVec(16, 42), randVec(64, 43)
	q, k := randVec(8, 44), randVec(8, 45)
	return []Case{
		check("d=4_position_1", []float64{1, 0, 0.5, -2}, 1, 10000, 1e-9),
		check("position_0_changes_nothing", x8, 0, 10000, 1e-12),
		check("d=8_position_3", x8, 3, 10000, 1e-9),
		check("d=6_position_2", randVec(6, 46), 2, 10000, 1e-9),
		check("llama3_base_500000", x16, 100, 500000, 1e-9),
		check("positions_near_1e6", x64, 1_000_003, 10000, 1e-7),
		unchangedVec("x_unchanged", l.fnName+"(x, 5, 10000)", x8, func(in []float64) { fn(in, 5, 10000) }, hintRoPEMutates),
		{Name: "scores_depend_on_the_offset_only", Call: l.fnName + "(q, 7, 10000)", Run: func() *Failure {
			// ⟨R(7)q, R(3)k⟩ must equal ⟨R(4)q, R(0)k⟩ = ⟨R(4)q, k⟩.
			a := dot(fn(cloneVec(q), 7, 10000), fn(cloneVec(k), 3, 10000))
			b := dot(fn(cloneVec(q), 4, 10000), k)
			if closeTo(a, b, 1e-9) {
				return nil
			}
			return fail(hintRoPERelative,
				fmt.Sprintf("⟨%s(q, 7), %s(k, 3)⟩ = %s but ⟨%s(q, 4), k⟩ = %s: both have offset 4, so they should be equal.",
					l.fnName, l.fnName, fmtNum(a), l.fnName, fmtNum(b)))
		}},
	}
}

var interleavedRoPE = ropeLayout{
	fnName: "RotateInterleaved", layout: posenc.Interleaved, other: posenc.Halves,
	otherHint: hintRoPEHalvesForInterleaved, fallback: hintRoPEFallback,
}

// RoPEInterleaved returns exercise 7's checks of fn.
func RoPEInterleaved(fn func(x []float64, pos int, base float64) []float64) *Exercise {
	return newExercise(7, interleavedRoPE.cases(fn))
}
