package check

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/posenc/course/internal/catalog"
	"github.com/posenc/course/pkg/posenc"
)

func init() {
	registerExercise(Entry{
		Exercise: catalog.Exercise{Num: 6, Slug: "learned", Title: "Learned lookup, with a max-length error", Test: "TestLearnedLookup",
			Funcs: []string{"LearnedLookup"}, Lesson: 3, Section: "No row, no position", Difficulty: catalog.Easy},
		Blurb: "copy rows out of a trained table, and refuse positions it has no row for, with an error that names " +
			"them.",
		Hints: []string{
			"- Valid positions are 0 … len(table)−1: test `p < 0 || p >= len(table)`. Check every position before " +
				"copying anything, so that an error comes with a nil table, and name the position and max_len in the " +
				"error (`fmt.Errorf`).",
			"- Never clamp or wrap a position. Copy rows with `append([]float64(nil), table[p]...)`.",
		},
		Checks: func() *Exercise { return LearnedLookup(nil) },
	})
}

var (
	hintLearnedClamp = newHint("learned/clamps", secNoRow,
		"your lookup clamps positions outside the table to its first or last row: a learned table has no vector for "+
			"those positions, so return an error instead of silently reusing another position's vector")
	hintLearnedWrap = newHint("learned/wraps", secNoRow,
		"your lookup wraps positions around (p % max_len): position max_len would get position 0's vector. "+
			"A learned table cannot extrapolate: return an error")
	hintLearnedOffByOne = newHint("learned/off by one", secNoRow,
		"rows are numbered 0 to max_len−1, where max_len = len(table): position max_len−1 is valid and position "+
			"max_len is not; test p < len(table)")
	hintLearnedNegative = newHint("learned/negative positions", secNoRow,
		"a negative position has no row either: test p < 0 as well as p ≥ len(table), and return an error for it")
	hintLearnedErrorText = newHint("learned/vague error", secNoRow,
		"your error should say which position failed and what max_len is, for example "+
			"\"position 9 is past the learned table (max_len 4)\": that is what the person reading it needs to fix the input")
	hintLearnedNilOnError = newHint("learned/result with an error", secNoRow,
		"when you return an error, return a nil table with it: a caller that forgets to check the error must not "+
			"get half a result that looks valid. Check every position before copying anything")
	hintLearnedAliases = newHint("learned/shares rows", secCost,
		"your result shares its rows with the table (out[i] = table[p]), so changing the result changes the "+
			"embeddings: copy each row, e.g. append([]float64(nil), table[p]...)")
	hintLearnedFallback = generic("learned/fallback", secCost,
		"row i of the result is a copy of table[positions[i]]")
)

// refLearnedLookup is posenc's lookup as rows, and its error.
func refLearnedLookup(table [][]float64, positions []int) ([][]float64, error) {
	d := len(table[0])
	l := posenc.NewLearned(len(table), d)
	if err := l.CheckPositions(positions); err != nil {
		return nil, err
	}
	flat := make([]float64, 0, len(table)*d)
	for _, r := range table {
		flat = append(flat, r...)
	}
	dst := make([]float64, len(positions)*d)
	if err := posenc.LearnedLookupTo(dst, flat, l, positions); err != nil {
		return nil, err
	}
	return posenc.Rows(dst, d), nil
}

// diagLearnedAccepted names the idea behind accepting bad positions: got is
// what the learner returned for positions with no error.
func diagLearnedAccepted(got, table [][]float64, positions []int) *Hint {
	clamp, wrap := make([]int, len(positions)), make([]int, len(positions))
	n := len(table)
	for i, p := range positions {
		clamp[i] = min(max(p, 0), n-1)
		wrap[i] = ((p % n) + n) % n
	}
	rows := func(ps []int) [][]float64 {
		out := make([][]float64, len(ps))
		for i, p := range ps {
			out[i] = table[p]
		}
		return out
	}
	return firstMatch(got, sameTable(0),
		variant[[][]float64]{hintLearnedClamp, rows(clamp)},
		variant[[][]float64]{hintLearnedWrap, rows(wrap)})
}

// LearnedLookup returns exercise 6's checks of fn.
func LearnedLookup(fn func(table [][]float64, positions []int) ([][]float64, error)) *Exercise {
	table := randTable(4, 3, 31)
	call := func(ps []int) string { return fmt.Sprintf("LearnedLookup(table 4×3, positions=%v)", ps) }
	lookup := func(name string, ps []int) Case {
		want, _ := refLearnedLookup(table, ps)
		return Case{Name: name, Call: call(ps), PanicHint: hintLearnedOffByOne, Run: func() *Failure {
			got, err := fn(cloneTable(table), slices.Clone(ps))
			if err != nil {
				var hint *Hint
				if slices.Contains(ps, len(table)-1) {
					hint = hintLearnedOffByOne
				}
				return fail(orElse(hint, hintLearnedFallback),
					fmt.Sprintf("%s returned the error %q; every position here has a row.", call(ps), err))
			}
			if msg := shapeMsg(call(ps), got, len(want), len(table[0])); msg != "" {
				return fail(hintLearnedFallback, msg)
			}
			if r, c := diffTable(got, want, 0); r >= 0 {
				return fail(hintLearnedFallback, append([]string{call(ps) + ":"},
					tableDiffLines(got, want, r, c, func(r int) string { return fmt.Sprintf("row %d (position %d)", r, ps[r]) }, label("column"))...)...)
			}
			return nil
		}}
	}
	reject := func(name string, ps []int, bad int) Case {
		edge := hintLearnedOffByOne // a position past the end
		if bad < 0 {
			edge = hintLearnedNegative
		}
		return Case{Name: name, Call: call(ps), PanicHint: edge, Run: func() *Failure {
			got, err := fn(cloneTable(table), slices.Clone(ps))
			if err == nil {
				return fail(orElse(diagLearnedAccepted(got, table, ps), edge),
					fmt.Sprintf("%s returned no error; want one, because position %d has no row (max_len = %d).", call(ps), bad, len(table)))
			}
			if _, wantErr := refLearnedLookup(table, ps); wantErr == nil {
				panic("check: the reference accepts " + fmt.Sprint(ps))
			}
			msg := err.Error()
			if !strings.Contains(msg, strconv.Itoa(bad)) || !strings.Contains(msg, strconv.Itoa(len(table))) {
				return fail(hintLearnedErrorText, fmt.Sprintf("%s returned the error %q, which does not name position %d and max_len %d.",
					call(ps), msg, bad, len(table)))
			}
			if got != nil {
				return fail(hintLearnedNilOnError, fmt.Sprintf("%s returned an error and a table of %d rows; want a nil table with the error.",
					call(ps), len(got)))
			}
			return nil
		}}
	}
	return newExercise(6, []Case{
		lookup("rows_in_any_order", []int{0, 2, 1, 2}),
		lookup("the_last_row_is_position_max_len-1", []int{3}),
		lookup("no_positions_no_rows", []int{}),
		reject("position_max_len_has_no_row", []int{1, 4}, 4),
		reject("far_past_the_table", []int{9}, 9),
		reject("negative_positions_have_no_row", []int{0, -1}, -1),
		reject("a_bad_position_after_good_ones", []int{0, 1, 2, 6}, 6),
		{Name: "result_rows_are_copies", Call: call([]int{1}), Run: func() *Failure {
			in := cloneTable(table)
			got, err := fn(in, []int{1})
			if err != nil || len(got) != 1 || len(got[0]) == 0 {
				return fail(hintLearnedFallback, call([]int{1})+" did not return one row.")
			}
			got[0][0] += 100
			if in[1][0] != table[1][0] {
				return fail(hintLearnedAliases, "after out, _ := "+call([]int{1})+", setting out[0][0] changed table[1][0].")
			}
			return nil
		}},
	})
}
