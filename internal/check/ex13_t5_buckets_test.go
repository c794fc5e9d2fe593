package check

import "math"

// Learner-style implementations of exercise 13 (T5 relative position buckets), correct when bug
// is "" and otherwise wrong in one classic way: each must fail with the hint
// that names its mistake (feedback_test.go).

func init() { addSuite(mutT5Suite) }

type mutT5Funcs struct {
	bucket func(rel int, bidirectional bool, numBuckets, maxDistance int) int
	matrix func(qLen, kLen int, bidirectional bool, numBuckets, maxDistance int) [][]int
}

func mutT5Suite() suite {
	build := func(f mutT5Funcs, c T5Cases) *Exercise { return T5Buckets(f.bucket, f.matrix, c) }
	return mutSuite(13, build, mutT5, map[string]*Hint{
		"query_minus_key":    hintT5QueryMinusKey,
		"direction_reversed": hintT5Direction,
		"zero_in_upper_half": hintT5ZeroUpper,
		"no_clamp":           hintT5Clamp,
		"clamp_to_n":         hintT5ClampHigh,
		"no_halving":         hintT5Halve,
		"rounds":             hintT5Round,
		"integer_ratios":     hintT5IntDiv,
	})
}

func mutT5(bug string) mutT5Funcs {
	bucket := func(rel int, bidirectional bool, numBuckets, maxDistance int) int {
		ret := 0
		n := -rel // Hugging Face's code negates first: n = −(key − query)
		if bug == "direction_reversed" {
			n = rel
		}
		if bidirectional {
			if bug != "no_halving" {
				numBuckets /= 2
			}
			if n < 0 || (bug == "zero_in_upper_half" && n == 0) {
				ret += numBuckets
			}
			if n < 0 {
				n = -n
			}
		} else if n < 0 {
			n = 0
		}
		maxExact := numBuckets / 2
		if n < maxExact {
			return ret + n
		}
		ratio, span := float64(n)/float64(maxExact), float64(maxDistance)/float64(maxExact)
		if bug == "integer_ratios" {
			ratio, span = float64(n/maxExact), float64(maxDistance/maxExact)
		}
		x := math.Log(ratio) / math.Log(span) * float64(numBuckets-maxExact)
		if bug == "rounds" {
			x = math.Round(x)
		}
		val := maxExact + int(x)
		switch {
		case bug == "clamp_to_n" && val > numBuckets:
			val = numBuckets
		case bug != "no_clamp" && bug != "clamp_to_n" && val > numBuckets-1:
			val = numBuckets - 1
		}
		return ret + val
	}
	matrix := func(qLen, kLen int, bidirectional bool, numBuckets, maxDistance int) [][]int {
		m := make([][]int, qLen)
		for i := range m {
			m[i] = make([]int, kLen)
			for j := range m[i] {
				rel := j - i
				if bug == "query_minus_key" {
					rel = i - j
				}
				m[i][j] = bucket(rel, bidirectional, numBuckets, maxDistance)
			}
		}
		return m
	}
	return mutT5Funcs{bucket, matrix}
}
