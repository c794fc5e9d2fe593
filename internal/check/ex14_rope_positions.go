package check

import (
	"fmt"
	"slices"

	"github.com/posenc/course/internal/catalog"
	"github.com/posenc/course/pkg/posenc"
)

func init() {
	registerExercise(Entry{
		Exercise: catalog.Exercise{Num: 14, Slug: "rope_positions", Title: "RoPE at explicit positions: a KV cache and packed sequences", Test: "TestRoPEPositions",
			Funcs: []string{"CachePositions", "PackedPositions", "RotateAt"}, Lesson: 4, Section: "Positions are just indices",
			Difficulty: catalog.Easy, Uses: []int{7}},
		Blurb: "a KV cache continuing at position p, and packed sequences that restart at 0.",
		Hints: []string{
			"- A cache of cacheLen tokens holds positions 0 … cacheLen−1: the new ones continue at cacheLen, " +
				"cacheLen+1, …",
			"- Packed documents each start again at 0: lengths [3, 4] give [0 1 2 0 1 2 3].",
			"- `RotateAt` is `RotateInterleaved(x[r], positions[r], base)` for each row; check the lengths first.",
		},
		Checks: func() *Exercise { return RoPEPositions(nil, nil, nil) },
	})
}

var (
	hintCacheOffByOne = newHint("rope positions/cache off by one", secIndices,
		"the cache holds positions 0 … cacheLen−1, so the first new token is at position cacheLen: not cacheLen−1, "+
			"not cacheLen+1")
	hintCacheRestart = newHint("rope positions/cache restarts at 0", secIndices,
		"new tokens continue after the cached ones: the first is at position cacheLen. Restarting at 0 would give "+
			"every new token the position of a token already in the cache")
	hintPackedNoRestart = newHint("rope positions/packed without restart", secIndices,
		"each packed document starts again at position 0: [3, 4] gives [0 1 2 0 1 2 3], not positions that run on "+
			"across documents. Documents packed in one row must not see each other's lengths")
	hintPackedFromOne = newHint("rope positions/from 1", secIndices,
		"positions start at 0, not 1: the first token of each document is not rotated at all")
	hintRotateAtRowIndex = newHint("rope positions/row index", secIndices,
		"you rotated row r at position r: rotate it at positions[r], which is the whole point of explicit positions")
	hintRotateAtLength = newHint("rope positions/length mismatch", secIndices,
		"when len(positions) differs from the number of rows, return nil: rotating with too few positions cannot be "+
			"right, and indexing past the end panics")
	hintRotateAtMutates = newHint("rope positions/mutates or shares", Section{},
		"your result shares memory with x, or you changed x: every row of the result must be a new slice")
	hintPositionsFallback = generic("rope positions/fallback", secIndices,
		"a KV cache continues at cacheLen; packed documents restart at 0; RotateAt rotates row r at positions[r]")
)

// refPacked returns the positions of packed documents of the given lengths.
func refPacked(lengths []int, restart bool, from int) []int {
	var out []int
	p := from
	for _, n := range lengths {
		if restart {
			p = from
		}
		for range n {
			out = append(out, p)
			p++
		}
	}
	return out
}

// refRotateAt is posenc's rotation of each row at its position.
func refRotateAt(x [][]float64, positions []int, base float64) [][]float64 {
	out := make([][]float64, len(x))
	for r := range x {
		out[r] = refRoPE(x[r], positions[r], base, posenc.Interleaved)
	}
	return out
}

func rangeFrom(from, n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = from + i
	}
	return out
}

// intsCheck compares a slice of positions with want.
func intsCheck(name, call string, got func() []int, want []int, diag func([]int) *Hint) Case {
	return Case{Name: name, Call: call, Run: func() *Failure {
		g := got()
		if len(g) == len(want) && slices.Equal(g, want) {
			return nil
		}
		return fail(orElse(diag(g), hintPositionsFallback), fmt.Sprintf("%s = %v; want %v", call, g, want))
	}}
}

// RoPEPositions returns exercise 14's checks of cache, packed and rotateAt.
func RoPEPositions(cache func(cacheLen, n int) []int, packed func(lengths []int) []int,
	rotateAt func(x [][]float64, positions []int, base float64) [][]float64) *Exercise {
	cacheCase := func(cacheLen, n int) Case {
		return intsCheck(fmt.Sprintf("cache_%d_then_%d_new", cacheLen, n), fmt.Sprintf("CachePositions(%d, %d)", cacheLen, n),
			func() []int { return cache(cacheLen, n) }, rangeFrom(cacheLen, n),
			func(g []int) *Hint {
				switch {
				case n > 0 && slices.Equal(g, rangeFrom(cacheLen-1, n)), n > 0 && slices.Equal(g, rangeFrom(cacheLen+1, n)):
					return hintCacheOffByOne
				case n > 0 && cacheLen > 0 && slices.Equal(g, rangeFrom(0, n)):
					return hintCacheRestart
				}
				return nil
			})
	}
	packedCase := func(lengths []int) Case {
		name := "packed"
		for _, n := range lengths {
			name += fmt.Sprintf("_%d", n)
		}
		if len(lengths) == 0 {
			name = "packed_no_documents"
		}
		return intsCheck(name, fmt.Sprintf("PackedPositions(%v)", lengths),
			func() []int { return packed(slices.Clone(lengths)) }, refPacked(lengths, true, 0),
			func(g []int) *Hint {
				switch {
				case slices.Equal(g, refPacked(lengths, false, 0)):
					return hintPackedNoRestart
				case slices.Equal(g, refPacked(lengths, true, 1)), slices.Equal(g, refPacked(lengths, false, 1)):
					return hintPackedFromOne
				}
				return nil
			})
	}
	x := randTable(7, 8, 61)
	packedPos := []int{0, 1, 2, 0, 1, 2, 3}
	rotateCall := fmt.Sprintf("RotateAt(x 7×8, positions=%v, base=10000)", packedPos)
	return newExercise(14, []Case{
		cacheCase(5, 3),
		cacheCase(0, 4),
		cacheCase(9, 1),
		cacheCase(7, 0),
		packedCase([]int{3, 4}),
		packedCase([]int{1, 1, 2}),
		packedCase([]int{2, 0, 3}),
		packedCase([]int{}),
		tableCheck{
			name: "rotate_packed_rows", call: rotateCall,
			got:  func() [][]float64 { return rotateAt(cloneTable(x), slices.Clone(packedPos), 10000) },
			want: refRotateAt(x, packedPos, 10000), tol: 1e-9,
			row: func(r int) string { return fmt.Sprintf("row %d (position %d)", r, packedPos[r]) }, col: label("dimension"),
			diag: func(got [][]float64) *Hint {
				return firstMatch(got, sameTable(1e-9), variant[[][]float64]{hintRotateAtRowIndex, refRotateAt(x, rangeFrom(0, 7), 10000)})
			},
			fallback: hintPositionsFallback,
		}.check(),
		{Name: "newest_token_alone_matches_the_full_sequence", Call: "RotateAt(x[6:], CachePositions(6, 1), 10000)", Run: func() *Failure {
			all := rotateAt(cloneTable(x), rangeFrom(0, 7), 10000)
			last := rotateAt(cloneTable(x[6:]), cache(6, 1), 10000)
			if len(all) != 7 || len(last) != 1 {
				return fail(hintPositionsFallback, fmt.Sprintf("RotateAt returned %d and %d rows; want 7 and 1.", len(all), len(last)))
			}
			if i := diffVec(last[0], all[6], 1e-12); i >= 0 {
				return fail(hintPositionsFallback, append([]string{
					"the newest token rotated alone at its cache position differs from its row in the whole sequence:"},
					vecDiffLines(last[0], all[6], i, label("dimension"))...)...)
			}
			return nil
		}},
		{Name: "positions_and_rows_must_match", Call: "RotateAt(x 7×8, positions=[0 1 2], base=10000)", PanicHint: hintRotateAtLength,
			Run: func() *Failure {
				if got := rotateAt(cloneTable(x), []int{0, 1, 2}, 10000); got != nil {
					return fail(hintRotateAtLength, fmt.Sprintf("RotateAt(x 7×8, positions=[0 1 2], base=10000) returned %d rows; want nil.", len(got)))
				}
				return nil
			}},
		{Name: "x_unchanged_and_not_shared", Call: rotateCall, Run: func() *Failure {
			in := cloneTable(x)
			out := rotateAt(in, slices.Clone(packedPos), 10000)
			if r, _ := diffTable(in, x, 0); r >= 0 {
				return fail(hintRotateAtMutates, rotateCall+" changed x.")
			}
			if len(out) != len(x) {
				return fail(hintPositionsFallback, fmt.Sprintf("%s returned %d rows; want %d.", rotateCall, len(out), len(x)))
			}
			for r := range out {
				if len(out[r]) == 0 {
					return fail(hintPositionsFallback, fmt.Sprintf("%s: row %d is empty.", rotateCall, r))
				}
				out[r][0] += 100
			}
			if r, _ := diffTable(in, x, 0); r >= 0 {
				return fail(hintRotateAtMutates, fmt.Sprintf("after out := %s, changing out[%d][0] changed x[%d][0].", rotateCall, r, r))
			}
			return nil
		}},
	})
}
