//go:build race

package posenc

// raceDetector is true in `go test -race` builds, where sync.Pool drops
// items at random (so pooled kernels allocate) and checkptr is on.
const raceDetector = true
