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
		Hints: Hints{
			Read: []Section{secIndices},
			Idea: []string{
				"A position is just a number you pass in: a KV cache continues after the tokens it holds, and " +
					"documents packed in one row each start again at 0. The rotation itself is exercise 7's.",
			},
			Formula: []string{
				"- A cache of cacheLen tokens holds positions 0 … cacheLen−1: the new ones continue at cacheLen, " +
					"cacheLen+1, …",
				"- Packed documents each start again at 0: lengths [3, 4] give [0 1 2 0 1 2 3].",
				"- RotateAt turns every row r, the first included, to positions[r]; when the lengths differ " +
					"there is nothing right to return: nil.",
			},
			Code: []string{
				"- `RotateInterleaved(x[r], positions[r], base)` for each row, after checking `len(positions) == " +
					"len(x)`.",
			},
		},
		Cases:  ropePositionsCases(),
		Checks: func(cases any) *Exercise { return RoPEPositions(nil, nil, nil, cases.(RoPEPositionsCases)) },
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
	hintRotateAtFirstRow = newHint("rope positions/first row skipped", secIndices,
		"your loop leaves row 0 as it was: every row is rotated to its own position, the first one included (a "+
			"first row at position 0 looks right either way, which hides the slip)")
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

// CacheCase is one call: CachePositions(CacheLen, N) must equal Want.
type CacheCase struct {
	Name        string
	CacheLen, N int
	Want        []int
}

// PackedCase is one call: PackedPositions(Lengths) must equal Want.
type PackedCase struct {
	Name    string
	Lengths []int
	Want    []int
}

// RotateAtCase is one call: RotateAt(X, Positions, Base) must equal Want,
// to 1e-9; Want is nil when Positions does not have one position a row.
type RotateAtCase struct {
	Name      string
	X         [][]float64
	Positions []int
	Base      float64
	Want      [][]float64
}

// NewestCase checks what a KV cache is for: the newest token of X, rotated
// alone at CachePositions(len(X)−1, 1), must equal its row of X rotated
// whole at positions 0 … len(X)−1.
type NewestCase struct {
	Name string
	X    [][]float64
	Base float64
}

// RoPEPositionsCases is exercise 14's case table.
type RoPEPositionsCases struct {
	Cache    []CacheCase    `doc:"CachePositions(CacheLen, N) must equal Want: the positions of N new tokens after CacheLen cached ones."`
	Packed   []PackedCase   `doc:"PackedPositions(Lengths) must equal Want: each packed document starts again at 0."`
	RotateAt []RotateAtCase `doc:"RotateAt(X, Positions, Base) must equal Want, to 1e-9: row r rotated to Positions[r] (nil when the lengths differ)."`
	Newest   []NewestCase   `doc:"The newest token of X rotated alone at CachePositions(len(X)−1, 1) must equal its row of X rotated whole at 0 … len(X)−1, to 1e-12."`
}

func ropePositionsCases() RoPEPositionsCases {
	cache := func(cacheLen, n int) CacheCase {
		return CacheCase{fmt.Sprintf("cache_%d_then_%d_new", cacheLen, n), cacheLen, n, rangeFrom(cacheLen, n)}
	}
	packed := func(lengths []int) PackedCase {
		name := "packed"
		for _, n := range lengths {
			name += fmt.Sprintf("_%d", n)
		}
		if len(lengths) == 0 {
			name = "packed_no_documents"
		}
		return PackedCase{name, lengths, refPacked(lengths, true, 0)}
	}
	x := randTable(7, 8, 61)
	packedPos := []int{0, 1, 2, 0, 1, 2, 3}
	return RoPEPositionsCases{
		Cache:  []CacheCase{cache(5, 3), cache(0, 4), cache(9, 1), cache(7, 0)},
		Packed: []PackedCase{packed([]int{3, 4}), packed([]int{1, 1, 2}), packed([]int{2, 0, 3}), packed([]int{})},
		RotateAt: []RotateAtCase{
			{"rotate_packed_rows", x, packedPos, 10000, refRotateAt(x, packedPos, 10000)},
			{"rotate_three_new_tokens_at_5_6_7", x[:3], []int{5, 6, 7}, 10000, refRotateAt(x[:3], []int{5, 6, 7}, 10000)},
			{"positions_and_rows_must_match", x, []int{0, 1, 2}, 10000, nil},
		},
		Newest: []NewestCase{{"newest_token_alone_matches_the_full_sequence", x, 10000}},
	}
}

var rotateAtArgs = argHints{hintRotateAtMutates, hintRotateAtMutates}

// intsCheck compares a slice of positions with want.
func intsCheck(name, call string, got func() []int, want []int, diag func([]int) *Hint) Check {
	return Check{Name: name, Call: call, Run: func() *Failure {
		g := got()
		if len(g) == len(want) && slices.Equal(g, want) {
			return nil
		}
		return fail(orElse(diag(g), hintPositionsFallback), fmt.Sprintf("%s = %v; want %v", call, g, want))
	}}
}

// diagCache names the idea behind wrong cache positions.
func diagCache(g []int, c CacheCase) *Hint {
	switch {
	case c.N > 0 && slices.Equal(g, rangeFrom(c.CacheLen-1, c.N)), c.N > 0 && slices.Equal(g, rangeFrom(c.CacheLen+1, c.N)):
		return hintCacheOffByOne
	case c.N > 0 && c.CacheLen > 0 && slices.Equal(g, rangeFrom(0, c.N)):
		return hintCacheRestart
	}
	return nil
}

// diagPacked names the idea behind wrong packed positions.
func diagPacked(g []int, c PackedCase) *Hint {
	switch {
	case slices.Equal(g, refPacked(c.Lengths, false, 0)):
		return hintPackedNoRestart
	case slices.Equal(g, refPacked(c.Lengths, true, 1)), slices.Equal(g, refPacked(c.Lengths, false, 1)):
		return hintPackedFromOne
	}
	return nil
}

// diagRotateAt names the idea behind wrong rotated rows.
func diagRotateAt(got [][]float64, c RotateAtCase) *Hint {
	skipsFirst := refRotateAt(c.X, c.Positions, c.Base)
	skipsFirst[0] = cloneVec(c.X[0])
	intDiv := make([][]float64, len(c.X))
	for r, x := range c.X {
		intDiv[r] = rotateWith(x, c.Positions[r], posenc.Interleaved, 1, func(int) float64 { return 1 }, false)
	}
	type v = variant[[][]float64]
	return firstMatch(got, sameTable(1e-9),
		v{hintRotateAtRowIndex, refRotateAt(c.X, rangeFrom(0, len(c.X)), c.Base)},
		v{hintRotateAtFirstRow, skipsFirst},
		v{hintRoPEIntDiv, intDiv})
}

// rotateAtCheck is a check of one RotateAt row.
func rotateAtCheck(rotateAt func(x [][]float64, positions []int, base float64) [][]float64, c RotateAtCase) Check {
	call := fmt.Sprintf("RotateAt(x %d×%d, positions=%v, base=%g)", len(c.X), len(c.X[0]), c.Positions, c.Base)
	var panicHint *Hint
	if c.Want == nil {
		panicHint = hintRotateAtLength
	}
	return Check{Name: c.Name, Call: call, PanicHint: panicHint, Run: func() *Failure {
		x, ps := cloneTable(c.X), slices.Clone(c.Positions)
		got := rotateAt(x, ps, c.Base)
		if c.Want == nil {
			if got != nil {
				return fail(hintRotateAtLength, fmt.Sprintf("%s returned %d rows; want nil.", call, len(got)))
			}
		} else if f := compareTable(call, got, c.Want, 1e-9, func(r int) string { return fmt.Sprintf("row %d (position %d)", r, c.Positions[r]) },
			label("dimension"), func(got [][]float64) *Hint { return diagRotateAt(got, c) }, hintPositionsFallback); f != nil {
			return f
		}
		return rotateAtArgs.check(call, got, arg{"x", x, c.X}, arg{"positions", ps, c.Positions})
	}}
}

// newestCheck is a check of a KV cache's newest token.
func newestCheck(cache func(cacheLen, n int) []int, rotateAt func(x [][]float64, positions []int, base float64) [][]float64, c NewestCase) Check {
	n := len(c.X)
	return Check{Name: c.Name, Call: fmt.Sprintf("RotateAt(x[%d:], CachePositions(%d, 1), %g)", n-1, n-1, c.Base), Run: func() *Failure {
		all := rotateAt(cloneTable(c.X), rangeFrom(0, n), c.Base)
		last := rotateAt(cloneTable(c.X[n-1:]), cache(n-1, 1), c.Base)
		if len(all) != n || len(last) != 1 {
			return fail(hintPositionsFallback, fmt.Sprintf("RotateAt returned %d and %d rows; want %d and 1.", len(all), len(last), n))
		}
		if i := diffVec(last[0], all[n-1], 1e-12); i >= 0 {
			return fail(hintPositionsFallback, append([]string{
				"the newest token rotated alone at its cache position differs from its row in the whole sequence:"},
				vecDiffLines(last[0], all[n-1], i, label("dimension"))...)...)
		}
		return nil
	}}
}

// RoPEPositions returns exercise 14's checks of cache, packed and rotateAt
// on cases.
func RoPEPositions(cache func(cacheLen, n int) []int, packed func(lengths []int) []int,
	rotateAt func(x [][]float64, positions []int, base float64) [][]float64, cases RoPEPositionsCases) *Exercise {
	var checks []Check
	for _, c := range cases.Cache {
		checks = append(checks, intsCheck(c.Name, fmt.Sprintf("CachePositions(%d, %d)", c.CacheLen, c.N),
			func() []int { return cache(c.CacheLen, c.N) }, c.Want, func(g []int) *Hint { return diagCache(g, c) }))
	}
	for _, c := range cases.Packed {
		call := fmt.Sprintf("PackedPositions(%v)", c.Lengths)
		checks = append(checks, Check{Name: c.Name, Call: call, Run: func() *Failure {
			lengths := slices.Clone(c.Lengths)
			got := packed(lengths)
			if !slices.Equal(got, c.Want) {
				return fail(orElse(diagPacked(got, c), hintPositionsFallback), fmt.Sprintf("%s = %v; want %v", call, got, c.Want))
			}
			return argHints{hintMutates, hintShares}.check(call, got, arg{"lengths", lengths, c.Lengths})
		}})
	}
	for _, c := range cases.RotateAt {
		checks = append(checks, rotateAtCheck(rotateAt, c))
	}
	for _, c := range cases.Newest {
		checks = append(checks, newestCheck(cache, rotateAt, c))
	}
	return newExercise(14, checks)
}
