//go:build unix

package machine

import (
	"runtime"
	"syscall"
)

// PeakRSSMiB returns the process's peak resident memory so far, in MiB (0
// where the system does not say).
func PeakRSSMiB() float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	if runtime.GOOS == "darwin" || runtime.GOOS == "ios" {
		return float64(ru.Maxrss) / (1 << 20) // bytes
	}
	return float64(ru.Maxrss) / 1024 // kilobytes
}
