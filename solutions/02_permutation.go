package exercises

import "math"

// Permute returns the rows of x in the order perm gives: row i of the result
// is x[perm[i]]. perm holds each of 0, …, len(x)−1 exactly once.
//
// IsPermutationEquivariant reports whether f commutes with permuting its rows
// on this input: whether f(Permute(x, perm)) equals Permute(f(x), perm), entry
// by entry, within tol. Attention without positions passes this check for
// every x and perm; that is why it cannot tell "dog bites man" from "man
// bites dog".
//
// Lesson 1 (permutation invariance). Equivariant means "shuffling the input
// shuffles the output the same way", which is not the same as invariant
// ("shuffling the input leaves the output unchanged"). Floating-point sums in
// a different order can differ in their last bits, hence tol. Neither function
// may modify its arguments.
func Permute(x [][]float64, perm []int) [][]float64 {
	out := make([][]float64, len(perm))
	for i, p := range perm {
		out[i] = append([]float64(nil), x[p]...)
	}
	return out
}

// IsPermutationEquivariant: see Permute's comment above.
func IsPermutationEquivariant(f func([][]float64) [][]float64, x [][]float64, perm []int, tol float64) bool {
	shuffledFirst := f(Permute(x, perm)) // permute, then apply f
	shuffledAfter := Permute(f(x), perm) // apply f, then permute
	if len(shuffledFirst) != len(shuffledAfter) {
		return false
	}
	for i := range shuffledFirst {
		if len(shuffledFirst[i]) != len(shuffledAfter[i]) {
			return false
		}
		for c := range shuffledFirst[i] {
			if math.Abs(shuffledFirst[i][c]-shuffledAfter[i][c]) > tol {
				return false
			}
		}
	}
	return true
}
