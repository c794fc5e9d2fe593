package posenc

import (
	"fmt"
	"strconv"

	"github.com/posenc/course/internal/validate"
	"github.com/posenc/course/pkg/posenc/internal/sincos"
)

// Multimodal RoPE (M-RoPE, Wang et al. 2024, "Qwen2-VL",
// https://arxiv.org/abs/2409.12191, section 2.1). Each token has three
// position IDs, temporal, height and width; a text token has the same ID on
// all three, so text is rotated exactly as by 1-D RoPE, while an image's
// patches share one temporal ID and count rows and columns on the other
// two. The rotary pairs are divided among the three axes by mrope_section.

// The three axes of an M-RoPE position ID.
const (
	AxisT = 0 // temporal
	AxisH = 1 // height (the patch's row)
	AxisW = 2 // width (the patch's column)
)

// MRoPEAxes returns, for each of the rotary pairs of a head, the axis
// (AxisT, AxisH or AxisW) whose position ID rotates it, for the given
// mrope_section (pairs per axis, t, h, w, adding up to the rotary pairs).
//
// Blocked (Qwen2-VL, Qwen2.5-VL; transformers'
// apply_multimodal_rotary_pos_emb splits cos and sin by mrope_section): the
// first sections[0] pairs take t, the next sections[1] h, the last
// sections[2] w, so the temporal axis gets all the fastest frequencies and
// the width axis only the slowest.
//
// Interleaved (Qwen3-VL's apply_interleaved_mrope): pair j takes h when
// j mod 3 = 1 and j < 3·sections[1], w when j mod 3 = 2 and
// j < 3·sections[2], t otherwise, so each axis gets fast and slow pairs.
//
// It returns a *ParamError naming mrope_section when it does not have
// three non-negative entries adding up to pairs, or, interleaved, when the
// h or w pairs do not fit (an entry the reference code's slice would
// silently shorten).
func MRoPEAxes(sections []int, pairs int, interleaved bool) ([]int, error) {
	if err := validate.Positive("rotary pairs", pairs); err != nil {
		return nil, err
	}
	if len(sections) != 3 {
		return nil, validate.Err("mrope_section", sections, "must have 3 entries (t, h, w)")
	}
	sum := 0
	for _, s := range sections {
		if s < 0 || s > pairs {
			return nil, validate.Err("mrope_section", sections, "must have entries in [0, "+strconv.Itoa(pairs)+"]")
		}
		sum += s
	}
	if sum != pairs {
		return nil, validate.Err("mrope_section", sections, fmt.Sprintf("must add up to the %d rotary pairs", pairs))
	}
	axes := make([]int, pairs)
	if !interleaved {
		for j := range axes {
			switch {
			case j < sections[0]:
				axes[j] = AxisT
			case j < sections[0]+sections[1]:
				axes[j] = AxisH
			default:
				axes[j] = AxisW
			}
		}
		return axes, nil
	}
	if 3*sections[AxisH]-2 >= pairs || 3*sections[AxisW]-1 >= pairs { // the last h pair is 3h−2, the last w pair 3w−1
		return nil, validate.Err("mrope_section", sections, fmt.Sprintf("must fit %d pairs interleaved t, h, w: 3·h−2 and 3·w−1 below %d", pairs, pairs))
	}
	for j := range axes {
		switch {
		case j%3 == 1 && j < 3*sections[AxisH]:
			axes[j] = AxisH
		case j%3 == 2 && j < 3*sections[AxisW]:
			axes[j] = AxisW
		default:
			axes[j] = AxisT
		}
	}
	return axes, nil
}

// MRoPESegment is one span of a multimodal sequence: Text tokens of text,
// or an image or video whose Grid is its (t, h, w) size in language-model
// tokens, after the vision encoder's spatial merge (Qwen2-VL merges 2×2
// patches: a 28×28-pixel cell is one token). Exactly one of Text and Grid
// is set.
type MRoPESegment struct {
	Text int
	Grid [3]int
}

// MRoPEPositionIDs returns the (t, h, w) position ID of every token of a
// sequence made of the given segments, as transformers' Qwen2-VL
// get_rope_index computes them (the Qwen3-VL one does the same for
// images):
//
//   - each segment starts at st = 1 + the largest ID so far (0 for the first);
//   - text token i of a segment gets (st+i, st+i, st+i);
//   - the patch at frame f, row y, column x gets (st+f, st+y, st+x), in
//     row-major order (frames, then rows, then columns).
//
// So the text after an image starts at st + max(t, h, w), not after the
// image's t·h·w tokens: an image of 16×16 tokens advances the positions by
// 16, not 256, and the next generated token's ID is the largest ID plus 1,
// smaller than the sequence length (transformers keeps the difference as
// rope_deltas).
//
// It returns a *ParamError naming segments[i] for a segment with neither
// or both of Text and Grid, a negative size, or a grid with a zero side.
func MRoPEPositionIDs(segments []MRoPESegment) ([][3]int, error) {
	total := 0
	for i, s := range segments {
		name := "segments[" + strconv.Itoa(i) + "]"
		isText, isGrid := s.Text != 0, s.Grid != [3]int{}
		switch {
		case isText == isGrid:
			return nil, validate.Err(name, fmt.Sprintf("%+v", s), "must set exactly one of Text and Grid")
		case isText && s.Text < 0:
			return nil, validate.Err(name+".Text", s.Text, "must be positive")
		case isGrid && (s.Grid[0] <= 0 || s.Grid[1] <= 0 || s.Grid[2] <= 0):
			return nil, validate.Err(name+".Grid", s.Grid, "must have every side positive (t, h, w)")
		}
		n := s.Text
		if isGrid {
			if err := validate.Elements(name+".Grid", s.Grid[0], s.Grid[1], s.Grid[2]); err != nil {
				return nil, err
			}
			n = s.Grid[0] * s.Grid[1] * s.Grid[2]
		}
		if n > validate.MaxElements-total {
			return nil, validate.Err("segments", len(segments), "must hold at most 2^31 tokens")
		}
		total += n
	}
	ids := make([][3]int, 0, total)
	next := 0 // 1 + the largest ID so far
	for _, s := range segments {
		st := next
		if s.Text > 0 {
			for i := range s.Text {
				ids = append(ids, [3]int{st + i, st + i, st + i})
			}
			next = st + s.Text
			continue
		}
		for f := range s.Grid[0] {
			for y := range s.Grid[1] {
				for x := range s.Grid[2] {
					ids = append(ids, [3]int{st + f, st + y, st + x})
				}
			}
		}
		next = st + max(s.Grid[0], s.Grid[1], s.Grid[2])
	}
	return ids, nil
}

// RotateMRoPETo rotates one head vector x (length r.HeadDim) to the M-RoPE
// position pos = (t, h, w): pair i turns by pos[axes[i]]·ω_i, with axes from
// MRoPEAxes over r's rotary pairs, and writes the result to dst (which may
// be x). Qwen's models pair dimensions as halves (rotate_half); set r's
// Layout to match. With pos[0] = pos[1] = pos[2] = m it is RotateTo(…, m).
//
// It returns a *ParamError for an invalid r, a bad position, axes of the
// wrong length or with an entry that is not an axis, or lengths that are not
// r.HeadDim.
func RotateMRoPETo(dst, x []float64, r RoPE, pos [3]int, axes []int) error {
	if err := r.Validate(); err != nil {
		return err
	}
	for a, p := range pos {
		if err := validate.Position("pos["+strconv.Itoa(a)+"]", p); err != nil {
			return err
		}
	}
	rot := r.Rot()
	if err := validate.Len("axes", len(axes), rot/2); err != nil {
		return err
	}
	for i, a := range axes {
		if a < AxisT || a > AxisW {
			return validate.Err("axes["+strconv.Itoa(i)+"]", a, "must be AxisT, AxisH or AxisW")
		}
	}
	if err := validate.Len("x", len(x), r.HeadDim); err != nil {
		return err
	}
	if err := validate.Len("dst", len(dst), r.HeadDim); err != nil {
		return err
	}
	af := r.AttentionFactor()
	for i := range rot / 2 {
		s, c := sincos.Product(float64(pos[axes[i]]), r.Scaling.invFreq(i, rot, r.Base))
		s, c = s*af, c*af
		a, b := pairIndex(r.Layout, rot, i)
		xa, xb := x[a], x[b]
		dst[a], dst[b] = xa*c-xb*s, xa*s+xb*c
	}
	copy(dst[rot:], x[rot:])
	return nil
}
