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
		Hints: Hints{
			Read: []Section{secScaling},
			Idea: []string{
				"The embeddings are scaled up before the positions are added, so that small learned embeddings " +
					"are not drowned by a position signal of size up to 1. Your `Sinusoidal` from exercise 3 gives " +
					"the positions.",
			},
			Formula: []string{
				"- out[r] = emb[r]·√d + PE(start+r), with d the width of a row, len(emb[0]). It is the embedding " +
					"that is scaled, by √d (2.449… for d = 6), not the positional encoding.",
			},
			Code: []string{
				"- `pe := Sinusoidal(start, len(emb), d)` and `scale := math.Sqrt(float64(d))`, then `out[r][j] " +
					"= emb[r][j]*scale + pe[r][j]`, in new rows.",
			},
		},
		Cases:  addPositionsCases(),
		Checks: func(cases any) *Exercise { return AddPositions(nil, cases.(AddPositionsCases)) },
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

// AddPositionsCase is one call: AddPositions(Emb, Start) must equal Want,
// to within Tol.
type AddPositionsCase struct {
	Name  string
	Emb   [][]float64
	Start int
	Want  [][]float64
	Tol   float64
}

// AddPositionsCases is exercise 4's case table.
type AddPositionsCases struct {
	Add []AddPositionsCase `doc:"AddPositions(Emb, Start) must equal Want, to within Tol: row r is Emb[r]·√d + PE(Start+r), with d = len(Emb[0]). The first row is lesson 2's \"The cat sat\"; in the last, √6 is not a whole number."`
}

func addPositionsCases() AddPositionsCases {
	row := func(name string, emb [][]float64, start int) AddPositionsCase {
		return AddPositionsCase{Name: name, Emb: emb, Start: start, Want: refAddPositions(emb, start), Tol: 1e-9}
	}
	// The lesson's three tokens "The cat sat", d = 4.
	words := [][]float64{{0.2, -0.5, 0.8, 0.1}, {-0.3, 0.4, 0.2, -0.6}, {0.7, 0.1, -0.4, 0.3}}
	return AddPositionsCases{Add: []AddPositionsCase{
		row("the_cat_sat_d=4", words, 0),
		row("d=16_from_position_7", randTable(5, 16, 21), 7),
		row("d=6_sqrt_is_not_whole", randTable(2, 6, 22), 3),
	}}
}

var addPositionsArgs = argHints{hintAddMutates, hintShares}

// AddPositions returns exercise 4's checks of fn on cases.
func AddPositions(fn func(emb [][]float64, start int) [][]float64, cases AddPositionsCases) *Exercise {
	var checks []Check
	for _, c := range cases.Add {
		call := fmt.Sprintf("AddPositions(emb %d×%d, start=%d)", len(c.Emb), len(c.Emb[0]), c.Start)
		checks = append(checks, Check{Name: c.Name, Call: call, Run: func() *Failure {
			emb := cloneTable(c.Emb)
			got := fn(emb, c.Start)
			if f := compareTable(call, got, c.Want, c.Tol, func(r int) string { return fmt.Sprintf("row %d (position %d)", r, c.Start+r) },
				label("dimension"), func(got [][]float64) *Hint { return diagAddPositions(got, c.Emb, c.Start) }, hintAddFallback); f != nil {
				return f
			}
			return addPositionsArgs.check(call, got, arg{"emb", emb, c.Emb})
		}})
	}
	return newExercise(4, checks)
}
