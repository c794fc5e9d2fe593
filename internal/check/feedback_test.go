package check

// The tests of the feedback itself. For every exercise, a correct
// implementation written here (never the solution file) must pass all of its
// checks, and each learner-style wrong implementation (in each exercise's exNN_slug_test.go)
// must fail, with the hint that names its mistake as the first hint shown
// and no other specific hint anywhere: a hint must never describe a mistake
// that was not made. Finally, every specific hint must be produced by some
// mutant: a hint no wrong answer can trigger is a test that cannot fail.
//
// The mutants are written the way a learner would write each function,
// independently of the references the checks compare with. They are the
// replayable set of plausible wrong answers, and the source of the hints;
// generic mutation testing (make mutation) covers the rest.

import (
	"flag"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/posenc/course/internal/catalog"
)

// suite is one exercise's correct implementation and mutants.
type suite struct {
	num     int
	correct *Exercise
	mutants []mutant
}

// mutant is a wrong implementation and the hint it must get.
type mutant struct {
	name string
	hint *Hint
	ex   *Exercise
}

// mutSuite builds a suite from a parametric implementation and the
// exercise's registered case table: build(impl(""), cases) must pass and
// build(impl(bug), cases) must get bugs[bug], for each bug.
func mutSuite[F, C any](num int, build func(F, C) *Exercise, impl func(bug string) F, bugs map[string]*Hint) suite {
	cases := entries[num].Cases.(C)
	s := suite{num: num, correct: build(impl(""), cases)}
	for _, bug := range slices.Sorted(maps.Keys(bugs)) {
		s.mutants = append(s.mutants, mutant{name: bug, hint: bugs[bug], ex: build(impl(bug), cases)})
	}
	return s
}

// suiteBuilders holds every exercise's feedback suite; each exercise's
// exNN_slug_test.go adds its own from an init function.
var suiteBuilders []func() suite

// addSuite registers an exercise's feedback suite.
func addSuite(build func() suite) { suiteBuilders = append(suiteBuilders, build) }

// suites returns every exercise's suite, in the exercises' order.
func suites() []suite {
	var out []suite
	for _, build := range suiteBuilders {
		out = append(out, build())
	}
	slices.SortFunc(out, func(a, b suite) int { return a.num - b.num })
	return out
}

func TestFeedback(t *testing.T) {
	covered := map[*Hint]bool{}
	seen := map[int]bool{}
	for _, s := range suites() {
		seen[s.num] = true
		t.Run(s.correct.Info.Name(), func(t *testing.T) {
			t.Run("correct", func(t *testing.T) {
				for _, r := range s.correct.results() {
					if r.Kind != Pass {
						t.Errorf("a correct implementation fails %s:\n%s", r.Check.Name, r.Message(s.correct.Info))
					}
				}
			})
			for _, m := range s.mutants {
				t.Run(m.name, func(t *testing.T) {
					results := m.ex.results()
					o := m.ex.summarize(results)
					if o.status == catalog.StatusPass {
						t.Fatalf("the wrong implementation passes every check; want a failure with hint %q", m.hint.Name)
					}
					var all []string
					for _, r := range results {
						if r.Kind == Pass {
							continue
						}
						all = append(all, r.Check.Name+": "+r.Message(m.ex.Info))
						if h := r.hint(); h != nil && !h.Generic && h != m.hint {
							t.Errorf("check %s names another mistake, %q; want %q:\n%s", r.Check.Name, h.Name, m.hint.Name, r.Message(m.ex.Info))
						}
					}
					if o.summary != m.hint.String() {
						t.Errorf("the grader would show %q; want hint %q. Failures:\n%s", o.summary, m.hint.Name, strings.Join(all, "\n---\n"))
						return
					}
					covered[m.hint] = true
				})
			}
		})
	}
	for _, e := range Exercises() {
		if !seen[e.Num] {
			t.Errorf("exercise %d has no feedback suite", e.Num)
		}
	}
	// Only a full run can tell whether a hint is never produced.
	if f := flag.Lookup("test.run"); f != nil && f.Value.String() != "" {
		return
	}
	for _, h := range registry {
		if !h.Generic && !covered[h] {
			t.Errorf("hint %q is never produced by a wrong implementation", h.Name)
		}
	}
}
