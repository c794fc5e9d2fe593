package check

import (
	"fmt"
	"strings"
)

// Section is a place in a lesson, named by its heading as the lesson shows
// it (without its number or markup).
type Section struct {
	Lesson int
	Title  string
}

func (s Section) String() string { return fmt.Sprintf("lesson %d, “%s”", s.Lesson, s.Title) }

// Hint is what a failure tells the learner to look at. A specific hint
// names one misconception and is shown only when the wrong answer matches
// it; a generic one (Generic true) is the fallback of a check when no
// misconception was recognised.
type Hint struct {
	Name    string  // a short name, for the feedback tests' messages
	Text    string  // the hint, without its lesson reference
	Section Section // where to read about it; zero for none
	Generic bool
}

// String returns the hint with its lesson reference.
func (h *Hint) String() string {
	if h.Section.Lesson == 0 {
		return h.Text + "."
	}
	return fmt.Sprintf("%s (%s).", h.Text, h.Section)
}

// registry holds every hint, so that the feedback tests can check that each
// specific one is produced by some wrong implementation, and that every
// section they cite exists.
var registry []*Hint

// newHint registers a specific hint.
func newHint(name string, sec Section, text string) *Hint {
	return register(&Hint{Name: name, Text: text, Section: sec})
}

// generic registers a fallback hint.
func generic(name string, sec Section, text string) *Hint {
	return register(&Hint{Name: name, Text: text, Section: sec, Generic: true})
}

func register(h *Hint) *Hint {
	for _, old := range registry {
		if old.Name == h.Name || old.Text == h.Text {
			panic("check: hint registered twice: " + old.Name + " and " + h.Name)
		}
	}
	if strings.HasSuffix(h.Text, ".") {
		panic("check: hint " + h.Name + " ends with a period; String adds the reference and the period")
	}
	registry = append(registry, h)
	return h
}

// Failure is a wrong answer: what was called and where the answer first
// differs (Lines), and the hint for it.
type Failure struct {
	Lines []string
	Hint  *Hint
}

// fail returns a Failure with hint h (nil for none) and the non-empty lines.
func fail(h *Hint, lines ...string) *Failure {
	f := &Failure{Hint: h}
	for _, l := range lines {
		if l != "" {
			f.Lines = append(f.Lines, l)
		}
	}
	return f
}

// orElse returns h, or fallback when h is nil.
func orElse(h, fallback *Hint) *Hint {
	if h != nil {
		return h
	}
	return fallback
}

func (f *Failure) String() string {
	lines := f.Lines
	if f.Hint != nil {
		lines = append(append([]string(nil), lines...), "Hint: "+f.Hint.String())
	}
	return strings.Join(lines, "\n")
}

// Lessons' sections cited by the hints.
var (
	secThreeWords     = Section{1, "Three words, two orders"}
	secDeriving       = Section{2, "Deriving the formula"}
	secWorked         = Section{2, "Worked examples, by hand and by posenc"}
	secShift          = Section{2, "Shifting is a rotation"}
	secScaling        = Section{2, "Scaling embeddings by √d_model"}
	secSinLayouts     = Section{2, "Two layouts: interleaved and [sin | cos]"}
	secFloat32Sin     = Section{2, "Beyond the paper: float32 at long positions"}
	secCost           = Section{3, "What the table costs"}
	secNoRow          = Section{3, "No row, no position"}
	secRotating       = Section{4, "Rotating a pair"}
	secRelative       = Section{4, "Why the score depends only on m − n"}
	secRoPELayouts    = Section{4, "Two layouts, one rotation"}
	secConverting     = Section{4, "Converting checkpoints"}
	secIndices        = Section{4, "Positions are just indices"}
	secRoPEFreqs      = Section{4, "The frequencies"}
	secFloat32RoPE    = Section{4, "Precision and speed: build the angles in float64"}
	secSeen           = Section{5, "What a pair has seen"}
	secPI             = Section{5, "Position interpolation: divide every frequency by s"}
	secNTK            = Section{5, "NTK-aware scaling: change the base, not the positions"}
	secNTKShort       = Section{5, "NTK falls short in the middle"}
	secDynamic        = Section{5, "Dynamic NTK: let the base grow with the input"}
	secYaRN           = Section{5, "YaRN: decide per pair, by wavelength"}
	secLlama3         = Section{5, "Llama 3: the same idea, in wavelengths"}
	secSlopes         = Section{6, "The slopes"}
	secALiBiBias      = Section{6, "What the bias looks like"}
	secALiBiAttention = Section{6, "What it does to attention"}
	secT5Buckets      = Section{7, "From distance to bucket"}
	secFamilies       = Section{7, "The five families side by side"}
	secAddConcat      = Section{1, "Adding positions breaks the symmetry"}
)

// Hints shared by several exercises.
var (
	hintPanic = generic("panic", Section{},
		"your code panicked: the line above is where; an index out of range usually means a loop bound or a "+
			"slice length is off by one")
	hintMutates = generic("mutates an argument", Section{},
		"your function changed one of its arguments: leave the caller's data as it was, and compute into new slices")
	hintShares = generic("shares memory", Section{},
		"your result shares memory with an argument: build it in new slices, so that changing the result never "+
			"changes the caller's data")
	hintLoop = generic("endless loop", Section{},
		"look for a loop whose condition never becomes false (a counter that is never incremented, or a step that is 0)")
)
