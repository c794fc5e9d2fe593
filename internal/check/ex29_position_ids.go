package check

import (
	"fmt"
	"slices"

	"github.com/posenc/course/internal/catalog"
	"github.com/posenc/course/pkg/posenc"
)

func init() {
	registerExercise(Entry{
		Exercise: catalog.Exercise{Num: 29, Slug: "position_ids", Title: "Position IDs from a padding mask", Test: "TestPositionIDs",
			Funcs: []string{"PositionIDsFromMask"}, Lesson: 10, Section: secPadding.Title, Difficulty: catalog.Easy},
		Blurb: "the IDs transformers gives a padded row when it generates: real tokens count from 0, pads get 1.",
		Hints: Hints{
			Read: []Section{secPadding},
			Idea: []string{
				"A prompt must get the same position IDs whether it runs alone or left-padded in a batch: count only " +
					"the real tokens. A pad's ID does not matter, since the mask hides it, but transformers fixes it " +
					"to 1.",
			},
			Formula: []string{
				"- `position_ids = attention_mask.cumsum(-1) − 1`, then `position_ids[attention_mask == 0] = 1`.",
				"- [0 0 1 1 1] gives [1 1 0 1 2]; [1 1 1 0 0] gives [0 1 2 1 1].",
			},
			Code: []string{
				"- Keep a running count of the 1s seen so far (the token itself included); a real token's ID is that " +
					"count minus 1.",
			},
		},
		Cases:  positionIDsCases(),
		Checks: func(cases any) *Exercise { return PositionIDs(nil, cases.(PositionIDsCases)) },
	})
}

// The lesson section exercises 29 and 30 and their hints cite.
var secPadding = Section{10, "Position IDs under padding and packing"}

var (
	hintIDsIndex = newHint("position IDs/index", secPadding,
		"you gave each token its index in the row: a left-padded prompt then starts at the number of pads, not "+
			"at 0, and its scores change. Count only the tokens whose mask is 1")
	hintIDsNoMinusOne = newHint("position IDs/cumsum without −1", secPadding,
		"the running count includes the token itself, so the first real token has count 1: its ID is count − 1 = 0")
	hintIDsNoFill = newHint("position IDs/pads not filled", secPadding,
		"a pad gets ID 1 (transformers' masked_fill_(attention_mask == 0, 1)), not what the running count gives "+
			"it (−1 before the first real token)")
	hintIDsPadsZero = newHint("position IDs/pads zero", secPadding,
		"transformers fills every pad with 1, not 0 or −1; the mask hides them either way, but the IDs must "+
			"match the reference")
	hintIDsFromFirst = newHint("position IDs/counts pads after the first token", secPadding,
		"you counted from the first real token, pads included: a pad between real tokens (a right-padded prompt "+
			"followed by generated tokens) must not advance the count, so [1 1 0 0 1 1] gives [0 1 1 1 2 3], not "+
			"[0 1 1 1 4 5]")
	hintIDsRestart = newHint("position IDs/restarts after pads", secPadding,
		"a run of pads does not start a new sequence: the count of real tokens goes on across it, so "+
			"[1 1 0 0 1 1] gives [0 1 1 1 2 3], not [0 1 1 1 0 1]")
	hintIDsMutates = newHint("position IDs/mutates", Section{},
		"your function changed the caller's mask (a cumulative sum in place, most likely): build a new slice")
	hintIDsFallback = generic("position IDs/fallback", secPadding,
		"a real token's ID is the number of real tokens before it; every pad's ID is 1")
)

// refIDs computes the IDs with the given choices.
func refIDs(mask []int, bug string) []int {
	out := make([]int, len(mask))
	count, first, run := 0, slices.Index(mask, 1), 0
	for i, m := range mask {
		count += m
		run = (run + m) * m // real tokens since the last pad
		switch {
		case m == 1 && bug == "from_first":
			out[i] = i - first
		case m == 1 && bug == "restart":
			out[i] = run - 1
		case m == 0 && bug == "pads_minus_one":
			out[i] = -1
		case bug == "index":
			out[i] = i
		case m == 0 && bug == "no_fill":
			out[i] = count - 1
		case m == 0 && bug == "pads_zero":
			out[i] = 0
		case m == 0:
			out[i] = 1
		case bug == "no_minus_one":
			out[i] = count
		default:
			out[i] = count - 1
		}
	}
	return out
}

func diagIDs(got, mask []int) *Hint {
	type v = variant[[]int]
	return firstMatch(got, slices.Equal[[]int],
		v{hintIDsIndex, refIDs(mask, "index")},
		v{hintIDsNoMinusOne, refIDs(mask, "no_minus_one")},
		v{hintIDsNoFill, refIDs(mask, "no_fill")},
		v{hintIDsPadsZero, refIDs(mask, "pads_zero")},
		v{hintIDsPadsZero, refIDs(mask, "pads_minus_one")},
		v{hintIDsFromFirst, refIDs(mask, "from_first")},
		v{hintIDsRestart, refIDs(mask, "restart")},
	)
}

// PositionIDsCase is one call: PositionIDsFromMask(Mask) must equal Want.
type PositionIDsCase struct {
	Name string
	Mask []int
	Want []int
}

// PositionIDsCases is exercise 29's case table.
type PositionIDsCases struct {
	IDs []PositionIDsCase `doc:"PositionIDsFromMask(Mask) must equal Want, transformers' IDs: the cumulative sum of the mask minus 1 for real tokens, 1 for every pad."`
}

func positionIDsCases() PositionIDsCases {
	row := func(name string, mask ...int) PositionIDsCase {
		want, err := posenc.PositionIDsFromMask(mask)
		if err != nil {
			panic(err)
		}
		return PositionIDsCase{name, mask, want}
	}
	return PositionIDsCases{IDs: []PositionIDsCase{
		row("left_padding", 0, 0, 1, 1, 1),
		row("right_padding", 1, 1, 1, 0, 0),
		row("no_padding", 1, 1, 1, 1),
		row("both_sides", 0, 1, 1, 1, 0),
		row("one_real_token_after_three_pads", 0, 0, 0, 1),
		row("all_padding", 0, 0),
		row("right_padded_then_generated", 1, 1, 0, 0, 1, 1),
		row("left_and_middle_pads", 0, 1, 0, 1, 1),
	}}
}

// maskTraits says where a mask pads, for the summary of the rows that
// fail.
func maskTraits(mask []int) []string {
	first, last := slices.Index(mask, 1), -1
	for i, m := range mask {
		if m == 1 {
			last = i
		}
	}
	if first < 0 {
		return []string{"no real token"}
	}
	var out []string
	if first > 0 {
		out = append(out, "pads before the first real token")
	}
	if slices.Contains(mask[first:last+1], 0) {
		out = append(out, "pads between real tokens")
	}
	if last < len(mask)-1 {
		out = append(out, "pads after the last real token")
	}
	return out
}

var idsArgs = argHints{hintIDsMutates, hintIDsMutates}

// PositionIDs returns exercise 29's checks of fn on cases.
func PositionIDs(fn func(mask []int) []int, cases PositionIDsCases) *Exercise {
	var checks []Check
	for _, c := range cases.IDs {
		call := fmt.Sprintf("PositionIDsFromMask(%v)", c.Mask)
		checks = append(checks, Check{Name: c.Name, Call: call, Traits: maskTraits(c.Mask), Run: func() *Failure {
			mask := slices.Clone(c.Mask)
			got := fn(mask)
			if f := compareInts(call, got, c.Want, label("token"), func(got []int) *Hint { return diagIDs(got, c.Mask) }, hintIDsFallback); f != nil {
				return f
			}
			return idsArgs.check(call, got, arg{"mask", mask, c.Mask})
		}})
	}
	return newExercise(29, checks)
}

// compareInts compares an []int result with want, as compareVec does.
func compareInts(call string, got, want []int, label func(int) string, diag func(got []int) *Hint, fallback *Hint) *Failure {
	noteFallback(fallback)
	if slices.Equal(got, want) {
		observePass(diag, got)
		return nil
	}
	hint := orElse(diag(got), fallback)
	if len(got) != len(want) {
		return fail(hint, fmt.Sprintf("%s returned %d values %v; want %d: %v", call, len(got), got, len(want), want))
	}
	i := 0
	for got[i] == want[i] {
		i++
	}
	return fail(hint, call+":", fmt.Sprintf("got  %v", got), fmt.Sprintf("want %v", want),
		fmt.Sprintf("first difference at %s: got %d, want %d", label(i), got[i], want[i]))
}
