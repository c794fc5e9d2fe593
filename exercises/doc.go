// Package exercises is where you implement the core of each lesson yourself.
//
// Each exercise is a file NN_slug.go holding a stub: a doc comment that says
// what to compute and which lesson section to read, the function's
// signature, and a body that says "not implemented yet". Replace the body
// with your code and run its tests:
//
//	go test ./exercises                   # every exercise
//	go test ./exercises -run Sinusoidal   # one exercise
//	go run ./cmd/grade                    # a score per exercise, with the first hint in full
//	go run ./cmd/grade -lesson 2          # one lesson's exercises
//
// Each NN_slug_test.go holds the case table its exercise runs: the inputs
// and the expected answer of each check. The tests tell you what they
// called, where your answer first differs from the expected one, and, when
// your answer matches a classic mistake, which idea it missed.
// exercises/README.md lists the exercises with folded hints, and solutions/
// holds one worked solution per exercise. The checks themselves live in
// internal/check: name your own helpers as you like.
package exercises

// The test files, exercises/README.md's table and hints, and each lesson's
// list of exercises are generated from internal/check's entries.
//go:generate go run ./internal/gen
