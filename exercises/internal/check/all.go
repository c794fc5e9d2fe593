package check

// All returns every exercise's checks, built without the learner's
// functions: for listing them (the generated test files, the README) and
// for the feedback tests. Its checks must not be run.
func All() []*Exercise {
	return []*Exercise{
		Attention(nil),
		Permutation(nil, nil),
		Sinusoidal(nil),
		AddPositions(nil),
		ShiftMatrix(nil),
		LearnedLookup(nil),
		RoPEInterleaved(nil),
		RoPEHalves(nil, nil),
		NTK(nil, nil, nil),
		YaRN(nil, nil),
		Llama3(nil),
		ALiBi(nil, nil),
		T5Buckets(nil, nil),
		RoPEPositions(nil, nil, nil),
		RelativeScores(nil, nil),
		PartialRotary(nil),
		ConvertQK(nil, nil),
		ChooseFactor(nil, nil),
		InterpolateTable(nil),
		BiasedAttention(nil),
		SentenceAttention(nil),
	}
}
