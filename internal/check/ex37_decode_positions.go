package check

import (
	"fmt"
	"slices"

	"github.com/posenc/course/internal/catalog"
)

func init() {
	registerExercise(Entry{
		Exercise: catalog.Exercise{Num: 37, Slug: "decode_positions", Title: "Position ids while decoding a left-padded batch", Test: "TestDecodePositions",
			Funcs: []string{"DecodePositions"}, Lesson: 11, Section: secRealBatch.Title, Difficulty: catalog.Easy},
		Blurb: "the position id of each new token of each row, after a left-padded prefill: the row's real tokens " +
			"so far, not the cache slot.",
		Hints: Hints{
			Read: []Section{secRealBatch, secPadding},
			Idea: []string{
				"A row's prompt got ids 0 … n−1 from its mask, n its real tokens. Each generated token continues that " +
					"count; the cache slot it is written to also counts the pads, and using it as the position " +
					"opens a gap of one position per pad.",
			},
			Formula: []string{
				"- Row r with n_r real tokens in its mask: step s (from 0) gets id n_r + s.",
			},
		},
		Cases:  decodePositionsCases(),
		Checks: func(cases any) *Exercise { return DecodePositions(nil, cases.(DecodePositionsCases)) },
	})
}

var (
	hintDecodeSlot = newHint("decode positions/cache slot", secRealBatch,
		"you used the cache slot (the row's length, pads included, plus the step) as the position: the pads "+
			"become a gap between the prompt and its continuation, unsloth#3699's garbage for the shorter prompts. "+
			"Count only the mask's 1s")
	hintDecodeRepeat = newHint("decode positions/one too few", secRealBatch,
		"the prompt's last token already has id n − 1 (ids count from 0): the first new token gets n")
	hintDecodeOneTooMany = newHint("decode positions/one too many", secRealBatch,
		"ids count from 0, so a prompt of n real tokens ends at n − 1 and the first new token gets n, not n + 1")
	hintDecodeMutates = newHint("decode positions/mutates", Section{},
		"build a new table: do not change the caller's mask")
	hintDecodeFallback = generic("decode positions/fallback", secRealBatch,
		"for each row, n = the number of 1s in its mask; its ids are n, n+1, …, n+steps−1")
)

// refDecode returns the ids of every row's steps, with the given mistake.
func refDecode(mask [][]int, steps int, bug string) [][]int {
	out := make([][]int, len(mask))
	for r, row := range mask {
		n := countOnes(row)
		switch bug {
		case "slot":
			n = len(row)
		case "repeat":
			n--
		case "plus_one":
			n++
		}
		for s := range steps {
			out[r] = append(out[r], n+s)
		}
	}
	return out
}

func countOnes(row []int) (n int) {
	for _, m := range row {
		n += m
	}
	return n
}

// DecodePositionsCase is one call: DecodePositions(Mask, Steps) must equal
// Want.
type DecodePositionsCase struct {
	Name  string
	Mask  [][]int
	Steps int
	Want  [][]int
}

// DecodePositionsCases is exercise 37's case table.
type DecodePositionsCases struct {
	Batches []DecodePositionsCase `doc:"DecodePositions(Mask, Steps) must equal Want: row r's Steps ids continue its prompt's, the count of 1s in its mask (transformers' generate: position_ids from the mask, then one more per step)."`
}

func decodePositionsCases() DecodePositionsCases {
	row := func(name string, steps int, mask ...[]int) DecodePositionsCase {
		return DecodePositionsCase{name, mask, steps, refDecode(mask, steps, "")}
	}
	return DecodePositionsCases{Batches: []DecodePositionsCase{
		row("two_prompts_left_padded", 3, []int{0, 0, 1, 1, 1}, []int{1, 1, 1, 1, 1}),
		row("one_step", 1, []int{0, 0, 0, 1}, []int{0, 1, 1, 1}, []int{1, 1, 1, 1}),
		row("every_row_padded", 2, []int{0, 1, 1}, []int{0, 0, 1}),
		row("no_padding", 2, []int{1, 1}, []int{1, 1}),
		row("lesson_11_prompt_and_16_pads", 4, append(make([]int, 16), slices.Repeat([]int{1}, 48)...), slices.Repeat([]int{1}, 64)),
	}}
}

var decodeArgs = argHints{hintDecodeMutates, hintDecodeMutates}

// DecodePositions returns exercise 37's checks of fn on cases.
func DecodePositions(fn func(mask [][]int, steps int) [][]int, cases DecodePositionsCases) *Exercise {
	var checks []Check
	for _, c := range cases.Batches {
		call := fmt.Sprintf("DecodePositions(%v, %d)", c.Mask, c.Steps)
		if len(c.Mask[0]) > 8 {
			call = fmt.Sprintf("DecodePositions(%d rows of %d, %d)", len(c.Mask), len(c.Mask[0]), c.Steps)
		}
		checks = append(checks, Check{Name: c.Name, Call: call, Run: func() *Failure {
			mask := make([][]int, len(c.Mask))
			for i, r := range c.Mask {
				mask[i] = slices.Clone(r)
			}
			got := fn(mask, c.Steps)
			type v = variant[[][]int]
			same := func(a, b [][]int) bool { return slices.EqualFunc(a, b, slices.Equal[[]int]) }
			diag := func(got [][]int) *Hint {
				return firstMatch(got, same,
					v{hintDecodeSlot, refDecode(c.Mask, c.Steps, "slot")},
					v{hintDecodeRepeat, refDecode(c.Mask, c.Steps, "repeat")},
					v{hintDecodeOneTooMany, refDecode(c.Mask, c.Steps, "plus_one")},
				)
			}
			noteFallback(hintDecodeFallback)
			if !same(got, c.Want) {
				return fail(orElse(diag(got), hintDecodeFallback), call+":", fmt.Sprintf("got  %v", got), fmt.Sprintf("want %v", c.Want))
			}
			observePass(diag, got)
			return decodeArgs.check(call, got, arg{"mask", mask, c.Mask})
		}})
	}
	return newExercise(37, checks)
}
