package check

import (
	"fmt"
	"slices"
	"strings"

	"github.com/posenc/course/internal/catalog"
)

func init() {
	registerExercise(Entry{
		Exercise: catalog.Exercise{Num: 2, Slug: "permutation", Title: "Checking permutation equivariance", Test: "TestPermutation",
			Funcs: []string{"Permute", "IsPermutationEquivariant"}, Lesson: 1, Section: "Three words, two orders", Difficulty: catalog.Easy},
		Blurb: "write the check this lesson made, for any function of a sequence.",
		Hints: []string{
			"- `Permute`: `out[i]` is a copy of `x[perm[i]]` (`append([]float64(nil), x[perm[i]]...)`).",
			"- Equivariant is not invariant. Compute the two sides separately, f(Permute(x, perm)) and " +
				"Permute(f(x), perm), and compare them entry by entry with `math.Abs(a-b) <= tol`, never `a == b`: " +
				"attention sums its terms in another order once the rows move, and the last bits change.",
			"- Check the shapes first: if f(x) does not have len(x) rows you cannot even permute it, and two rows " +
				"of different widths are not equal. Return false; do not index past the end.",
		},
		Checks: func() *Exercise { return Permutation(nil, nil) },
	})
}

var (
	hintPermuteInverse = newHint("permutation/inverse", secThreeWords,
		"you applied the inverse permutation: row i of the result is x[perm[i]] (out[i] = x[perm[i]]), "+
			"not out[perm[i]] = x[i]. The two agree only when perm undoes itself, like a swap")
	hintPermuteMutates = newHint("permutation/mutates input", Section{},
		"your function changed its argument x (or the rows inside it): build the result in new slices")
	hintPermuteShares = newHint("permutation/shares rows", Section{},
		"your result shares its rows with x (out[i] = x[perm[i]]), so changing the result changes x: copy each row")
	hintEquivInvariance = newHint("permutation/invariance", secThreeWords,
		"your check compares f(Permute(x, perm)) with f(x): that tests invariance. Equivariance compares it with "+
			"Permute(f(x), perm): shuffling the input shuffles the output the same way")
	hintEquivMixedPerms = newHint("permutation/different permutations", secThreeWords,
		"your check agrees for swaps but not for a 3-cycle: the two sides are permuted differently (perm on one side, "+
			"its inverse on the other). Use Permute(·, perm) on both")
	hintEquivExact = newHint("permutation/exact comparison", secThreeWords,
		"your check rejects answers that differ by 1e-12: floating-point sums taken in another order differ in their "+
			"last bits. Compare each entry with |a−b| ≤ tol, not a == b")
	hintEquivAlwaysTrue = newHint("permutation/accepts position signals", secThreeWords,
		"your check also accepts f(x) = x + row index, which does depend on positions: compute the two sides "+
			"f(Permute(x, perm)) and Permute(f(x), perm) separately and compare every entry")
	hintEquivShape = newHint("permutation/shapes", Section{},
		"when f returns a table of another shape (fewer rows, or rows of another width) the answer is false: compare "+
			"the number of rows and each row's length before comparing entries, instead of indexing past the end")
	hintEquivTol = newHint("permutation/tolerance ignored", secThreeWords,
		"your check accepts differences larger than tol: an entry counts as equal only when |a−b| ≤ tol")
	hintEquivStrict = newHint("permutation/strict tolerance", secThreeWords,
		"your check rejects a difference of exactly tol: “within tol” includes tol itself, |a−b| ≤ tol, not |a−b| < tol")
	hintPermuteFallback = generic("permutation/permute fallback", secThreeWords,
		"row i of the result is x[perm[i]]")
	hintEquivFallback = generic("permutation/check fallback", secThreeWords,
		"compute f(Permute(x, perm)) and Permute(f(x), perm), then compare them entry by entry within tol")
)

// refPermute is the reference: out[i] = x[perm[i]].
func refPermute(x [][]float64, perm []int) [][]float64 {
	out := make([][]float64, len(perm))
	for i, p := range perm {
		out[i] = cloneVec(x[p])
	}
	return out
}

func refInversePermute(x [][]float64, perm []int) [][]float64 {
	out := make([][]float64, len(perm))
	for i, p := range perm {
		out[p] = cloneVec(x[i])
	}
	return out
}

// Functions fed to the learner's check.
func refRowwise(x [][]float64) [][]float64 { // equivariant, exactly
	out := cloneTable(x)
	for _, r := range out {
		for c := range r {
			r[c] = 2*r[c] + 1
		}
	}
	return out
}

func refAddRowIndex(x [][]float64) [][]float64 { // sees positions
	out := cloneTable(x)
	for i, r := range out {
		for c := range r {
			r[c] += float64(i)
		}
	}
	return out
}

func refReverseRows(x [][]float64) [][]float64 { // sees positions
	out := make([][]float64, len(x))
	for i := range x {
		out[i] = cloneVec(x[len(x)-1-i])
	}
	return out
}

// refNearlyRowwise is equivariant up to 1e-12: a tiny term depends on the
// first row, as summation order would.
func refNearlyRowwise(x [][]float64) [][]float64 {
	out := refRowwise(x)
	for _, r := range out {
		for c := range r {
			r[c] += 1e-12 * x[0][0]
		}
	}
	return out
}

// refQuarter is off by x[0][0]/4: exactly 0.5 for a swap of the first two
// rows of [[1 2] [3 4] [5 6]], every number exact in binary.
func refQuarter(x [][]float64) [][]float64 {
	out := refRowwise(x)
	for _, r := range out {
		for c := range r {
			r[c] += x[0][0] / 4
		}
	}
	return out
}

// refWobble is off by 1e-3·x[0][0]: beyond a tolerance of 1e-9.
func refWobble(x [][]float64) [][]float64 {
	out := refRowwise(x)
	for _, r := range out {
		for c := range r {
			r[c] += 1e-3 * x[0][0]
		}
	}
	return out
}

func refDropLastRow(x [][]float64) [][]float64 { return refRowwise(x)[:len(x)-1] }

// refWidenFirstRow gives the first row one more column.
func refWidenFirstRow(x [][]float64) [][]float64 {
	out := refRowwise(x)
	out[0] = append(out[0], 0)
	return out
}

func refSelfAttention(x [][]float64) [][]float64 {
	return refAttention(x, x, x, attentionOpts{})
}

// equivProbes are the learner's answers on functions whose answer is known.
type equivProbes struct {
	rowwiseSwap, rowwiseCycle, nearlySwap, addRowIndex, reverse, wobble, quarter bool
}

// diagEquivariance names the idea behind a wrong answer of the check.
func diagEquivariance(p equivProbes) *Hint {
	switch {
	case !p.rowwiseSwap:
		return hintEquivInvariance
	case !p.rowwiseCycle:
		return hintEquivMixedPerms
	case !p.nearlySwap:
		return hintEquivExact
	case p.addRowIndex || p.reverse:
		return hintEquivAlwaysTrue
	case p.wobble:
		return hintEquivTol
	case !p.quarter:
		return hintEquivStrict
	}
	return nil
}

// Permutation returns exercise 2's checks of permute and isEquiv.
func Permutation(permute func([][]float64, []int) [][]float64,
	isEquiv func(func([][]float64) [][]float64, [][]float64, []int, float64) bool) *Exercise {
	x := [][]float64{{1, 2}, {3, 4}, {5, 6}}
	cycle, swap := []int{1, 2, 0}, []int{1, 0, 2}
	xAttn := randTable(4, 3, 11)
	probes := func() equivProbes {
		return equivProbes{
			rowwiseSwap:  isEquiv(refRowwise, cloneTable(x), slices.Clone(swap), 1e-9),
			rowwiseCycle: isEquiv(refRowwise, cloneTable(x), slices.Clone(cycle), 1e-9),
			nearlySwap:   isEquiv(refNearlyRowwise, cloneTable(x), slices.Clone(swap), 1e-9),
			addRowIndex:  isEquiv(refAddRowIndex, cloneTable(x), slices.Clone(cycle), 1e-9),
			reverse:      isEquiv(refReverseRows, cloneTable(x), slices.Clone(cycle), 1e-9),
			wobble:       isEquiv(refWobble, cloneTable(x), slices.Clone(cycle), 1e-9),
			quarter:      isEquiv(refQuarter, cloneTable(x), slices.Clone(swap), 0.5),
		}
	}
	check := func(name, fName string, f func([][]float64) [][]float64, x [][]float64, perm []int, tol float64, want bool, why string) Case {
		call := fmt.Sprintf("IsPermutationEquivariant(%s, x=%s, perm=%v, tol=%g)", fName, fmtTable(x), perm, tol)
		var panicHint *Hint
		if strings.HasPrefix(name, "f_") { // f changes the shape
			panicHint = hintEquivShape
		}
		return Case{Name: name, Call: call, PanicHint: panicHint, Run: func() *Failure {
			got := isEquiv(f, cloneTable(x), slices.Clone(perm), tol)
			if got == want {
				return nil
			}
			return fail(orElse(diagEquivariance(probes()), hintEquivFallback),
				fmt.Sprintf("%s = %v; want %v: %s", call, got, want, why))
		}}
	}
	permuteCall := fmt.Sprintf("Permute(x=%s, perm=%v)", fmtTable(x), cycle)
	return newExercise(2, []Case{
		tableCheck{
			name: "permute_a_3_cycle", call: permuteCall,
			got:  func() [][]float64 { return permute(cloneTable(x), slices.Clone(cycle)) },
			want: refPermute(x, cycle), tol: 0, row: label("row"), col: label("column"),
			diag: func(got [][]float64) *Hint {
				return firstMatch(got, sameTable(0), variant[[][]float64]{hintPermuteInverse, refInversePermute(x, cycle)})
			},
			fallback: hintPermuteFallback,
		}.check(),
		unchangedTable("permute_leaves_x_alone", permuteCall, x,
			func(in [][]float64) { permute(in, slices.Clone(cycle)) }, hintPermuteMutates),
		{Name: "permute_copies_rows", Call: permuteCall, Run: func() *Failure {
			in := cloneTable(x)
			out := permute(in, slices.Clone(cycle))
			if r, _ := diffTable(in, x, 0); r >= 0 {
				return nil // permute_leaves_x_alone reports it
			}
			if len(out) != len(x) || len(out[0]) == 0 {
				return fail(hintPermuteFallback, permuteCall+" did not return 3 rows.")
			}
			out[0][0] += 100
			if in[cycle[0]][0] != x[cycle[0]][0] {
				return fail(hintPermuteShares, "after out := "+permuteCall+", changing out[0][0] changed x[1][0].")
			}
			return nil
		}},
		check("rowwise_map_and_a_swap", "f(x) = 2x+1", refRowwise, x, swap, 1e-9, true,
			"f acts on each row alone, so it commutes with any shuffle of the rows"),
		check("rowwise_map_and_a_3_cycle", "f(x) = 2x+1", refRowwise, x, cycle, 1e-9, true,
			"f acts on each row alone, so it commutes with any shuffle of the rows"),
		check("attention_without_positions", "self-attention", refSelfAttention, xAttn, []int{2, 0, 3, 1}, 1e-9, true,
			"attention without positions sees a set of rows, so shuffling the input shuffles the output"),
		check("rounding_within_tol", "f(x) = 2x+1 + 1e-12·x[0][0]", refNearlyRowwise, x, swap, 1e-9, true,
			"the two sides differ by about 1e-12, well within tol"),
		check("a_difference_of_exactly_tol", "f(x) = 2x+1 + x[0][0]/4", refQuarter, x, swap, 0.5, true,
			"the two sides differ by exactly 0.5 = tol, which is within tol"),
		check("differences_beyond_tol", "f(x) = 2x+1 + 1e-3·x[0][0]", refWobble, x, cycle, 1e-9, false,
			"the two sides differ by about 1e-3, far beyond tol"),
		check("adding_the_row_index", "f(x) = x + row index", refAddRowIndex, x, cycle, 1e-9, false,
			"adding the row index is a position signal: shuffling moves rows but not the indices added to them"),
		check("reversing_the_rows", "f(x) = rows in reverse order", refReverseRows, x, cycle, 1e-9, false,
			"reversing depends on where each row is"),
		check("f_drops_a_row", "f(x) = 2x+1 without its last row", refDropLastRow, x, swap, 1e-9, false,
			"f's output has another shape than its input: the answer is false, not a panic"),
		check("f_widens_the_first_row", "f(x) = 2x+1 with one more column in row 0", refWidenFirstRow, x, swap, 1e-9, false,
			"the two sides have rows of different widths: the answer is false, not a panic"),
		unchangedTable("check_leaves_x_alone", "IsPermutationEquivariant(f, x, perm, tol)", x,
			func(in [][]float64) { isEquiv(refRowwise, in, slices.Clone(cycle), 1e-9) }, hintPermuteMutates),
	})
}
