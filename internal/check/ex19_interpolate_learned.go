package check

import (
	"fmt"
	"math"
	"strings"

	"github.com/posenc/course/internal/catalog"
)

func init() {
	registerExercise(Entry{
		Exercise: catalog.Exercise{Num: 19, Slug: "interpolate_learned", Title: "Stretching a learned table to a longer length", Test: "TestInterpolateTable",
			Funcs: []string{"InterpolateTable"}, Lesson: 3, Section: "No row, no position", Difficulty: catalog.Medium},
		Blurb: "interpolate the trained rows over a longer (or shorter) table, ends aligned, as vision Transformers " +
			"do.",
		Hints: Hints{
			Read: []Section{secNoRow},
			Idea: []string{
				"To use a learned table at another length, spread the new positions evenly over the old table, " +
					"the first on the first row and the last on the last, and blend the two trained rows around each " +
					"one (PyTorch's `interpolate` with `align_corners=True`).",
			},
			Formula: []string{
				"- New row p sits at x = p·(L−1)/(newLen−1) in the old table; with newLen = 1 the one row is row " +
					"0. For L = 4 and newLen = 7 the new rows sit at 0, 0.5, 1, 1.5, 2, 2.5, 3.",
				"- With lo = ⌊x⌋, hi = min(lo+1, L−1) and t = x − lo, the row is (1−t)·table[lo] + t·table[hi].",
			},
			Code: []string{
				"- `step := float64(L-1) / float64(newLen-1)`: in integers it is 0 when the table grows.",
				"- `hi := min(lo+1, L-1)`, since the last new row has x = L−1 exactly; write every row into a " +
					"new slice, even when newLen is L.",
			},
		},
		Cases:  interpolateCases(),
		Checks: func(cases any) *Exercise { return InterpolateTable(nil, cases.(InterpolateCases)) },
	})
}

var (
	hintInterpIntRatio = newHint("interpolate/integer ratio", secNoRow,
		"every new row is a copy of row 0: the step (L−1)/(newLen−1) was computed with integer division, which is 0 "+
			"when the table grows. Convert to float64 before dividing")
	hintInterpEnds = newHint("interpolate/ends not aligned", secNoRow,
		"the first and last rows must stay where they are: new row p reads the old table at x = p·(L−1)/(newLen−1), "+
			"so that p = newLen−1 lands exactly on the last trained row. A step of L/newLen stretches the table "+
			"past its end")
	hintInterpHalfPixel = newHint("interpolate/half-pixel centres", secNoRow,
		"you placed the new rows at pixel centres, x = (p+0.5)·L/newLen − 0.5, as PyTorch's interpolate does by "+
			"default (align_corners=False): the first and last new rows then fall inside the table instead of on its "+
			"first and last rows. Align the ends: x = p·(L−1)/(newLen−1)")
	hintInterpNearest = newHint("interpolate/nearest row", secNoRow,
		"you copied the nearest trained row: between two rows, blend them linearly, (1−t)·table[i] + t·table[i+1] "+
			"with t the fractional part of x")
	hintInterpWeights = newHint("interpolate/weights swapped", secNoRow,
		"the blend weights are swapped: at x = i + t the row is (1−t)·table[i] + t·table[i+1], so t = 0 gives table[i]")
	hintInterpLastRow = newHint("interpolate/past the last row", secNoRow,
		"the last new row lands exactly on the last trained row, x = L−1, where table[i+1] does not exist: use "+
			"min(i+1, L−1), or take the row itself when t = 0")
	hintInterpOneRow = newHint("interpolate/one row", secNoRow,
		"with newLen = 1 the step (L−1)/(newLen−1) divides by zero: the single new row is row 0")
	hintInterpShares = newHint("interpolate/shares rows", Section{},
		"your result shares rows with the table, or you changed the table (returning it as it is when newLen is "+
			"its length?): write every new row into a new slice")
	hintInterpFallback = generic("interpolate/fallback", secNoRow,
		"new row p sits at x = p·(L−1)/(newLen−1) of the old table: blend rows ⌊x⌋ and ⌊x⌋+1 linearly")
)

// interpolateOpts selects known wrong variants of refInterpolate.
type interpolateOpts struct {
	step    func(l, n int) float64    // (L−1)/(n−1) by default
	at      func(p, l, n int) float64 // where new row p reads, clamped to [0, L−1]; p·step by default
	nearest bool
	swapped bool
}

// refInterpolate stretches table to n rows by linear interpolation with the
// ends aligned: torch.nn.functional.interpolate(mode="linear",
// align_corners=True) along the positions.
func refInterpolate(table [][]float64, n int, o interpolateOpts) [][]float64 {
	l := len(table)
	step := 0.0
	if n > 1 {
		step = float64(l-1) / float64(n-1)
	}
	if o.step != nil {
		step = o.step(l, n)
	}
	out := make([][]float64, n)
	for p := range out {
		x := float64(p) * step
		if o.at != nil {
			x = min(max(o.at(p, l, n), 0), float64(l-1))
		}
		i := min(int(math.Floor(x)), l-1)
		j := min(i+1, l-1)
		t := x - float64(i)
		if o.nearest {
			i = min(int(math.Round(x)), l-1)
			j, t = i, 0
		}
		if o.swapped {
			t = 1 - t
		}
		out[p] = make([]float64, len(table[0]))
		for c := range out[p] {
			out[p][c] = (1-t)*table[i][c] + t*table[j][c]
		}
	}
	return out
}

// InterpolateCase is one call: InterpolateTable(Table, NewLen) must equal
// Want, to 1e-12.
type InterpolateCase struct {
	Name   string
	Table  [][]float64
	NewLen int
	Want   [][]float64
}

// InterpolateCases is exercise 19's case table.
type InterpolateCases struct {
	Stretch []InterpolateCase `doc:"InterpolateTable(Table, NewLen) must equal Want, to 1e-12: new row p reads Table at x = p·(L−1)/(NewLen−1), blending rows ⌊x⌋ and ⌊x⌋+1 linearly (PyTorch's interpolate with align_corners=True)."`
}

func interpolateCases() InterpolateCases {
	row := func(name string, table [][]float64, n int) InterpolateCase {
		return InterpolateCase{name, table, n, refInterpolate(table, n, interpolateOpts{})}
	}
	t4 := randTable(4, 3, 101)
	return InterpolateCases{Stretch: []InterpolateCase{
		row("4_rows_to_7_half_steps", t4, 7),
		row("5_rows_to_8_steps_of_4_7ths", randTable(5, 2, 102), 8),
		row("3_rows_to_10", randTable(3, 4, 103), 10),
		row("6_rows_shrunk_to_4", randTable(6, 2, 104), 4),
		row("same_length_is_a_copy", t4, 4),
		row("one_trained_row_repeats", randTable(1, 3, 105), 4),
		row("one_new_row_is_row_0", t4, 1),
	}}
}

// diagInterpolate names the idea behind a wrong interpolation.
func diagInterpolate(got [][]float64, c InterpolateCase) *Hint {
	table, n := c.Table, c.NewLen
	type v = variant[[][]float64]
	vs := []v{
		{hintInterpIntRatio, refInterpolate(table, n, interpolateOpts{step: func(l, n int) float64 {
			if n == 1 {
				return 0
			}
			return float64((l - 1) / (n - 1))
		}})},
		{hintInterpNearest, refInterpolate(table, n, interpolateOpts{nearest: true})},
		{hintInterpWeights, refInterpolate(table, n, interpolateOpts{swapped: true})},
		{hintInterpEnds, refInterpolate(table, n, interpolateOpts{step: func(l, n int) float64 { return float64(l) / float64(n) }})},
		{hintInterpEnds, refInterpolate(table, n, interpolateOpts{step: func(l, n int) float64 { return float64(l-1) / float64(n) }})},
		{hintInterpEnds, refInterpolate(table, n, interpolateOpts{at: func(p, l, n int) float64 { // from the last row back
			return float64(l-1) - float64(n-1-p)*float64(l)/float64(n)
		}})},
		{hintInterpHalfPixel, refInterpolate(table, n, interpolateOpts{at: func(p, l, n int) float64 {
			return (float64(p)+0.5)*float64(l)/float64(n) - 0.5
		}})},
	}
	if h := firstMatch(got, sameTable(1e-12), vs...); h != nil {
		return h
	}
	if n == 1 && len(nanRows(got)) > 0 && nanRows(got)[0] {
		return hintInterpOneRow // 0·(L−1)/0 is NaN
	}
	return nil
}

// diagInterpolatePanic names the idea behind a panic.
func diagInterpolatePanic(msg string, c InterpolateCase) *Hint {
	l := len(c.Table)
	if c.NewLen == 1 {
		return hintInterpOneRow
	}
	if strings.Contains(msg, fmt.Sprintf("index out of range [%d] with length %d", l, l)) {
		return hintInterpLastRow
	}
	return nil
}

var interpolateArgs = argHints{hintInterpShares, hintInterpShares}

// InterpolateTable returns exercise 19's checks of fn on cases.
func InterpolateTable(fn func(table [][]float64, newLen int) [][]float64, cases InterpolateCases) *Exercise {
	var checks []Check
	for _, c := range cases.Stretch {
		l, n := len(c.Table), c.NewLen
		call := fmt.Sprintf("InterpolateTable(table %d×%d, newLen=%d)", l, len(c.Table[0]), n)
		row := func(p int) string {
			if n == 1 {
				return "row 0"
			}
			return fmt.Sprintf("row %d (old position %.4g)", p, float64(p)*float64(l-1)/float64(n-1))
		}
		checks = append(checks, Check{Name: c.Name, Call: call, PanicDiag: func(msg string) *Hint { return diagInterpolatePanic(msg, c) },
			Run: func() *Failure {
				table := cloneTable(c.Table)
				got := fn(table, n)
				if f := compareTable(call, got, c.Want, 1e-12, row, label("dimension"),
					func(got [][]float64) *Hint { return diagInterpolate(got, c) }, hintInterpFallback); f != nil {
					return f
				}
				return interpolateArgs.check(call, got, arg{"table", table, c.Table})
			}})
	}
	return newExercise(19, checks)
}
