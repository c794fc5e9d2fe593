package check

import (
	"fmt"
	"slices"

	"github.com/posenc/course/internal/catalog"
	"github.com/posenc/course/pkg/posenc"
)

func init() {
	registerExercise(Entry{
		Exercise: catalog.Exercise{Num: 30, Slug: "packed_mask", Title: "The mask of packed documents", Test: "TestPackedMask",
			Funcs: []string{"PackedCausalMask"}, Lesson: 10, Section: secPadding.Title, Difficulty: catalog.Easy},
		Blurb: "the block-diagonal causal mask that must go with packed position IDs, or documents read each other.",
		Hints: Hints{
			Read: []Section{secPadding},
			Idea: []string{
				"Restarting the position IDs at each document is not enough: with a plain causal mask the second " +
					"document still attends to the first. Each document needs its own causal block, and nothing " +
					"outside it.",
			},
			Formula: []string{
				"- mask[i][j] is true when j ≤ i and tokens i and j belong to the same document.",
				"- Lengths [2, 3] give a 5×5 mask with a 2×2 and a 3×3 lower triangle on the diagonal.",
			},
			Code: []string{
				"- Walk the documents with a start offset; inside one, set `mask[i][j]` for `start ≤ j ≤ i`.",
			},
		},
		Cases:  packedMaskCases(),
		Checks: func(cases any) *Exercise { return PackedMask(nil, cases.(PackedMaskCases)) },
	})
}

var (
	hintMaskPlainCausal = newHint("packed mask/plain causal", secPadding,
		"a plain causal mask lets every token of the second document attend to the whole first document: allow "+
			"j ≤ i only when i and j are in the same document")
	hintMaskFullBlocks = newHint("packed mask/blocks not causal", secPadding,
		"inside a document the mask is still causal: token i sees the tokens j ≤ i of its document, not the ones "+
			"after it")
	hintMaskUpper = newHint("packed mask/transposed", secPadding,
		"mask[i][j] is whether query i may read key j: in a causal model that is j ≤ i, the lower triangle, not "+
			"the upper one")
	hintMaskNoSelf = newHint("packed mask/no diagonal", secPadding,
		"a token attends to itself: j ≤ i includes j = i, or the first token of every document attends to nothing "+
			"and its softmax has no keys")
	hintMaskSharedRows = newHint("packed mask/rows share a buffer", Section{},
		"rows of your mask are one and the same slice, so each query's row collects the keys of every query: make "+
			"a new []bool for each row")
	hintMaskNoOffset = newHint("packed mask/columns not offset", secPadding,
		"the keys of a document sit at its own offset: for the document that starts at s, row s+a allows columns "+
			"s … s+a, not 0 … a")
	hintMaskLastMissing = newHint("packed mask/last document missing", secPadding,
		"the last document needs its causal block too: walk every length, the last one included")
	hintMaskMutates = newHint("packed mask/mutates", Section{},
		"your function changed the caller's lengths: read them, and build a new mask")
	hintMaskFallback = generic("packed mask/fallback", secPadding,
		"mask[i][j] is true exactly when j ≤ i and tokens i and j are in the same document")
)

// refMask returns the mask of packed documents, wrong in one way when bug
// is not "".
func refMask(lengths []int, bug string) [][]bool {
	n := 0
	for _, l := range lengths {
		n += l
	}
	doc := make([]int, 0, n)
	for d, l := range lengths {
		for range l {
			doc = append(doc, d)
		}
	}
	start := make([]int, len(lengths))
	for d := 1; d < len(lengths); d++ {
		start[d] = start[d-1] + lengths[d-1]
	}
	out := make([][]bool, n)
	for i := range out {
		out[i] = make([]bool, n)
		for j := range out[i] {
			same := doc[i] == doc[j]
			switch bug {
			case "no_offset":
				out[i][j] = j <= i-start[doc[i]]
			case "last_missing":
				out[i][j] = same && j <= i && doc[i] < len(lengths)-1
			case "plain_causal":
				out[i][j] = j <= i
			case "full_blocks":
				out[i][j] = same
			case "upper":
				out[i][j] = same && j >= i
			case "no_self":
				out[i][j] = same && j < i
			default:
				out[i][j] = same && j <= i
			}
		}
	}
	return out
}

func sameBools(a, b [][]bool) bool { return slices.EqualFunc(a, b, slices.Equal[[]bool]) }

func diagMask(got [][]bool, lengths []int) *Hint {
	type v = variant[[][]bool]
	return firstMatch(got, sameBools,
		v{hintMaskPlainCausal, refMask(lengths, "plain_causal")},
		v{hintMaskFullBlocks, refMask(lengths, "full_blocks")},
		v{hintMaskUpper, refMask(lengths, "upper")},
		v{hintMaskNoSelf, refMask(lengths, "no_self")},
		v{hintMaskNoOffset, refMask(lengths, "no_offset")},
		v{hintMaskLastMissing, refMask(lengths, "last_missing")},
	)
}

// sharedRows reports whether two rows of t are one slice.
func sharedRows[T any](t [][]T) bool {
	for i := 1; i < len(t); i++ {
		if len(t[i]) > 0 && len(t[i-1]) > 0 && &t[i][0] == &t[i-1][0] {
			return true
		}
	}
	return false
}

// PackedMaskCase is one call: PackedCausalMask(Lengths) must equal Want.
type PackedMaskCase struct {
	Name    string
	Lengths []int
	Want    [][]bool
}

// PackedMaskCases is exercise 30's case table.
type PackedMaskCases struct {
	Masks []PackedMaskCase `doc:"PackedCausalMask(Lengths) must equal Want: n×n (n the sum of Lengths), true where j ≤ i in the same document."`
}

func packedMaskCases() PackedMaskCases {
	row := func(name string, lengths ...int) PackedMaskCase {
		flat, err := posenc.PackedCausalMask(lengths)
		if err != nil {
			panic(err)
		}
		n := 0
		for _, l := range lengths {
			n += l
		}
		want := make([][]bool, n)
		for i := range want {
			want[i] = flat[i*n : (i+1)*n : (i+1)*n]
		}
		return PackedMaskCase{name, lengths, want}
	}
	return PackedMaskCases{Masks: []PackedMaskCase{
		row("two_documents", 2, 3),
		row("one_document_is_plain_causal", 4),
		row("three_documents", 3, 1, 2),
		row("single_tokens", 1, 1, 1),
	}}
}

var maskArgs = argHints{hintMaskMutates, hintMaskMutates}

// PackedMask returns exercise 30's checks of fn on cases.
func PackedMask(fn func(lengths []int) [][]bool, cases PackedMaskCases) *Exercise {
	var checks []Check
	for _, c := range cases.Masks {
		call := fmt.Sprintf("PackedCausalMask(%v)", c.Lengths)
		checks = append(checks, Check{Name: c.Name, Call: call, Run: func() *Failure {
			lengths := slices.Clone(c.Lengths)
			got := fn(lengths)
			noteFallback(hintMaskFallback)
			shared := sharedRows(got)
			observeHint(hintMaskSharedRows, shared)
			if shared {
				return fail(hintMaskSharedRows, fmt.Sprintf("%s: rows 0 … %d are not each a slice of their own", call, len(got)-1))
			}
			if sameBools(got, c.Want) {
				observePass(func(got [][]bool) *Hint { return diagMask(got, c.Lengths) }, got)
			} else {
				hint := orElse(diagMask(got, c.Lengths), hintMaskFallback)
				if len(got) != len(c.Want) {
					return fail(hint, fmt.Sprintf("%s returned %d rows; want %d", call, len(got), len(c.Want)))
				}
				for i := range got {
					if !slices.Equal(got[i], c.Want[i]) {
						return fail(hint, call+":", fmt.Sprintf("row %d (query %d): got  %s", i, i, fmtBools(got[i])),
							fmt.Sprintf("row %d (query %d): want %s", i, i, fmtBools(c.Want[i])))
					}
				}
			}
			return maskArgs.check(call, got, arg{"lengths", lengths, c.Lengths})
		}})
	}
	return newExercise(30, checks)
}

// fmtBools prints a mask row as 1s and dots.
func fmtBools(row []bool) string {
	b := make([]byte, len(row))
	for i, v := range row {
		b[i] = '.'
		if v {
			b[i] = '1'
		}
	}
	return string(b)
}
