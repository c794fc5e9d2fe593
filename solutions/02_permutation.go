package exercises

import "math"

// Permute returns the rows of x in the order perm gives: row i of the result
// is a copy of x[perm[i]]. perm holds each of 0, …, len(x)−1 exactly once.
//
// IsPermutationEquivariant reports whether f commutes with shuffling its
// rows, on this input: whether f(Permute(x, perm)) equals Permute(f(x), perm)
// entry by entry, within tol. When the two sides do not even have the same
// shape (f may return fewer rows, or rows of another width), the answer is
// false. Attention without positions passes this check for every x and perm:
// that is why it cannot tell "dog bites man" from "man bites dog".
//
// Neither function may modify its arguments. Read lesson 1, “Three words,
// two orders”. Hints: exercises/README.md.
func Permute(x [][]float64, perm []int) [][]float64 {
	out := make([][]float64, len(perm))
	for i, p := range perm {
		out[i] = append([]float64(nil), x[p]...)
	}
	return out
}

// IsPermutationEquivariant: see Permute's comment above.
func IsPermutationEquivariant(f func([][]float64) [][]float64, x [][]float64, perm []int, tol float64) bool {
	fx := f(x)
	if len(fx) != len(x) { // f changed the number of rows: fx cannot be shuffled by perm
		return false
	}
	shuffledFirst := f(Permute(x, perm)) // permute, then apply f
	shuffledAfter := Permute(fx, perm)   // apply f, then permute
	if len(shuffledFirst) != len(shuffledAfter) {
		return false
	}
	for i, row := range shuffledFirst {
		if len(row) != len(shuffledAfter[i]) {
			return false
		}
		for c := range row {
			if !(math.Abs(row[c]-shuffledAfter[i][c]) <= tol) {
				return false
			}
		}
	}
	return true
}
