package check

import (
	"fmt"
	"math"

	"github.com/posenc/course/internal/catalog"
	"github.com/posenc/course/pkg/posenc"
)

func init() {
	registerExercise(Entry{
		Exercise: catalog.Exercise{Num: 31, Slug: "rerotate_key", Title: "Move a cached key", Test: "TestReRotateKey",
			Funcs: []string{"ReRotateKey"}, Lesson: 10, Section: secCaches.Title, Difficulty: catalog.Medium},
		Blurb: "re-rotate a key already rotated to position n so that it sits at n+Δ, as StreamingLLM's cache needs.",
		Hints: Hints{
			Read: []Section{secCaches},
			Idea: []string{
				"Rotations compose: turning by n and then by Δ is turning by n+Δ. So a cached key can be moved " +
					"without its unrotated value, by rotating it once more, by the offset alone.",
			},
			Formula: []string{
				"- Pair i, at dimensions 2i and 2i+1, turns by Δ·ω_i: (x, y) → (x cos Δω_i − y sin Δω_i, " +
					"x sin Δω_i + y cos Δω_i).",
				"- Δ may be negative: StreamingLLM moves keys back when it evicts tokens.",
			},
			Code: []string{
				"- `math.Sincos(float64(delta) * invFreq[i])`; a new slice for the result.",
			},
		},
		Cases:  reRotateCases(),
		Checks: func(cases any) *Exercise { return ReRotateKey(nil, cases.(ReRotateCases)) },
	})
}

// The lesson section exercise 31 and its hints cite.
var secCaches = Section{10, "Caches: rotate once, and what moves a cached key"}

var (
	hintReRotOpposite = newHint("re-rotate/opposite direction", secCaches,
		"you turned the key by −Δ: R(Δ)·R(n) = R(n+Δ), so moving a key from n to n+Δ turns it by +Δ·ω_i "+
			"(x cos − y sin, x sin + y cos)")
	hintReRotHalves = newHint("re-rotate/halves layout", secCaches,
		"this key pairs dimensions 2i and 2i+1 (interleaved), not i and i+d/2: pair i has frequency invFreq[i]")
	hintReRotSwapped = newHint("re-rotate/not a rotation", secCaches,
		"(x cos − y sin, x sin + y cos) is the rotation; your pair comes out in another order or with the wrong "+
			"sign, which is not a rotation at Δ = 0 (it must give the key back)")
	hintReRotNoFreq = newHint("re-rotate/no frequency", secCaches,
		"each pair turns by Δ·invFreq[i], its own angle: turning every pair by Δ radians ignores the frequencies")
	hintReRotNewX = newHint("re-rotate/new x in y", secCaches,
		"you computed y' from the x' you had just written: read both old values first, x, y := key[2i], key[2i+1], "+
			"then write (x cos − y sin, x sin + y cos)")
	hintReRotFloat32 = newHint("re-rotate/float32 angles", secFloat32RoPE,
		"your answer is off by as much as float32 angles would make it: compute Δ·invFreq[i] in float64, since at "+
			"Δ = 100,000 a float32 angle is off by up to 0.004 rad")
	hintReRotDegrees = newHint("re-rotate/degrees", secCaches,
		"Δ·invFreq[i] is already in radians, the unit of math.Sincos: do not convert it from degrees")
	hintReRotMutates = newHint("re-rotate/mutates", Section{},
		"your function changed the caller's key (the cache's copy): write the result into a new slice")
	hintReRotFallback = generic("re-rotate/fallback", secCaches,
		"pair i (dimensions 2i, 2i+1) turns by Δ·invFreq[i]: (x cos − y sin, x sin + y cos)")
)

// refReRotate turns key by delta with the given frequencies, right when
// bug is "", else wrong in one way: "halves" pairs i and i+d/2, "swapped"
// writes (x sin + y cos, x cos − y sin) and "plus" (x cos + y sin, x sin +
// y cos), "no_freq" turns every pair by delta radians, "new_x" computes y'
// from x', "float32" and "degrees" change the angle.
func refReRotate(key, freq []float64, delta float64, bug string) []float64 {
	out := make([]float64, len(key))
	h := len(key) / 2
	for i, w := range freq {
		a, b := 2*i, 2*i+1
		if bug == "halves" {
			a, b = i, i+h
		}
		angle := delta * w
		switch bug {
		case "no_freq":
			angle = delta
		case "float32":
			angle = float64(float32(delta) * float32(w))
		case "degrees":
			angle *= math.Pi / 180
		}
		s, c := math.Sincos(angle)
		x, y := key[a], key[b]
		out[a], out[b] = x*c-y*s, x*s+y*c
		switch bug {
		case "swapped":
			out[a], out[b] = x*s+y*c, x*c-y*s
		case "plus":
			out[a], out[b] = x*c+y*s, x*s+y*c
		case "new_x":
			out[b] = out[a]*s + y*c
		}
	}
	return out
}

// float32Fits reports whether float32 angles explain a row: a wrong answer
// off by no more than float32 angles would make it, or a right one where
// float32 angles (variant) stay within tol too.
func float32Fits(got, want, variant, angles []float64, tol float64) bool {
	if diffVec(got, want, tol) < 0 {
		return diffVec(variant, want, tol) < 0
	}
	return looksFloat32(got, want, angles)
}

func diagReRotate(got []float64, c ReRotateCase) *Hint {
	type v = variant[[]float64]
	d := float64(c.Delta)
	angles := make([]float64, len(c.Key))
	for i := range angles {
		angles[i] = d * c.InvFreq[min(i/2, len(c.InvFreq)-1)]
	}
	f32 := float32Fits(got, c.Want, refReRotate(c.Key, c.InvFreq, d, "float32"), angles, 1e-9)
	observeHint(hintReRotFloat32, f32)
	h := firstMatch(got, sameVec(1e-9),
		v{hintReRotOpposite, refReRotate(c.Key, c.InvFreq, -d, "")},
		v{hintReRotHalves, refReRotate(c.Key, c.InvFreq, d, "halves")},
		v{hintReRotSwapped, refReRotate(c.Key, c.InvFreq, d, "swapped")},
		v{hintReRotSwapped, refReRotate(c.Key, c.InvFreq, d, "plus")},
		v{hintReRotNoFreq, refReRotate(c.Key, c.InvFreq, d, "no_freq")},
		v{hintReRotNewX, refReRotate(c.Key, c.InvFreq, d, "new_x")},
		v{hintReRotDegrees, refReRotate(c.Key, c.InvFreq, d, "degrees")},
	)
	if h == nil && f32 {
		return hintReRotFloat32
	}
	return h
}

// ReRotateCase is one call: ReRotateKey(Key, InvFreq, Delta) must equal
// Want, to 1e-9.
type ReRotateCase struct {
	Name    string
	Key     []float64
	InvFreq []float64
	Delta   int
	Want    []float64
}

// ReRotateCases is exercise 31's case table.
type ReRotateCases struct {
	Keys []ReRotateCase `doc:"ReRotateKey(Key, InvFreq, Delta) must equal Want, to 1e-9: the key rotated by Delta (interleaved pairs, pair i at frequency InvFreq[i]); Want comes from posenc.RotateBy."`
}

func reRotateCases() ReRotateCases {
	row := func(name string, r posenc.RoPE, seed uint64, delta int) ReRotateCase {
		key := randVec(r.HeadDim, seed)
		freq, err := r.InvFreq()
		if err != nil {
			panic(err)
		}
		want := make([]float64, len(key))
		if err := posenc.RotateBy(want, key, r, delta); err != nil {
			panic(err)
		}
		return ReRotateCase{name, key, freq, delta, want}
	}
	return ReRotateCases{Keys: []ReRotateCase{
		row("forward_by_3", posenc.NewRoPE(8), 31, 3),
		row("streamingllm_evicts_496", posenc.NewRoPE(8), 32, -496),
		row("zero_gives_the_key_back", posenc.NewRoPE(6), 33, 0),
		row("linear_scaled_frequencies", posenc.NewRoPE(8).WithScaling(posenc.LinearScaling(4)), 34, 1000),
		row("base_500000_far", posenc.NewRoPE(12).WithBase(500000), 35, 100000),
	}}
}

var reRotArgs = argHints{hintReRotMutates, hintReRotMutates}

// ReRotateKey returns exercise 31's checks of fn on cases.
func ReRotateKey(fn func(key, invFreq []float64, delta int) []float64, cases ReRotateCases) *Exercise {
	var checks []Check
	for _, c := range cases.Keys {
		call := fmt.Sprintf("ReRotateKey(key of %d, invFreq of %d, delta=%d)", len(c.Key), len(c.InvFreq), c.Delta)
		checks = append(checks, Check{Name: c.Name, Call: call, Run: func() *Failure {
			key, freq := cloneVec(c.Key), cloneVec(c.InvFreq)
			got := fn(key, freq, c.Delta)
			if f := compareVec(call, got, c.Want, 1e-9, label("dimension"),
				func(got []float64) *Hint { return diagReRotate(got, c) }, hintReRotFallback); f != nil {
				return f
			}
			return reRotArgs.check(call, got, arg{"key", key, c.Key}, arg{"invFreq", freq, c.InvFreq})
		}})
	}
	return newExercise(31, checks)
}
