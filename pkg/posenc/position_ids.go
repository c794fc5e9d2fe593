package posenc

import (
	"strconv"

	"github.com/posenc/course/internal/validate"
)

// Position IDs. A model with RoPE (or any position encoding) gives each token
// the angle of its position ID, not of its index in the batch: when a batch
// pads its prompts, or packs several documents into one row, the IDs must be
// computed from the mask, or the same prompt is encoded differently in
// different rows.

// PositionIDsFromMask returns the position ID of each token of one row of a
// padded batch, from its attention mask (1 for a real token, 0 for padding),
// as Hugging Face transformers computes them when it generates (the
// models' prepare_inputs_for_generation: "create position_ids on the fly
// for batch generation"; Qwen2-VL's get_rope_index without images does the
// same):
//
//	position_ids = attention_mask.cumsum(-1) - 1
//	position_ids.masked_fill_(attention_mask == 0, 1)
//
// Real tokens count from 0 whatever padding comes before them, so a
// left-padded prompt gets the IDs it would get alone; a pad token gets 1, an
// arbitrary value that the mask hides from every query. The mask may pad on
// the left, the right or both.
//
// It returns a *ParamError naming attention_mask[i] for a value that is
// neither 0 nor 1.
func PositionIDsFromMask(mask []int) ([]int, error) {
	if err := checkMask(mask); err != nil {
		return nil, err
	}
	ids := make([]int, len(mask))
	count := 0
	for i, m := range mask {
		count += m // the cumulative sum
		if m == 0 {
			ids[i] = 1 // masked_fill_(attention_mask == 0, 1)
		} else {
			ids[i] = count - 1
		}
	}
	return ids, nil
}

func checkMask(mask []int) error {
	for i, m := range mask {
		if m != 0 && m != 1 {
			return validate.Err("attention_mask["+strconv.Itoa(i)+"]", m, "must be 0 or 1")
		}
	}
	return nil
}

// PackedPositionIDs returns the position IDs of documents of the given
// lengths packed one after another into a single row: each document counts
// from 0 again, as transformers' DataCollatorWithFlattening builds them
// (position_ids += list(range(len(input_ids))) per example). The flash
// attention path recovers the document boundaries from the zeros of these
// IDs; any other attention needs PackedCausalMask as well.
//
// It returns a *ParamError naming doc_lens[i] for a length that is not
// positive, or doc_lens for a total beyond validate.MaxElements.
func PackedPositionIDs(docLens []int) ([]int, error) {
	total, err := packedTotal(docLens)
	if err != nil {
		return nil, err
	}
	ids := make([]int, 0, total)
	for _, n := range docLens {
		for p := range n {
			ids = append(ids, p)
		}
	}
	return ids, nil
}

// PackedCausalMask returns the n×n attention mask (row-major, n the sum of
// docLens) of documents packed into one row: query i may attend to key j
// when j ≤ i and both belong to the same document. It is block-diagonal,
// one causal block per document, so that no token sees a token of another
// document; a plain causal mask over the row would let the second document
// attend to the first.
//
// It returns a *ParamError naming doc_lens[i] for a length that is not
// positive, or doc_lens when n×n is beyond validate.MaxElements.
func PackedCausalMask(docLens []int) ([]bool, error) {
	n, err := packedTotal(docLens)
	if err != nil {
		return nil, err
	}
	if err := validate.Elements("doc_lens", n, n); err != nil {
		return nil, err
	}
	mask := make([]bool, n*n)
	start := 0
	for _, l := range docLens {
		for i := start; i < start+l; i++ {
			for j := start; j <= i; j++ {
				mask[i*n+j] = true
			}
		}
		start += l
	}
	return mask, nil
}

func packedTotal(docLens []int) (int, error) {
	total := 0
	for i, n := range docLens {
		if err := validate.Positive("doc_lens["+strconv.Itoa(i)+"]", n); err != nil {
			return 0, err
		}
		if n > validate.MaxElements-total {
			return 0, validate.Err("doc_lens", len(docLens), "must add up to at most "+strconv.Itoa(validate.MaxElements)+" tokens")
		}
		total += n
	}
	return total, nil
}
