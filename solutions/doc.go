// Package exercises, in solutions/, holds one worked solution per exercise:
// solutions/NN_slug.go is exercises/NN_slug.go completed. The files declare
// package exercises so that each can stand in for its stub, either through
// go test -overlay (what go run ./cmd/grade -verify does, without touching
// the working tree) or by copying it over the stub in a scratch copy of the
// repository. This directory is an ordinary package: go build ./... and
// go vet ./... check it, and it has no tests of its own (the tests live in
// exercises/ and compare with pkg/posenc, never with these files).
package exercises
