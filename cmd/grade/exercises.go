package main

import "fmt"

// exercise describes one exercise: its files, the test that grades it, and
// what it is worth. exercises/README.md must agree with this list; grade
// -verify checks that it does.
type exercise struct {
	Num        int    // NN in exercises/NN_slug.go
	Slug       string // slug in exercises/NN_slug.go
	Test       string // the top-level test function that grades it
	Lesson     int    // the lesson it belongs to
	Difficulty string // easy, medium or advanced
	Points     int    // what passing it is worth
}

// exercises is the course's exercise list, in order.
var exercises = []exercise{
	{1, "attention", "TestAttention", 1, "easy", 5},
	{2, "permutation", "TestPermutation", 1, "easy", 5},
	{3, "sinusoidal", "TestSinusoidal", 2, "medium", 10},
	{4, "add_positions", "TestAddPositions", 2, "easy", 5},
	{5, "shift_matrix", "TestShiftMatrix", 2, "medium", 10},
	{6, "learned", "TestLearnedLookup", 3, "easy", 5},
	{7, "rope", "TestRoPEInterleaved", 4, "medium", 10},
	{8, "rope_halves", "TestRoPEHalves", 4, "medium", 10},
	{9, "ntk", "TestNTK", 5, "medium", 10},
	{10, "yarn", "TestYaRN", 5, "advanced", 15},
	{11, "llama3", "TestLlama3", 5, "medium", 10},
	{12, "alibi", "TestALiBi", 6, "medium", 10},
	{13, "t5_buckets", "TestT5Buckets", 7, "advanced", 15},
}

// Base returns the file name shared by the stub and the solution,
// e.g. "03_sinusoidal.go".
func (e exercise) Base() string { return fmt.Sprintf("%02d_%s.go", e.Num, e.Slug) }

// Name returns "03 sinusoidal".
func (e exercise) Name() string { return fmt.Sprintf("%02d %s", e.Num, e.Slug) }

// maxPoints returns the points of all exercises together.
func maxPoints(list []exercise) int {
	total := 0
	for _, e := range list {
		total += e.Points
	}
	return total
}
