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
		Hints: Hints{
			Read: []Section{secNoRow, secCost},
			Idea: []string{
				"A learned table has one row for each position it was trained on, and nothing else: a lookup " +
					"copies rows, and a position outside the table is an error, never a nearby row.",
			},
			Formula: []string{
				"- The positions with a row are 0 … len(table)−1. Check every position, the first one included, " +
					"before copying anything, so that an error comes with a nil table; the error names the position " +
					"and max_len = len(table).",
				"- Never clamp or wrap a position.",
			},
			Code: []string{
				"- `if p < 0 || p >= len(table) { return nil, fmt.Errorf(\"position %d has no row: max_len is " +
					"%d\", p, len(table)) }` for every p first; then `append([]float64(nil), table[p]...)` for each " +
					"row.",
			},
		},
		Cases:  learnedCases(),
		Checks: func(cases any) *Exercise { return LearnedLookup(nil, cases.(LearnedCases)) },
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
	hintLearnedFirstPosition = newHint("learned/first position unchecked", secNoRow,
		"your check of the positions starts at the second one: positions[0] needs a row too, so test every "+
			"position, from index 0, before copying anything")
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

// LookupCase is one lookup whose positions all have a row:
// LearnedLookup(Table, Positions) must return Want and no error.
type LookupCase struct {
	Name      string
	Table     [][]float64
	Positions []int
	Want      [][]float64
}

// RejectCase is one lookup with a position that has no row, Bad:
// LearnedLookup(Table, Positions) must return a nil table and an error
// that names Bad and max_len = len(Table).
type RejectCase struct {
	Name      string
	Table     [][]float64
	Positions []int
	Bad       int
}

// LearnedCases is exercise 6's case table.
type LearnedCases struct {
	Lookup []LookupCase `doc:"LearnedLookup(Table, Positions) must return Want, row i a copy of Table[Positions[i]], and no error."`
	Reject []RejectCase `doc:"LearnedLookup(Table, Positions) must return a nil table and an error naming the position Bad, which has no row, and max_len = len(Table)."`
}

func learnedCases() LearnedCases {
	table := randTable(4, 3, 31)
	lookup := func(name string, ps []int) LookupCase {
		want, err := refLearnedLookup(table, ps)
		if err != nil {
			panic(err)
		}
		return LookupCase{Name: name, Table: table, Positions: ps, Want: want}
	}
	reject := func(name string, ps []int, bad int) RejectCase {
		if _, err := refLearnedLookup(table, ps); err == nil {
			panic("check: the reference accepts " + fmt.Sprint(ps))
		}
		return RejectCase{Name: name, Table: table, Positions: ps, Bad: bad}
	}
	return LearnedCases{
		Lookup: []LookupCase{
			lookup("rows_in_any_order", []int{0, 2, 1, 2}),
			lookup("the_last_row_is_position_max_len-1", []int{3}),
			lookup("no_positions_no_rows", []int{}),
		},
		Reject: []RejectCase{
			reject("position_max_len_has_no_row", []int{1, 4}, 4),
			reject("far_past_the_table", []int{9}, 9),
			reject("negative_positions_have_no_row", []int{0, -1}, -1),
			reject("a_negative_first_position", []int{-2, 1}, -2),
			reject("a_bad_position_after_good_ones", []int{0, 1, 2, 6}, 6),
		},
	}
}

var learnedArgs = argHints{hintMutates, hintLearnedAliases}

func learnedCall(table [][]float64, ps []int) string {
	return fmt.Sprintf("LearnedLookup(table %d×%d, positions=%v)", len(table), len(table[0]), ps)
}

// lookupCheck is a check of a lookup that must succeed.
func lookupCheck(fn func(table [][]float64, positions []int) ([][]float64, error), c LookupCase) Check {
	call := learnedCall(c.Table, c.Positions)
	return Check{Name: c.Name, Call: call, PanicHint: hintLearnedOffByOne, Run: func() *Failure {
		table, ps := cloneTable(c.Table), slices.Clone(c.Positions)
		got, err := fn(table, ps)
		if err != nil {
			var hint *Hint
			if slices.Contains(c.Positions, len(c.Table)-1) {
				hint = hintLearnedOffByOne
			}
			return fail(orElse(hint, hintLearnedFallback),
				fmt.Sprintf("%s returned the error %q; every position here has a row.", call, err))
		}
		if f := compareTable(call, got, c.Want, 0, func(r int) string { return fmt.Sprintf("row %d (position %d)", r, c.Positions[r]) },
			label("column"), nil, hintLearnedFallback); f != nil {
			return f
		}
		return learnedArgs.check(call, got, arg{"table", table, c.Table}, arg{"positions", ps, c.Positions})
	}}
}

// rejectCheck is a check of a lookup that must fail.
func rejectCheck(fn func(table [][]float64, positions []int) ([][]float64, error), c RejectCase) Check {
	call := learnedCall(c.Table, c.Positions)
	edge := hintLearnedOffByOne // a position past the end
	if c.Bad < 0 {
		edge = hintLearnedNegative
	}
	maxLen := len(c.Table)
	// A bad first position that panics while a later one is refused: the
	// check of the positions skips the first.
	skipsFirst := func(string) *Hint {
		if len(c.Positions) == 0 || c.Positions[0] != c.Bad {
			return nil
		}
		if _, err := fn(cloneTable(c.Table), []int{0, c.Bad}); err != nil {
			return hintLearnedFirstPosition
		}
		return nil
	}
	return Check{Name: c.Name, Call: call, PanicHint: edge, PanicDiag: skipsFirst, Run: func() *Failure {
		table, ps := cloneTable(c.Table), slices.Clone(c.Positions)
		got, err := fn(table, ps)
		if err == nil {
			return fail(orElse(diagLearnedAccepted(got, c.Table, c.Positions), edge),
				fmt.Sprintf("%s returned no error; want one, because position %d has no row (max_len = %d).", call, c.Bad, maxLen))
		}
		msg := err.Error()
		if !strings.Contains(msg, strconv.Itoa(c.Bad)) || !strings.Contains(msg, strconv.Itoa(maxLen)) {
			return fail(hintLearnedErrorText, fmt.Sprintf("%s returned the error %q, which does not name position %d and max_len %d.",
				call, msg, c.Bad, maxLen))
		}
		if got != nil {
			return fail(hintLearnedNilOnError, fmt.Sprintf("%s returned an error and a table of %d rows; want a nil table with the error.",
				call, len(got)))
		}
		return learnedArgs.check(call, got, arg{"table", table, c.Table}, arg{"positions", ps, c.Positions})
	}}
}

// LearnedLookup returns exercise 6's checks of fn on cases.
func LearnedLookup(fn func(table [][]float64, positions []int) ([][]float64, error), cases LearnedCases) *Exercise {
	var checks []Check
	for _, c := range cases.Lookup {
		checks = append(checks, lookupCheck(fn, c))
	}
	for _, c := range cases.Reject {
		checks = append(checks, rejectCheck(fn, c))
	}
	return newExercise(6, checks)
}
