package exercises

import "math"

// ShiftMatrix returns T_k, the d×d matrix that moves a sinusoidal encoding
// k positions forward: T_k · PE(pos) = PE(pos+k) for every position pos,
// with PE the interleaved table of exercise 3.
//
// Lesson 2 (sinusoidal encodings). Each pair (sin pω_i, cos pω_i) at
// dimensions (2i, 2i+1) is turned by the angle kω_i. Write sin((p+k)ω) and
// cos((p+k)ω) with the angle-addition formulas to find the 2×2 block, and put
// it on the diagonal at rows and columns 2i, 2i+1; every other entry is 0.
// T_k depends on k only, never on pos: that is why a linear layer can learn
// to attend by relative offset. k may be negative.
func ShiftMatrix(d, k int) [][]float64 {
	t := make([][]float64, d)
	for r := range t {
		t[r] = make([]float64, d)
	}
	for i := range d / 2 {
		omega := math.Pow(10000, -float64(2*i)/float64(d))
		s, c := math.Sincos(float64(k) * omega)
		// sin((p+k)ω) =  sin(pω)·cos(kω) + cos(pω)·sin(kω)
		// cos((p+k)ω) = −sin(pω)·sin(kω) + cos(pω)·cos(kω)
		t[2*i][2*i], t[2*i][2*i+1] = c, s
		t[2*i+1][2*i], t[2*i+1][2*i+1] = -s, c
	}
	return t
}
