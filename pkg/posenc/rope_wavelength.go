package posenc

import "math"

// LongestWavelength returns the wavelength 2π/ω, in positions, of r's
// slowest rotating pair (frequency scaling included): a context longer than
// this is where that pair first sees angles it never completed a turn of.
// Pairs with frequency 0 (p-RoPE's) have no wavelength and are skipped; it
// returns +Inf when no pair rotates, and an error for an invalid r.
func (r RoPE) LongestWavelength() (float64, error) {
	freq, err := r.InvFreq()
	if err != nil {
		return 0, err
	}
	longest := math.Inf(1)
	slowest := math.Inf(1)
	for _, w := range freq {
		if w > 0 && w < slowest {
			slowest = w
		}
	}
	if !math.IsInf(slowest, 1) {
		longest = 2 * math.Pi / slowest
	}
	return longest, nil
}
