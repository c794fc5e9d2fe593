package check

import (
	"fmt"
	"maps"
	"slices"

	"github.com/posenc/course/internal/catalog"
)

// Entry is everything about one exercise that is not the learner's stub, its
// solution or its learner-style mutants: its catalog entry, the words the
// lesson and the README show for it, and its checks. Each exercise's file in
// this package registers its Entry from an init function, so that adding an
// exercise touches that file and no list elsewhere; go generate ./exercises
// writes the learner's test files, the README's table and hints, and each
// lesson's Exercises section from the entries.
type Entry struct {
	catalog.Exercise
	// Blurb ends the exercise's line in its lesson's Exercises section,
	// after the linked title: what the learner builds, in a few words
	// (Markdown, one line).
	Blurb string
	// Hints are the exercise's folded hints in exercises/README.md: the
	// steps the stub's comment leaves out on purpose, in layers a learner
	// opens one at a time, so that the code comes last.
	Hints Hints
	// Cases is the exercise's case table: a struct whose fields are slices
	// of rows, each row a check's inputs and its expected value (or the
	// property it checks). gen prints it into the learner's test file, whose
	// test runs it; a field's doc tag is printed above it.
	Cases any
	// Checks returns the exercise's checks of a case table built without the
	// learner's functions (nil for each), for listing them; they must not be
	// run.
	Checks func(cases any) *Exercise
}

// Hints are an exercise's folded hints, in three layers: where to look in
// the lesson and the idea to use, then the formula, then (for most
// exercises) the code. Each is Markdown, one block (a paragraph or a list
// item) a string.
type Hints struct {
	Read    []Section // the lesson sections to read, named first
	Idea    []string  // the idea, in words, without a formula
	Formula []string  // the formula, and the values to check it with
	Code    []string  // the Go that is easy to get wrong; nil for none
}

// entries holds the registered exercises, by number.
var entries = map[int]Entry{}

// registerExercise adds an exercise; every exercise file calls it from its init
// function. It panics on a malformed or repeated entry: the package's tests
// and go generate ./exercises would then fail at once.
func registerExercise(e Entry) {
	switch {
	case e.Num <= 0 || e.Slug == "" || e.Title == "" || e.Test == "" || len(e.Funcs) == 0 || e.Lesson <= 0 || e.Section == "":
		panic(fmt.Sprintf("check: exercise %d (%s) lacks its number, slug, title, test, functions, lesson or section", e.Num, e.Slug))
	case e.Difficulty.Points() == 0:
		panic(fmt.Sprintf("check: exercise %d has no known difficulty (%q)", e.Num, e.Difficulty))
	case e.Blurb == "" || len(e.Hints.Read) == 0 || len(e.Hints.Idea) == 0 || len(e.Hints.Formula) == 0 || e.Cases == nil || e.Checks == nil:
		panic(fmt.Sprintf("check: exercise %d lacks its blurb, hints, cases or checks", e.Num))
	}
	if old, ok := entries[e.Num]; ok {
		panic(fmt.Sprintf("check: exercise %d registered twice (%s and %s)", e.Num, old.Slug, e.Slug))
	}
	entries[e.Num] = e
}

// Entries returns every registered exercise, in order.
func Entries() []Entry {
	out := make([]Entry, 0, len(entries))
	for _, num := range slices.Sorted(maps.Keys(entries)) {
		out = append(out, entries[num])
	}
	return out
}

// Exercises returns every exercise's catalog entry, in order: the list the
// exercise tests, the grader and the generated files all read.
func Exercises() []catalog.Exercise {
	out := make([]catalog.Exercise, 0, len(entries))
	for _, e := range Entries() {
		out = append(out, e.Exercise)
	}
	return out
}

// ByNum returns exercise num.
func ByNum(num int) (catalog.Exercise, bool) {
	e, ok := entries[num]
	return e.Exercise, ok
}

// ByFile returns the exercise whose stub or test file is named base
// ("03_sinusoidal.go" or "03_sinusoidal_test.go").
func ByFile(base string) (catalog.Exercise, bool) {
	for _, e := range entries {
		if base == e.File() || base == e.TestFile() {
			return e.Exercise, true
		}
	}
	return catalog.Exercise{}, false
}
