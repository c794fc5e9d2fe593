package check

import "sort"

// Learner-style implementations of exercise 22 (Usable context from a
// recall evaluation), correct when bug is "" and otherwise wrong in one
// classic way: each must fail with the hint that names its mistake
// (feedback_test.go).

func init() { addSuite(mutUsableSuite) }

func mutUsableSuite() suite {
	return mutSuite(22, UsableContext, mutUsable, map[string]*Hint{
		"strict":                    hintUsableStrict,
		"skips_undefined":           hintUsableSkipsUndefined,
		"ignores_defined":           hintUsableIgnoresDefined,
		"assumes_sorted":            hintUsableGivenOrder,
		"sorts_distances":           hintUsableUnpaired,
		"longest_passing":           hintUsableNotPrefix,
		"first_failure":             hintUsableFirstFailure,
		"counts":                    hintUsableCount,
		"reads_first":               hintUsableEmpty,
		"sorts_in_place":            hintUsableMutates,
		"zeroes_undefined_in_place": hintUsableMutates,
		"skips_the_shortest":        hintUsableSkipsFirst,
	})
}

// measurements sorts three parallel slices together, by distance.
type measurements struct {
	d   []int
	a   []float64
	def []bool
}

func (m measurements) Len() int           { return len(m.d) }
func (m measurements) Less(i, j int) bool { return m.d[i] < m.d[j] }
func (m measurements) Swap(i, j int) {
	m.d[i], m.d[j] = m.d[j], m.d[i]
	m.a[i], m.a[j] = m.a[j], m.a[i]
	m.def[i], m.def[j] = m.def[j], m.def[i]
}

func mutUsable(bug string) func(distances []int, accuracy []float64, defined []bool, threshold float64) int {
	return func(distances []int, accuracy []float64, defined []bool, threshold float64) int {
		if bug == "zeroes_undefined_in_place" { // an undefined accuracy means nothing: make it fail
			for i := range defined {
				if !defined[i] {
					accuracy[i] = 0
				}
			}
		}
		m := measurements{distances, accuracy, defined}
		switch bug {
		case "sorts_in_place":
		case "sorts_distances":
			d := append([]int(nil), distances...)
			sort.Ints(d)
			m = measurements{d, accuracy, defined}
		default:
			m = measurements{append([]int(nil), distances...), append([]float64(nil), accuracy...), append([]bool(nil), defined...)}
		}
		if bug == "reads_first" && m.d[0] == 0 { // the learner's guard against a zero distance
			return 0
		}
		if bug != "assumes_sorted" && bug != "sorts_distances" {
			sort.Sort(m)
		}
		usable, passing := 0, 0
		first := 0
		if bug == "skips_the_shortest" {
			first = 1
		}
		for i := first; i < len(m.d); i++ {
			ok := m.def[i] && m.a[i] >= threshold
			switch bug {
			case "strict":
				ok = m.def[i] && m.a[i] > threshold
			case "ignores_defined":
				ok = !(m.a[i] < threshold)
			case "skips_undefined":
				if !m.def[i] {
					continue
				}
			}
			if !ok {
				if bug == "first_failure" {
					return m.d[i]
				}
				if bug == "longest_passing" {
					continue
				}
				break
			}
			usable = m.d[i]
			passing++
		}
		if bug == "counts" {
			return passing
		}
		return usable
	}
}
