// Package catalog is the one place where the course's exercises are
// described: their numbers, files, functions, lessons and points, and the
// few words the exercise tests and the grader exchange.
//
// The exercise tests read it directly. cmd/grade, which lives outside
// exercises/ and so cannot import this package, carries a generated copy of
// this file (cmd/grade/internal/catalog); exercises/README.md's table is
// generated from it as well. `go run ./exercises/internal/gen` rewrites
// both, and the tests of exercises/internal/... fail when either is stale.
//
// This file must stay self-contained (standard library only): it is copied
// verbatim.
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

// Exercises is the course's exercise list, in order.
var Exercises = []Exercise{
	{Num: 1, Slug: "attention", Title: "Attention without positions", Test: "TestAttention",
		Funcs: []string{"Attention"}, Lesson: 1, Section: "Three words, two orders", Difficulty: Easy},
	{Num: 2, Slug: "permutation", Title: "Checking permutation equivariance", Test: "TestPermutation",
		Funcs: []string{"Permute", "IsPermutationEquivariant"}, Lesson: 1, Section: "Three words, two orders", Difficulty: Easy},
	{Num: 3, Slug: "sinusoidal", Title: "The sinusoidal table", Test: "TestSinusoidal",
		Funcs: []string{"Sinusoidal"}, Lesson: 2, Section: "Deriving the formula", Difficulty: Medium},
	{Num: 4, Slug: "add_positions", Title: "Adding positions to token embeddings", Test: "TestAddPositions",
		Funcs: []string{"AddPositions"}, Lesson: 2, Section: "Scaling embeddings by √d_model", Difficulty: Easy},
	{Num: 5, Slug: "shift_matrix", Title: "The shift matrix T_k", Test: "TestShiftMatrix",
		Funcs: []string{"ShiftMatrix"}, Lesson: 2, Section: "Shifting is a rotation", Difficulty: Medium},
	{Num: 6, Slug: "learned", Title: "Learned lookup, with a max-length error", Test: "TestLearnedLookup",
		Funcs: []string{"LearnedLookup"}, Lesson: 3, Section: "No row, no position", Difficulty: Easy},
	{Num: 7, Slug: "rope", Title: "RoPE, interleaved", Test: "TestRoPEInterleaved",
		Funcs: []string{"RotateInterleaved"}, Lesson: 4, Section: "Rotating a pair", Difficulty: Medium},
	{Num: 8, Slug: "rope_halves", Title: "RoPE, half-split, and the layout converter", Test: "TestRoPEHalves",
		Funcs: []string{"RotateHalves", "InterleavedToHalves"}, Lesson: 4, Section: "Two layouts, one rotation", Difficulty: Medium},
	{Num: 9, Slug: "ntk", Title: "Linear, NTK-aware and dynamic NTK frequencies", Test: "TestNTK",
		Funcs: []string{"LinearInvFreq", "NTKInvFreq", "DynamicNTKInvFreq"}, Lesson: 5,
		Section: "NTK-aware scaling: change the base, not the positions", Difficulty: Medium},
	{Num: 10, Slug: "yarn", Title: "YaRN frequencies and attention factor", Test: "TestYaRN",
		Funcs: []string{"YaRNInvFreq", "YaRNAttentionFactor"}, Lesson: 5, Section: "YaRN: decide per pair, by wavelength", Difficulty: Advanced},
	{Num: 11, Slug: "llama3", Title: "Llama 3 frequencies", Test: "TestLlama3",
		Funcs: []string{"Llama3InvFreq"}, Lesson: 5, Section: "Llama 3: the same idea, in wavelengths", Difficulty: Medium},
	{Num: 12, Slug: "alibi", Title: "ALiBi slopes for any head count, and the bias", Test: "TestALiBi",
		Funcs: []string{"ALiBiSlopes", "ALiBiBias"}, Lesson: 6, Section: "The slopes", Difficulty: Medium},
	{Num: 13, Slug: "t5_buckets", Title: "T5 relative position buckets", Test: "TestT5Buckets",
		Funcs: []string{"T5Bucket", "T5BucketMatrix"}, Lesson: 7, Section: "From distance to bucket", Difficulty: Advanced},
	{Num: 14, Slug: "rope_positions", Title: "RoPE at explicit positions: a KV cache and packed sequences", Test: "TestRoPEPositions",
		Funcs: []string{"CachePositions", "PackedPositions", "RotateAt"}, Lesson: 4, Section: "Positions are just indices",
		Difficulty: Easy, Uses: []int{7}},
	{Num: 15, Slug: "relative_scores", Title: "Is a score matrix relative? Toeplitz checks", Test: "TestRelativeScores",
		Funcs: []string{"RoPEScores", "IsToeplitz"}, Lesson: 4, Section: "Why the score depends only on m − n",
		Difficulty: Medium, Uses: []int{7}},
	{Num: 16, Slug: "partial_rotary", Title: "Partial rotary: rotate only the first dimensions", Test: "TestPartialRotary",
		Funcs: []string{"RotatePartial"}, Lesson: 4, Section: "Positions are just indices", Difficulty: Easy, Uses: []int{7}},
	{Num: 17, Slug: "convert_qk", Title: "Converting Q/K projections between the two layouts", Test: "TestConvertQK",
		Funcs: []string{"ConvertQKRows", "HeadScores"}, Lesson: 4, Section: "Converting checkpoints",
		Difficulty: Medium, Uses: []int{7, 8}},
	{Num: 18, Slug: "choose_factor", Title: "Choosing a scaling factor", Test: "TestChooseFactor",
		Funcs: []string{"PairsPastTrained", "SmallestNTKFactor"}, Lesson: 5, Section: "NTK falls short in the middle",
		Difficulty: Medium},
	{Num: 19, Slug: "interpolate_learned", Title: "Stretching a learned table to a longer length", Test: "TestInterpolateTable",
		Funcs: []string{"InterpolateTable"}, Lesson: 3, Section: "No row, no position", Difficulty: Medium},
	{Num: 20, Slug: "biased_attention", Title: "A position bias inside softmax attention", Test: "TestBiasedAttention",
		Funcs: []string{"BiasedAttention"}, Lesson: 6, Section: "What it does to attention", Difficulty: Easy},
	{Num: 21, Slug: "sentence_attention", Title: "Attention over a sentence, with the encoding of your choice", Test: "TestSentenceAttention",
		Funcs: []string{"SentenceAttention"}, Lesson: 7, Section: "The five families side by side",
		Difficulty: Advanced, Uses: []int{1, 4, 7, 12, 20}},
}

// ByNum returns exercise n.
func ByNum(n int) (Exercise, bool) {
	for _, e := range Exercises {
		if e.Num == n {
			return e, true
		}
	}
	return Exercise{}, false
}

// ByFile returns the exercise whose stub or test file is named base
// ("03_sinusoidal.go" or "03_sinusoidal_test.go").
func ByFile(base string) (Exercise, bool) {
	for _, e := range Exercises {
		if base == e.File() || base == e.TestFile() {
			return e, true
		}
	}
	return Exercise{}, false
}

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
