package check

// A learner's trial of exercises 36–39 (lesson 11), kept as a test, as
// trial_test.go keeps 24–33's: plausible wrong answers and correct
// alternatives written from the stubs and lesson 11 alone, graded after.
// TestLearnerTrialLesson11 fails on a wrong answer that passes, on a
// correct one that fails, and when fewer than 90% of the caught wrong
// answers get the hint that names their mistake.
//
//	go test ./internal/check -run LearnerTrialLesson11 -v

import (
	"math"
	"slices"
	"testing"
)

// ---- 36 -------------------------------------------------------------------

func trial36(kind string) func(wq, wk [][]float64, heads, kvHeads int) ([][]float64, [][]float64) {
	// back reorders one matrix, heads of len(w)/heads rows, as the learner
	// read the stub.
	back := func(w [][]float64, heads int) [][]float64 {
		hd := len(w) / heads
		out := make([][]float64, 0, len(w))
		for h := range heads {
			head := w[h*hd : (h+1)*hd]
			var first, second [][]float64
			for r, row := range head {
				row = slices.Clone(row)
				switch {
				case kind == "forward": // HF → GGUF: interleave the halves
					if r < hd/2 {
						first = append(first, row, slices.Clone(head[r+hd/2]))
					}
					continue
				case r%2 == 0:
					first = append(first, row)
				default:
					second = append(second, row)
				}
			}
			out = append(append(out, first...), second...)
		}
		return out
	}
	return func(wq, wk [][]float64, heads, kvHeads int) ([][]float64, [][]float64) {
		if heads < 1 || kvHeads < 1 || kind != "no_check" && (len(wq)%(2*heads) != 0 || len(wk)%(2*kvHeads) != 0) {
			return nil, nil
		}
		switch kind {
		case "gqa_ignored":
			return back(wq, heads), back(wk, heads)
		case "single_head":
			return back(wq, 1), back(wk, 1)
		case "kv_for_both":
			return back(wq, kvHeads), back(wk, kvHeads)
		case "no_check":
			if len(wk)%(2*kvHeads) != 0 {
				return back(wq, heads), wk
			}
		}
		return back(wq, heads), back(wk, kvHeads)
	}
}

// ---- 37 -------------------------------------------------------------------

func trial37(kind string) func(mask [][]int, steps int) [][]int {
	return func(mask [][]int, steps int) [][]int {
		out := make([][]int, len(mask))
		for r, row := range mask {
			next := 0
			switch kind {
			case "slot": // the cache length, as cache_position gives it
				next = len(row)
			case "last_real_index": // the index of the last real token, plus one
				next = slices.Index(row, 1) + len(row) - slices.Index(row, 1)
			case "count_minus_one":
				next = -1
				for _, m := range row {
					next += m
				}
			case "alt_pads_subtracted":
				next = len(row) - slices.Index(row, 1)
			default:
				for _, m := range row {
					next += m
				}
			}
			for s := range steps {
				out[r] = append(out[r], next+s)
			}
		}
		return out
	}
}

// ---- 38 -------------------------------------------------------------------

func trial38(kind string) func(longest, trainedLen int) (float64, int, float64) {
	return func(longest, trainedLen int) (float64, int, float64) {
		s := float64(longest) / float64(trainedLen)
		if kind == "int" {
			s = float64(longest / trainedLen)
		}
		if kind == "alt_max" {
			s = math.Max(1, s)
			return s, trainedLen, 1 + 0.1*math.Log(s)
		}
		if s <= 1 && kind != "always" && kind != "int" {
			return 1, trainedLen, 1
		}
		if kind == "int" && s <= 1 {
			return 1, trainedLen, 1
		}
		orig := trainedLen
		if kind == "target_len" {
			orig = longest
		}
		a := 1 + 0.1*math.Log(s)
		switch kind {
		case "mscale_squared":
			a = math.Pow(0.1*math.Log(s)+1, 2)
		case "log2":
			a = 1 + 0.1*math.Log2(s)
		}
		return s, orig, a
	}
}

// ---- 39 -------------------------------------------------------------------

type trial39Funcs struct {
	sinks func([][]float64, float64) []int
	pairs func([][]float64) []int
}

func trial39(kind string) trial39Funcs {
	sinks := func(attn [][]float64, threshold float64) []int {
		var out []int
		if kind != "nil_when_none" {
			out = []int{}
		}
		for l, heads := range attn {
			total := 0.0
			for _, a := range heads {
				total += a
			}
			mean := total / float64(len(heads))
			switch {
			case kind == "any_head" && slices.Max(heads) >= threshold:
				out = append(out, l)
			case kind == "any_head":
			case kind == "greater" && mean > threshold:
				out = append(out, l)
			case kind != "greater" && mean >= threshold:
				out = append(out, l)
			}
		}
		return out
	}
	pairs := func(ms [][]float64) []int {
		out := []int{}
		for _, row := range ms {
			d := len(row)
			best, bestNorm := 0, math.Inf(-1)
			for i := 0; i < d/2; i++ {
				var norm float64
				switch kind {
				case "interleaved":
					norm = math.Sqrt(row[2*i] + row[2*i+1])
				case "sum_of_roots":
					norm = math.Sqrt(row[i]) + math.Sqrt(row[i+d/2])
				case "largest_dim":
					norm = math.Max(row[i], row[i+d/2])
				default:
					norm = math.Sqrt(row[i] + row[i+d/2])
				}
				if norm > bestNorm {
					best, bestNorm = i, norm
				}
			}
			out = append(out, best)
		}
		return out
	}
	return trial39Funcs{sinks, pairs}
}

func trialLesson11() []attempt {
	var out []attempt
	add := func(num int, ex func(kind string) *Exercise, kinds map[string][]string) {
		out = appendAttempts(out, num, ex, kinds)
	}
	add(36, func(k string) *Exercise { return GGUFToHF(trial36(k), entries[36].Cases.(GGUFToHFCases)) }, map[string][]string{
		"correct":     correctOK,
		"forward":     named("GGUF rows/permuted again"),
		"gqa_ignored": named("GGUF rows/keys with the query head count"),
		"single_head": named("GGUF rows/whole matrix as one head"),
		"kv_for_both": named("GGUF rows/queries with the key head count"),
		"no_check":    named("GGUF rows/no check of the head counts"),
	})
	add(37, func(k string) *Exercise { return DecodePositions(trial37(k), entries[37].Cases.(DecodePositionsCases)) }, map[string][]string{
		"correct": correctOK, "alt_pads_subtracted": correctOK,
		"slot":            named("decode positions/cache slot"),
		"last_real_index": named("decode positions/cache slot"),
		"count_minus_one": named("decode positions/one too few"),
	})
	add(38, func(k string) *Exercise { return ServeYaRN(trial38(k), entries[38].Cases.(ServeYaRNCases)) }, map[string][]string{
		"correct": correctOK, "alt_max": correctOK,
		"int":            named("serve YaRN/integer factor"),
		"always":         named("serve YaRN/scales a prompt that fits"),
		"target_len":     named("serve YaRN/original length"),
		"mscale_squared": named("serve YaRN/attention factor squared"),
		"log2":           named("serve YaRN/logarithm base"),
	})
	add(39, func(k string) *Exercise {
		f := trial39(k)
		return ProbeLayers(f.sinks, f.pairs, entries[39].Cases.(ProbeLayersCases))
	}, map[string][]string{
		"correct": correctOK, "nil_when_none": correctOK, // nil and an empty slice hold the same layers
		"any_head":     named("probe/sink by one head"),
		"greater":      named("probe/sink threshold strict"),
		"interleaved":  named("probe/adjacent dimensions"),
		"largest_dim":  named("probe/a dimension, not a pair"),
		"sum_of_roots": named("probe/sum of the dimensions' norms"),
	})
	return out
}

func TestLearnerTrialLesson11(t *testing.T) {
	byNum := runTrial(trialLesson11())
	var caught, namedN int
	for num := 36; num <= 39; num++ {
		c := byNum[num]
		caught += c.wrong - c.holes
		namedN += c.named
		t.Logf("exercise %d: %d wrong, %d pass (holes) %v, %d of %d caught named; %d correct, %d rejected",
			num, c.wrong, c.holes, c.holeNames, c.named, c.wrong-c.holes, c.correct, c.rejected)
		for _, u := range c.unnamed {
			t.Logf("    not named: %s", u)
		}
		if c.holes > 0 || c.rejected > 0 {
			t.Errorf("exercise %d: %d wrong answers pass, %d correct ones fail", num, c.holes, c.rejected)
		}
	}
	pct := 100 * float64(namedN) / float64(caught)
	t.Logf("lesson 11: %d of %d caught wrong answers named (%.0f%%)", namedN, caught, pct)
	if pct < 90 {
		t.Errorf("%.0f%% of the caught wrong answers get the hint that names their mistake; want ≥ 90%%", pct)
	}
}
