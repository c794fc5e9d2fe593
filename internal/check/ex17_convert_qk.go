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
		Hints: []string{
			"- `ConvertQKRows`: headDim = len(w)/numHeads; in head h, new row h·headDim+i is old row h·headDim+2i " +
				"and new row h·headDim+i+headDim/2 is old row h·headDim+2i+1. Rows move, columns stay; copy each row.",
			"- `HeadScores`: q = wq·x (entry r = Σ_c wq[r][c]·x[c]), k = wk·y; for each head take its headDim " +
				"slice, rotate q's to m and k's to n with exercise 7 or 8, and take the dot product.",
		},
		Checks: func() *Exercise { return ConvertQK(nil, nil) },
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
	hintConvertQKInvalid = newHint("convert qk/invalid shape", secConverting,
		"when numHeads < 1, or len(w) is not a multiple of 2·numHeads (each head needs an even number of rows), "+
			"return nil")
	hintConvertQKShares = newHint("convert qk/shares rows", Section{},
		"your result shares rows with w, or you changed w: copy each row into the new matrix")
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
	q, k := matVec(wq, x), matVec(wk, y)
	hd := len(q) / heads
	out := make([]float64, heads)
	for h := range heads {
		qh := refRoPE(q[h*hd:(h+1)*hd], m, 10000, layout)
		kh := refRoPE(k[h*hd:(h+1)*hd], n, 10000, layout)
		out[h] = dot(qh, kh)
	}
	return out
}

// ConvertQK returns exercise 17's checks of convert and scores.
func ConvertQK(convert func(w [][]float64, numHeads int) [][]float64,
	scores func(wq, wk [][]float64, numHeads int, x, y []float64, m, n int, halves bool) []float64) *Exercise {
	// Two heads of 4 dimensions over a model width of 8: entry [r][c] = 10r + c,
	// so that a misplaced row or column shows.
	w := make([][]float64, 8)
	for r := range w {
		w[r] = make([]float64, 8)
		for c := range w[r] {
			w[r][c] = float64(10*r + c)
		}
	}
	type v = variant[[][]float64]
	convertCase := func(name string, w [][]float64, heads int) Case {
		call := fmt.Sprintf("ConvertQKRows(w %d×%d, numHeads=%d)", len(w), len(w[0]), heads)
		hd := len(w) / heads
		return tableCheck{
			name: name, call: call,
			got:  func() [][]float64 { return convert(cloneTable(w), heads) },
			want: refConvertQK(w, heads), tol: 0,
			row: func(r int) string { return fmt.Sprintf("row %d (head %d, dimension %d)", r, r/hd, r%hd) }, col: label("column"),
			diag: func(got [][]float64) *Hint {
				vs := []v{
					{hintConvertQKInverse, convertRows(w, heads, layoutPerm(hd, posenc.Halves, posenc.Interleaved))},
					{hintConvertQKColumns, transpose(convertRows(transpose(w), heads, layoutPerm(hd, posenc.Interleaved, posenc.Halves)))},
				}
				if heads > 1 {
					vs = append(vs, v{hintConvertQKWhole, convertRows(w, 1, layoutPerm(len(w), posenc.Interleaved, posenc.Halves))})
				}
				return firstMatch(got, sameTable(0), vs...)
			},
			fallback: hintConvertQKFallback,
		}.check()
	}
	invalid := func(name string, rows, heads int) Case {
		call := fmt.Sprintf("ConvertQKRows(w %d×8, numHeads=%d)", rows, heads)
		return Case{Name: name, Call: call, PanicHint: hintConvertQKInvalid, Run: func() *Failure {
			if got := convert(randTable(rows, 8, 91), heads); got != nil {
				return fail(hintConvertQKInvalid, fmt.Sprintf("%s returned %d rows; want nil.", call, len(got)))
			}
			return nil
		}}
	}
	wq, wk := randTable(12, 6, 92), randTable(12, 6, 93)
	x, y := randVec(6, 94), randVec(6, 95)
	const heads, m, n = 3, 7, 2
	scoreCase := func(name string, halves bool) Case {
		layout := posenc.Interleaved
		if halves {
			layout = posenc.Halves
		}
		call := fmt.Sprintf("HeadScores(wq 12×6, wk 12×6, numHeads=3, x, y, m=%d, n=%d, halves=%v)", m, n, halves)
		return vecCheck{
			name: name, call: call,
			got: func() []float64 {
				return scores(cloneTable(wq), cloneTable(wk), heads, cloneVec(x), cloneVec(y), m, n, halves)
			},
			want: refHeadScores(wq, wk, heads, x, y, m, n, layout), tol: 1e-9, label: label("head"),
			diag: func(got []float64) *Hint {
				other := posenc.Halves
				if halves {
					other = posenc.Interleaved
				}
				type vv = variant[[]float64]
				one := refHeadScores(wq, wk, 1, x, y, m, n, layout)
				return firstMatch(got, sameVec(1e-9),
					vv{hintHeadScoresOneHead, one},
					vv{hintHeadScoresOneHead, []float64{dot(matVec(wq, x), matVec(wk, y))}},
					vv{hintHeadScoresPositions, refHeadScores(wq, wk, heads, x, y, n, m, layout)},
					vv{hintHeadScoresPositions, refHeadScores(wq, wk, heads, x, y, m, m, layout)},
					vv{hintHeadScoresLayout, refHeadScores(wq, wk, heads, x, y, m, n, other)},
				)
			},
			fallback: hintHeadScoresFallback,
		}.check()
	}
	return newExercise(17, []Case{
		convertCase("two_heads_of_4", w, 2),
		convertCase("one_head_of_8", w, 1),
		convertCase("four_heads_of_2", w, 4),
		invalid("odd_head_size_is_refused", 6, 2),
		invalid("rows_not_a_multiple_of_heads", 8, 3),
		invalid("no_heads_is_refused", 8, 0),
		{Name: "result_rows_are_copies", Call: "ConvertQKRows(w 8×8, numHeads=2)", Run: func() *Failure {
			in := cloneTable(w)
			out := convert(in, 2)
			if r, _ := diffTable(in, w, 0); r >= 0 {
				return fail(hintConvertQKShares, "ConvertQKRows(w, 2) changed w.")
			}
			if len(out) != len(w) || len(out[0]) == 0 {
				return fail(hintConvertQKFallback, "ConvertQKRows(w 8×8, numHeads=2) did not return 8 rows.")
			}
			for r := range out {
				if len(out[r]) > 0 {
					out[r][0] += 1000
				}
			}
			if r, _ := diffTable(in, w, 0); r >= 0 {
				return fail(hintConvertQKShares, fmt.Sprintf("after out := ConvertQKRows(w, 2), changing the result changed w's row %d.", r))
			}
			return nil
		}},
		scoreCase("scores_interleaved", false),
		scoreCase("scores_halves", true),
		{Name: "converted_weights_give_the_same_scores", Call: "HeadScores(ConvertQKRows(wq, 3), ConvertQKRows(wk, 3), 3, x, y, 7, 2, true)",
			Run: func() *Failure {
				before := scores(cloneTable(wq), cloneTable(wk), heads, cloneVec(x), cloneVec(y), m, n, false)
				after := scores(convert(cloneTable(wq), heads), convert(cloneTable(wk), heads), heads, cloneVec(x), cloneVec(y), m, n, true)
				if i := diffVec(after, before, 1e-9); i >= 0 && len(before) > 0 {
					return fail(hintScoresUnchangedFallback, append([]string{
						"scores after converting the weights and rotating in halves differ from the interleaved scores:"},
						vecDiffLines(after, before, min(i, len(after)-1, len(before)-1), label("head"))...)...)
				} else if len(before) == 0 {
					return fail(hintHeadScoresFallback, "HeadScores returned no scores.")
				}
				return nil
			}},
	})
}
