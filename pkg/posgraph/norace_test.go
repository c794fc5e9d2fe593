//go:build !race

package posgraph

// raceDetector is true in `go test -race` builds (see race_test.go).
const raceDetector = false
