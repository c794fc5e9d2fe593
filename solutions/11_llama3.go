package exercises

import "math"

// Llama3InvFreq returns RoPE's d/2 frequencies under Llama 3.1's scaling
// (Hugging Face rope_type "llama3", low_freq_factor 1, high_freq_factor 4)
// for a model trained on originalLen positions with base base, run on a
// context factor times longer: pairs whose wavelength is short compared with
// originalLen are kept, long ones are divided by factor, and the ones in
// between are blended smoothly. It must equal Hugging Face's inv_freq to
// 1e-9, for any originalLen (not only multiples of 4).
//
// Llama 3.1 itself uses d = 128, base 500000, factor 8 and originalLen 8192.
//
// Read lesson 5, “Llama 3: the same idea, in wavelengths”. Hints:
// exercises/README.md.
func Llama3InvFreq(d int, base, factor float64, originalLen int) []float64 {
	const lowFreqFactor, highFreqFactor = 1.0, 4.0
	l := float64(originalLen)
	freq := make([]float64, d/2)
	for i := range freq {
		theta := math.Pow(base, -float64(2*i)/float64(d))
		wavelen := 2 * math.Pi / theta
		// Hugging Face's three bands in one formula: smooth is 1 (keep θ)
		// for wavelengths up to L/4, 0 (θ/factor) from L on, and blends
		// linearly in L/λ in between; clamping it to [0, 1] is the band test.
		smooth := (l/wavelen - lowFreqFactor) / (highFreqFactor - lowFreqFactor)
		smooth = math.Min(math.Max(smooth, 0), 1)
		freq[i] = (1-smooth)*theta/factor + smooth*theta
	}
	return freq
}
