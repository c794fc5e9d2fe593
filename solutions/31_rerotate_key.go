package exercises

import "math"

// ReRotateKey returns a key that a KV cache holds already rotated to some
// position n, moved to position n+delta: every pair turned once more, by
// delta·invFreq[i], without the key's unrotated value. Pairs are
// interleaved (pair i at dimensions 2i and 2i+1), len(invFreq) =
// len(key)/2, and delta may be negative (StreamingLLM moves keys back when
// it evicts tokens).
//
// Leave key and invFreq unchanged.
//
// Read lesson 10, “Caches: rotate once, and what moves a cached key”.
// Hints: exercises/README.md.
func ReRotateKey(key, invFreq []float64, delta int) []float64 {
	out := make([]float64, len(key))
	for i, w := range invFreq {
		// R(delta)·R(n) = R(n+delta): rotating by the offset alone moves the key.
		s, c := math.Sincos(float64(delta) * w)
		x, y := key[2*i], key[2*i+1]
		out[2*i], out[2*i+1] = x*c-y*s, x*s+y*c
	}
	return out
}
