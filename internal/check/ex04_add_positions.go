package check

import (
	"fmt"
	"math"

	"github.com/posenc/course/internal/catalog"
	"github.com/posenc/course/pkg/posenc"
)

func init() {
	registerExercise(Entry{
		Exercise: catalog.Exercise{Num: 4, Slug: "add_positions", Title: "Adding positions to token embeddings", Test: "TestAddPositions",
			Funcs: []string{"AddPositions"}, Lesson: 2, Section: "Scaling embeddings by √d_model", Difficulty: catalog.Easy},
		Blurb: "$x\\sqrt{d} + PE$, row by row.",
		Hints: []string{
			"- out[r] = emb[r]·√d + PE(start+r): d is the width of a row, `len(emb[0])`, and it is the embedding " +
				"that is scaled, by `math.Sqrt(float64(d))` (2.449… for d = 6), not the positional encoding.",
			"- Row r of emb sits at position start+r. Calling your `Sinusoidal(start, len(emb), d)` gives every " +
				"PE row at once.",
		},
		Checks: func() *Exercise { return AddPositions(nil) },
	})
}

var (
	hintAddNoScale = newHint("add positions/no scale", secScaling,
		"you added emb + PE without scaling: multiply each embedding by √d first, emb·√d + PE")
	hintAddScaledPE = newHint("add positions/scaled the positions", secScaling,
		"you scaled the positional encoding instead of the embedding: it is emb·√d + PE, so that small embeddings "+
			"are not drowned by positions of size up to 1")
	hintAddDivided = newHint("add positions/divided", secScaling,
		"you divided the embedding by √d: the paper multiplies, emb·√d + PE")
	hintAddWrongD = newHint("add positions/wrong d", secScaling,
		"the scale uses the wrong d: d is the width of each row (len(emb[0])), and the scale is its square root, √d")
	hintAddIntSqrt = newHint("add positions/whole square root", secScaling,
		"your √d is rounded to a whole number: for d = 6 the scale is 2.449…, not 2. Keep it a float64, math.Sqrt(float64(d))")
	hintAddStart = newHint("add positions/start ignored", secScaling,
		"row r of emb is at position start+r, not r: add PE(start+r)")
	hintAddMutates = newHint("add positions/mutates input", Section{},
		"your function changed emb: write the sums into a new table")
	hintAddFallback = generic("add positions/fallback", secScaling,
		"out[r][j] = emb[r][j]·√d + PE(start+r)[j], with PE from exercise 3")
)

// refAddPositionsWith returns emb·scale + pe·peScale, rows at positions start+r.
func refAddPositionsWith(emb [][]float64, start int, scale, peScale float64) [][]float64 {
	pe := refSinusoidal(start, len(emb), len(emb[0]))
	out := cloneTable(emb)
	for r := range out {
		for j := range out[r] {
			out[r][j] = emb[r][j]*scale + pe[r][j]*peScale
		}
	}
	return out
}

// refAddPositions is posenc's emb·√d + PE.
func refAddPositions(emb [][]float64, start int) [][]float64 {
	d := len(emb[0])
	flat := make([]float64, 0, len(emb)*d)
	for _, r := range emb {
		flat = append(flat, r...)
	}
	dst := make([]float64, len(flat))
	if err := posenc.AddSinusoidalTo(dst, flat, posenc.NewSinusoidal(d), start, true); err != nil {
		panic(err)
	}
	return posenc.Rows(dst, d)
}

func diagAddPositions(got, emb [][]float64, start int) *Hint {
	n, d := float64(len(emb)), float64(len(emb[0]))
	sq := math.Sqrt(d)
	type v = variant[[][]float64]
	vs := []v{
		{hintAddNoScale, refAddPositionsWith(emb, start, 1, 1)},
		{hintAddScaledPE, refAddPositionsWith(emb, start, 1, sq)},
		{hintAddDivided, refAddPositionsWith(emb, start, 1/sq, 1)},
		{hintAddWrongD, refAddPositionsWith(emb, start, d, 1)},
		{hintAddWrongD, refAddPositionsWith(emb, start, math.Sqrt(n), 1)},
	}
	if math.Floor(sq) != sq {
		vs = append(vs, v{hintAddIntSqrt, refAddPositionsWith(emb, start, math.Floor(sq), 1)})
	}
	if start != 0 {
		vs = append(vs, v{hintAddStart, refAddPositionsWith(emb, 0, sq, 1)})
	}
	return firstMatch(got, sameTable(1e-9), vs...)
}

// AddPositions returns exercise 4's checks of fn.
func AddPositions(fn func(emb [][]float64, start int) [][]float64) *Exercise {
	check := func(name string, emb [][]float64, start int) Case {
		n, d := len(emb), len(emb[0])
		return tableCheck{
			name: name, call: fmt.Sprintf("AddPositions(emb %d×%d, start=%d)", n, d, start),
			got:  func() [][]float64 { return fn(cloneTable(emb), start) },
			want: refAddPositions(emb, start), tol: 1e-9,
			row:      func(r int) string { return fmt.Sprintf("row %d (position %d)", r, start+r) },
			col:      label("dimension"),
			diag:     func(got [][]float64) *Hint { return diagAddPositions(got, emb, start) },
			fallback: hintAddFallback,
		}.check()
	}
	// The lesson's three tokens "The cat sat", d = 4.
	words := [][]float64{{0.2, -0.5, 0.8, 0.1}, {-0.3, 0.4, 0.2, -0.6}, {0.7, 0.1, -0.4, 0.3}}
	emb := randTable(5, 16, 21)
	return newExercise(4, []Case{
		check("the_cat_sat_d=4", words, 0),
		check("d=16_from_position_7", emb, 7),
		check("d=6_sqrt_is_not_whole", randTable(2, 6, 22), 3),
		unchangedTable("emb_unchanged", "AddPositions(emb, 0)", emb, func(in [][]float64) { fn(in, 0) }, hintAddMutates),
	})
}
