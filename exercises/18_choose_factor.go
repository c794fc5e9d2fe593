package exercises

// A RoPE model trained on trainLen tokens has seen, for each pair, only the
// angles that distances up to trainLen produce. These two functions decide
// whether a longer input needs scaling, and how much.
//
// PairsPastTrained returns, in increasing order, the pairs i of a head of d
// dimensions (frequencies base^(−2i/d)) that meet angles at distance
// targetLen that training never showed them: the pairs that did not complete
// one full turn within trainLen tokens, when targetLen is longer than
// trainLen. It returns no pairs otherwise.
//
// SmallestNTKFactor returns the smallest factor s for which NTK-aware scaling
// (exercise 9's NTKInvFreq) leaves no pair past its trained angles at
// targetLen: no pair that did not complete a turn in training reaches a
// larger angle at distance targetLen, with the scaled frequencies, than it
// reached at distance trainLen before scaling. It returns 1 when no pair
// needs scaling, and math.Inf(1) when no factor can help.
//
// d is even and greater than 2. Read lesson 5, “What a pair has seen” and
// “NTK falls short in the middle”. Hints: exercises/README.md.
func PairsPastTrained(d int, base float64, trainLen, targetLen int) []int {
	// TODO
	panic("not implemented yet: open exercises/18_choose_factor.go")
}

// SmallestNTKFactor: see PairsPastTrained's comment above.
func SmallestNTKFactor(d int, base float64, trainLen, targetLen int) float64 {
	// TODO
	panic("not implemented yet: open exercises/18_choose_factor.go")
}
