package check

// Learner-style implementations of exercise 14 (RoPE at explicit positions: a KV cache and packed sequences), correct when bug
// is "" and otherwise wrong in one classic way: each must fail with the hint
// that names its mistake (feedback_test.go).

func init() { addSuite(mutRoPEPositionsSuite) }

type mutPositionsFuncs struct {
	cache    func(cacheLen, n int) []int
	packed   func(lengths []int) []int
	rotateAt func(x [][]float64, positions []int, base float64) [][]float64
}

func mutRoPEPositionsSuite() suite {
	build := func(f mutPositionsFuncs, c RoPEPositionsCases) *Exercise {
		return RoPEPositions(f.cache, f.packed, f.rotateAt, c)
	}
	return mutSuite(14, build, mutPositions, map[string]*Hint{
		"cache_at_cacheLen-1":  hintCacheOffByOne,
		"cache_at_cacheLen+1":  hintCacheOffByOne,
		"cache_from_zero":      hintCacheRestart,
		"packed_no_restart":    hintPackedNoRestart,
		"packed_from_one":      hintPackedFromOne,
		"rotates_at_row_index": hintRotateAtRowIndex,
		"no_length_check":      hintRotateAtLength,
		"position_0_shares":    hintRotateAtMutates,
		"rotates_in_place":     hintRotateAtMutates,
		"skips_row_0":          hintRotateAtFirstRow,
		"integer_exponent":     hintRoPEIntDiv,
	})
}

func mutPositions(bug string) mutPositionsFuncs {
	rotate := mutRotate("interleaved", "")
	if bug == "integer_exponent" { // the learner's own rotation, 2i/d in integers
		rotate = mutRotate("interleaved", "integer_division")
	}
	cache := func(cacheLen, n int) []int {
		first := cacheLen
		switch bug {
		case "cache_at_cacheLen-1":
			first = cacheLen - 1
		case "cache_at_cacheLen+1":
			first = cacheLen + 1
		case "cache_from_zero":
			first = 0
		}
		var out []int
		for i := 0; i < n; i++ {
			out = append(out, first+i)
		}
		return out
	}
	packed := func(lengths []int) []int {
		var out []int
		next := 0
		for _, n := range lengths {
			if bug != "packed_no_restart" {
				next = 0
			}
			for i := 0; i < n; i++ {
				p := next
				if bug == "packed_from_one" {
					p++
				}
				out = append(out, p)
				next++
			}
		}
		return out
	}
	rotateAt := func(x [][]float64, positions []int, base float64) [][]float64 {
		if bug != "no_length_check" && len(positions) != len(x) {
			return nil
		}
		out := make([][]float64, len(x))
		from := 0
		if bug == "skips_row_0" {
			out[0], from = append([]float64(nil), x[0]...), 1
		}
		for r := from; r < len(x); r++ {
			p := positions[r]
			if bug == "rotates_at_row_index" {
				p = r
			}
			if bug == "position_0_shares" && p == 0 {
				out[r] = x[r]
				continue
			}
			out[r] = rotate(x[r], p, base)
			if bug == "rotates_in_place" {
				copy(x[r], out[r])
				out[r] = x[r]
			}
		}
		return out
	}
	return mutPositionsFuncs{cache, packed, rotateAt}
}
