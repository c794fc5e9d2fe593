package exercises

// ConvertQKRows converts a query or key projection from the interleaved RoPE
// layout to the half-split one, as Hugging Face's conversion script does for
// Meta's Llama checkpoints. w is nn.Linear's weight: one row per output
// feature, numHeads heads of headDim = len(w)/numHeads rows each (row
// h·headDim + j is dimension j of head h), one column per input dimension.
// The result is a new matrix whose heads hold their rows in the half-split
// order of exercise 8. It returns nil when numHeads < 1 or when the heads
// cannot be split into pairs (len(w) not a multiple of 2·numHeads), and
// leaves w unchanged.
//
// HeadScores returns, for each head, the attention score of a query token x
// at position m against a key token y at position n: the dot product of head
// h of wq·x rotated to m and head h of wk·y rotated to n, with RoPE at base
// 10000 in the interleaved layout, or in the half-split one when halves is
// true (you may call your functions of exercises 7 and 8). Converting both
// wq and wk and switching to halves gives exactly the same scores: the
// tests check it with your two functions.
//
// Read lesson 4, “Converting checkpoints”. Hints: exercises/README.md.
func ConvertQKRows(w [][]float64, numHeads int) [][]float64 {
	if numHeads < 1 || len(w)%(2*numHeads) != 0 {
		return nil
	}
	headDim := len(w) / numHeads
	out := make([][]float64, len(w))
	for h := range numHeads {
		head := w[h*headDim : (h+1)*headDim]
		for i := range headDim / 2 { // the pair at rows (2i, 2i+1) moves to (i, i+headDim/2)
			out[h*headDim+i] = append([]float64(nil), head[2*i]...)
			out[h*headDim+i+headDim/2] = append([]float64(nil), head[2*i+1]...)
		}
	}
	return out
}

// HeadScores: see ConvertQKRows's comment above.
func HeadScores(wq, wk [][]float64, numHeads int, x, y []float64, m, n int, halves bool) []float64 {
	rotate := RotateInterleaved
	if halves {
		rotate = RotateHalves
	}
	headDim := len(wq) / numHeads
	scores := make([]float64, numHeads)
	for h := range scores {
		// Head h of the query wq·x and of the key wk·y: rows h·headDim … of
		// the projections.
		qh, kh := make([]float64, headDim), make([]float64, headDim)
		for j := range headDim {
			row := h*headDim + j
			for c := range x {
				qh[j] += wq[row][c] * x[c]
			}
			for c := range y {
				kh[j] += wk[row][c] * y[c]
			}
		}
		qh, kh = rotate(qh, m, 10000), rotate(kh, n, 10000)
		for c := range qh {
			scores[h] += qh[c] * kh[c]
		}
	}
	return scores
}
