package check

import (
	"math"
	"slices"
)

// Learner-style implementations of exercise 39 (sink layers and the
// largest rotary pairs), correct when bug is "" and otherwise wrong in one
// classic way: each must fail with the hint that names its mistake
// (feedback_test.go).

func init() { addSuite(mutProbeSuite) }

type mutProbeFuncs struct {
	sinks func(firstAttn [][]float64, threshold float64) []int
	pairs func(meanSquare [][]float64) []int
}

func mutProbeSuite() suite {
	build := func(f mutProbeFuncs, c ProbeLayersCases) *Exercise { return ProbeLayers(f.sinks, f.pairs, c) }
	return mutSuite(39, build, mutProbe, map[string]*Hint{
		"largest_head":   hintSinkMax,
		"strict":         hintSinkStrict,
		"adjacent_pairs": hintPairsAdjacent,
		"one_dimension":  hintPairsDimension,
		"smallest":       hintPairsSmallest,
		"sum_of_roots":   hintPairsRoots,
		"sorts_heads":    hintProbeMutates,
	})
}

func mutProbe(bug string) mutProbeFuncs {
	sinks := func(firstAttn [][]float64, threshold float64) []int {
		out := []int{}
		for l, heads := range firstAttn {
			if bug == "sorts_heads" {
				slices.Sort(heads)
			}
			sum := 0.0
			for _, a := range heads {
				sum += a
			}
			v := sum / float64(len(heads))
			if bug == "largest_head" {
				v = slices.Max(heads)
			}
			if v > threshold || bug != "strict" && v == threshold {
				out = append(out, l)
			}
		}
		return out
	}
	pairs := func(meanSquare [][]float64) []int {
		out := make([]int, 0, len(meanSquare))
		for _, dims := range meanSquare {
			half := len(dims) / 2
			best, bestNorm := 0, -1.0
			for i := range half {
				norm := dims[i] + dims[i+half]
				switch bug {
				case "adjacent_pairs":
					norm = dims[2*i] + dims[2*i+1]
				case "one_dimension":
					norm = max(dims[i], dims[i+half])
				case "smallest":
					norm = -norm
				case "sum_of_roots":
					norm = math.Sqrt(dims[i]) + math.Sqrt(dims[i+half])
				}
				if norm > bestNorm || bug == "smallest" && i == 0 {
					best, bestNorm = i, norm
				}
			}
			out = append(out, best)
		}
		return out
	}
	return mutProbeFuncs{sinks, pairs}
}
