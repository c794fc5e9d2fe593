// Package exercises is where you implement the core of each lesson yourself.
//
// Each exercise is a file NN_slug.go holding a stub: a doc comment stating the
// task, the function's signature, and a body that says "not implemented yet".
// Replace the body with your code and run its tests:
//
//	go test ./exercises                   # every exercise
//	go test ./exercises -run Sinusoidal   # one exercise
//	go run ./cmd/grade                    # a score per exercise
//
// The tests tell you what they called, where your answer first differs from
// the expected one, and, when your answer matches a classic mistake, which
// idea it missed. exercises/README.md lists the exercises with hints, and
// solutions/ holds one worked solution per exercise.
//
// The tests' helpers start with ref, diag, hint, check, mut or ex: give your
// own helpers other names so that the package still compiles with its tests.
package exercises
