package exercises

// GGUFToHF undoes llama.cpp's permutation of the query and key projections
// of a grouped-query Llama model, so that transformers' Llama, which
// rotates halves, can use a GGUF file's weights. wq has heads heads and wk
// kvHeads heads of headDim rows each (headDim = len(wq)/heads =
// len(wk)/kvHeads); row h·headDim + r is row r of head h, and each row is
// one output feature's weights (nn.Linear's layout).
//
// llama.cpp's converter (convert_hf_to_gguf.py, LlamaModel.permute) moved,
// within each head, Hugging Face's row j (first half) to row 2j and row
// j + headDim/2 (second half) to row 2j+1, so that GGML's RoPE, which
// rotates adjacent rows, turns the same pairs. Return new matrices q and k
// with every head's rows put back; leave wq and wk unchanged. Return nil,
// nil when wq cannot be cut into heads heads of an even number of rows, or
// wk into kvHeads.
//
// Read lesson 11, “The layout: which dimensions form a pair”.
// Hints: exercises/README.md.
func GGUFToHF(wq, wk [][]float64, heads, kvHeads int) (q, k [][]float64) {
	// TODO
	panic("not implemented yet: open exercises/36_gguf_to_hf.go")
}
