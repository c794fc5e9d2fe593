package check

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/posenc/course/internal/catalog"
)

// The grader names a mistake only when it explains every row. These tests
// give it learner-style answers wrong in two ways at once, answers wrong on
// one row only, and hand-made results, and check what it shows.

// twoMistakes is a learner's answer wrong in two ways, and the two hints
// that name them.
type twoMistakes struct {
	name  string
	ex    *Exercise
	hints [2]*Hint
}

func twoMistakeAnswers() []twoMistakes {
	return []twoMistakes{
		{"03: integer exponent and sin/cos swapped", Sinusoidal(func(start, n, d int) [][]float64 {
			pe := make([][]float64, n)
			for r := range pe {
				pe[r] = make([]float64, d)
				for i := range d / 2 {
					w := math.Pow(10000, -float64(2*i/d)) // integer division
					s, c := math.Sincos(float64(start+r) * w)
					pe[r][2*i], pe[r][2*i+1] = c, s // cos first
				}
			}
			return pe
		}, entries[3].Cases.(SinusoidalCases)), [2]*Hint{hintSinusoidalIntDiv, hintSinusoidalSwapped}},
		{"29: no −1 and pads 0", PositionIDs(func(mask []int) []int {
			out := make([]int, len(mask))
			count := 0
			for i, m := range mask {
				count += m
				out[i] = count * m // real tokens from 1, pads 0
			}
			return out
		}, entries[29].Cases.(PositionIDsCases)), [2]*Hint{hintIDsNoMinusOne, hintIDsPadsZero}},
		{"32: column-major and one too far", ImagePositions(func(before, gh, gw, after int) [][]int {
			var ids [][]int
			for i := range before {
				ids = append(ids, []int{i, i, i})
			}
			for x := range gw {
				for y := range gh {
					ids = append(ids, []int{before, before + y, before + x})
				}
			}
			next := before + max(gh, gw) + 1
			for i := range after {
				ids = append(ids, []int{next + i, next + i, next + i})
			}
			return ids
		}, entries[32].Cases.(ImagePositionsCases)), [2]*Hint{hintImgColumnMajor, hintImgTooFar}},
		{"33: truncates and no subnormals", RoundBFloat16(func(x float64) float64 {
			if x == 0 || math.IsInf(x, 0) {
				return x
			}
			_, e := math.Frexp(x)
			sp := math.Ldexp(1, e-8)
			r := math.Trunc(x/sp) * sp
			if math.Abs(r) > 0x1.fep127 {
				return math.Copysign(math.Inf(1), x)
			}
			return r
		}, entries[33].Cases.(RoundBF16Cases)), [2]*Hint{hintBF16Truncates, hintBF16NoSubnormals}},
		{"25: no_rope_layers inverted and linear layers rotate", LayersWithRoPE(func(model string, types []string, noRoPE []int) []bool {
			out := make([]bool, len(types))
			for i, t := range types {
				out[i] = noRoPE == nil || noRoPE[i] == 0
				if model == "cohere2" {
					out[i] = out[i] && t == "sliding_attention"
				}
			}
			return out
		}, entries[25].Cases.(LayersWithRoPECases)), [2]*Hint{hintNoRoPEInverted, hintLinearRotates}},
	}
}

// TestTwoMistakesAtOnce: an answer wrong in two ways is never told one
// named mistake as if it explained everything; the grader lists the rows
// that fail, and any mistake it quotes is one of the two made.
func TestTwoMistakesAtOnce(t *testing.T) {
	for _, m := range twoMistakeAnswers() {
		t.Run(m.name, func(t *testing.T) {
			o := m.ex.summarize(m.ex.results())
			if o.status != catalog.StatusFail {
				t.Fatalf("status %q; want a failure", o.status)
			}
			if !strings.Contains(o.summary, "rows fail") {
				t.Errorf("the grader shows %q; want the rows that fail", o.summary)
			}
			for _, h := range registry {
				if !h.Generic && strings.Contains(o.summary, strings.TrimSuffix(h.String(), ".")) && h != m.hints[0] && h != m.hints[1] {
					t.Errorf("the grader quotes %q, a mistake not made:\n%s", h.Name, o.summary)
				}
			}
		})
	}
}

// TestOneRowOnly: an answer wrong at the largest finite value alone is told
// about the overflow, never about the significand's bits, whose answers the
// other rows rule out.
func TestOneRowOnly(t *testing.T) {
	ex := RoundBFloat16(func(x float64) float64 {
		if math.Abs(x) >= 0x1.fep127 { // ±Inf from the largest finite value on
			return math.Copysign(math.Inf(1), x)
		}
		return bf16Unbounded(x)
	}, entries[33].Cases.(RoundBF16Cases))
	results := ex.results()
	var failing []string
	for _, r := range results {
		if r.Kind != Pass {
			failing = append(failing, r.Check.Name)
		}
	}
	if !slices.Contains(failing, "largest_finite_stays") {
		t.Fatalf("failing rows %v; want largest_finite_stays among them", failing)
	}
	if o := ex.summarize(results); o.summary != hintBF16OverflowAtMax.String() {
		t.Errorf("the grader shows %q; want %q", o.summary, hintBF16OverflowAtMax.Name)
	}
}

func withTraits(r Result, traits ...string) Result {
	r.Check.Traits = traits
	return r
}

// TestChooseHint checks the rule on hand-made results: a named hint that a
// passing row rules out, or that another failing row contradicts, is not
// shown; one that explains every row is, even when a later row names it.
func TestChooseHint(t *testing.T) {
	a := &Hint{Name: "a", Text: "mistake a"}
	b := &Hint{Name: "b", Text: "mistake b"}
	fallback := &Hint{Name: "fallback", Text: "the rule", Generic: true}
	row := func(name string, kind Kind, h *Hint, fits map[*Hint]bool) Result {
		r := Result{Check: Check{Name: name, Call: "F(…)"}, Kind: kind, evidence: &evidence{fits: fits, fallback: fallback}}
		if kind != Pass {
			r.Failure = fail(h, "wrong")
		}
		return r
	}
	for _, tc := range []struct {
		name    string
		results []Result
		want    string
	}{
		{"explains every row", []Result{
			row("r1", Fail, a, map[*Hint]bool{a: true}),
			row("r2", Pass, nil, map[*Hint]bool{a: true, b: false}),
		}, a.String()},
		{"a passing row rules it out", []Result{
			row("r1", Fail, a, map[*Hint]bool{a: true}),
			row("r2", Pass, nil, map[*Hint]bool{a: false}),
		}, "1 of 2 rows fail (r1)"},
		{"another row's mistake fits the first row too", []Result{
			row("r1", Fail, fallback, map[*Hint]bool{a: true, b: true}),
			row("r2", Fail, b, map[*Hint]bool{a: false, b: true}),
		}, b.String()},
		{"two mistakes, each on its rows", []Result{
			row("r1", Fail, a, map[*Hint]bool{a: true, b: false}),
			row("r2", Fail, b, map[*Hint]bool{a: false, b: true}),
			row("r3", Pass, nil, map[*Hint]bool{a: true, b: true}),
		}, "r1 is the answer of this one: mistake a. r2 is the answer of this one: mistake b"},
		{"no named mistake: what the failing rows have in common", []Result{
			withTraits(row("r1", Fail, fallback, map[*Hint]bool{}), "wide", "text after"),
			withTraits(row("r2", Fail, fallback, map[*Hint]bool{}), "wide"),
			withTraits(row("r3", Pass, nil, map[*Hint]bool{}), "tall", "text after"),
		}, "2 of 3 rows fail (r1 and r2), and no single classic mistake gives your answers on every row, failing or " +
			"passing. What the failing rows have in common: wide (and no passing row). Check them against the rule: the rule"},
		{"a panic keeps its own hint", []Result{
			{Check: Check{Name: "r1"}, Kind: Panic, Failure: fail(hintPanic, "panicked")},
		}, hintPanic.String()},
	} {
		t.Run(tc.name, func(t *testing.T) {
			first := tc.results[slices.IndexFunc(tc.results, func(r Result) bool { return r.Kind != Pass })]
			got := chooseHint(first, tc.results).String()
			if !strings.Contains(got, tc.want) {
				t.Errorf("chooseHint = %q; want it to contain %q", got, tc.want)
			}
		})
	}
}
