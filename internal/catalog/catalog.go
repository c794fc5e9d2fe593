// Package catalog holds the words the course's exercise machinery shares:
// what describes an exercise (its number, files, functions, lesson and
// points), the lessons, and what the exercise tests and the grader
// (cmd/grade) exchange. The exercises themselves are registered beside
// their checks, in internal/check, which is where they are looked up
// (check.Exercises, check.ByNum, check.ByFile). It imports the standard
// library only.
package catalog

import (
	"fmt"
	"path"
	"strings"
)

// Difficulty is how hard an exercise is; it sets its points.
type Difficulty string

// The difficulties, and what passing an exercise of each is worth.
const (
	Easy     Difficulty = "easy"     // 5 points
	Medium   Difficulty = "medium"   // 10 points
	Advanced Difficulty = "advanced" // 15 points
)

// Points returns what an exercise of difficulty d is worth.
func (d Difficulty) Points() int {
	switch d {
	case Easy:
		return 5
	case Medium:
		return 10
	case Advanced:
		return 15
	}
	return 0
}

// Lesson is one lesson of the course.
type Lesson struct {
	Num   int    // N in lessons/0N-slug.md
	Title string // a short title, e.g. "Sinusoidal encodings"
}

// Lessons are the course's lessons, in order.
var Lessons = []Lesson{
	{1, "Permutation invariance"},
	{2, "Sinusoidal encodings"},
	{3, "Learned positions"},
	{4, "RoPE"},
	{5, "Context extension"},
	{6, "ALiBi"},
	{7, "T5 relative bias"},
	{8, "The length-extrapolation lab"},
	{9, "Today's models"},
	{10, "Production and beyond text"},
	{11, "A real model"},
}

// LessonTitle returns lesson n's short title, or "" when there is none.
func LessonTitle(n int) string {
	for _, l := range Lessons {
		if l.Num == n {
			return l.Title
		}
	}
	return ""
}

// Exercise describes one exercise.
type Exercise struct {
	Num        int        // NN in exercises/NN_slug.go
	Slug       string     // slug in exercises/NN_slug.go
	Title      string     // what the README's table calls it
	Test       string     // the test function that grades it, in exercises/NN_slug_test.go
	Funcs      []string   // the functions the learner writes, in the stub's order
	Lesson     int        // the lesson it belongs to
	Section    string     // the lesson section that teaches it, as its heading reads (no number, no markup)
	Difficulty Difficulty // sets the points
	// Uses lists the exercises whose functions the worked solution calls:
	// with one of them still a stub, this exercise cannot pass.
	Uses []int
}

// File returns the file name shared by the stub and the solution,
// e.g. "03_sinusoidal.go".
func (e Exercise) File() string { return fmt.Sprintf("%02d_%s.go", e.Num, e.Slug) }

// TestFile returns e's test file name, e.g. "03_sinusoidal_test.go".
func (e Exercise) TestFile() string { return fmt.Sprintf("%02d_%s_test.go", e.Num, e.Slug) }

// Path returns the stub's path from the repository root.
func (e Exercise) Path() string { return path.Join(Dir, e.File()) }

// Name returns "03 sinusoidal".
func (e Exercise) Name() string { return fmt.Sprintf("%02d %s", e.Num, e.Slug) }

// Points returns what passing e is worth.
func (e Exercise) Points() int { return e.Difficulty.Points() }

// FuncList returns e's functions as prose: "A", "A and B", "A, B and C".
func (e Exercise) FuncList() string {
	switch n := len(e.Funcs); n {
	case 0:
		return ""
	case 1:
		return e.Funcs[0]
	default:
		return strings.Join(e.Funcs[:n-1], ", ") + " and " + e.Funcs[n-1]
	}
}

// Where returns the lesson section to read, e.g.
// "lesson 2, “Deriving the formula”".
func (e Exercise) Where() string { return fmt.Sprintf("lesson %d, “%s”", e.Lesson, e.Section) }

// MaxPoints returns the points of the exercises together.
func MaxPoints(list []Exercise) int {
	total := 0
	for _, e := range list {
		total += e.Points()
	}
	return total
}

// Dir is the exercises' directory, from the repository root, and Package
// their import path.
const (
	Dir     = "exercises"
	Package = "github.com/posenc/course/exercises"
)

// NotImplemented starts the panic of every untouched stub; StubPanic is the
// whole message, which names the stub's file so that the tests can tell
// whose stub was reached.
const NotImplemented = "not implemented yet"

// StubPanic returns the panic message of e's stub.
func StubPanic(e Exercise) string { return NotImplemented + ": open " + e.Path() }

// NotCompiling ends the panic message of the stand-in stub cmd/grade
// compiles in place of a file that does not compile.
const NotCompiling = " (it does not compile)"

// The exercise tests report to cmd/grade through a file: when ReportEnv
// names one, each exercise test appends Records to it, one JSON object per
// line, written as they happen so that the grader can still tell which call
// was running if the process dies (os.Exit, a crash).
const ReportEnv = "POSENC_EXERCISE_REPORT"

// TimeoutEnv overrides the time each check of the exercise tests may take,
// as a Go duration ("10s"), for very slow machines (make mutation sets it
// lower).
const TimeoutEnv = "EXERCISE_TIMEOUT"

// The kinds of Record.
const (
	EventCall   = "call"   // a check is about to call the learner's code
	EventResult = "result" // the exercise's outcome
)

// Record is one line of the report file.
type Record struct {
	Event    string `json:"event"`
	Exercise int    `json:"exercise"`
	Check    string `json:"check,omitempty"`    // EventCall: the check's name
	Call     string `json:"call,omitempty"`     // EventCall: what is called, e.g. "Sinusoidal(start=0, n=3, d=4)"
	Status   string `json:"status,omitempty"`   // EventResult: one of the Status constants
	Checks   int    `json:"checks,omitempty"`   // EventResult: checks that ran
	Passed   int    `json:"passed,omitempty"`   // EventResult: checks that passed
	Summary  string `json:"summary,omitempty"`  // EventResult: the first hint, whole, or what went wrong
	Messages string `json:"messages,omitempty"` // EventResult: every failure's message
}

// The statuses of an exercise, in the report file and in cmd/grade.
const (
	StatusPass      = "pass"
	StatusFail      = "fail"
	StatusTodo      = "not implemented"
	StatusWaits     = "waits"            // it calls another exercise that is not written yet
	StatusTimeout   = "timed out"        // a call did not return
	StatusCrash     = "crashed"          // the process died: os.Exit, log.Fatal, a panic in a goroutine, …
	StatusNoCompile = "does not compile" // cmd/grade only
	StatusNotGraded = "not graded"       // cmd/grade only: something else stopped it from running
)
