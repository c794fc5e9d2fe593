package exercises

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/posenc/course/pkg/posenc"
)

var exLearned = exInfo{file: "exercises/06_learned.go", funcs: "LearnedLookup", lesson: "lesson 3, learned positions"}

func TestLearnedLookup(t *testing.T) { runExercise(t, exLearned, learnedCases(LearnedLookup)) }

var (
	hintLearnedClamp = newHint("learned/clamps",
		"your lookup clamps positions past the table to its last row: a learned table has no vector for position "+
			"max_len or beyond, so return an error instead of silently reusing another position's vector "+
			"(lesson 3, “No row, no position”).")
	hintLearnedWrap = newHint("learned/wraps",
		"your lookup wraps positions around (p % max_len): position max_len would get position 0's vector. "+
			"A learned table cannot extrapolate: return an error (lesson 3, “No row, no position”).")
	hintLearnedOffByOne = newHint("learned/off by one",
		"rows are numbered 0 to max_len−1, where max_len = len(table): position max_len−1 is valid and position "+
			"max_len is not; test p < len(table) (lesson 3, “No row, no position”).")
	hintLearnedErrorText = newHint("learned/vague error",
		"your error should say which position failed and what max_len is, for example "+
			"\"position 9 is past the learned table (max_len 4)\": that is what the person reading it needs to fix the input.")
	hintLearnedAliases = newHint("learned/shares rows",
		"your result shares its rows with the table (out[i] = table[p]), so changing the result changes the "+
			"embeddings: copy each row, e.g. append([]float64(nil), table[p]...).")
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
func diagLearnedAccepted(got, table [][]float64, positions []int) string {
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
	return diagFirst(got, exSameTable(0),
		exVariant[[][]float64]{hintLearnedClamp, rows(clamp)},
		exVariant[[][]float64]{hintLearnedWrap, rows(wrap)})
}

func learnedCases(fn func(table [][]float64, positions []int) ([][]float64, error)) []exCase {
	table := refRandTable(4, 3, 31)
	call := func(ps []int) string { return fmt.Sprintf("LearnedLookup(table 4×3, positions=%v)", ps) }
	const fallback = "row i of the result is a copy of table[positions[i]] (lesson 3, “What the table costs”)."
	lookup := func(name string, ps []int) exCase {
		want, _ := refLearnedLookup(table, ps)
		return exCase{name: name, call: call(ps), panicHint: hintLearnedOffByOne, run: func() string {
			got, err := fn(exCloneTable(table), slices.Clone(ps))
			if err != nil {
				hint := ""
				for _, p := range ps {
					if p == len(table)-1 {
						hint = hintLearnedOffByOne
					}
				}
				return exMsg(hint, fallback, fmt.Sprintf("%s returned the error %q; every position here has a row.", call(ps), err))
			}
			if msg := checkShape(call(ps), got, len(want), len(table[0])); msg != "" {
				return exMsg("", fallback, msg)
			}
			if r, c := exDiffTable(got, want, 0); r >= 0 {
				return exMsg("", fallback, append([]string{call(ps) + ":"},
					exTableDiffLines(got, want, r, c, func(r int) string { return fmt.Sprintf("row %d (position %d)", r, ps[r]) }, exLabel("column"))...)...)
			}
			return ""
		}}
	}
	reject := func(name string, ps []int, bad int) exCase {
		return exCase{name: name, call: call(ps), panicHint: hintLearnedOffByOne, run: func() string {
			got, err := fn(exCloneTable(table), slices.Clone(ps))
			if err == nil {
				return exMsg(diagLearnedAccepted(got, table, ps), hintLearnedOffByOne,
					fmt.Sprintf("%s returned no error; want one, because position %d has no row (max_len = %d).", call(ps), bad, len(table)))
			}
			if _, wantErr := refLearnedLookup(table, ps); wantErr == nil {
				return "internal: the reference accepts " + fmt.Sprint(ps)
			}
			msg := err.Error()
			if !strings.Contains(msg, strconv.Itoa(bad)) || !strings.Contains(msg, strconv.Itoa(len(table))) {
				return exMsg(hintLearnedErrorText, "", fmt.Sprintf("%s returned the error %q, which does not name position %d and max_len %d.",
					call(ps), msg, bad, len(table)))
			}
			return ""
		}}
	}
	return []exCase{
		lookup("rows_in_any_order", []int{0, 2, 1, 2}),
		lookup("the_last_row_is_position_max_len-1", []int{3}),
		reject("position_max_len_has_no_row", []int{1, 4}, 4),
		reject("far_past_the_table", []int{9}, 9),
		reject("negative_positions_have_no_row", []int{0, -1}, -1),
		{name: "result_rows_are_copies", call: call([]int{1}), run: func() string {
			in := exCloneTable(table)
			got, err := fn(in, []int{1})
			if err != nil || len(got) != 1 || len(got[0]) == 0 {
				return exMsg("", fallback, call([]int{1})+" did not return one row.")
			}
			got[0][0] += 100
			if in[1][0] != table[1][0] {
				return exMsg(hintLearnedAliases, "", "after out, _ := "+call([]int{1})+", setting out[0][0] changed table[1][0].")
			}
			return ""
		}},
	}
}
