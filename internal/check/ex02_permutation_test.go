package check

import "math"

// Learner-style implementations of exercise 2 (Checking permutation equivariance), correct when bug
// is "" and otherwise wrong in one classic way: each must fail with the hint
// that names its mistake (feedback_test.go).

func init() { addSuite(mutPermutationSuite) }

type mutPermFuncs struct {
	permute func([][]float64, []int) [][]float64
	isEquiv func(func([][]float64) [][]float64, [][]float64, []int, float64) bool
}

func mutPermutationSuite() suite {
	build := func(p mutPermFuncs, c PermutationCases) *Exercise { return Permutation(p.permute, p.isEquiv, c) }
	return mutSuite(2, build, mutPermutation, map[string]*Hint{
		"inverse_permute":  hintPermuteInverse,
		"permute_in_place": hintPermuteMutates,
		"shares_rows":      hintPermuteShares,
		"invariance":       hintEquivInvariance,
		"mixed_perms":      hintEquivMixedPerms,
		"exact_compare":    hintEquivExact,
		"same_side_twice":  hintEquivAlwaysTrue,
		"fixed_tolerance":  hintEquivTol,
		"strict_tolerance": hintEquivStrict,
		"no_shape_check":   hintEquivShape,
	})
}

func mutPermutation(bug string) mutPermFuncs {
	permute := func(x [][]float64, perm []int) [][]float64 {
		out := make([][]float64, len(perm))
		switch bug {
		case "inverse_permute":
			for i := range x {
				out[perm[i]] = append([]float64(nil), x[i]...)
			}
			return out
		case "permute_in_place":
			rows := append([][]float64(nil), x...)
			for i, p := range perm {
				x[i] = rows[p]
			}
			return x
		case "shares_rows":
			for i, p := range perm {
				out[i] = x[p]
			}
			return out
		}
		for i, p := range perm {
			out[i] = append([]float64(nil), x[p]...)
		}
		return out
	}
	inverse := func(x [][]float64, perm []int) [][]float64 {
		out := make([][]float64, len(x))
		for i, p := range perm {
			out[p] = x[i]
		}
		return out
	}
	isEquiv := func(f func([][]float64) [][]float64, x [][]float64, perm []int, tol float64) bool {
		fx := f(x)
		if bug != "no_shape_check" && len(fx) != len(x) {
			return false
		}
		a := f(permute(x, perm))
		var b [][]float64
		switch bug {
		case "invariance":
			b = fx
		case "mixed_perms":
			b = inverse(fx, perm)
		case "same_side_twice":
			b = f(permute(x, perm))
		default:
			b = permute(fx, perm)
		}
		if len(a) != len(b) {
			return false
		}
		for i := range a {
			if bug != "no_shape_check" && len(a[i]) != len(b[i]) {
				return false
			}
			for c := range a[i] {
				switch {
				case bug == "exact_compare" && a[i][c] != b[i][c]:
					return false
				case bug == "fixed_tolerance" && math.Abs(a[i][c]-b[i][c]) > 1e-2:
					return false
				case bug == "strict_tolerance" && math.Abs(a[i][c]-b[i][c]) >= tol:
					return false
				case bug != "fixed_tolerance" && math.Abs(a[i][c]-b[i][c]) > tol:
					return false
				}
			}
		}
		return true
	}
	return mutPermFuncs{permute, isEquiv}
}
