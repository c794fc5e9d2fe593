package posenc

import (
	"slices"
	"testing"
)

// hfPositionIDs is a transcription of what Hugging Face transformers
// computes from a 2-D attention mask when generating (and Qwen2-VL's
// get_rope_index without images, modeling_qwen2_vl.py):
//
//	position_ids = attention_mask.long().cumsum(-1) - 1
//	position_ids.masked_fill_(attention_mask == 0, 1)
func hfPositionIDs(mask []int) []int {
	out := make([]int, len(mask))
	sum := 0
	for i, m := range mask {
		sum += m
		out[i] = sum - 1
		if m == 0 {
			out[i] = 1
		}
	}
	return out
}

func TestPositionIDsFromMask(t *testing.T) {
	for _, tc := range []struct {
		name       string
		mask, want []int
	}{
		{"left padding", []int{0, 0, 1, 1, 1}, []int{1, 1, 0, 1, 2}},
		{"right padding", []int{1, 1, 1, 0, 0}, []int{0, 1, 2, 1, 1}},
		{"no padding", []int{1, 1, 1, 1}, []int{0, 1, 2, 3}},
		{"all padding", []int{0, 0}, []int{1, 1}},
		{"both sides", []int{0, 1, 1, 0}, []int{1, 0, 1, 1}},
		{"empty", []int{}, []int{}},
	} {
		got, err := PositionIDsFromMask(tc.mask)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if !slices.Equal(got, tc.want) || !slices.Equal(got, hfPositionIDs(tc.mask)) {
			t.Errorf("%s: PositionIDsFromMask(%v) = %v; want %v", tc.name, tc.mask, got, tc.want)
		}
	}
	// A left-padded prompt gets the IDs it gets alone.
	alone, _ := PositionIDsFromMask([]int{1, 1, 1})
	padded, _ := PositionIDsFromMask([]int{0, 0, 1, 1, 1})
	if !slices.Equal(alone, padded[2:]) {
		t.Errorf("padded %v, alone %v", padded, alone)
	}
	_, err := PositionIDsFromMask([]int{1, 2, 1})
	wantParamError(t, err, "attention_mask[1]", "2")
	_, err = PositionIDsFromMask([]int{-1})
	wantParamError(t, err, "attention_mask[0]", "-1")
}

// TestPackedPositions checks the packed IDs against transformers'
// DataCollatorWithFlattening (position_ids += list(range(len(input_ids)))
// per example) and the mask against its definition, j ≤ i in one document.
func TestPackedPositions(t *testing.T) {
	ids, err := PackedPositionIDs([]int{3, 2, 1})
	if err != nil {
		t.Fatal(err)
	}
	if want := []int{0, 1, 2, 0, 1, 0}; !slices.Equal(ids, want) {
		t.Errorf("ids = %v; want %v", ids, want)
	}
	lens := []int{3, 2, 4}
	mask, err := PackedCausalMask(lens)
	if err != nil {
		t.Fatal(err)
	}
	doc := []int{0, 0, 0, 1, 1, 2, 2, 2, 2}
	n := len(doc)
	if len(mask) != n*n {
		t.Fatalf("len(mask) = %d; want %d", len(mask), n*n)
	}
	for i := range n {
		for j := range n {
			if want := j <= i && doc[i] == doc[j]; mask[i*n+j] != want {
				t.Errorf("mask[%d][%d] = %v; want %v", i, j, mask[i*n+j], want)
			}
		}
	}
	_, err = PackedPositionIDs([]int{3, 0})
	wantParamError(t, err, "doc_lens[1]", "0")
	_, err = PackedCausalMask([]int{-2})
	wantParamError(t, err, "doc_lens[0]", "-2")
	_, err = PackedCausalMask([]int{1 << 20, 1 << 20})
	wantParamError(t, err, "doc_lens", "[2097152 2097152]")
}
