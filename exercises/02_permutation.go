package exercises

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
	// TODO
	panic("not implemented yet: open exercises/02_permutation.go")
}

// IsPermutationEquivariant: see Permute's comment above.
func IsPermutationEquivariant(f func([][]float64) [][]float64, x [][]float64, perm []int, tol float64) bool {
	// TODO
	panic("not implemented yet: open exercises/02_permutation.go")
}
