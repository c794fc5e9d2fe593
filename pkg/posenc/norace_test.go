//go:build !race

package posenc

// raceDetector is true in `go test -race` builds (see race_test.go).
const raceDetector = false
