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
		Hints: Hints{
			Read: []Section{secThreeWords},
			Idea: []string{
				"Equivariant is not invariant: shuffling the rows of the input must shuffle the rows of the " +
					"output the same way. Do not reason about f: compute both sides and compare them.",
			},
			Formula: []string{
				"- `Permute`: row i of the result is a copy of x[perm[i]].",
				"- f is equivariant for perm when f(Permute(x, perm)) = Permute(f(x), perm), entry by entry, " +
					"within tol: |a − b| ≤ tol, tol itself included. Never a == b: attention sums its terms in " +
					"another order once the rows move, and the last bits change.",
				"- When f(x) does not have len(x) rows, or two rows to compare differ in width, the answer is " +
					"false.",
			},
			Code: []string{
				"- `out[i] = append([]float64(nil), x[perm[i]]...)`.",
				"- `a, b := f(Permute(x, perm)), Permute(f(x), perm)`, after checking `len(f(x)) == len(x)`; " +
					"compare `len(a[i]) == len(b[i])` before the entries, and `if math.Abs(a[i][c]-b[i][c]) > tol { " +
					"return false }`.",
			},
		},
		Cases:  permutationCases(),
		Checks: func(cases any) *Exercise { return Permutation(nil, nil, cases.(PermutationCases)) },
	})
}

var (
	hintPermuteInverse = newHint("permutation/inverse", secThreeWords,
		"you applied the inverse permutation: row i of the result is x[perm[i]] (out[i] = x[perm[i]]), "+
			"not out[perm[i]] = x[i]. The two agree only when perm undoes itself, like a swap")
	hintPermuteMutates = newHint("permutation/mutates input", Section{},
		"your function changed an argument (x, the rows inside it, or perm): build the result in new slices and "+
			"leave the arguments as they were")
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

// The functions exercise 2's case table feeds to the learner's check.

// Rowwise returns 2x+1, row by row: equivariant, exactly.
func Rowwise(x [][]float64) [][]float64 {
	out := cloneTable(x)
	for _, r := range out {
		for c := range r {
			r[c] = 2*r[c] + 1
		}
	}
	return out
}

// AddRowIndex adds each row's index to it: it sees positions.
func AddRowIndex(x [][]float64) [][]float64 {
	out := cloneTable(x)
	for i, r := range out {
		for c := range r {
			r[c] += float64(i)
		}
	}
	return out
}

// ReverseRows returns the rows in reverse order: it sees positions.
func ReverseRows(x [][]float64) [][]float64 {
	out := make([][]float64, len(x))
	for i := range x {
		out[i] = cloneVec(x[len(x)-1-i])
	}
	return out
}

// NearlyRowwise is equivariant up to 1e-12: a tiny term depends on the
// first row, as summation order would.
func NearlyRowwise(x [][]float64) [][]float64 {
	out := Rowwise(x)
	for _, r := range out {
		for c := range r {
			r[c] += 1e-12 * x[0][0]
		}
	}
	return out
}

// QuarterOff is off by x[0][0]/4: exactly 0.5 for a swap of the first two
// rows of [[1 2] [3 4] [5 6]], every number exact in binary.
func QuarterOff(x [][]float64) [][]float64 {
	out := Rowwise(x)
	for _, r := range out {
		for c := range r {
			r[c] += x[0][0] / 4
		}
	}
	return out
}

// WobbleOff is off by 1e-3·x[0][0]: beyond a tolerance of 1e-9.
func WobbleOff(x [][]float64) [][]float64 {
	out := Rowwise(x)
	for _, r := range out {
		for c := range r {
			r[c] += 1e-3 * x[0][0]
		}
	}
	return out
}

// DropLastRow is Rowwise without its last row: another shape.
func DropLastRow(x [][]float64) [][]float64 { return Rowwise(x)[:len(x)-1] }

// WidenFirstRow gives the first row one more column.
func WidenFirstRow(x [][]float64) [][]float64 {
	out := Rowwise(x)
	out[0] = append(out[0], 0)
	return out
}

// SelfAttention is attention without positions, x attending to itself.
func SelfAttention(x [][]float64) [][]float64 {
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

// PermuteCase is one call: Permute(X, Perm) must equal Want.
type PermuteCase struct {
	Name string
	X    [][]float64
	Perm []int
	Want [][]float64
}

// EquivariantCase is one call of the check: IsPermutationEquivariant(F,
// X, Perm, Tol) must return Want, for the reason Why. About says what F
// computes.
type EquivariantCase struct {
	Name  string
	F     func([][]float64) [][]float64
	About string
	X     [][]float64
	Perm  []int
	Tol   float64
	Want  bool
	Why   string
}

// PermutationCases is exercise 2's case table.
type PermutationCases struct {
	Permute     []PermuteCase     `doc:"Permute(X, Perm) must equal Want exactly: row i is a copy of X[Perm[i]]."`
	Equivariant []EquivariantCase `doc:"IsPermutationEquivariant(F, X, Perm, Tol) must return Want, for the reason Why (About says what F computes; the functions are in internal/check/ex02_permutation.go)."`
}

func permutationCases() PermutationCases {
	x := [][]float64{{1, 2}, {3, 4}, {5, 6}}
	cycle, swap := []int{1, 2, 0}, []int{1, 0, 2}
	rowwise := "f acts on each row alone, so it commutes with any shuffle of the rows"
	return PermutationCases{
		Permute: []PermuteCase{{Name: "permute_a_3_cycle", X: x, Perm: cycle, Want: refPermute(x, cycle)}},
		Equivariant: []EquivariantCase{
			{"rowwise_map_and_a_swap", Rowwise, "f(x) = 2x+1", x, swap, 1e-9, true, rowwise},
			{"rowwise_map_and_a_3_cycle", Rowwise, "f(x) = 2x+1", x, cycle, 1e-9, true, rowwise},
			{"attention_without_positions", SelfAttention, "self-attention", randTable(4, 3, 11), []int{2, 0, 3, 1}, 1e-9, true,
				"attention without positions sees a set of rows, so shuffling the input shuffles the output"},
			{"rounding_within_tol", NearlyRowwise, "f(x) = 2x+1 + 1e-12·x[0][0]", x, swap, 1e-9, true,
				"the two sides differ by about 1e-12, well within tol"},
			{"a_difference_of_exactly_tol", QuarterOff, "f(x) = 2x+1 + x[0][0]/4", x, swap, 0.5, true,
				"the two sides differ by exactly 0.5 = tol, which is within tol"},
			{"differences_beyond_tol", WobbleOff, "f(x) = 2x+1 + 1e-3·x[0][0]", x, cycle, 1e-9, false,
				"the two sides differ by about 1e-3, far beyond tol"},
			{"adding_the_row_index", AddRowIndex, "f(x) = x + row index", x, cycle, 1e-9, false,
				"adding the row index is a position signal: shuffling moves rows but not the indices added to them"},
			{"reversing_the_rows", ReverseRows, "f(x) = rows in reverse order", x, cycle, 1e-9, false,
				"reversing depends on where each row is"},
			{"f_drops_a_row", DropLastRow, "f(x) = 2x+1 without its last row", x, swap, 1e-9, false,
				"f's output has another shape than its input: the answer is false, not a panic"},
			{"f_widens_the_first_row", WidenFirstRow, "f(x) = 2x+1 with one more column in row 0", x, swap, 1e-9, false,
				"the two sides have rows of different widths: the answer is false, not a panic"},
		},
	}
}

var permuteArgs = argHints{hintPermuteMutates, hintPermuteShares}

// diagPermute names the idea behind a wrong permutation.
func diagPermute(got [][]float64, c PermuteCase) *Hint {
	return firstMatch(got, sameTable(0), variant[[][]float64]{hintPermuteInverse, refInversePermute(c.X, c.Perm)})
}

// probeEquivariance runs the learner's check on functions whose answer is
// known, and names the idea behind its wrong answers.
func probeEquivariance(isEquiv func(func([][]float64) [][]float64, [][]float64, []int, float64) bool) *Hint {
	x := [][]float64{{1, 2}, {3, 4}, {5, 6}}
	cycle, swap := []int{1, 2, 0}, []int{1, 0, 2}
	return diagEquivariance(equivProbes{
		rowwiseSwap:  isEquiv(Rowwise, cloneTable(x), slices.Clone(swap), 1e-9),
		rowwiseCycle: isEquiv(Rowwise, cloneTable(x), slices.Clone(cycle), 1e-9),
		nearlySwap:   isEquiv(NearlyRowwise, cloneTable(x), slices.Clone(swap), 1e-9),
		addRowIndex:  isEquiv(AddRowIndex, cloneTable(x), slices.Clone(cycle), 1e-9),
		reverse:      isEquiv(ReverseRows, cloneTable(x), slices.Clone(cycle), 1e-9),
		wobble:       isEquiv(WobbleOff, cloneTable(x), slices.Clone(cycle), 1e-9),
		quarter:      isEquiv(QuarterOff, cloneTable(x), slices.Clone(swap), 0.5),
	})
}

// Permutation returns exercise 2's checks of permute and isEquiv on cases.
func Permutation(permute func([][]float64, []int) [][]float64,
	isEquiv func(func([][]float64) [][]float64, [][]float64, []int, float64) bool, cases PermutationCases) *Exercise {
	var checks []Check
	for _, c := range cases.Permute {
		call := fmt.Sprintf("Permute(x=%s, perm=%v)", fmtTable(c.X), c.Perm)
		checks = append(checks, Check{Name: c.Name, Call: call, Run: func() *Failure {
			x, perm := cloneTable(c.X), slices.Clone(c.Perm)
			got := permute(x, perm)
			if f := compareTable(call, got, c.Want, 0, label("row"), label("column"),
				func(got [][]float64) *Hint { return diagPermute(got, c) }, hintPermuteFallback); f != nil {
				return f
			}
			return permuteArgs.check(call, got, arg{"x", x, c.X}, arg{"perm", perm, c.Perm})
		}})
	}
	for _, c := range cases.Equivariant {
		call := fmt.Sprintf("IsPermutationEquivariant(%s, x=%s, perm=%v, tol=%g)", c.About, fmtTable(c.X), c.Perm, c.Tol)
		var panicHint *Hint
		if strings.HasPrefix(c.Name, "f_") { // f changes the shape
			panicHint = hintEquivShape
		}
		checks = append(checks, Check{Name: c.Name, Call: call, PanicHint: panicHint, Run: func() *Failure {
			x, perm := cloneTable(c.X), slices.Clone(c.Perm)
			got := isEquiv(c.F, x, perm, c.Tol)
			if got != c.Want {
				return fail(orElse(probeEquivariance(isEquiv), hintEquivFallback),
					fmt.Sprintf("%s = %v; want %v: %s", call, got, c.Want, c.Why))
			}
			return permuteArgs.check(call, got, arg{"x", x, c.X}, arg{"perm", perm, c.Perm})
		}})
	}
	return newExercise(2, checks)
}
