package exercises

import (
	"fmt"
	"math"
	"testing"

	"github.com/posenc/course/pkg/posenc"
)

var exRoPE = exInfo{file: "exercises/07_rope.go", funcs: "RotateInterleaved", lesson: "lesson 4, RoPE"}

func TestRoPEInterleaved(t *testing.T) { runExercise(t, exRoPE, ropeCases(RotateInterleaved)) }

var (
	hintRoPEWrongWay = newHint("rope/rotates the wrong way",
		"your pairs rotate clockwise, by −pos·θ_i: the first member is x·cos − y·sin and the second x·sin + y·cos "+
			"(a counterclockwise rotation). The wrong way still gives relative scores, but the signs of every "+
			"offset flip and pretrained weights no longer match (lesson 4, “Rotating a pair”).")
	hintRoPEHalvesForInterleaved = newHint("rope/halves instead of interleaved",
		"you rotated the half-split pairs (x[i], x[i+d/2]), the GPT-NeoX / Hugging Face layout; this exercise uses "+
			"the interleaved layout, pairs (x[2i], x[2i+1]) (lesson 4, “Two layouts”).")
	hintRoPEExponent = newHint("rope/exponent",
		"the frequencies are off: θ_i = base^(−2i/d) with i the pair index; you used i/d or the dimension index "+
			"(lesson 4, “The frequencies”).")
	hintRoPEBase = newHint("rope/ignores base",
		"your angles use base 10000 whatever base is passed: Llama 3 uses base 500000; use the argument "+
			"(lesson 4, “The frequencies”).")
	hintRoPEMutates = newHint("rope/mutates input",
		"your function rotated x in place: return a new slice and leave x unchanged (the same key is rotated to "+
			"different positions by different callers).")
)

// refRotate rotates x, pairs laid out as layout says, by sign·pos·freq(i).
func refRotate(x []float64, pos int, layout posenc.Layout, sign float64, freq func(i int) float64) []float64 {
	d := len(x)
	out := append([]float64(nil), x...)
	for i := range d / 2 {
		a, b := 2*i, 2*i+1
		if layout == posenc.Halves {
			a, b = i, i+d/2
		}
		s, c := math.Sincos(sign * float64(pos) * freq(i))
		out[a], out[b] = x[a]*c-x[b]*s, x[a]*s+x[b]*c
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

func refRoPEFreq(d int, base float64) func(int) float64 {
	return func(i int) float64 { return math.Pow(base, -float64(2*i)/float64(d)) }
}

// diagRoPE names the idea behind a wrong rotation in the given layout; other
// is the layout a confused learner would have used instead.
func diagRoPE(got, x []float64, pos int, base float64, layout, other posenc.Layout, otherHint string) string {
	d := len(x)
	f := refRoPEFreq(d, base)
	type v = exVariant[[]float64]
	vs := []v{
		{hintRoPEWrongWay, refRotate(x, pos, layout, -1, f)},
		{otherHint, refRotate(x, pos, other, 1, f)},
		{otherHint, refRotate(x, pos, other, -1, f)},
		{hintRoPEExponent, refRotate(x, pos, layout, 1, func(i int) float64 { return math.Pow(base, -float64(i)/float64(d)) })},
		{hintRoPEExponent, refRotate(x, pos, layout, 1, func(i int) float64 { return math.Pow(base, -float64(4*i)/float64(d)) })},
	}
	if base != 10000 {
		vs = append(vs, v{hintRoPEBase, refRotate(x, pos, layout, 1, refRoPEFreq(d, 10000))})
	}
	if hint := diagFirst(got, exSameVec(1e-7), vs...); hint != "" {
		return hint
	}
	if len(got) != d {
		return ""
	}
	// float32 angles: the error of each output is at most its pair's angle error.
	angles := make([]float64, d)
	for i := range d / 2 {
		a, b := 2*i, 2*i+1
		if layout == posenc.Halves {
			a, b = i, i+d/2
		}
		angles[a] = float64(pos) * f(i) * (math.Abs(x[a]) + math.Abs(x[b]))
		angles[b] = angles[a]
	}
	if diagFloat32(got, refRoPE(x, pos, base, layout), angles) {
		return hintFloat32
	}
	return ""
}

// ropeLayoutCases are the checks shared by exercises 7 and 8.
func ropeLayoutCases(fnName string, fn func(x []float64, pos int, base float64) []float64,
	layout, other posenc.Layout, otherHint, fallback string) []exCase {
	check := func(name string, x []float64, pos int, base float64, tol float64) exCase {
		call := fmt.Sprintf("%s(x of length %d, pos=%d, base=%g)", fnName, len(x), pos, base)
		if len(x) <= 4 {
			call = fmt.Sprintf("%s(x=%s, pos=%d, base=%g)", fnName, exFmtVec(x, 0), pos, base)
		}
		return exVecCheck{
			name: name, call: call,
			got:  func() []float64 { return fn(append([]float64(nil), x...), pos, base) },
			want: refRoPE(x, pos, base, layout), tol: tol, label: exLabel("dimension"),
			diag:     func(got []float64) string { return diagRoPE(got, x, pos, base, layout, other, otherHint) },
			fallback: fallback,
		}.exCase()
	}
	x8, x16, x64 := refRandVec(8, 41), refRandVec(16, 42), refRandVec(64, 43)
	q, k := refRandVec(8, 44), refRandVec(8, 45)
	dot := func(a, b []float64) float64 {
		s := 0.0
		for i := range a {
			s += a[i] * b[i]
		}
		return s
	}
	return []exCase{
		check("d=4_position_1", []float64{1, 0, 0.5, -2}, 1, 10000, 1e-9),
		check("position_0_changes_nothing", x8, 0, 10000, 1e-12),
		check("d=8_position_3", x8, 3, 10000, 1e-9),
		check("llama3_base_500000", x16, 100, 500000, 1e-9),
		check("positions_near_1e6", x64, 1_000_003, 10000, 1e-7),
		{name: "x_unchanged", call: fnName + "(x, 5, 10000)", run: func() string {
			in := append([]float64(nil), x8...)
			fn(in, 5, 10000)
			if exDiffVec(in, x8, 0) >= 0 {
				return exMsg(hintRoPEMutates, "", fnName+"(x, 5, 10000) changed x.")
			}
			return ""
		}},
		{name: "scores_depend_on_the_offset_only", call: fnName + "(q, 7, 10000)", run: func() string {
			// ⟨R(7)q, R(3)k⟩ must equal ⟨R(4)q, R(0)k⟩ = ⟨R(4)q, k⟩.
			a := dot(fn(append([]float64(nil), q...), 7, 10000), fn(append([]float64(nil), k...), 3, 10000))
			b := dot(fn(append([]float64(nil), q...), 4, 10000), k)
			if exClose(a, b, 1e-9) {
				return ""
			}
			return exMsg("", "rotate every pair by pos·θ_i, so that rotating q by m and k by n turns their dot product "+
				"by (m−n)·θ_i only (lesson 4, “Why the score depends only on m − n”).",
				fmt.Sprintf("⟨%s(q, 7), %s(k, 3)⟩ = %s but ⟨%s(q, 4), k⟩ = %s: both have offset 4, so they should be equal.",
					fnName, fnName, exFmt(a), fnName, exFmt(b)))
		}},
	}
}

func ropeCases(fn func(x []float64, pos int, base float64) []float64) []exCase {
	return ropeLayoutCases("RotateInterleaved", fn, posenc.Interleaved, posenc.Halves, hintRoPEHalvesForInterleaved,
		"rotate each pair (x[2i], x[2i+1]) by pos·θ_i with θ_i = base^(−2i/d); at d=4, pos=1 the first pair turns by "+
			"1 rad and the second by 0.01 rad (lesson 4, “Rotating a pair”).")
}
