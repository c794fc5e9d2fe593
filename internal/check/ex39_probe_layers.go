package check

import (
	"fmt"
	"math"
	"slices"

	"github.com/posenc/course/internal/catalog"
)

func init() {
	registerExercise(Entry{
		Exercise: catalog.Exercise{Num: 39, Slug: "probe_layers", Title: "Sink layers and the largest rotary pairs", Test: "TestProbeLayers",
			Funcs: []string{"SinkLayers", "LargestPairs"}, Lesson: 11, Section: secRealPairs.Title, Difficulty: catalog.Medium},
		Blurb: "read a model's analysis: the layers whose heads park their attention on the first token, and each " +
			"layer's largest rotary pair from per-dimension statistics in the half-split layout.",
		Hints: Hints{
			Read: []Section{secRealPairs, secConvert},
			Idea: []string{
				"A sink layer is one whose heads, on average, give the first token at least the threshold of their " +
					"attention. A rotary pair's size is the norm of its two dimensions together, and in Hugging " +
					"Face's layout pair i is dimensions i and i + d/2.",
			},
			Formula: []string{
				"- Sink: mean over heads of firstAttn[l][h] ≥ threshold.",
				"- Pair i's norm in layer l: √(meanSquare[l][i] + meanSquare[l][i + d/2]); return the largest pair's i (the first, on ties).",
			},
		},
		Cases:  probeLayersCases(),
		Checks: func(cases any) *Exercise { return ProbeLayers(nil, nil, cases.(ProbeLayersCases)) },
	})
}

var (
	hintSinkMax = newHint("probe/sink by one head", secRealPairs,
		"a layer is a sink layer when its heads on average give the first token the threshold: take the mean over "+
			"heads, not the largest head")
	hintSinkStrict = newHint("probe/sink threshold strict", secRealPairs,
		"a layer whose mean equals the threshold is a sink layer: compare with ≥")
	hintPairsAdjacent = newHint("probe/adjacent dimensions", secRealPairs,
		"the statistics are in Hugging Face's half-split layout: pair i is dimensions i and i + d/2, not 2i and "+
			"2i + 1 (GGUF's adjacent layout)")
	hintPairsDimension = newHint("probe/a dimension, not a pair", secRealPairs,
		"a pair's size is its two dimensions together: √(ms[i] + ms[i+d/2]), not its largest dimension alone")
	hintPairsRoots = newHint("probe/sum of the dimensions' norms", secRealPairs,
		"a pair's norm is that of its two dimensions together, √(ms[i] + ms[i+d/2]), not the sum of their "+
			"separate norms √ms[i] + √ms[i+d/2]")
	hintPairsSmallest = newHint("probe/smallest pair", secRealPairs,
		"return the pair with the largest norm")
	hintProbeMutates = newHint("probe/mutates", Section{},
		"do not sort or change the caller's tables: read them")
	hintProbeFallback = generic("probe/fallback", secRealPairs,
		"sinks: layers l (ascending) with mean(firstAttn[l]) >= threshold; pairs: for each layer the i < d/2 "+
			"maximising ms[l][i] + ms[l][i+d/2]")
)

// refSinks returns the sink layers with the given mistake.
func refSinks(attn [][]float64, threshold float64, bug string) []int {
	out := []int{}
	for l, heads := range attn {
		v := 0.0
		for _, a := range heads {
			v += a / float64(len(heads))
		}
		if bug == "max" {
			v = slices.Max(heads)
		}
		if v > threshold || v == threshold && bug != "strict" {
			out = append(out, l)
		}
	}
	return out
}

// refPairs returns each layer's largest pair with the given mistake.
func refPairs(ms [][]float64, bug string) []int {
	out := make([]int, len(ms))
	for l, row := range ms {
		d := len(row)
		size := func(i int) float64 {
			switch bug {
			case "adjacent":
				return row[2*i] + row[2*i+1]
			case "dimension":
				return max(row[i], row[i+d/2])
			case "smallest":
				return -(row[i] + row[i+d/2])
			case "roots":
				return math.Sqrt(row[i]) + math.Sqrt(row[i+d/2])
			}
			return row[i] + row[i+d/2]
		}
		for i := range d / 2 {
			if size(i) > size(out[l]) {
				out[l] = i
			}
		}
	}
	return out
}

// ProbeLayersCase is one analysis: SinkLayers(FirstAttn, Threshold) must
// equal Sinks and LargestPairs(MeanSquare) Pairs.
type ProbeLayersCase struct {
	Name       string
	FirstAttn  [][]float64
	Threshold  float64
	MeanSquare [][]float64
	Sinks      []int
	Pairs      []int
}

// ProbeLayersCases is exercise 39's case table.
type ProbeLayersCases struct {
	Analyses []ProbeLayersCase `doc:"SinkLayers(FirstAttn, Threshold) must equal Sinks (the layers whose mean over heads is at least Threshold, ascending) and LargestPairs(MeanSquare) Pairs (per layer, the half-split pair i, i + d/2 of the largest norm; the first on ties)."`
}

func probeLayersCases() ProbeLayersCases {
	row := func(name string, attn [][]float64, threshold float64, ms [][]float64) ProbeLayersCase {
		return ProbeLayersCase{name, attn, threshold, ms, refSinks(attn, threshold, ""), refPairs(ms, "")}
	}
	// A 4-layer analysis shaped like lesson 11's: early layers attend little to
	// token 0, later ones much, one head of layer 1 alone a sink; the slow
	// pairs (the last) carry the largest norms, split across both halves.
	attn := [][]float64{{0.02, 0.05, 0.01}, {0.9, 0.05, 0.04}, {0.5, 0.6, 0.4}, {0.3, 0.3, 0.3}}
	ms := [][]float64{
		{1, 0.2, 0.3, 0.1, 2, 0.2, 0.3, 0.1},     // dims 0 and 4: pair 0
		{0.1, 0.2, 1.5, 1.4, 0.1, 0.3, 0.2, 2},   // pair 3: dims 3 and 7 (3.4) against 2 and 6 (1.7)
		{0.5, 0.9, 0.1, 0.1, 0.5, 0.1, 0.9, 0.2}, // pairs 0, 1 and 2 tie at 1: the first
		{0.1, 0.1, 0.1, 3, 0.1, 0.1, 0.1, 0.2},   // pair 3 by one large dimension
		{1, 0.1, 2.2, 0.1, 1, 0.1, 0, 0.1},       // pair 2 (2.2) over pair 0 (2), whose separate norms sum higher
	}
	wide := make([][]float64, 3) // 64 dimensions, as SmolLM2's heads
	for l := range wide {
		wide[l] = make([]float64, 64)
		for i := range wide[l] {
			wide[l][i] = 1 + 0.5*math.Sin(float64(7*i+3*l))
		}
		wide[l][22+l] += 2
		wide[l][22+l+32] += 1.5
		wide[l][2*(5+l)] += 2.2 // a decoy for adjacent pairs
		wide[l][2*(5+l)+1] += 2.2
	}
	return ProbeLayersCases{Analyses: []ProbeLayersCase{
		row("four_layers", attn, 0.3, ms),
		row("threshold_0.5", attn, 0.5, ms),
		row("no_sink_layer", attn, 0.95, ms),
		row("smollm2_sized_heads", [][]float64{{0.1, 0.2}, {0.55, 0.45}, {0.02, 0.98}}, 0.5, wide),
	}}
}

var probeArgs = argHints{hintProbeMutates, hintProbeMutates}

// ProbeLayers returns exercise 39's checks of sinks and pairs on cases.
func ProbeLayers(sinks func(firstAttn [][]float64, threshold float64) []int, pairs func(meanSquare [][]float64) []int, cases ProbeLayersCases) *Exercise {
	var checks []Check
	for _, c := range cases.Analyses {
		sinkCall := fmt.Sprintf("SinkLayers(%v, %g)", c.FirstAttn, c.Threshold)
		checks = append(checks, Check{Name: c.Name + "_sinks", Call: sinkCall, Run: func() *Failure {
			attn := cloneTable(c.FirstAttn)
			got := sinks(attn, c.Threshold)
			type v = variant[[]int]
			diag := func(got []int) *Hint {
				return firstMatch(got, slices.Equal[[]int], v{hintSinkMax, refSinks(c.FirstAttn, c.Threshold, "max")},
					v{hintSinkStrict, refSinks(c.FirstAttn, c.Threshold, "strict")})
			}
			if f := compareInts(sinkCall, got, c.Sinks, label("sink"), diag, hintProbeFallback); f != nil {
				return f
			}
			return probeArgs.check(sinkCall, got, arg{"firstAttn", attn, c.FirstAttn})
		}})
		pairCall := fmt.Sprintf("LargestPairs(%d layers × %d dimensions)", len(c.MeanSquare), len(c.MeanSquare[0]))
		checks = append(checks, Check{Name: c.Name + "_pairs", Call: pairCall, Run: func() *Failure {
			ms := cloneTable(c.MeanSquare)
			got := pairs(ms)
			type v = variant[[]int]
			diag := func(got []int) *Hint {
				return firstMatch(got, slices.Equal[[]int], v{hintPairsAdjacent, refPairs(c.MeanSquare, "adjacent")},
					v{hintPairsDimension, refPairs(c.MeanSquare, "dimension")}, v{hintPairsSmallest, refPairs(c.MeanSquare, "smallest")},
					v{hintPairsRoots, refPairs(c.MeanSquare, "roots")})
			}
			if f := compareInts(pairCall, got, c.Pairs, label("layer"), diag, hintProbeFallback); f != nil {
				return f
			}
			return probeArgs.check(pairCall, got, arg{"meanSquare", ms, c.MeanSquare})
		}})
	}
	return newExercise(39, checks)
}
