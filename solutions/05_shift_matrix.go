package exercises

import "math"

// ShiftMatrix returns T_k, the d×d matrix that moves a sinusoidal encoding
// (exercise 3's interleaved table) k positions along: T_k · PE(pos) =
// PE(pos+k) for every position pos. k may be negative or zero.
//
// T_k depends on k only, never on pos: that is why a linear layer can learn
// to attend by relative offset.
//
// Read lesson 2, “Shifting is a rotation”. Hints: exercises/README.md.
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
