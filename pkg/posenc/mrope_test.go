package posenc

import (
	"math"
	"slices"
	"testing"
)

// hfInterleavedAxes transcribes Qwen3-VL's apply_interleaved_mrope
// (transformers, modeling_qwen3_vl.py): start from the temporal angles and
// overwrite
//
//	for dim, offset in enumerate((1, 2), start=1):  # H, W
//	    length = mrope_section[dim] * 3
//	    idx = slice(offset, length, 3)
//	    freqs_t[..., idx] = freqs[dim, ..., idx]
func hfInterleavedAxes(sections []int, pairs int) []int {
	axes := make([]int, pairs)
	for dim, offset := range []int{1, 2} {
		for j := offset; j < min(3*sections[dim+1], pairs); j += 3 {
			axes[j] = dim + 1
		}
	}
	return axes
}

// hfBlockedAxes transcribes Qwen2-VL's apply_multimodal_rotary_pos_emb on
// a halves-layout cos of headDim = 2·pairs entries:
//
//	mrope_section = mrope_section * 2
//	cos = torch.cat([m[i % 3] for i, m in enumerate(cos.split(mrope_section, dim=-1))], dim=-1)
//
// returning the axis of each of the first pairs entries (the second half
// repeats them).
func hfBlockedAxes(sections []int, pairs int) []int {
	var dims []int
	for i, s := range append(slices.Clone(sections), sections...) {
		for range s {
			dims = append(dims, i%3)
		}
	}
	if !slices.Equal(dims[:pairs], dims[pairs:]) {
		panic("halves disagree")
	}
	return dims[:pairs]
}

func TestMRoPEAxes(t *testing.T) {
	for _, c := range []struct {
		sections    []int
		pairs       int
		interleaved bool
	}{
		{[]int{16, 24, 24}, 64, false}, // Qwen2-VL, Qwen2.5-VL
		{[]int{24, 20, 20}, 64, true},  // Qwen3-VL
		{[]int{2, 1, 1}, 4, true},
		{[]int{1, 1, 1}, 3, true},
		{[]int{4, 0, 0}, 4, true},
		{[]int{0, 3, 1}, 4, false},
	} {
		got, err := MRoPEAxes(c.sections, c.pairs, c.interleaved)
		if err != nil {
			t.Fatalf("%v: %v", c.sections, err)
		}
		want := hfBlockedAxes(c.sections, c.pairs)
		if c.interleaved {
			want = hfInterleavedAxes(c.sections, c.pairs)
		}
		if !slices.Equal(got, want) {
			t.Errorf("MRoPEAxes(%v, %d, %v) = %v; want %v", c.sections, c.pairs, c.interleaved, got, want)
		}
		for a := range 3 {
			n := 0
			for _, g := range got {
				if g == a {
					n++
				}
			}
			if n != c.sections[a] {
				t.Errorf("%v: axis %d has %d pairs", c.sections, a, n)
			}
		}
	}
	_, err := MRoPEAxes([]int{16, 24, 20}, 64, false)
	wantParamError(t, err, "mrope_section", "[16 24 20]")
	_, err = MRoPEAxes([]int{32, 32}, 64, false)
	wantParamError(t, err, "mrope_section", "[32 32]")
	_, err = MRoPEAxes([]int{1, 2, 1}, 4, true) // h needs pairs 1 and 4
	wantParamError(t, err, "mrope_section", "[1 2 1]")
	_, err = MRoPEAxes([]int{-1, 3, 2}, 4, false)
	wantParamError(t, err, "mrope_section", "[-1 3 2]")
}

// TestMRoPEPositionIDs checks the IDs against the example in the
// docstring of transformers' Qwen2-VL get_rope_index (a video of 3×2×2
// tokens and 5 text tokens) and against the code for text, image, text.
func TestMRoPEPositionIDs(t *testing.T) {
	ids, err := MRoPEPositionIDs([]MRoPESegment{{Grid: [3]int{3, 2, 2}}, {Text: 5}})
	if err != nil {
		t.Fatal(err)
	}
	want := [3][]int{
		{0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 4, 5, 6, 7},
		{0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 1, 1, 3, 4, 5, 6, 7},
		{0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 3, 4, 5, 6, 7},
	}
	for a := range 3 {
		for i, id := range ids {
			if id[a] != want[a][i] {
				t.Fatalf("axis %d token %d: %d; want %d", a, i, id[a], want[a][i])
			}
		}
	}
	// Text, a 1×2×3 image, text: the image starts after the text (st_idx
	// + text_len), the last text at the largest image ID + 1.
	ids, _ = MRoPEPositionIDs([]MRoPESegment{{Text: 2}, {Grid: [3]int{1, 2, 3}}, {Text: 2}})
	wantIDs := [][3]int{{0, 0, 0}, {1, 1, 1}, {2, 2, 2}, {2, 2, 3}, {2, 2, 4}, {2, 3, 2}, {2, 3, 3}, {2, 3, 4}, {5, 5, 5}, {6, 6, 6}}
	if !slices.Equal(ids, wantIDs) {
		t.Errorf("ids = %v; want %v", ids, wantIDs)
	}
	_, err = MRoPEPositionIDs([]MRoPESegment{{Text: 2}, {Grid: [3]int{1, 0, 3}}})
	wantParamError(t, err, "segments[1].Grid", "[1 0 3]")
	_, err = MRoPEPositionIDs([]MRoPESegment{{}})
	wantParamError(t, err, "segments[0]", "{Text:0 Grid:[0 0 0]}")
	_, err = MRoPEPositionIDs([]MRoPESegment{{Text: -3}})
	wantParamError(t, err, "segments[0].Text", "-3")
}

// TestRotateMRoPE checks that text (equal IDs) is rotated exactly as 1-D
// RoPE, that an image patch's pairs turn by their own axis' ID, and that
// the score of two patches depends on their offset only.
func TestRotateMRoPE(t *testing.T) {
	r := NewRoPE(16).WithLayout(Halves).WithBase(10000)
	axes, _ := MRoPEAxes([]int{2, 3, 3}, 8, false)
	rng := newRand(5)
	x := randSlice[float64](rng, 16)
	got, want := make([]float64, 16), make([]float64, 16)
	_ = RotateMRoPETo(got, x, r, [3]int{41, 41, 41}, axes)
	_ = RotateTo(want, x, r, 41)
	if d, _ := maxAbsDiff(got, want); d != 0 {
		t.Errorf("text differs from RoPE by %g", d)
	}
	freq, _ := r.InvFreq()
	pos := [3]int{7, 2, 5}
	_ = RotateMRoPETo(got, x, r, pos, axes)
	for i, w := range freq {
		a := float64(pos[axes[i]]) * w
		wa := x[i]*math.Cos(a) - x[i+8]*math.Sin(a)
		if math.Abs(got[i]-wa) > 1e-12 {
			t.Errorf("pair %d: %g; want %g", i, got[i], wa)
		}
	}
	k := randSlice[float64](rng, 16)
	score := func(p, q [3]int) float64 {
		a, b := make([]float64, 16), make([]float64, 16)
		_ = RotateMRoPETo(a, x, r, p, axes)
		_ = RotateMRoPETo(b, k, r, q, axes)
		return dot(a, b)
	}
	if s1, s2 := score([3]int{3, 1, 4}, [3]int{3, 0, 0}), score([3]int{3, 11, 24}, [3]int{3, 10, 20}); math.Abs(s1-s2) > 1e-12 {
		t.Errorf("scores %g and %g for the same offset", s1, s2)
	}
	err := RotateMRoPETo(got, x, r, pos, axes[:3])
	wantParamError(t, err, "len(axes)", "3")
	err = RotateMRoPETo(got, x, r, [3]int{0, -1, 0}, axes)
	wantParamError(t, err, "pos[1]", "-1")
	bad := slices.Clone(axes)
	bad[2] = 3
	err = RotateMRoPETo(got, x, r, pos, bad)
	wantParamError(t, err, "axes[2]", "3")
}
