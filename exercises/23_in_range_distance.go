package exercises

// A RoPE model trained on trainLen tokens met, in rotary pair i, the angles
// Δ·trained[i] for the distances Δ up to trainLen (lesson 5's convention: the
// largest is trainLen·trained[i], in radians). A pair for which that reaches
// a full turn has met every angle there is; any other pair met only the arc
// from 0 to trainLen·trained[i].
//
// At inference a scaling method (position interpolation, NTK-aware, YaRN…:
// your exercises 9 to 11) changes the frequencies to scaled[i]. InRangeDistance
// returns the longest distance D such that, at every distance up to D, every
// pair rotating at scaled[i] meets only angles it met in training: how far
// the scaled model can look before some pair runs past the end of its
// trained arc. It returns math.Inf(1) when no pair ever does. D need not be
// a whole number: do not round it.
//
// trained and scaled have the same length and positive values; leave them
// unchanged. Read lesson 8, “Scaling RoPE at inference, without training”,
// and lesson 5, “What a pair has seen”. Hints: exercises/README.md.
func InRangeDistance(trained, scaled []float64, trainLen int) float64 {
	// TODO
	panic("not implemented yet: open exercises/23_in_range_distance.go")
}
