package check

import "math"

// Learner-style implementations of exercise 15 (Is a score matrix relative? Toeplitz checks), correct when bug
// is "" and otherwise wrong in one classic way: each must fail with the hint
// that names its mistake (feedback_test.go).

func init() { addSuite(mutRelativeScoresSuite) }

type mutRelativeFuncs struct {
	scores func(q, k []float64, n int, base float64) [][]float64
	isT    func(s [][]float64, tol float64) bool
}

func mutRelativeScoresSuite() suite {
	build := func(f mutRelativeFuncs, c RelativeScoresCases) *Exercise { return RelativeScores(f.scores, f.isT, c) }
	return mutSuite(15, build, mutRelative, map[string]*Hint{
		"scores_transposed":  hintScoresTransposed,
		"key_not_rotated":    hintScoresKeyUnrotated,
		"same_position":      hintScoresSamePosition,
		"checks_symmetry":    hintToeplitzSymmetry,
		"main_diagonal_only": hintToeplitzMainDiagonal,
		"exact_compare":      hintToeplitzExact,
		"fixed_tolerance":    hintToeplitzTol,
		"strict_tolerance":   hintToeplitzStrict,
		"stops_a_row_early":  hintToeplitzEdges,
		"assumes_square":     hintToeplitzShape,
		"infinities_are_nan": hintToeplitzInf,
		"rows_from_1":        hintToeplitzFirst,
		"columns_from_1":     hintToeplitzFirst,
		"masks_in_place":     hintToeplitzMutates,
		"integer_exponent":   hintRoPEIntDiv,
	})
}

func mutRelative(bug string) mutRelativeFuncs {
	rotate := mutRotate("interleaved", "")
	if bug == "integer_exponent" { // the learner's own rotation, 2i/d in integers
		rotate = mutRotate("interleaved", "integer_division")
	}
	scores := func(q, k []float64, n int, base float64) [][]float64 {
		s := make([][]float64, n)
		for a := 0; a < n; a++ {
			s[a] = make([]float64, n)
			for b := 0; b < n; b++ {
				pq, pk := a, b
				switch bug {
				case "scores_transposed":
					pq, pk = b, a
				case "same_position":
					pk = a
				}
				qr, kr := rotate(q, pq, base), rotate(k, pk, base)
				if bug == "key_not_rotated" {
					kr = k
				}
				for c := range qr {
					s[a][b] += qr[c] * kr[c]
				}
			}
		}
		return s
	}
	isT := func(s [][]float64, tol float64) bool {
		rows := len(s)
		if rows == 0 {
			return true
		}
		cols := len(s[0])
		if bug == "assumes_square" {
			cols = rows
		}
		lastRow := rows - 1
		if bug == "stops_a_row_early" {
			lastRow = rows - 2
		}
		if bug == "masks_in_place" { // −Inf − (−Inf) is NaN: mask the masks first
			for _, r := range s {
				for j := range r {
					if math.IsInf(r[j], -1) {
						r[j] = -1e300
					}
				}
			}
		}
		first := 0
		if bug == "rows_from_1" {
			first = 1
		}
		for i := first; i < lastRow; i++ {
			j0 := 0
			if bug == "columns_from_1" {
				j0 = 1
			}
			for j := j0; j+1 < cols; j++ {
				a, b := s[i][j], s[i+1][j+1]
				switch bug {
				case "checks_symmetry":
					if i < cols && j < rows && math.Abs(s[i][j]-s[j][i]) > tol {
						return false
					}
					continue
				case "main_diagonal_only":
					if i != j {
						continue
					}
				case "exact_compare":
					if a != b {
						return false
					}
					continue
				case "fixed_tolerance":
					if math.Abs(a-b) > 1e-2 {
						return false
					}
					continue
				case "strict_tolerance":
					if a != b && math.Abs(a-b) >= tol {
						return false
					}
					continue
				case "infinities_are_nan":
					if !(math.Abs(a-b) <= tol) {
						return false
					}
					continue
				}
				if a != b && math.Abs(a-b) > tol {
					return false
				}
			}
		}
		return true
	}
	return mutRelativeFuncs{scores, isT}
}
