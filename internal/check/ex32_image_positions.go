package check

import (
	"fmt"
	"slices"

	"github.com/posenc/course/internal/catalog"
	"github.com/posenc/course/pkg/posenc"
)

func init() {
	registerExercise(Entry{
		Exercise: catalog.Exercise{Num: 32, Slug: "image_positions", Title: "M-RoPE IDs for text, an image, text", Test: "TestImagePositions",
			Funcs: []string{"ImageTextPositions"}, Lesson: 10, Section: secImages.Title, Difficulty: catalog.Advanced},
		Blurb: "Qwen2-VL's (t, h, w) position IDs for a prompt with one image, and where the text after it resumes.",
		Hints: Hints{
			Read: []Section{secImages},
			Idea: []string{
				"Text tokens carry one number on all three axes. An image's patches share one temporal ID and count " +
					"rows and columns from where the text stopped. The text after the image resumes just past the " +
					"largest ID the image used, which is much less than its number of patches.",
			},
			Formula: []string{
				"- Text before: token i gets (i, i, i). Let st = textBefore.",
				"- Patch at row y, column x (row-major): (st, st+y, st+x).",
				"- Text after: token i gets st + max(gridH, gridW) + i on all three axes (an image's temporal " +
					"side is 1, so it never sets the maximum).",
			},
			Code: []string{
				"- Rows of 3 ints, `[]int{t, h, w}`, textBefore + gridH·gridW + textAfter of them; the patch loop " +
					"is rows outside, columns inside.",
			},
		},
		Cases:  imagePositionsCases(),
		Checks: func(cases any) *Exercise { return ImagePositions(nil, cases.(ImagePositionsCases)) },
	})
}

// The lesson section exercise 32 and its hints cite.
var secImages = Section{10, "Images: M-RoPE and 2-D RoPE"}

var (
	hintImgCountsTokens = newHint("image positions/after counts patches", secImages,
		"the text after the image starts at 1 + the largest ID so far (st + max(gridH, gridW)), not after the "+
			"image's gridH·gridW tokens: get_rope_index takes llm_pos_ids_list[-1].max() + 1")
	hintImgFromZero = newHint("image positions/image from zero", secImages,
		"the image's IDs start where the text stopped: its temporal ID is st = textBefore and its rows and columns "+
			"count from st, not from 0")
	hintImgSwapped = newHint("image positions/height and width swapped", secImages,
		"the second ID is the patch's row (height), the third its column (width); patches are listed row by row")
	hintImgWidthOnly = newHint("image positions/width only", secImages,
		"the image's largest ID is st + max(gridH, gridW) − 1: for a tall image that is its height, not its width")
	hintImgNoGap = newHint("image positions/text after reuses an ID", secImages,
		"the first text token after the image gets 1 + the largest image ID, not the largest ID itself")
	hintImgHeightOnly = newHint("image positions/height only", secImages,
		"the image's largest ID is st + max(gridH, gridW) − 1: for a wide image that is its width, not its height")
	hintImgColumnMajor = newHint("image positions/column-major", secImages,
		"the patches come row by row (row-major, as the vision encoder flattens them): the loop over rows y is "+
			"outside, the loop over columns x inside, so the first patches are (st, st, st), (st, st, st+1), …")
	hintImgTemporalZero = newHint("image positions/temporal ID 0", secImages,
		"an image's patches share one temporal ID, and it is where the text stopped, st = textBefore, not 0: the "+
			"three axes all start from st")
	hintImgResumesHW = newHint("image positions/resumes at H+W", secImages,
		"the text after the image resumes at 1 + the largest ID the image used, st + max(gridH, gridW), not at "+
			"st + gridH + gridW")
	hintImgTooFar = newHint("image positions/one too far", secImages,
		"the image's largest ID is st + max(gridH, gridW) − 1, so the text after starts at st + max(gridH, gridW), "+
			"one less than yours")
	hintImgFallback = generic("image positions/fallback", secImages,
		"text: (i, i, i); patch (y, x): (st, st+y, st+x) with st = textBefore; text after: from st + max(gridH, gridW)")
)

// refImageIDs builds the IDs, wrong in one way when bug is not "".
func refImageIDs(before, gh, gw, after int, bug string) [][]int {
	var out [][]int
	for i := range before {
		out = append(out, []int{i, i, i})
	}
	st := before
	base, t := st, st
	switch bug {
	case "from_zero":
		base, t = 0, 0
	case "from_zero_rows": // rows and columns from 0, the rest right
		base = 0
	case "temporal_zero":
		t = 0
	}
	patch := func(y, x int) []int {
		if bug == "swapped" {
			return []int{t, base + x, base + y}
		}
		return []int{t, base + y, base + x}
	}
	if bug == "column_major" {
		for x := range gw {
			for y := range gh {
				out = append(out, patch(y, x))
			}
		}
	} else {
		for y := range gh {
			for x := range gw {
				out = append(out, patch(y, x))
			}
		}
	}
	next := base + max(gh, gw)
	switch bug {
	case "from_zero_rows":
		next = st + max(gh, gw)
	case "height_only":
		next = st + gh
	case "h_plus_w":
		next = st + gh + gw
	case "too_far":
		next = st + max(gh, gw) + 1
	case "counts_tokens":
		next = st + gh*gw
	case "width_only":
		next = st + gw
	case "no_gap":
		next = st + max(gh, gw) - 1
	}
	for i := range after {
		out = append(out, []int{next + i, next + i, next + i})
	}
	return out
}

func sameIntRows(a, b [][]int) bool { return slices.EqualFunc(a, b, slices.Equal[[]int]) }

func diagImageIDs(got [][]int, c ImagePositionsCase) *Hint {
	type v = variant[[][]int]
	ref := func(bug string) [][]int { return refImageIDs(c.TextBefore, c.GridH, c.GridW, c.TextAfter, bug) }
	return uniqueMatch(got, sameIntRows,
		v{hintImgCountsTokens, ref("counts_tokens")},
		v{hintImgFromZero, ref("from_zero")},
		v{hintImgSwapped, ref("swapped")},
		v{hintImgWidthOnly, ref("width_only")},
		v{hintImgNoGap, ref("no_gap")},
		v{hintImgFromZero, ref("from_zero_rows")},
		v{hintImgHeightOnly, ref("height_only")},
		v{hintImgColumnMajor, ref("column_major")},
		v{hintImgTemporalZero, ref("temporal_zero")},
		v{hintImgResumesHW, ref("h_plus_w")},
		v{hintImgTooFar, ref("too_far")},
	)
}

// ImagePositionsCase is one call: ImageTextPositions(TextBefore, GridH,
// GridW, TextAfter) must equal Want.
type ImagePositionsCase struct {
	Name                                string
	TextBefore, GridH, GridW, TextAfter int
	Want                                [][]int
}

// ImagePositionsCases is exercise 32's case table.
type ImagePositionsCases struct {
	IDs []ImagePositionsCase `doc:"ImageTextPositions(TextBefore, GridH, GridW, TextAfter) must equal Want: one (t, h, w) row per token, as transformers' Qwen2-VL get_rope_index (posenc.MRoPEPositionIDs)."`
}

func imagePositionsCases() ImagePositionsCases {
	row := func(name string, before, gh, gw, after int) ImagePositionsCase {
		var segs []posenc.MRoPESegment
		if before > 0 {
			segs = append(segs, posenc.MRoPESegment{Text: before})
		}
		segs = append(segs, posenc.MRoPESegment{Grid: [3]int{1, gh, gw}})
		if after > 0 {
			segs = append(segs, posenc.MRoPESegment{Text: after})
		}
		ids, err := posenc.MRoPEPositionIDs(segs)
		if err != nil {
			panic(err)
		}
		want := make([][]int, len(ids))
		for i, id := range ids {
			want[i] = []int{id[0], id[1], id[2]}
		}
		if !sameIntRows(want, refImageIDs(before, gh, gw, after, "")) {
			panic("check: refImageIDs disagrees with posenc.MRoPEPositionIDs")
		}
		return ImagePositionsCase{name, before, gh, gw, after, want}
	}
	return ImagePositionsCases{IDs: []ImagePositionsCase{
		row("text_2x3_image_text", 3, 2, 3, 2),
		row("tall_image", 2, 4, 2, 2),
		row("image_first", 0, 3, 3, 1),
		row("wide_image_no_text_after", 1, 1, 5, 0),
		row("square_4x4", 2, 4, 4, 3),
		row("wide_image_then_text", 2, 2, 5, 2),
		row("tall_thin_image_then_text", 1, 5, 1, 2),
	}}
}

// imageTraits says what shape a prompt has, for the summary of the rows
// that fail.
func imageTraits(c ImagePositionsCase) []string {
	var out []string
	switch {
	case c.GridW > c.GridH:
		out = append(out, "a wide grid (gridW > gridH)")
	case c.GridH > c.GridW:
		out = append(out, "a tall grid (gridH > gridW)")
	default:
		out = append(out, "a square grid")
	}
	if c.TextBefore == 0 {
		out = append(out, "no text before the image")
	}
	if c.TextAfter > 0 {
		out = append(out, "text after the image")
	}
	return out
}

// ImagePositions returns exercise 32's checks of fn on cases.
func ImagePositions(fn func(textBefore, gridH, gridW, textAfter int) [][]int, cases ImagePositionsCases) *Exercise {
	var checks []Check
	for _, c := range cases.IDs {
		call := fmt.Sprintf("ImageTextPositions(textBefore=%d, gridH=%d, gridW=%d, textAfter=%d)", c.TextBefore, c.GridH, c.GridW, c.TextAfter)
		checks = append(checks, Check{Name: c.Name, Call: call, Traits: imageTraits(c), Run: func() *Failure {
			got := fn(c.TextBefore, c.GridH, c.GridW, c.TextAfter)
			noteFallback(hintImgFallback)
			if sameIntRows(got, c.Want) {
				observePass(func(got [][]int) *Hint { return diagImageIDs(got, c) }, got)
				return nil
			}
			hint := orElse(diagImageIDs(got, c), hintImgFallback)
			if len(got) != len(c.Want) {
				return fail(hint, fmt.Sprintf("%s returned %d rows; want %d (one per token)", call, len(got), len(c.Want)))
			}
			i := 0
			for slices.Equal(got[i], c.Want[i]) {
				i++
			}
			what := "text before"
			switch {
			case i >= c.TextBefore+c.GridH*c.GridW:
				what = fmt.Sprintf("text after, token %d", i-c.TextBefore-c.GridH*c.GridW)
			case i >= c.TextBefore:
				p := i - c.TextBefore
				what = fmt.Sprintf("image patch at row %d, column %d", p/c.GridW, p%c.GridW)
			}
			return fail(hint, call+":", fmt.Sprintf("token %d (%s): got %v, want %v", i, what, got[i], c.Want[i]))
		}})
	}
	return newExercise(32, checks)
}
