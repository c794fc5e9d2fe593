//go:build race

package posgraph

// raceDetector is true in `go test -race` builds.
const raceDetector = true
