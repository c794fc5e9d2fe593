package posenc

import "github.com/posenc/course/internal/validate"

// Checkpoints disagree on where RoPE's pairs live: Meta's Llama reference
// code and GPT-J rotate interleaved pairs (2i, 2i+1), while Hugging Face's
// Llama and GPT-NeoX rotate halves (i, i+d/2). Both compute the same
// attention scores if the query and key projections' output features are
// permuted to match. This is what HF's convert_llama_weights_to_hf.py does
// with its permute function.

// LayoutPermutation returns perm, of length headDim, such that a head vector
// in layout to is v_to[j] = v_from[perm[j]]: the pair of frequency i moves
// from its dimensions in layout from to its dimensions in layout to.
// Dimensions from rotaryDim on stay where they are (rotaryDim 0 means
// headDim).
func LayoutPermutation(headDim, rotaryDim int, from, to Layout) ([]int, error) {
	r := RoPE{HeadDim: headDim, RotaryDim: rotaryDim, Base: 10000, Layout: from}
	if err := r.Validate(); err != nil {
		return nil, err
	}
	if err := checkLayout("to", to); err != nil {
		return nil, err
	}
	rot := r.Rot()
	perm := make([]int, headDim)
	for j := range perm {
		perm[j] = j
	}
	for i := range rot / 2 {
		fa, fb := pairIndex(from, rot, i)
		ta, tb := pairIndex(to, rot, i)
		perm[ta], perm[tb] = fa, fb
	}
	return perm, nil
}

// ConvertQKWeightsTo permutes the output features of a query or key
// projection so that RoPE in layout to gives the attention scores that r
// (in layout r.Layout) gave before. w has numHeads·r.HeadDim output features
// and inDim inputs, stored row-major as [out, in] when outAxis is 0 (PyTorch
// and HF nn.Linear) or [in, out] when outAxis is 1 (GoMLX, x·W). dst must not
// overlap w. Both q and k projections must be converted; v and o need not.
func ConvertQKWeightsTo[T Float](dst, w []T, r RoPE, to Layout, numHeads, inDim, outAxis int) error {
	perm, err := LayoutPermutation(r.HeadDim, r.RotaryDim, r.Layout, to)
	if err != nil {
		return err
	}
	if err := validate.Positive("num_heads", numHeads); err != nil {
		return err
	}
	if err := validate.Positive("in_dim", inDim); err != nil {
		return err
	}
	if outAxis != 0 && outAxis != 1 {
		return validate.Err("out_axis", outAxis, "must be 0 ([out, in]) or 1 ([in, out])")
	}
	hd := r.HeadDim
	if err := validate.Elements("num_heads×head_dim×in_dim", numHeads, hd, inDim); err != nil {
		return err
	}
	out := numHeads * hd
	if err := validate.Len("w", len(w), out*inDim); err != nil {
		return err
	}
	if err := validate.Len("dst", len(dst), out*inDim); err != nil {
		return err
	}
	for h := range numHeads {
		for j, src := range perm {
			to, from := h*hd+j, h*hd+src
			if outAxis == 0 {
				copy(dst[to*inDim:(to+1)*inDim], w[from*inDim:(from+1)*inDim])
				continue
			}
			for i := range inDim {
				dst[i*out+to] = w[i*out+from]
			}
		}
	}
	return nil
}
