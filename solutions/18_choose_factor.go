package exercises

import "math"

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
	pairs := []int{}
	if targetLen <= trainLen {
		return pairs
	}
	for i := range d / 2 {
		theta := math.Pow(base, -float64(2*i)/float64(d))
		turns := float64(trainLen) * theta / (2 * math.Pi) // turns completed in training
		if math.Floor(turns) == 0 {
			pairs = append(pairs, i)
		}
	}
	return pairs
}

// SmallestNTKFactor: see PairsPastTrained's comment above.
func SmallestNTKFactor(d int, base float64, trainLen, targetLen int) float64 {
	past := PairsPastTrained(d, base, trainLen, targetLen)
	if len(past) == 0 {
		return 1
	}
	// NTK with factor s divides pair i's frequency by s^(2i/(d−2)): least for
	// the first pair past its trained angles, which must be divided by
	// targetLen/trainLen. Pair 0 is never divided.
	first := past[0]
	ratio := float64(targetLen) / float64(trainLen)
	return math.Pow(ratio, float64(d-2)/float64(2*first))
}
