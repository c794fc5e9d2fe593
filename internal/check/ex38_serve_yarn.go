package check

import (
	"fmt"
	"math"

	"github.com/posenc/course/internal/catalog"
	"github.com/posenc/course/pkg/posenc"
)

func init() {
	registerExercise(Entry{
		Exercise: catalog.Exercise{Num: 38, Slug: "serve_yarn", Title: "YaRN's settings for a longer prompt", Test: "TestServeYaRN",
			Funcs: []string{"ServeYaRN"}, Lesson: 11, Section: secRealYaRN.Title, Difficulty: catalog.Medium},
		Blurb: "the factor, original length and attention factor to serve a prompt of a given length on a model " +
			"trained shorter, and no scaling when it fits.",
		Hints: Hints{
			Read: []Section{secRealYaRN, secYaRN},
			Idea: []string{
				"A static scaling costs every request (lesson 11, section 7), so scale only when the prompt does not fit, " +
					"and then just enough: the factor that stretches the trained length to the prompt's.",
			},
			Formula: []string{
				"- factor s = longest / trainedLen when longest > trainedLen, else 1 (no scaling).",
				"- original_max_position_embeddings = trainedLen: the length the model was trained on, not the new one.",
				"- YaRN's attention factor √(1/t) = 0.1·ln s + 1 multiplies the queries and keys (lesson 5): 1 at s = 1.",
			},
		},
		Cases:  serveYaRNCases(),
		Checks: func(cases any) *Exercise { return ServeYaRN(nil, cases.(ServeYaRNCases)) },
	})
}

var (
	hintServeIntFactor = newHint("serve YaRN/integer factor", secRealYaRN,
		"longest/trainedLen with ints truncates (12,000/8,192 is 1): convert to float64 before dividing")
	hintServeInverted = newHint("serve YaRN/factor inverted", secRealYaRN,
		"the factor stretches the trained length to the prompt's: longest/trainedLen, greater than 1")
	hintServeShort = newHint("serve YaRN/scales a prompt that fits", secRealYaRN,
		"a prompt that fits the trained length needs no scaling: a factor below 1 compresses every angle, and "+
			"any static factor costs short prompts (lesson 11, section 7). Return 1, trainedLen, 1")
	hintServeOriginal = newHint("serve YaRN/original length", secRealYaRN,
		"original_max_position_embeddings is the trained length (YaRN's ramp is measured against it), not the "+
			"prompt's length")
	hintServeSquared = newHint("serve YaRN/attention factor squared", secRealYaRN,
		"the attention factor is 0.1·ln s + 1, applied to queries and keys; its square is what the logits get, "+
			"not what the setting holds")
	hintServeLogBase = newHint("serve YaRN/logarithm base", secRealYaRN,
		"the attention factor uses the natural logarithm (math.Log): 0.1·ln s + 1")
	hintServeFallback = generic("serve YaRN/fallback", secRealYaRN,
		"if longest <= trainedLen return 1, trainedLen, 1; else s = float64(longest)/float64(trainedLen), "+
			"return s, trainedLen, 0.1·math.Log(s) + 1")
)

// refServe returns the settings with the given mistake.
func refServe(longest, trained int, bug string) (float64, int, float64) {
	if longest <= trained && bug != "short" {
		return 1, trained, 1 // every other mistake is in the scaling
	}
	s := float64(longest) / float64(trained)
	switch bug {
	case "int":
		s = float64(longest / trained)
	case "inverted":
		s = float64(trained) / float64(longest)
	}
	orig := trained
	if bug == "original" {
		orig = longest
	}
	a := 0.1*math.Log(s) + 1
	switch bug {
	case "squared":
		a *= a
	case "log2":
		a = 0.1*math.Log2(s) + 1
	case "log10":
		a = 0.1*math.Log10(s) + 1
	}
	return s, orig, a
}

// ServeYaRNCase is one call: ServeYaRN(Longest, TrainedLen) must return
// Factor, OriginalLen and Attention.
type ServeYaRNCase struct {
	Name                string
	Longest, TrainedLen int
	Factor              float64
	OriginalLen         int
	Attention           float64
}

// ServeYaRNCases is exercise 38's case table.
type ServeYaRNCases struct {
	Settings []ServeYaRNCase `doc:"ServeYaRN(Longest, TrainedLen) must return Factor, OriginalLen and Attention (to 1e-12 relative): the factor that stretches the trained length to the longest prompt (1 when it fits), the trained length, and YaRN's attention factor, posenc.YaRNScaling's."`
}

func serveYaRNCases() ServeYaRNCases {
	row := func(name string, longest, trained int) ServeYaRNCase {
		f, o, a := refServe(longest, trained, "")
		if f > 1 {
			if want := (posenc.RoPE{HeadDim: 64, Base: 10000}).WithScaling(posenc.YaRNScaling(f, trained)).AttentionFactor(); math.Abs(want-a) > 1e-12 {
				panic(fmt.Sprintf("check: YaRN's attention factor %v, posenc's %v for %s", a, want, name))
			}
		}
		return ServeYaRNCase{name, longest, trained, f, o, a}
	}
	return ServeYaRNCases{Settings: []ServeYaRNCase{
		row("smollm2_16k_on_8k", 16384, 8192),
		row("smollm2_12000_tokens", 12000, 8192),
		row("qwen_128k_on_32k", 131072, 32768),
		row("fits_exactly", 8192, 8192),
		row("short_prompt", 512, 8192),
		row("just_over", 4097, 4096),
	}}
}

// ServeYaRN returns exercise 38's checks of fn on cases.
func ServeYaRN(fn func(longest, trainedLen int) (float64, int, float64), cases ServeYaRNCases) *Exercise {
	const tol = 1e-12
	type triple struct {
		f float64
		o int
		a float64
	}
	same := func(x, y triple) bool { return closeTo(x.f, y.f, tol) && x.o == y.o && closeTo(x.a, y.a, tol) }
	var checks []Check
	for _, c := range cases.Settings {
		call := fmt.Sprintf("ServeYaRN(%d, %d)", c.Longest, c.TrainedLen)
		checks = append(checks, Check{Name: c.Name, Call: call, Run: func() *Failure {
			f, o, a := fn(c.Longest, c.TrainedLen)
			got, want := triple{f, o, a}, triple{c.Factor, c.OriginalLen, c.Attention}
			ref := func(bug string) triple { f, o, a := refServe(c.Longest, c.TrainedLen, bug); return triple{f, o, a} }
			type v = variant[triple]
			diag := func(got triple) *Hint {
				return firstMatch(got, same, v{hintServeIntFactor, ref("int")}, v{hintServeInverted, ref("inverted")},
					v{hintServeShort, ref("short")}, v{hintServeOriginal, ref("original")}, v{hintServeSquared, ref("squared")},
					v{hintServeLogBase, ref("log2")}, v{hintServeLogBase, ref("log10")})
			}
			noteFallback(hintServeFallback)
			if same(got, want) {
				observePass(diag, got)
				return nil
			}
			return fail(orElse(diag(got), hintServeFallback), fmt.Sprintf("%s = %v, %d, %v; want %v, %d, %v", call, f, o, a, c.Factor, c.OriginalLen, c.Attention))
		}})
	}
	return newExercise(38, checks)
}
