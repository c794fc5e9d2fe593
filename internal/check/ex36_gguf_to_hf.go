package check

import (
	"fmt"

	"github.com/posenc/course/internal/catalog"
)

func init() {
	registerExercise(Entry{
		Exercise: catalog.Exercise{Num: 36, Slug: "gguf_to_hf", Title: "Un-permute GGUF query and key rows", Test: "TestGGUFToHF",
			Funcs: []string{"GGUFToHF"}, Lesson: 11, Section: secRealLayout.Title, Difficulty: catalog.Medium},
		Blurb: "undo llama.cpp's permutation of a grouped-query model's Q and K rows, head by head, with the key " +
			"head count for the keys.",
		Hints: Hints{
			Read: []Section{secRealLayout, secConvert},
			Idea: []string{
				"llama.cpp's converter moved each head's rows so that RoPE's pairs sit side by side: Hugging Face's " +
					"dimension j (first half) went to row 2j and dimension j + headDim/2 (second half) to row 2j+1. " +
					"Undo that, one head at a time.",
			},
			Formula: []string{
				"- Within head h of headDim rows: hf[h·headDim + s·headDim/2 + j] = gguf[h·headDim + 2j + s], s ∈ {0, 1}.",
				"- headDim = rows of wq / heads = rows of wk / kvHeads: the keys have fewer heads in a grouped-query model.",
			},
		},
		Cases:  ggufToHFCases(),
		Checks: func(cases any) *Exercise { return GGUFToHF(nil, cases.(GGUFToHFCases)) },
	})
}

// The lesson sections exercises 36–39 and their hints cite.
var (
	secRealLayout = Section{11, "The layout: which dimensions form a pair"}
	secRealBatch  = Section{11, "Position ids in a batch"}
	secRealPairs  = Section{11, "Which pairs carry what"}
	secRealYaRN   = Section{11, "YaRN switched on for every request"}
	secConvert    = Section{4, "Converting checkpoints"}
)

var (
	hintGGUFKeyHeads = newHint("GGUF rows/keys with the query head count", secRealLayout,
		"the keys have kvHeads heads, not heads: un-permuting wk with the query head count cuts its heads in the "+
			"wrong places (llama.cpp#2376: Llama 2 70B's converted keys, gibberish)")
	hintGGUFForward = newHint("GGUF rows/permuted again", secRealLayout,
		"you applied llama.cpp's permutation (HF row s·headDim/2 + j to row 2j + s) instead of undoing it: GGUF row "+
			"2j + s goes back to HF row s·headDim/2 + j")
	hintGGUFOneHead = newHint("GGUF rows/whole matrix as one head", secRealLayout,
		"the permutation is within each head: split the rows into heads of headDim rows and reorder each head on "+
			"its own")
	hintGGUFQueryHeads = newHint("GGUF rows/queries with the key head count", secRealLayout,
		"the queries have heads heads and the keys kvHeads: cut wq into heads heads and wk into kvHeads, each by "+
			"its own count")
	hintGGUFInvalid = newHint("GGUF rows/no check of the head counts", secRealLayout,
		"when a matrix cannot be cut into its heads of an even number of rows (len(wk) not a multiple of "+
			"2·kvHeads), return nil, nil rather than a guess")
	hintGGUFMutates = newHint("GGUF rows/mutates or shares", Section{},
		"build new matrices with new rows: do not reorder the caller's wq and wk, or return their rows")
	hintGGUFFallback = generic("GGUF rows/fallback", secRealLayout,
		"for each head h and each j < headDim/2: q[h·headDim + j] = wq[h·headDim + 2j], q[h·headDim + headDim/2 + j] = "+
			"wq[h·headDim + 2j + 1]; the same for wk with kvHeads")
)

// refUnpermute returns w's rows reordered within heads of len(w)/heads
// rows: undone (GGUF to HF) or, forward, done again. Heads that do not
// divide the rows (a wrong head count) leave the last rows nil, as a loop
// over heads of len(w)/heads rows does.
func refUnpermute(w [][]float64, heads int, forward bool) [][]float64 {
	if heads < 1 {
		return nil
	}
	hd := len(w) / heads
	out := make([][]float64, len(w))
	for h := range heads {
		for j := range hd / 2 {
			for s := range 2 {
				hf, gguf := h*hd+s*hd/2+j, h*hd+2*j+s
				if forward {
					hf, gguf = gguf, hf
				}
				out[hf] = cloneVec(w[gguf])
			}
		}
	}
	return out
}

// GGUFToHFCase is one call: GGUFToHF(WQ, WK, Heads, KVHeads) must return
// WantQ and WantK.
type GGUFToHFCase struct {
	Name           string
	WQ, WK         [][]float64
	Heads, KVHeads int
	WantQ, WantK   [][]float64
}

// GGUFToHFCases is exercise 36's case table.
type GGUFToHFCases struct {
	Rows []GGUFToHFCase `doc:"GGUFToHF(WQ, WK, Heads, KVHeads) must return WantQ and WantK exactly: the rows of each head reordered as transformers' Llama expects (the inverse of llama.cpp's convert_hf_to_gguf.py LlamaModel.permute), nil for both when a matrix cannot be cut into heads of pairs."`
}

func ggufToHFCases() GGUFToHFCases {
	row := func(name string, heads, kvHeads, headDim, cols int, seed uint64) GGUFToHFCase {
		wq, wk := randTable(heads*headDim, cols, seed), randTable(kvHeads*headDim, cols, seed+1)
		c := GGUFToHFCase{Name: name, WQ: wq, WK: wk, Heads: heads, KVHeads: kvHeads,
			WantQ: refUnpermute(wq, heads, false), WantK: refUnpermute(wk, kvHeads, false)}
		// llama.cpp's permutation of the answer gives the input back.
		if !sameTable(0)(refUnpermute(c.WantQ, heads, true), wq) || !sameTable(0)(refUnpermute(c.WantK, kvHeads, true), wk) {
			panic("check: GGUF rows do not round-trip for " + name)
		}
		return c
	}
	bad := func(name string, qRows, kRows, heads, kvHeads int) GGUFToHFCase {
		return GGUFToHFCase{Name: name, WQ: randTable(qRows, 2, 7), WK: randTable(kRows, 2, 8), Heads: heads, KVHeads: kvHeads}
	}
	return GGUFToHFCases{Rows: []GGUFToHFCase{
		row("smollm2_like_9_heads_3_kv", 9, 3, 8, 2, 1),
		row("four_heads_two_kv", 4, 2, 8, 3, 3),
		row("multi_head_no_grouping", 2, 2, 8, 2, 5),
		row("head_of_4_rows", 4, 2, 4, 2, 9),
		row("one_head_one_kv", 1, 1, 8, 2, 11),
		bad("keys_cannot_split_into_heads", 16, 6, 2, 2),
		bad("queries_cannot_split_into_heads", 10, 8, 2, 1),
		bad("no_query_heads", 8, 8, 0, 1),
		bad("no_key_heads", 8, 8, 1, 0),
	}}
}

var ggufArgs = argHints{hintGGUFMutates, hintGGUFMutates}

// GGUFToHF returns exercise 36's checks of fn on cases.
func GGUFToHF(fn func(wq, wk [][]float64, heads, kvHeads int) ([][]float64, [][]float64), cases GGUFToHFCases) *Exercise {
	var checks []Check
	for _, c := range cases.Rows {
		call := fmt.Sprintf("GGUFToHF(wq %d×%d, wk %d×%d, %d, %d)", len(c.WQ), len(c.WQ[0]), len(c.WK), len(c.WK[0]), c.Heads, c.KVHeads)
		checks = append(checks, Check{Name: c.Name, Call: call, Run: func() *Failure {
			wq, wk := cloneTable(c.WQ), cloneTable(c.WK)
			q, k := fn(wq, wk, c.Heads, c.KVHeads)
			if c.WantQ == nil {
				if q != nil || k != nil {
					return fail(hintGGUFInvalid, fmt.Sprintf("%s: wq of %d rows in %d heads or wk of %d rows in %d heads cannot be cut into heads of pairs: want nil, nil",
						call, len(c.WQ), c.Heads, len(c.WK), c.KVHeads))
				}
				return nil
			}
			type v = variant[[][]float64]
			same := sameTable(0)
			diagQ := func(got [][]float64) *Hint {
				return firstMatch(got, same, v{hintGGUFForward, refUnpermute(c.WQ, c.Heads, true)}, v{hintGGUFOneHead, refUnpermute(c.WQ, 1, false)},
					v{hintGGUFQueryHeads, refUnpermute(c.WQ, c.KVHeads, false)})
			}
			diagK := func(got [][]float64) *Hint {
				return firstMatch(got, same, v{hintGGUFKeyHeads, refUnpermute(c.WK, c.Heads, false)}, v{hintGGUFForward, refUnpermute(c.WK, c.KVHeads, true)},
					v{hintGGUFOneHead, refUnpermute(c.WK, 1, false)})
			}
			if f := compareTable(call+", q", q, c.WantQ, 0, label("row"), label("column"), diagQ, hintGGUFFallback); f != nil {
				return f
			}
			if f := compareTable(call+", k", k, c.WantK, 0, label("row"), label("column"), diagK, hintGGUFFallback); f != nil {
				return f
			}
			return ggufArgs.check(call, [][][]float64{q, k}, arg{"wq", wq, c.WQ}, arg{"wk", wk, c.WK})
		}})
	}
	return newExercise(36, checks)
}
