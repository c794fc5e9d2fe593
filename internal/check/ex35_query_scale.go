package check

import (
	"fmt"
	"math"

	"github.com/posenc/course/internal/catalog"
	"github.com/posenc/course/pkg/posenc"
)

func init() {
	registerExercise(Entry{
		Exercise: catalog.Exercise{Num: 35, Slug: "query_scale", Title: "Ministral 3's query scale", Test: "TestQueryScale",
			Funcs: []string{"QueryScale"}, Lesson: 9, Section: secHybrid.Title, Difficulty: catalog.Easy},
		Blurb: "the factor on every layer's queries at a position, 1 + β·ln(1 + ⌊p / original length⌋), from " +
			"llama_4_scaling_beta.",
		Hints: Hints{
			Read: []Section{secHybrid, secNoPE},
			Idea: []string{
				"Past its original context, attention spreads over more keys and its softmax flattens; scaling the " +
					"query by a factor that grows with the log of the number of original contexts sharpens it again.",
			},
			Formula: []string{
				"- The factor is 1 + β·ln(1 + ⌊p / L₀⌋): the natural log, of 1 plus the integer part.",
				"- p counts from 0 and is not shifted: Llama 4's NoPE temperature floors (p+1)/L₀, Ministral 3 p/L₀, " +
					"so at p = L₀ − 1 Ministral 3's factor is still exactly 1.",
			},
		},
		Cases:  queryScaleCases(),
		Checks: func(cases any) *Exercise { return QueryScale(nil, cases.(QueryScaleCases)) },
	})
}

var (
	hintScaleShifted = newHint("query scale/position shifted by one", secHybrid,
		"Ministral 3 floors pos/originalLen, not (pos+1)/originalLen as Llama 4's NoPE temperature does: at "+
			"pos = originalLen − 1 the factor is still 1")
	hintScaleNoFloor = newHint("query scale/no integer part", secHybrid,
		"take the integer part of pos/originalLen before the log: the factor is a staircase, 1 for the whole "+
			"first original context, not a smooth curve")
	hintScaleLogBase = newHint("query scale/logarithm base", secHybrid,
		"the logarithm is the natural one (math.Log), not log₂ or log₁₀")
	hintScaleNoOne = newHint("query scale/log without 1 +", secHybrid,
		"the log is of 1 + ⌊pos/originalLen⌋, so that it is 0, and the factor 1, in the first original context")
	hintScaleFallback = generic("query scale/fallback", secHybrid,
		"return 1 + beta·math.Log(1 + float64(pos/originalLen)), with integer division")
)

// refQueryScale is the formula; a variant breaks it in one way.
func refQueryScale(pos int, beta float64, orig int, v string) float64 {
	p := float64(pos)
	if v == "shifted" {
		p++
	}
	n := math.Floor(p / float64(orig))
	if v == "no_floor" {
		n = p / float64(orig)
	}
	switch v {
	case "log2":
		return 1 + beta*math.Log2(1+n)
	case "log10":
		return 1 + beta*math.Log10(1+n)
	case "no_one":
		return 1 + beta*math.Log(n)
	}
	return 1 + beta*math.Log(1+n)
}

// ScaleCase is one call: QueryScale(Pos, Beta, OriginalLen) must equal Want.
type ScaleCase struct {
	Name        string
	Pos         int
	Beta        float64
	OriginalLen int
	Want        float64
}

// QueryScaleCases is exercise 35's case table.
type QueryScaleCases struct {
	Scale []ScaleCase `doc:"QueryScale(Pos, Beta, OriginalLen) must equal Want to a relative 1e-12: posenc's AttentionTemperature (FromZero), which pkg/posenc's golden test checks against transformers' get_llama_4_attn_scale for Ministral 3."`
}

func queryScaleCases() QueryScaleCases {
	row := func(name string, pos int, beta float64, orig int) ScaleCase {
		want := posenc.AttentionTemperature{Scale: beta, FloorScale: float64(orig), FromZero: true}.At(pos)
		if want != refQueryScale(pos, beta, orig, "") {
			panic("check: the formula disagrees with posenc for " + name)
		}
		return ScaleCase{name, pos, beta, orig, want}
	}
	return QueryScaleCases{Scale: []ScaleCase{
		row("ministral_3_last_original_position", 16383, 0.1, 16384),
		row("ministral_3_one_context_in", 16384, 0.1, 16384),
		row("ministral_3_five_contexts_in", 5*16384+3, 0.1, 16384),
		row("ministral_3_half_way", 8192, 0.1, 16384),
		row("larger_beta_at_its_context_length", 262143, 0.25, 16384),
		row("short_original_context", 100, 0.5, 7),
	}}
}

// QueryScale returns exercise 35's checks of fn on cases.
func QueryScale(fn func(pos int, beta float64, originalLen int) float64, cases QueryScaleCases) *Exercise {
	const tol = 1e-12
	var checks []Check
	for _, c := range cases.Scale {
		call := fmt.Sprintf("QueryScale(%d, %g, %d)", c.Pos, c.Beta, c.OriginalLen)
		checks = append(checks, Check{Name: c.Name, Call: call, Run: func() *Failure {
			got := fn(c.Pos, c.Beta, c.OriginalLen)
			if closeTo(got, c.Want, tol) {
				return nil
			}
			type v = variant[float64]
			ref := func(name string) float64 { return refQueryScale(c.Pos, c.Beta, c.OriginalLen, name) }
			hint := firstMatch(got, func(a, b float64) bool { return closeTo(a, b, tol) },
				v{hintScaleShifted, ref("shifted")},
				v{hintScaleNoFloor, ref("no_floor")},
				v{hintScaleLogBase, ref("log2")},
				v{hintScaleLogBase, ref("log10")},
				v{hintScaleNoOne, ref("no_one")},
			)
			return fail(orElse(hint, hintScaleFallback), fmt.Sprintf("%s = %v; want %v", call, got, c.Want))
		}})
	}
	return newExercise(35, checks)
}
