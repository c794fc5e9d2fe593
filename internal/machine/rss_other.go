//go:build !unix

package machine

// PeakRSSMiB returns 0: this system's peak memory is not read here.
func PeakRSSMiB() float64 { return 0 }
