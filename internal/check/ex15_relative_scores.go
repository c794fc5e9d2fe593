package check

import (
	"fmt"
	"math"

	"github.com/posenc/course/internal/catalog"
	"github.com/posenc/course/pkg/posenc"
)

func init() {
	registerExercise(Entry{
		Exercise: catalog.Exercise{Num: 15, Slug: "relative_scores", Title: "Is a score matrix relative? Toeplitz checks", Test: "TestRelativeScores",
			Funcs: []string{"RoPEScores", "IsToeplitz"}, Lesson: 4, Section: "Why the score depends only on m − n",
			Difficulty: catalog.Medium, Uses: []int{7}},
		Blurb: "RoPE's score matrix, and a check that every diagonal is constant.",
		Hints: Hints{
			Read: []Section{secRelative, secALiBiBias},
			Idea: []string{
				"A score that depends only on the offset b − a is constant along every diagonal of the score " +
					"matrix: the matrix is Toeplitz. RoPE's scores are; the scores of additive sinusoidal positions " +
					"are not.",
			},
			Formula: []string{
				"- `RoPEScores`: entry [a][b] = ⟨R(a)q, R(b)k⟩, the query rotated to a and the key to b.",
				"- `IsToeplitz`: s[i][j] and s[i+1][j+1] agree within tol (|a − b| ≤ tol) for every i from 0 to " +
					"rows−2 and j from 0 to cols−2. The matrix may be wider or taller than square, or empty.",
				"- Symmetry (s[i][j] = s[j][i]) is a different property: ALiBi's causal bias is Toeplitz and not " +
					"symmetric.",
			},
			Code: []string{
				"- `dot(RotateInterleaved(q, a, base), RotateInterleaved(k, b, base))`.",
				"- Take `cols := len(s[0])` after checking `len(s) > 0`, and count `a == b` as equal before " +
					"looking at `math.Abs(a-b) <= tol`: −Inf − (−Inf) is NaN. Leave s as it is.",
			},
		},
		Cases:  relativeScoresCases(),
		Checks: func(cases any) *Exercise { return RelativeScores(nil, nil, cases.(RelativeScoresCases)) },
	})
}

var (
	hintScoresTransposed = newHint("relative scores/transposed", secRelative,
		"entry [a][b] is the query at position a against the key at position b: ⟨R(a)q, R(b)k⟩. Yours is the transpose, "+
			"the query at b against the key at a")
	hintScoresKeyUnrotated = newHint("relative scores/key not rotated", secRelative,
		"both vectors rotate: the query to a and the key to b. With only one of them rotated the score depends on "+
			"one position, not on the offset b − a")
	hintScoresSamePosition = newHint("relative scores/one position", secRelative,
		"you rotated the query and the key to the same position: entry [a][b] rotates the key to b, not to a")
	hintToeplitzSymmetry = newHint("toeplitz/symmetry", secRelative,
		"you checked symmetry, s[i][j] = s[j][i]: a relative score is constant along each diagonal, "+
			"s[i][j] = s[i+1][j+1], and a Toeplitz matrix need not be symmetric (ALiBi's causal bias is not)")
	hintToeplitzMainDiagonal = newHint("toeplitz/main diagonal only", secRelative,
		"every diagonal must be constant, not only the main one: compare s[i][j] with s[i+1][j+1] for every i and j "+
			"where both exist")
	hintToeplitzExact = newHint("toeplitz/exact comparison", secRelative,
		"scores computed in floating point differ in their last bits: compare with |a − b| ≤ tol, not a == b")
	hintToeplitzTol = newHint("toeplitz/tolerance ignored", secRelative,
		"your check accepts differences larger than tol: an entry equals its diagonal neighbour only when |a − b| ≤ tol")
	hintToeplitzStrict = newHint("toeplitz/strict tolerance", secRelative,
		"your check rejects a difference of exactly tol: “within tol” includes tol itself, |a − b| ≤ tol")
	hintToeplitzEdges = newHint("toeplitz/last row or column skipped", secRelative,
		"your loops stop early: the entry in the last row or the last column belongs to a diagonal too. Compare "+
			"s[i][j] with s[i+1][j+1] for i up to rows−2 and j up to cols−2")
	hintToeplitzFirst = newHint("toeplitz/first row or column skipped", secRelative,
		"your loops start at 1: the entries of the first row and the first column start diagonals too. Compare "+
			"s[i][j] with s[i+1][j+1] from i = 0 and j = 0")
	hintToeplitzMutates = newHint("toeplitz/changes s", Section{},
		"your check changed s (replacing −Inf in place?): a check must leave the matrix it is given as it was; "+
			"count equal values as equal (a == b) instead of rewriting them")
	hintToeplitzShape = newHint("toeplitz/not square", secRelative,
		"a score matrix need not be square (3 queries over 5 keys): take the number of columns from len(s[0]), not "+
			"len(s), and handle an empty matrix")
	hintToeplitzInf = newHint("toeplitz/infinities", secALiBiBias,
		"the causal ALiBi bias has −Inf above its diagonal, and −Inf − (−Inf) is NaN, which is never ≤ tol: count "+
			"equal values as equal (a == b) before comparing the difference")
	hintScoresFallback = generic("relative scores/fallback", secRelative,
		"entry [a][b] = ⟨RotateInterleaved(q, a, base), RotateInterleaved(k, b, base)⟩")
	hintToeplitzFallback = generic("toeplitz/fallback", secRelative,
		"a matrix is Toeplitz when s[i][j] and s[i+1][j+1] agree within tol wherever both exist")
)

// refRoPEScores returns ⟨R(a)q, R(b)k⟩ with the positions chosen by pos.
func refRoPEScores(q, k []float64, n int, base float64, pos func(a, b int) (int, int, bool)) [][]float64 {
	s := make([][]float64, n)
	for a := range n {
		s[a] = make([]float64, n)
		for b := range n {
			pq, pk, rotateK := pos(a, b)
			kr := k
			if rotateK {
				kr = refRoPE(k, pk, base, posenc.Interleaved)
			}
			s[a][b] = dot(refRoPE(q, pq, base, posenc.Interleaved), kr)
		}
	}
	return s
}

// unitFreqScores are RoPE scores with every θ_i = 1: 2i/d in integers.
func unitFreqScores(q, k []float64, n int) [][]float64 {
	one := func(int) float64 { return 1 }
	s := make([][]float64, n)
	for a := range n {
		s[a] = make([]float64, n)
		for b := range n {
			s[a][b] = dot(rotateWith(q, a, posenc.Interleaved, 1, one, false), rotateWith(k, b, posenc.Interleaved, 1, one, false))
		}
	}
	return s
}

func isToeplitzRef(s [][]float64, tol float64) bool {
	for i := 0; i+1 < len(s); i++ {
		for j := 0; j+1 < len(s[i]); j++ {
			a, b := s[i][j], s[i+1][j+1]
			if a != b && !(math.Abs(a-b) <= tol) {
				return false
			}
		}
	}
	return true
}

// toeplitzProbe is a matrix whose answer is known, and the hint for a check
// that gets it wrong.
type toeplitzProbe struct {
	slug string
	name string
	s    [][]float64
	tol  float64
	want bool
	hint *Hint
}

func toeplitzFrom(rows, cols int, diag func(off int) float64) [][]float64 {
	s := make([][]float64, rows)
	for i := range s {
		s[i] = make([]float64, cols)
		for j := range s[i] {
			s[i][j] = diag(j - i)
		}
	}
	return s
}

func toeplitzProbes() []toeplitzProbe {
	skew := func(off int) float64 { return float64(off*off) + float64(off) + 1 } // not symmetric
	edge := toeplitzFrom(4, 4, skew)
	edge[3][3] += 0.5
	wide := toeplitzFrom(3, 5, skew)
	wide[2][4] += 0.5
	tall := toeplitzFrom(5, 3, skew)
	tall[4][2] += 0.5
	mainOnly := toeplitzFrom(4, 4, func(int) float64 { return 1 })
	mainOnly[2][3] = 2 // inside, off the main diagonal
	noise := toeplitzFrom(4, 4, skew)
	noise[2][1] += 1e-12
	beyond := toeplitzFrom(4, 4, skew)
	beyond[2][1] += 1e-3
	first := toeplitzFrom(4, 4, skew)
	first[0][0] += 0.5
	firstRow := toeplitzFrom(3, 5, skew)
	firstRow[0][3] += 0.5
	firstCol := toeplitzFrom(5, 3, skew)
	firstCol[3][0] += 0.5
	exactly := toeplitzFrom(4, 4, skew)
	exactly[2][1] += 0.5 // exact in binary, as are the entries
	alibi := refALiBiBias([]float64{0.5}, 4, true)[0]
	return []toeplitzProbe{
		{"symmetric_but_not_toeplitz", "symmetric, not Toeplitz", [][]float64{{1, 2, 3}, {2, 5, 4}, {3, 4, 1}}, 1e-9, false, hintToeplitzSymmetry},
		{"toeplitz_but_not_symmetric", "Toeplitz, not symmetric", toeplitzFrom(3, 3, skew), 1e-9, true, hintToeplitzSymmetry},
		{"only_the_main_diagonal_constant", "constant main diagonal only", mainOnly, 1e-9, false, hintToeplitzMainDiagonal},
		{"wide_3x5_toeplitz", "3×5 Toeplitz", toeplitzFrom(3, 5, skew), 1e-9, true, hintToeplitzShape},
		{"tall_5x3_toeplitz", "5×3 Toeplitz", toeplitzFrom(5, 3, skew), 1e-9, true, hintToeplitzShape},
		{"empty_matrix", "empty", [][]float64{}, 1e-9, true, hintToeplitzShape},
		{"last_entry_breaks_it", "last entry off", edge, 1e-9, false, hintToeplitzEdges},
		{"wide_3x5_last_column_breaks_it", "3×5, last column off", wide, 1e-9, false, hintToeplitzEdges},
		{"tall_5x3_last_row_breaks_it", "5×3, last row off", tall, 1e-9, false, hintToeplitzEdges},
		{"differences_of_1e-12_within_tol", "1e-12 apart", noise, 1e-9, true, hintToeplitzExact},
		{"differences_of_1e-3_beyond_tol", "1e-3 apart", beyond, 1e-9, false, hintToeplitzTol},
		{"a_difference_of_exactly_tol", "0.5 apart, tol 0.5", exactly, 0.5, true, hintToeplitzStrict},
		{"causal_alibi_bias_with_minus_inf", "causal ALiBi bias, −Inf above the diagonal", alibi, 1e-9, true, hintToeplitzInf},
		{"first_entry_breaks_it", "first entry off", first, 1e-9, false, hintToeplitzFirst},
		{"wide_3x5_first_row_breaks_it", "3×5, first row off", firstRow, 1e-9, false, hintToeplitzFirst},
		{"tall_5x3_first_column_breaks_it", "5×3, first column off", firstCol, 1e-9, false, hintToeplitzFirst},
	}
}

// diagToeplitz runs the learner's check on the probes and returns the hint
// of the first one it gets wrong (a panic counts as wrong).
func diagToeplitz(isT func(s [][]float64, tol float64) bool) *Hint {
	for _, p := range toeplitzProbes() {
		got, panicked := func() (got, panicked bool) {
			defer func() {
				if recover() != nil {
					panicked = true
				}
			}()
			return isT(cloneTable(p.s), p.tol), false
		}()
		if panicked || got != p.want {
			return p.hint
		}
	}
	return nil
}

// ScoresCase is one call: RoPEScores(Q, K, N, Base) must equal Want, to
// 1e-9.
type ScoresCase struct {
	Name string
	Q, K []float64
	N    int
	Base float64
	Want [][]float64
}

// ToeplitzCase is one call: IsToeplitz(S, Tol) must return Want.
type ToeplitzCase struct {
	Name string
	S    [][]float64
	Tol  float64
	Want bool
}

// YourScoresCase checks the two functions together: IsToeplitz(RoPEScores(Q,
// K, N, Base), Tol) must be true.
type YourScoresCase struct {
	Name string
	Q, K []float64
	N    int
	Base float64
	Tol  float64
}

// RelativeScoresCases is exercise 15's case table.
type RelativeScoresCases struct {
	Scores     []ScoresCase     `doc:"RoPEScores(Q, K, N, Base) must equal Want, to 1e-9: entry [a][b] is ⟨Q rotated to a, K rotated to b⟩."`
	Toeplitz   []ToeplitzCase   `doc:"IsToeplitz(S, Tol) must return Want: true when every diagonal is constant within Tol. The matrices are square or not, empty, off in their first or last row or column, or hold −Inf."`
	YourScores []YourScoresCase `doc:"IsToeplitz(RoPEScores(Q, K, N, Base), Tol) must be true: RoPE's scores depend on b − a only."`
}

func relativeScoresCases() RelativeScoresCases {
	q, k := randVec(8, 71), randVec(8, 72)
	const n, base = 6, 10000.0
	right := func(a, b int) (int, int, bool) { return a, b, true }
	ropeScores := refRoPEScores(q, k, n, base, right)
	// Scores with sinusoidal positions added to q and k are not relative:
	// the cross terms depend on each position, not on the offset.
	pe := refSinusoidal(0, n, 8)
	additive := make([][]float64, n)
	for a := range n {
		additive[a] = make([]float64, n)
		for b := range n {
			qa, kb := cloneVec(q), cloneVec(k)
			for c := range qa {
				qa[c] += pe[a][c]
				kb[c] += pe[b][c]
			}
			additive[a][b] = dot(qa, kb)
		}
	}
	toeplitz := []ToeplitzCase{
		{"rope_scores_are_toeplitz", ropeScores, 1e-9, true},
		{"additive_sinusoidal_scores_are_not", additive, 1e-9, false},
	}
	for _, p := range toeplitzProbes() {
		if isToeplitzRef(p.s, p.tol) != p.want {
			panic("check: the Toeplitz probe " + p.slug + " has the wrong answer")
		}
		toeplitz = append(toeplitz, ToeplitzCase{p.slug, p.s, p.tol, p.want})
	}
	return RelativeScoresCases{
		Scores:     []ScoresCase{{"rope_scores_n=6", q, k, n, base, ropeScores}},
		Toeplitz:   toeplitz,
		YourScores: []YourScoresCase{{"your_rope_scores_are_toeplitz", q, k, n, base, 1e-9}},
	}
}

var scoresArgs = argHints{hintMutates, hintShares}

// diagScores names the idea behind wrong RoPE scores.
func diagScores(got [][]float64, c ScoresCase) *Hint {
	type v = variant[[][]float64]
	q, k, n, base := c.Q, c.K, c.N, c.Base
	return firstMatch(got, sameTable(1e-9),
		v{hintScoresTransposed, refRoPEScores(q, k, n, base, func(a, b int) (int, int, bool) { return b, a, true })},
		v{hintScoresKeyUnrotated, refRoPEScores(q, k, n, base, func(a, b int) (int, int, bool) { return a, 0, false })},
		v{hintScoresKeyUnrotated, transpose(refRoPEScores(k, q, n, base, func(a, b int) (int, int, bool) { return a, 0, false }))},
		v{hintScoresSamePosition, refRoPEScores(q, k, n, base, func(a, b int) (int, int, bool) { return a, a, true })},
		v{hintRoPEIntDiv, unitFreqScores(q, k, n)},
	)
}

// toeplitzCall is how a message shows a call of IsToeplitz.
func toeplitzCall(s [][]float64, tol float64) string {
	if len(s) <= 3 && (len(s) == 0 || len(s[0]) <= 5) {
		return fmt.Sprintf("IsToeplitz(%s, tol=%g)", fmtTable(s), tol)
	}
	return fmt.Sprintf("IsToeplitz(a %d×%d matrix, tol=%g)", len(s), len(s[0]), tol)
}

// RelativeScores returns exercise 15's checks of scores and isT on cases.
func RelativeScores(scores func(q, k []float64, n int, base float64) [][]float64, isT func(s [][]float64, tol float64) bool,
	cases RelativeScoresCases) *Exercise {
	var checks []Check
	for _, c := range cases.Scores {
		call := fmt.Sprintf("RoPEScores(q, k, n=%d, base=%g)", c.N, c.Base)
		checks = append(checks, Check{Name: c.Name, Call: call, Run: func() *Failure {
			q, k := cloneVec(c.Q), cloneVec(c.K)
			got := scores(q, k, c.N, c.Base)
			if f := compareTable(call, got, c.Want, 1e-9, label("query position"), label("key position"),
				func(got [][]float64) *Hint { return diagScores(got, c) }, hintScoresFallback); f != nil {
				return f
			}
			return scoresArgs.check(call, got, arg{"q", q, c.Q}, arg{"k", k, c.K})
		}})
	}
	for _, c := range cases.Toeplitz {
		call := toeplitzCall(c.S, c.Tol)
		checks = append(checks, Check{Name: c.Name, Call: call, PanicDiag: func(string) *Hint { return diagToeplitz(isT) }, Run: func() *Failure {
			s := cloneTable(c.S)
			if got := isT(s, c.Tol); got != c.Want {
				return fail(orElse(diagToeplitz(isT), hintToeplitzFallback), fmt.Sprintf("%s = %v; want %v", call, got, c.Want))
			}
			return argHints{hintToeplitzMutates, hintToeplitzMutates}.check(call, nil, arg{"s", s, c.S})
		}})
	}
	for _, c := range cases.YourScores {
		call := fmt.Sprintf("RoPEScores(q, k, n=%d, base=%g)", c.N, c.Base)
		checks = append(checks, Check{Name: c.Name, Call: call, Run: func() *Failure {
			if !isT(scores(cloneVec(c.Q), cloneVec(c.K), c.N, c.Base), c.Tol) {
				return fail(hintToeplitzFallback, fmt.Sprintf("IsToeplitz(%s, %g) = false; RoPE scores depend on b − a only, so want true", call, c.Tol))
			}
			return nil
		}})
	}
	return newExercise(15, checks)
}
