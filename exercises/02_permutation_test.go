package exercises

import (
	"fmt"
	"slices"
	"testing"
)

var exPermutation = exInfo{file: "exercises/02_permutation.go", funcs: "Permute and IsPermutationEquivariant",
	lesson: "lesson 1, permutation invariance"}

func TestPermutation(t *testing.T) {
	runExercise(t, exPermutation, permutationCases(Permute, IsPermutationEquivariant))
}

var (
	hintPermuteInverse = newHint("permutation/inverse",
		"you applied the inverse permutation: row i of the result is x[perm[i]] (out[i] = x[perm[i]]), "+
			"not out[perm[i]] = x[i]. The two agree only when perm undoes itself, like a swap (lesson 1, “Three words, two orders”).")
	hintPermuteMutates = newHint("permutation/mutates input",
		"your function changed its argument x (or the rows inside it): build the result in new slices.")
	hintEquivInvariance = newHint("permutation/invariance",
		"your check compares f(Permute(x, perm)) with f(x): that tests invariance. Equivariance compares it with "+
			"Permute(f(x), perm): shuffling the input shuffles the output the same way (lesson 1, “Three words, two orders”).")
	hintEquivMixedPerms = newHint("permutation/different permutations",
		"your check agrees for swaps but not for a 3-cycle: the two sides are permuted differently (perm on one side, "+
			"its inverse on the other). Use Permute(·, perm) on both (lesson 1, “Three words, two orders”).")
	hintEquivExact = newHint("permutation/exact comparison",
		"your check rejects answers that differ by 1e-12: floating-point sums taken in another order differ in their "+
			"last bits. Compare each entry with |a−b| ≤ tol, not a == b (lesson 1, “Three words, two orders”).")
	hintEquivAlwaysTrue = newHint("permutation/accepts position signals",
		"your check also accepts f(x) = x + row index, which does depend on positions: compute the two sides "+
			"f(Permute(x, perm)) and Permute(f(x), perm) separately and compare every entry (lesson 1, “Three words, two orders”).")
)

// refPermute is the reference: out[i] = x[perm[i]].
func refPermute(x [][]float64, perm []int) [][]float64 {
	out := make([][]float64, len(perm))
	for i, p := range perm {
		out[i] = append([]float64(nil), x[p]...)
	}
	return out
}

func refInversePermute(x [][]float64, perm []int) [][]float64 {
	out := make([][]float64, len(perm))
	for i, p := range perm {
		out[p] = append([]float64(nil), x[i]...)
	}
	return out
}

// Functions fed to the learner's check.
func refRowwise(x [][]float64) [][]float64 { // equivariant, exactly
	out := exCloneTable(x)
	for _, r := range out {
		for c := range r {
			r[c] = 2*r[c] + 1
		}
	}
	return out
}

func refAddRowIndex(x [][]float64) [][]float64 { // sees positions
	out := exCloneTable(x)
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
		out[i] = append([]float64(nil), x[len(x)-1-i]...)
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

func refSelfAttention(x [][]float64) [][]float64 {
	return refAttention(x, x, x, refAttentionOpts{})
}

// equivProbes are the learner's answers on functions whose answer is known.
type equivProbes struct {
	rowwiseSwap, rowwiseCycle, nearlySwap, addRowIndex, reverse bool
}

// diagEquivariance names the idea behind a wrong answer of the check.
func diagEquivariance(p equivProbes) string {
	switch {
	case !p.rowwiseSwap:
		return hintEquivInvariance
	case !p.rowwiseCycle:
		return hintEquivMixedPerms
	case !p.nearlySwap:
		return hintEquivExact
	case p.addRowIndex || p.reverse:
		return hintEquivAlwaysTrue
	}
	return ""
}

func permutationCases(permute func([][]float64, []int) [][]float64,
	isEquiv func(func([][]float64) [][]float64, [][]float64, []int, float64) bool) []exCase {
	x := [][]float64{{1, 2}, {3, 4}, {5, 6}}
	cycle, swap := []int{1, 2, 0}, []int{1, 0, 2}
	xAttn := refRandTable(4, 3, 11)
	probes := func() equivProbes {
		return equivProbes{
			rowwiseSwap:  isEquiv(refRowwise, exCloneTable(x), slices.Clone(swap), 1e-9),
			rowwiseCycle: isEquiv(refRowwise, exCloneTable(x), slices.Clone(cycle), 1e-9),
			nearlySwap:   isEquiv(refNearlyRowwise, exCloneTable(x), slices.Clone(swap), 1e-9),
			addRowIndex:  isEquiv(refAddRowIndex, exCloneTable(x), slices.Clone(cycle), 1e-9),
			reverse:      isEquiv(refReverseRows, exCloneTable(x), slices.Clone(cycle), 1e-9),
		}
	}
	check := func(name, fName string, f func([][]float64) [][]float64, x [][]float64, perm []int, tol float64, want bool, why string) exCase {
		call := fmt.Sprintf("IsPermutationEquivariant(%s, x=%s, perm=%v, tol=%g)", fName, exFmtTable(x), perm, tol)
		return exCase{name: name, call: call, run: func() string {
			got := isEquiv(f, exCloneTable(x), slices.Clone(perm), tol)
			if got == want {
				return ""
			}
			return exMsg(diagEquivariance(probes()),
				"compute f(Permute(x, perm)) and Permute(f(x), perm), then compare them entry by entry within tol "+
					"(lesson 1, “Three words, two orders”).",
				fmt.Sprintf("%s = %v; want %v: %s", call, got, want, why))
		}}
	}
	permuteCall := fmt.Sprintf("Permute(x=%s, perm=%v)", exFmtTable(x), cycle)
	return []exCase{
		exTableCheck{
			name: "permute_a_3_cycle", call: permuteCall,
			got:  func() [][]float64 { return permute(exCloneTable(x), slices.Clone(cycle)) },
			want: refPermute(x, cycle), tol: 0, row: exLabel("row"), col: exLabel("column"),
			diag: func(got [][]float64) string {
				return diagFirst(got, exSameTable(0), exVariant[[][]float64]{hintPermuteInverse, refInversePermute(x, cycle)})
			},
			fallback: "row i of the result is x[perm[i]] (lesson 1, “Three words, two orders”).",
		}.exCase(),
		{name: "permute_leaves_x_alone", call: permuteCall, run: func() string {
			in := exCloneTable(x)
			permute(in, slices.Clone(cycle))
			if r, _ := exDiffTable(in, x, 0); r >= 0 {
				return exMsg(hintPermuteMutates, "", permuteCall+" changed x to "+exFmtTable(in)+".")
			}
			return ""
		}},
		check("rowwise_map_and_a_swap", "f(x) = 2x+1", refRowwise, x, swap, 1e-9, true,
			"f acts on each row alone, so it commutes with any shuffle of the rows"),
		check("rowwise_map_and_a_3_cycle", "f(x) = 2x+1", refRowwise, x, cycle, 1e-9, true,
			"f acts on each row alone, so it commutes with any shuffle of the rows"),
		check("attention_without_positions", "self-attention", refSelfAttention, xAttn, []int{2, 0, 3, 1}, 1e-9, true,
			"attention without positions sees a set of rows, so shuffling the input shuffles the output"),
		check("rounding_within_tol", "f(x) = 2x+1 + 1e-12·x[0][0]", refNearlyRowwise, x, swap, 1e-9, true,
			"the two sides differ by about 1e-12, well within tol"),
		check("adding_the_row_index", "f(x) = x + row index", refAddRowIndex, x, cycle, 1e-9, false,
			"adding the row index is a position signal: shuffling moves rows but not the indices added to them"),
		check("reversing_the_rows", "f(x) = rows in reverse order", refReverseRows, x, cycle, 1e-9, false,
			"reversing depends on where each row is"),
		{name: "check_leaves_x_alone", call: "IsPermutationEquivariant(f, x, perm, tol)", run: func() string {
			in := exCloneTable(x)
			isEquiv(refRowwise, in, slices.Clone(cycle), 1e-9)
			if r, _ := exDiffTable(in, x, 0); r >= 0 {
				return exMsg(hintPermuteMutates, "", "IsPermutationEquivariant changed x to "+exFmtTable(in)+".")
			}
			return ""
		}},
	}
}
