package check

// Learner-style implementations of exercise 36 (un-permute GGUF query and
// key rows), correct when bug is "" and otherwise wrong in one classic way:
// each must fail with the hint that names its mistake (feedback_test.go).

func init() { addSuite(mutGGUFSuite) }

func mutGGUFSuite() suite {
	return mutSuite(36, GGUFToHF, mutGGUF, map[string]*Hint{
		"keys_with_query_heads": hintGGUFKeyHeads,
		"permutes_again":        hintGGUFForward,
		"one_head":              hintGGUFOneHead,
		"shares_rows":           hintGGUFMutates,
		"no_validation":         hintGGUFInvalid,
		"queries_with_kv_heads": hintGGUFQueryHeads,
	})
}

func mutGGUF(bug string) func(wq, wk [][]float64, heads, kvHeads int) ([][]float64, [][]float64) {
	unpermute := func(w [][]float64, heads int) [][]float64 {
		hd := len(w) / heads
		out := make([][]float64, len(w))
		for h := range heads {
			for i := range hd {
				// Row i of head h in the HF layout: first half from the even
				// GGUF rows, second half from the odd ones.
				src := h*hd + 2*i
				if i >= hd/2 {
					src = h*hd + 2*(i-hd/2) + 1
				}
				if bug == "permutes_again" { // HF row i goes to GGUF row …
					if i%2 == 0 {
						src = h*hd + i/2
					} else {
						src = h*hd + hd/2 + i/2
					}
				}
				out[h*hd+i] = w[src]
				if bug != "shares_rows" {
					out[h*hd+i] = append([]float64(nil), w[src]...)
				}
			}
		}
		return out
	}
	return func(wq, wk [][]float64, heads, kvHeads int) ([][]float64, [][]float64) {
		if heads < 1 || kvHeads < 1 || bug != "no_validation" && (len(wq)%(2*heads) != 0 || len(wk)%(2*kvHeads) != 0) {
			return nil, nil
		}
		if bug == "no_validation" && len(wk)%(2*kvHeads) != 0 {
			return unpermute(wq, heads), unpermute(wk, 1)
		}
		switch bug {
		case "keys_with_query_heads":
			kvHeads = heads
		case "queries_with_kv_heads":
			heads = kvHeads
		case "one_head":
			heads, kvHeads = 1, 1
		}
		return unpermute(wq, heads), unpermute(wk, kvHeads)
	}
}
