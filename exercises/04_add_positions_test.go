package exercises

import (
	"fmt"
	"math"
	"testing"

	"github.com/posenc/course/pkg/posenc"
)

var exAddPositions = exInfo{file: "exercises/04_add_positions.go", funcs: "AddPositions", lesson: "lesson 2, sinusoidal encodings"}

func TestAddPositions(t *testing.T) { runExercise(t, exAddPositions, addPositionsCases(AddPositions)) }

var (
	hintAddNoScale = newHint("add positions/no scale",
		"you added emb + PE without scaling: multiply each embedding by √d first, emb·√d + PE "+
			"(lesson 2, “Scaling embeddings by √d_model”).")
	hintAddScaledPE = newHint("add positions/scaled the positions",
		"you scaled the positional encoding instead of the embedding: it is emb·√d + PE, so that small embeddings "+
			"are not drowned by positions of size up to 1 (lesson 2, “Scaling embeddings by √d_model”).")
	hintAddDivided = newHint("add positions/divided",
		"you divided the embedding by √d: the paper multiplies, emb·√d + PE (lesson 2, “Scaling embeddings by √d_model”).")
	hintAddWrongD = newHint("add positions/wrong d",
		"the scale uses the wrong d: d is the width of each row (len(emb[0])), and the scale is its square root, √d "+
			"(lesson 2, “Scaling embeddings by √d_model”).")
	hintAddStart = newHint("add positions/start ignored",
		"row r of emb is at position start+r, not r: add PE(start+r) (lesson 2, “Scaling embeddings by √d_model”).")
	hintAddMutates = newHint("add positions/mutates input",
		"your function changed emb: write the sums into a new table.")
)

// refAddPositions returns emb·scale + pe·peScale, rows at positions start+r.
func refAddPositions(emb [][]float64, start int, scale, peScale float64) [][]float64 {
	pe := refSinusoidal(start, len(emb), len(emb[0]))
	out := exCloneTable(emb)
	for r := range out {
		for j := range out[r] {
			out[r][j] = emb[r][j]*scale + pe[r][j]*peScale
		}
	}
	return out
}

func diagAddPositions(got, emb [][]float64, start int) string {
	n, d := float64(len(emb)), float64(len(emb[0]))
	sq := math.Sqrt(d)
	type v = exVariant[[][]float64]
	vs := []v{
		{hintAddNoScale, refAddPositions(emb, start, 1, 1)},
		{hintAddScaledPE, refAddPositions(emb, start, 1, sq)},
		{hintAddDivided, refAddPositions(emb, start, 1/sq, 1)},
		{hintAddWrongD, refAddPositions(emb, start, d, 1)},
		{hintAddWrongD, refAddPositions(emb, start, math.Sqrt(n), 1)},
	}
	if start != 0 {
		vs = append(vs, v{hintAddStart, refAddPositions(emb, 0, sq, 1)})
	}
	return diagFirst(got, exSameTable(1e-9), vs...)
}

func addPositionsCases(fn func(emb [][]float64, start int) [][]float64) []exCase {
	check := func(name string, emb [][]float64, start int) exCase {
		n, d := len(emb), len(emb[0])
		return exTableCheck{
			name: name, call: fmt.Sprintf("AddPositions(emb %d×%d, start=%d)", n, d, start),
			got:  func() [][]float64 { return fn(exCloneTable(emb), start) },
			want: refAddPositionsPosenc(emb, start), tol: 1e-9,
			row:      func(r int) string { return fmt.Sprintf("row %d (position %d)", r, start+r) },
			col:      exLabel("dimension"),
			diag:     func(got [][]float64) string { return diagAddPositions(got, emb, start) },
			fallback: "out[r][j] = emb[r][j]·√d + PE(start+r)[j], with PE from exercise 3 (lesson 2, “Scaling embeddings by √d_model”).",
		}.exCase()
	}
	// The seed lesson's three tokens "The cat sat", d = 4.
	words := [][]float64{{0.2, -0.5, 0.8, 0.1}, {-0.3, 0.4, 0.2, -0.6}, {0.7, 0.1, -0.4, 0.3}}
	emb := refRandTable(5, 16, 21)
	return []exCase{
		check("the_cat_sat_d=4", words, 0),
		check("d=16_from_position_7", emb, 7),
		{name: "emb_unchanged", call: "AddPositions(emb, 0)", run: func() string {
			in := exCloneTable(emb)
			fn(in, 0)
			if r, _ := exDiffTable(in, emb, 0); r >= 0 {
				return exMsg(hintAddMutates, "", "AddPositions(emb, 0) changed emb.")
			}
			return ""
		}},
	}
}

// refAddPositionsPosenc is posenc's emb·√d + PE.
func refAddPositionsPosenc(emb [][]float64, start int) [][]float64 {
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
