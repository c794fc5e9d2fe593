package check

import (
	"fmt"

	"github.com/posenc/course/internal/catalog"
	"github.com/posenc/course/pkg/posenc"
)

func init() {
	registerExercise(Entry{
		Exercise: catalog.Exercise{Num: 17, Slug: "convert_qk", Title: "Converting Q/K projections between the two layouts", Test: "TestConvertQK",
			Funcs: []string{"ConvertQKRows", "HeadScores"}, Lesson: 4, Section: "Converting checkpoints",
			Difficulty: catalog.Medium, Uses: []int{7, 8}},
		Blurb: "convert whole projection matrices between the two layouts, and see the scores unchanged.",
		Hints: Hints{
			Read: []Section{secConverting, secRoPELayouts},
			Idea: []string{
				"A Q or K projection's output is numHeads heads of headDim values each, one contiguous block per " +
					"head. Converting a checkpoint from interleaved to half-split pairs permutes the rows inside " +
					"each block, and leaves every attention score as it was.",
			},
			Formula: []string{
				"- headDim = len(w)/numHeads. In head h, new row h·headDim+i is old row h·headDim+2i, and new " +
					"row h·headDim+i+headDim/2 is old row h·headDim+2i+1. Rows move; columns stay.",
				"- `HeadScores`: q = wq·x (entry r = Σ_c wq[r][c]·x[c]) and k = wk·y; head h is the block " +
					"h·headDim … (h+1)·headDim−1 of each; its score is ⟨q_h rotated to m, k_h rotated to n⟩, in the " +
					"layout halves selects (exercise 8) or interleaved (exercise 7).",
			},
			Code: []string{
				"- Return nil unless `numHeads >= 1 && len(w)%(2*numHeads) == 0`; copy every row, " +
					"`append([]float64(nil), w[src]...)`.",
				"- `qh := q[h*hd : (h+1)*hd]`, then `RotateInterleaved(qh, m, 10000)` or `RotateHalves(qh, m, " +
					"10000)`.",
			},
		},
		Cases:  convertQKCases(),
		Checks: func(cases any) *Exercise { return ConvertQK(nil, nil, cases.(ConvertQKCases)) },
	})
}

var (
	hintConvertQKWhole = newHint("convert qk/one permutation for all heads", secConverting,
		"you permuted the rows of the whole matrix as if it were one head: each head is converted on its own, rows "+
			"h·headDim … (h+1)·headDim−1, with headDim = len(w)/numHeads")
	hintConvertQKInverse = newHint("convert qk/inverse", secConverting,
		"your permutation goes from halves to interleaved: within a head, new row i is old row 2i and new row "+
			"i + headDim/2 is old row 2i+1")
	hintConvertQKColumns = newHint("convert qk/columns", secConverting,
		"you permuted columns: a row of nn.Linear's weight is one output feature, and the rotation pairs output "+
			"features, so it is the rows that move; the columns (the model's input dimensions) stay")
	hintHeadsStrided = newHint("convert qk/strided heads", secConverting,
		"the dimensions of head h are one contiguous block, rows h·headDim … (h+1)·headDim−1 (the projection's "+
			"output reshaped to numHeads × headDim); you read them with a stride, rows h, h+numHeads, h+2·numHeads, …")
	hintConvertQKInvalid = newHint("convert qk/invalid shape", secConverting,
		"when numHeads < 1, or len(w) is not a multiple of 2·numHeads (each head needs an even number of rows), "+
			"return nil")
	hintConvertQKShares = newHint("convert qk/shares rows", Section{},
		"your result shares rows with w, or you changed w (a head of 2 dimensions needs no move, but still a "+
			"copy): copy each row into the new matrix")
	hintHeadScoresOneHead = newHint("head scores/one head", secConverting,
		"split the projections into numHeads heads of headDim = len(wq)/numHeads values each, and rotate and score "+
			"each head on its own: one score per head")
	hintHeadScoresPositions = newHint("head scores/positions", secRelative,
		"the query is rotated to m and the key to n: check which position each one gets")
	hintHeadScoresLayout = newHint("head scores/layout", secRoPELayouts,
		"halves selects the layout: false rotates interleaved pairs (exercise 7), true half-split pairs (exercise 8)")
	hintConvertQKFallback = generic("convert qk/fallback", secConverting,
		"in each head, new row i is old row 2i and new row i + headDim/2 is old row 2i+1")
	hintHeadScoresFallback = generic("head scores/fallback", secConverting,
		"score of head h = ⟨rotate(head h of wq·x, m), rotate(head h of wk·y, n)⟩")
	hintScoresUnchangedFallback = generic("convert qk/scores fallback", secConverting,
		"converting wq and wk and rotating in halves must give exactly the interleaved scores: check both functions")
)

// convertRows permutes the rows of each head of w with perm (one head's
// permutation).
func convertRows(w [][]float64, heads int, perm []int) [][]float64 {
	hd := len(w) / heads
	out := make([][]float64, len(w))
	for h := range heads {
		for j, p := range perm {
			out[h*hd+j] = cloneVec(w[h*hd+p])
		}
	}
	return out
}

// layoutPerm is posenc's permutation of a head of d dimensions from layout
// from to layout to: out[j] = v[perm[j]].
func layoutPerm(d int, from, to posenc.Layout) []int {
	perm, err := posenc.LayoutPermutation(d, 0, from, to)
	if err != nil {
		panic(err)
	}
	return perm
}

// refConvertQK is posenc's conversion of nn.Linear's weight.
func refConvertQK(w [][]float64, heads int) [][]float64 {
	in := len(w[0])
	flat := make([]float64, 0, len(w)*in)
	for _, r := range w {
		flat = append(flat, r...)
	}
	dst := make([]float64, len(flat))
	r := posenc.NewRoPE(len(w) / heads)
	if err := posenc.ConvertQKWeightsTo(dst, flat, r, posenc.Halves, heads, in, 0); err != nil {
		panic(err)
	}
	return posenc.Rows(dst, in)
}

// refHeadScores is the score of each head, the query x at m and the key y at n.
func refHeadScores(wq, wk [][]float64, heads int, x, y []float64, m, n int, layout posenc.Layout) []float64 {
	return headScoresWith(wq, wk, heads, x, y, m, n, layout, headOpts{})
}

// headOpts selects known wrong variants of the head scores.
type headOpts struct {
	strided  bool // head h's dimensions at h, h+numHeads, h+2·numHeads, …
	unitFreq bool // θ_i = 1: 2i/d in integers
}

// headScoresWith is refHeadScores with the ideas of o.
func headScoresWith(wq, wk [][]float64, heads int, x, y []float64, m, n int, layout posenc.Layout, o headOpts) []float64 {
	q, k := matVec(wq, x), matVec(wk, y)
	hd := len(q) / heads
	head := func(v []float64, h int) []float64 {
		if !o.strided {
			return v[h*hd : (h+1)*hd]
		}
		out := make([]float64, hd)
		for i := range out {
			out[i] = v[h+heads*i]
		}
		return out
	}
	out := make([]float64, heads)
	for h := range heads {
		qh, kh := refRoPE(head(q, h), m, 10000, layout), refRoPE(head(k, h), n, 10000, layout)
		if o.unitFreq {
			one := func(int) float64 { return 1 }
			qh, kh = rotateWith(head(q, h), m, layout, 1, one, false), rotateWith(head(k, h), n, layout, 1, one, false)
		}
		out[h] = dot(qh, kh)
	}
	return out
}

// convertRowsStrided permutes the rows of each head of w with perm, head h
// holding rows h, h+heads, h+2·heads, … (a strided layout).
func convertRowsStrided(w [][]float64, heads int, perm []int) [][]float64 {
	out := make([][]float64, len(w))
	for h := range heads {
		for j, p := range perm {
			out[h+heads*j] = cloneVec(w[h+heads*p])
		}
	}
	return out
}

// ConvertQKCase is one call: ConvertQKRows(W, NumHeads) must equal Want
// exactly; Want is nil for a shape that cannot be converted.
type ConvertQKCase struct {
	Name     string
	W        [][]float64
	NumHeads int
	Want     [][]float64
}

// HeadScoresCase is one call: HeadScores(Wq, Wk, NumHeads, X, Y, M, N,
// Halves) must equal Want, to 1e-9.
type HeadScoresCase struct {
	Name     string
	Wq, Wk   [][]float64
	NumHeads int
	X, Y     []float64
	M, N     int
	Halves   bool
	Want     []float64
}

// SameScoresCase checks what the conversion is for: HeadScores of the
// converted weights, rotated in halves, must equal HeadScores of the
// original weights rotated interleaved, to 1e-9.
type SameScoresCase struct {
	Name     string
	Wq, Wk   [][]float64
	NumHeads int
	X, Y     []float64
	M, N     int
}

// ConvertQKCases is exercise 17's case table.
type ConvertQKCases struct {
	Convert    []ConvertQKCase  `doc:"ConvertQKRows(W, NumHeads) must equal Want exactly: in each head h, new row h·headDim+i is old row h·headDim+2i and new row h·headDim+i+headDim/2 is old row h·headDim+2i+1 (nil when the shape cannot be converted). W[r][c] = 10r + c, so that a misplaced row or column shows."`
	Scores     []HeadScoresCase `doc:"HeadScores(Wq, Wk, NumHeads, X, Y, M, N, Halves) must equal Want, to 1e-9: for each head h, ⟨head h of Wq·X rotated to M, head h of Wk·Y rotated to N⟩."`
	SameScores []SameScoresCase `doc:"HeadScores(ConvertQKRows(Wq), ConvertQKRows(Wk), …, true) must equal HeadScores(Wq, Wk, …, false), to 1e-9: converting a checkpoint leaves every score unchanged."`
}

func convertQKCases() ConvertQKCases {
	// Two heads of 4 dimensions over a model width of 8: entry [r][c] = 10r + c,
	// so that a misplaced row or column shows.
	w := make([][]float64, 8)
	for r := range w {
		w[r] = make([]float64, 8)
		for c := range w[r] {
			w[r][c] = float64(10*r + c)
		}
	}
	convert := func(name string, w [][]float64, heads int) ConvertQKCase {
		return ConvertQKCase{name, w, heads, refConvertQK(w, heads)}
	}
	wq, wk := randTable(12, 6, 92), randTable(12, 6, 93)
	x, y := randVec(6, 94), randVec(6, 95)
	const heads, m, n = 3, 7, 2
	scores := func(name string, halves bool) HeadScoresCase {
		layout := posenc.Interleaved
		if halves {
			layout = posenc.Halves
		}
		return HeadScoresCase{name, wq, wk, heads, x, y, m, n, halves, refHeadScores(wq, wk, heads, x, y, m, n, layout)}
	}
	return ConvertQKCases{
		Convert: []ConvertQKCase{
			convert("two_heads_of_4", w, 2),
			convert("one_head_of_8", w, 1),
			convert("four_heads_of_2", w, 4),
			{"odd_head_size_is_refused", randTable(6, 8, 91), 2, nil},
			{"rows_not_a_multiple_of_heads", randTable(8, 8, 91), 3, nil},
			{"no_heads_is_refused", randTable(8, 8, 91), 0, nil},
		},
		Scores:     []HeadScoresCase{scores("scores_interleaved", false), scores("scores_halves", true)},
		SameScores: []SameScoresCase{{"converted_weights_give_the_same_scores", wq, wk, heads, x, y, m, n}},
	}
}

var convertQKArgs = argHints{hintConvertQKShares, hintConvertQKShares}

// diagConvertQK names the idea behind a wrong conversion.
func diagConvertQK(got [][]float64, c ConvertQKCase) *Hint {
	w, heads := c.W, c.NumHeads
	hd := len(w) / heads
	type v = variant[[][]float64]
	vs := []v{
		{hintConvertQKInverse, convertRows(w, heads, layoutPerm(hd, posenc.Halves, posenc.Interleaved))},
		{hintConvertQKColumns, transpose(convertRows(transpose(w), heads, layoutPerm(hd, posenc.Interleaved, posenc.Halves)))},
	}
	if heads > 1 {
		vs = append(vs, v{hintConvertQKWhole, convertRows(w, 1, layoutPerm(len(w), posenc.Interleaved, posenc.Halves))},
			v{hintHeadsStrided, convertRowsStrided(w, heads, layoutPerm(hd, posenc.Interleaved, posenc.Halves))})
	}
	return firstMatch(got, sameTable(0), vs...)
}

// diagHeadScores names the idea behind wrong head scores.
func diagHeadScores(got []float64, c HeadScoresCase) *Hint {
	layout, other := posenc.Interleaved, posenc.Halves
	if c.Halves {
		layout, other = other, layout
	}
	wq, wk, heads, x, y, m, n := c.Wq, c.Wk, c.NumHeads, c.X, c.Y, c.M, c.N
	type vv = variant[[]float64]
	return firstMatch(got, sameVec(1e-9),
		vv{hintHeadScoresOneHead, refHeadScores(wq, wk, 1, x, y, m, n, layout)},
		vv{hintHeadScoresOneHead, []float64{dot(matVec(wq, x), matVec(wk, y))}},
		vv{hintHeadScoresPositions, refHeadScores(wq, wk, heads, x, y, n, m, layout)},
		vv{hintHeadScoresPositions, refHeadScores(wq, wk, heads, x, y, m, m, layout)},
		vv{hintHeadScoresLayout, refHeadScores(wq, wk, heads, x, y, m, n, other)},
		vv{hintHeadsStrided, headScoresWith(wq, wk, heads, x, y, m, n, layout, headOpts{strided: true})},
		vv{hintRoPEIntDiv, headScoresWith(wq, wk, heads, x, y, m, n, layout, headOpts{unitFreq: true})},
	)
}

// convertQKCheck is a check of one conversion row.
func convertQKCheck(convert func(w [][]float64, numHeads int) [][]float64, c ConvertQKCase) Check {
	call := fmt.Sprintf("ConvertQKRows(w %d×%d, numHeads=%d)", len(c.W), len(c.W[0]), c.NumHeads)
	var panicHint *Hint
	if c.Want == nil {
		panicHint = hintConvertQKInvalid
	}
	return Check{Name: c.Name, Call: call, PanicHint: panicHint, Run: func() *Failure {
		w := cloneTable(c.W)
		got := convert(w, c.NumHeads)
		if c.Want == nil {
			if got != nil {
				return fail(hintConvertQKInvalid, fmt.Sprintf("%s returned %d rows; want nil.", call, len(got)))
			}
		} else {
			hd := len(c.W) / c.NumHeads
			if f := compareTable(call, got, c.Want, 0, func(r int) string { return fmt.Sprintf("row %d (head %d, dimension %d)", r, r/hd, r%hd) },
				label("column"), func(got [][]float64) *Hint { return diagConvertQK(got, c) }, hintConvertQKFallback); f != nil {
				return f
			}
		}
		return convertQKArgs.check(call, got, arg{"w", w, c.W})
	}}
}

// ConvertQK returns exercise 17's checks of convert and scores on cases.
func ConvertQK(convert func(w [][]float64, numHeads int) [][]float64,
	scores func(wq, wk [][]float64, numHeads int, x, y []float64, m, n int, halves bool) []float64, cases ConvertQKCases) *Exercise {
	var checks []Check
	for _, c := range cases.Convert {
		checks = append(checks, convertQKCheck(convert, c))
	}
	for _, c := range cases.Scores {
		call := fmt.Sprintf("HeadScores(wq %d×%d, wk %d×%d, numHeads=%d, x, y, m=%d, n=%d, halves=%v)",
			len(c.Wq), len(c.Wq[0]), len(c.Wk), len(c.Wk[0]), c.NumHeads, c.M, c.N, c.Halves)
		checks = append(checks, Check{Name: c.Name, Call: call, Run: func() *Failure {
			wq, wk, x, y := cloneTable(c.Wq), cloneTable(c.Wk), cloneVec(c.X), cloneVec(c.Y)
			got := scores(wq, wk, c.NumHeads, x, y, c.M, c.N, c.Halves)
			if f := compareVec(call, got, c.Want, 1e-9, label("head"), func(got []float64) *Hint { return diagHeadScores(got, c) },
				hintHeadScoresFallback); f != nil {
				return f
			}
			return argHints{hintMutates, hintShares}.check(call, got, arg{"wq", wq, c.Wq}, arg{"wk", wk, c.Wk}, arg{"x", x, c.X}, arg{"y", y, c.Y})
		}})
	}
	for _, c := range cases.SameScores {
		call := fmt.Sprintf("HeadScores(ConvertQKRows(wq, %d), ConvertQKRows(wk, %d), %d, x, y, %d, %d, true)", c.NumHeads, c.NumHeads, c.NumHeads, c.M, c.N)
		checks = append(checks, Check{Name: c.Name, Call: call, Run: func() *Failure {
			before := scores(cloneTable(c.Wq), cloneTable(c.Wk), c.NumHeads, cloneVec(c.X), cloneVec(c.Y), c.M, c.N, false)
			after := scores(convert(cloneTable(c.Wq), c.NumHeads), convert(cloneTable(c.Wk), c.NumHeads), c.NumHeads, cloneVec(c.X), cloneVec(c.Y), c.M, c.N, true)
			if len(before) == 0 {
				return fail(hintHeadScoresFallback, "HeadScores returned no scores.")
			}
			if i := diffVec(after, before, 1e-9); i >= 0 {
				return fail(hintScoresUnchangedFallback, append([]string{
					"scores after converting the weights and rotating in halves differ from the interleaved scores:"},
					vecDiffLines(after, before, min(i, len(after)-1, len(before)-1), label("head"))...)...)
			}
			return nil
		}})
	}
	return newExercise(17, checks)
}
