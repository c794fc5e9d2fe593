package smollm

// The experiments of lesson 11's live cells: each runs the model on a few
// hundred tokens and returns the numbers a cell shows. They use two hooks
// of network (model.go): an explicit attention mask per row, for padding
// and packing, and observe, which hands each layer's rotated queries, keys
// and attention weights to a probe. probe runs one chunk of a batch from
// an empty cache, so that the rows of a batch and their masks are the
// experiment's to choose.

import (
	"fmt"
	"math"
	"sync"

	"github.com/gomlx/compute"
	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/shapes"
	"github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"
	"github.com/gomlx/gomlx/ml/model"

	"github.com/posenc/course/pkg/posenc"
)

// probeIn is one batch: b rows of c tokens each.
type probeIn struct {
	tokens, positions [][]int32 // [b][c]
	mask              [][]bool  // [b][c·c]: may query i read key j; nil: causal
	observe           bool      // also return the per-layer statistics
}

// probeOut holds the logits of every row and, when observed, per layer:
// the attention weight on the first token, and the norms of each rotary
// pair of the queries and keys.
type probeOut struct {
	logits    [][][]float32 // [b][c][v]
	firstAttn [][]float64   // [L][h]: mean over rows and queries 1 … c−1 of the weight on key 0
	qPairNorm [][]float64   // [L][e/2]: mean over rows, heads and positions of |(q_a, q_b)| of pair i
	kPairNorm [][]float64   // [L][e/2]: the same for keys
}

type probeKey struct {
	m                *Model
	masked, observed bool
	keyBlock         int
}

// probeExecs caches the compiled probes of each model (GoMLX compiles again
// for each new shape).
var probeExecs sync.Map // probeKey → *model.Exec

// pairNorms returns the mean norm of each rotary pair of x [..., e] (every
// leading axis averaged: rows, heads, positions) in layout: [e/2].
func pairNorms(x *graph.Node, layout posenc.Layout) *graph.Node {
	e := x.Shape().Dim(-1)
	rows := x.Shape().Size() / e
	var sq *graph.Node
	if layout == posenc.Interleaved {
		sq = graph.ReduceSum(graph.Square(graph.Reshape(x, rows, e/2, 2)), -1) // [rows, e/2]: pair i is (2i, 2i+1)
	} else {
		sq = graph.ReduceSum(graph.Square(graph.Reshape(x, rows, 2, e/2)), 1) // [rows, e/2]: pair i is (i, i+e/2)
	}
	return graph.ReduceMean(graph.Sqrt(sq), 0) // [e/2]
}

func (m *Model) probeExec(masked, observed bool) (*model.Exec, error) {
	key := probeKey{m, masked, observed, m.KeyBlockSize}
	if e, ok := probeExecs.Load(key); ok {
		return e.(*model.Exec), nil
	}
	m.ran = true
	layers := len(m.Weights.Layers)
	e, err := model.NewExec(m.backend, m.store, func(scope *model.Scope, inputs []*graph.Node) []*graph.Node {
		tokens, positions := inputs[0], inputs[1]
		b, c := tokens.Shape().Dim(0), tokens.Shape().Dim(1)
		g := tokens.Graph()
		in := stepIn{tokens: tokens, positions: positions, start: graph.ScalarZero(g, dtypes.Int32)}
		if masked {
			in.mask = inputs[2] // [b, c, c]
		}
		in.rows = graph.BroadcastToDims(graph.Iota(g, shapes.Make(dtypes.Int32, 1, c), 1), b, c) // [b, c]: every row
		zero := graph.Zeros(g, shapes.Make(dtypes.Float32, b, m.Weights.KVHeads, c, m.Weights.HeadDim))
		for range layers {
			in.cacheK, in.cacheV = append(in.cacheK, zero), append(in.cacheV, zero)
		}
		net := network{Config: m.Weights.Config, rope: m.RoPE, precision: m.precision, keyBlock: m.KeyBlockSize, start: 0} // from an empty cache
		var stats []*graph.Node
		if observed {
			net.observe = func(q, k, weights *graph.Node) {
				w := graph.Slice(weights, graph.AxisRange(), graph.AxisRange(), graph.AxisRange(), graph.AxisRange(1), graph.AxisElem(0)) // [b, k, g, c−1, 1]
				first := graph.Reshape(graph.ReduceMean(w, 0, 3, 4), m.Weights.Heads)                                                     // [h]: query head = kv head·g + i
				stats = append(stats, first, pairNorms(q, m.RoPE.Layout), pairNorms(k, m.RoPE.Layout))
			}
		}
		out := net.forward(scope, in)
		return append([]*graph.Node{out.logits}, stats...)
	})
	if err != nil {
		return nil, fmt.Errorf("smollm: %w", err)
	}
	probeExecs.Store(key, e)
	return e, nil
}

// probe runs in (every row the same length) and returns what it asks.
func (m *Model) probe(in probeIn) (probeOut, error) {
	b := len(in.tokens)
	if b == 0 || len(in.positions) != b || (in.mask != nil && len(in.mask) != b) {
		return probeOut{}, fmt.Errorf("smollm: probe of %d rows with %d position rows and %d masks", b, len(in.positions), len(in.mask))
	}
	if err := checkKeyBlockSize(m.KeyBlockSize); err != nil {
		return probeOut{}, err
	}
	c := len(in.tokens[0])
	flat := func(rows [][]int32) []int32 {
		var out []int32
		for _, r := range rows {
			if len(r) != c {
				panic(fmt.Sprintf("smollm: probe rows of %d and %d tokens", c, len(r)))
			}
			out = append(out, r...)
		}
		return out
	}
	args := []any{tensors.FromFlatDataAndDimensions(flat(in.tokens), b, c), tensors.FromFlatDataAndDimensions(flat(in.positions), b, c)}
	if in.mask != nil {
		var mask []bool
		for _, r := range in.mask {
			mask = append(mask, r...)
		}
		args = append(args, tensors.FromFlatDataAndDimensions(mask, b, c, c))
	}
	e, err := m.probeExec(in.mask != nil, in.observe)
	if err != nil {
		return probeOut{}, err
	}
	outs, err := e.Call(args...)
	if err != nil {
		return probeOut{}, fmt.Errorf("smollm: %w", err)
	}
	logits, err := tensors.CopyFlatData[float32](outs[0])
	if err != nil {
		return probeOut{}, err
	}
	var po probeOut
	v := m.Weights.Vocab
	for r := range b {
		var rows [][]float32
		for i := range c {
			rows = append(rows, logits[(r*c+i)*v:(r*c+i+1)*v])
		}
		po.logits = append(po.logits, rows)
	}
	for l := 1; l+2 < len(outs)+1 && l < len(outs); l += 3 {
		vals := make([][]float64, 3)
		for j := range 3 {
			f, err := tensors.CopyFlatData[float32](outs[l+j])
			if err != nil {
				return probeOut{}, err
			}
			for _, x := range f {
				vals[j] = append(vals[j], float64(x))
			}
		}
		po.firstAttn, po.qPairNorm, po.kPairNorm = append(po.firstAttn, vals[0]), append(po.qPairNorm, vals[1]), append(po.kPairNorm, vals[2])
	}
	return po, nil
}

// rowsNLL returns the mean −log p(next token) over rows from … to−1 of
// one row's logits.
func rowsNLL(logits [][]float32, tokens []int32, from, to int) float64 {
	s := 0.0
	for i := from; i < to; i++ {
		s -= LogProb(logits[i], int(tokens[i+1]))
	}
	return s / float64(to-from)
}

// LogProb returns log softmax(logits)[t], in float64: the log-probability
// of token t.
func LogProb(logits []float32, t int) float64 {
	hi := math.Inf(-1)
	for _, x := range logits {
		hi = math.Max(hi, float64(x))
	}
	sum := 0.0
	for _, x := range logits {
		sum += math.Exp(float64(x) - hi)
	}
	return float64(logits[t]) - hi - math.Log(sum)
}

// maxDiff returns the largest |a−b| over the rows given.
func maxDiff(a, b [][]float32) float64 {
	d := 0.0
	for i := range a {
		for j := range a[i] {
			d = math.Max(d, math.Abs(float64(a[i][j])-float64(b[i][j])))
		}
	}
	return d
}

func arange(from, n int) []int32 {
	p := make([]int32, n)
	for i := range p {
		p[i] = int32(from + i)
	}
	return p
}

// nllAt returns the mean NLL of the next token of ids run at positions.
func (m *Model) nllAt(ids, positions []int32) (float64, error) {
	out, err := m.probe(probeIn{tokens: [][]int32{ids}, positions: [][]int32{positions}})
	if err != nil {
		return 0, err
	}
	return rowsNLL(out.logits[0], ids, 0, len(ids)-1), nil
}

// LayoutLoss is the mean NLL of the same tokens with the Q and K rows in
// each layout, rotated by RoPE in each: only a matching pair is the model.
type LayoutLoss struct {
	GGUFInterleaved float64 // the GGUF rows (llama.cpp's permutation), adjacent pairs: right
	GGUFHalves      float64 // the GGUF rows rotated in halves: the conversion bug
	HFHalves        float64 // rows un-permuted to Hugging Face's layout, halves: right
	HFInterleaved   float64 // Hugging Face's rows rotated in adjacent pairs: the bug the other way
}

// LayoutExperiment returns the loss on ids of the four combinations of
// row layout and rotation layout (llama.cpp's convert_hf_to_gguf.py,
// LlamaModel.permute, makes the GGUF rows pair adjacent dimensions).
func LayoutExperiment(backend compute.Backend, w *Weights, ids []int32) (LayoutLoss, error) {
	hf, err := w.WithLayout(posenc.Halves)
	if err != nil {
		return LayoutLoss{}, err
	}
	var l LayoutLoss
	for _, c := range []struct {
		rows   *Weights
		rotate posenc.Layout
		dst    *float64
	}{
		{w, posenc.Interleaved, &l.GGUFInterleaved}, {w, posenc.Halves, &l.GGUFHalves},
		{hf, posenc.Halves, &l.HFHalves}, {hf, posenc.Interleaved, &l.HFInterleaved},
	} {
		rows := *c.rows
		rows.Layout = c.rotate // the rotation's layout, whatever the rows hold
		m, err := New(backend, &rows, posenc.Scaling{})
		if err != nil {
			return l, err
		}
		if *c.dst, err = m.nllAt(ids, arange(0, len(ids))); err != nil {
			return l, err
		}
	}
	return l, nil
}

// RelativeResult is the NLL of the same tokens at other position ids.
type RelativeResult struct {
	Base         float64   // positions 0 … n−1
	Shifts       []int     // offsets added to every position
	Shifted      []float64 // the NLL at each offset: RoPE sees only differences, so Base again
	PIStride     float64   // positions 0, 4, 8, … with PI ×4: the angles of 0, 1, 2, …: Base again
	Stride4      float64   // positions 0, 4, 8, … without scaling: every distance ×4, broken
	AllZero      float64   // every position 0: no order at all, broken
	MaxShiftDiff float64   // the largest |Shifted − Base|
}

// RelativeExperiment runs ids at shifted, strided and zero positions.
func RelativeExperiment(backend compute.Backend, w *Weights, ids []int32, shifts []int) (RelativeResult, error) {
	n := len(ids)
	m, err := New(backend, w, posenc.Scaling{})
	if err != nil {
		return RelativeResult{}, err
	}
	r := RelativeResult{Shifts: shifts}
	if r.Base, err = m.nllAt(ids, arange(0, n)); err != nil {
		return r, err
	}
	for _, s := range shifts {
		v, err := m.nllAt(ids, arange(s, n))
		if err != nil {
			return r, err
		}
		r.Shifted = append(r.Shifted, v)
		r.MaxShiftDiff = math.Max(r.MaxShiftDiff, math.Abs(v-r.Base))
	}
	stride := make([]int32, n)
	for i := range stride {
		stride[i] = int32(4 * i)
	}
	if r.Stride4, err = m.nllAt(ids, stride); err != nil {
		return r, err
	}
	if r.AllZero, err = m.nllAt(ids, make([]int32, n)); err != nil {
		return r, err
	}
	pi, err := New(backend, w, posenc.LinearScaling(4))
	if err != nil {
		return r, err
	}
	r.PIStride, err = pi.nllAt(ids, stride)
	return r, err
}

// Variant is one way to run a prompt inside a batch, and how far its
// logits land from the prompt run alone: max |Δlogit| over the prompt's
// rows.
type Variant struct {
	Name    string
	MaxDiff float64
}

// causal returns the c×c causal mask, query i reading keys j ≤ i for
// which real[j] holds, and itself always (a padding query must read
// something, or its softmax is 0/0 and its NaN reaches every later row
// through the values).
func causal(real []bool) []bool {
	c := len(real)
	mask := make([]bool, c*c)
	for i := range c {
		for j := 0; j <= i; j++ {
			mask[i*c+j] = real[j] || i == j
		}
	}
	return mask
}

// PaddingExperiment runs prompt alone, then left- and right-padded by pad
// tokens of id padID, with position ids 0 … c−1 or from the mask
// (posenc.PositionIDsFromMask, transformers' rule), with and without the
// padding mask. On the left the mask is what matters: under RoPE, ids
// 0 … c−1 shift every real token by the pad count, which the relative
// property ignores. What breaks a RoPE model is ids that disagree: the
// last variant gives the prompt ids from the mask but its last token the
// id of its slot (c−1, the cache position a decoding step would use, as
// in unsloth's left-padded generation bug), a jump of pad positions. On the
// right the causal mask already hides the padding, which comes after.
func PaddingExperiment(m *Model, prompt []int32, pad int, padID int32) ([]Variant, error) {
	n, c := len(prompt), len(prompt)+pad
	alone, err := m.probe(probeIn{tokens: [][]int32{prompt}, positions: [][]int32{arange(0, n)}})
	if err != nil {
		return nil, err
	}
	var out []Variant
	for _, side := range []string{"left", "right"} {
		tokens, attn, real := make([]int32, 0, c), make([]int, 0, c), make([]bool, 0, c)
		first := 0
		if side == "left" {
			first = pad
			for range pad {
				tokens, attn, real = append(tokens, padID), append(attn, 0), append(real, false)
			}
		}
		for _, t := range prompt {
			tokens, attn, real = append(tokens, t), append(attn, 1), append(real, true)
		}
		for len(tokens) < c {
			tokens, attn, real = append(tokens, padID), append(attn, 0), append(real, false)
		}
		fromMask, err := posenc.PositionIDsFromMask(attn)
		if err != nil {
			return nil, err
		}
		ids := make([]int32, c)
		for i, p := range fromMask {
			ids[i] = int32(p)
		}
		type variant struct {
			name   string
			pos    []int32
			masked bool
		}
		variants := []variant{
			{side + " padding, ids 0…c−1, no mask", arange(0, c), false},
			{side + " padding, ids from the mask, no mask", ids, false},
			{side + " padding, ids 0…c−1, mask", arange(0, c), true},
			{side + " padding, ids from the mask, mask", ids, true},
		}
		if side == "left" {
			jump := append([]int32(nil), ids...)
			jump[c-1] = int32(c - 1)
			variants = append(variants, variant{side + " padding, ids from the mask, the last at its slot, mask", jump, true})
		}
		for _, v := range variants {
			in := probeIn{tokens: [][]int32{tokens}, positions: [][]int32{v.pos}}
			if v.masked {
				in.mask = [][]bool{causal(real)}
			}
			got, err := m.probe(in)
			if err != nil {
				return nil, err
			}
			out = append(out, Variant{v.name, maxDiff(got.logits[0][first:first+n], alone.logits[0])})
		}
	}
	return out, nil
}

// PackingExperiment packs docA then docB into one row and compares docB's
// logits with docB run alone: position ids continuing or reset per
// document (posenc.PackedPositionIDs), under a plain causal mask or a
// block-diagonal one (posenc.PackedCausalMask). Only reset ids with the
// block-diagonal mask give docB's own logits.
func PackingExperiment(m *Model, docA, docB []int32) ([]Variant, error) {
	a, b := len(docA), len(docB)
	alone, err := m.probe(probeIn{tokens: [][]int32{docB}, positions: [][]int32{arange(0, b)}})
	if err != nil {
		return nil, err
	}
	tokens := append(append([]int32(nil), docA...), docB...)
	reset, err := posenc.PackedPositionIDs([]int{a, b})
	if err != nil {
		return nil, err
	}
	block, err := posenc.PackedCausalMask([]int{a, b})
	if err != nil {
		return nil, err
	}
	resetIDs := make([]int32, a+b)
	for i, p := range reset {
		resetIDs[i] = int32(p)
	}
	all := make([]bool, a+b)
	for i := range all {
		all[i] = true
	}
	var out []Variant
	for _, v := range []struct {
		name string
		pos  []int32
		mask []bool
	}{
		{"ids continue, causal mask", arange(0, a+b), causal(all)},
		{"ids reset, causal mask", resetIDs, causal(all)},
		{"ids continue, block-diagonal mask", arange(0, a+b), block},
		{"ids reset, block-diagonal mask", resetIDs, block},
	} {
		got, err := m.probe(probeIn{tokens: [][]int32{tokens}, positions: [][]int32{v.pos}, mask: [][]bool{v.mask}})
		if err != nil {
			return nil, err
		}
		out = append(out, Variant{v.name, maxDiff(got.logits[0][a:], alone.logits[0])})
	}
	return out, nil
}

// LayerProbe holds, per layer, the attention each query head pays the
// first token (attention sinks: Xiao et al. 2023, "Efficient Streaming
// Language Models with Attention Sinks", https://arxiv.org/abs/2309.17453)
// and the mean norm of each rotary pair of the queries and keys, pair 0
// the fastest-turning (Barbero et al. 2024, "Round and Round We Go! What
// makes Rotary Positional Encodings useful?",
// https://arxiv.org/abs/2410.06205, found the slowest pairs largest in
// Gemma 7B).
type LayerProbe struct {
	FirstTokenAttn [][]float64 // [layer][query head]: mean over queries 1 … n−1
	QPairNorm      [][]float64 // [layer][pair]
	KPairNorm      [][]float64 // [layer][pair]
}

// ProbeLayers runs ids and returns the per-layer statistics.
func ProbeLayers(m *Model, ids []int32) (LayerProbe, error) {
	out, err := m.probe(probeIn{tokens: [][]int32{ids}, positions: [][]int32{arange(0, len(ids))}, observe: true})
	if err != nil {
		return LayerProbe{}, err
	}
	return LayerProbe{FirstTokenAttn: out.firstAttn, QPairNorm: out.qPairNorm, KPairNorm: out.kPairNorm}, nil
}

// Rounding is one way of rounding the rotation's steps (precision.go),
// by name.
type Rounding struct {
	Name      string
	Precision posenc.RoPEPrecision
}

// Roundings are the three ways a bfloat16 model rounds its rotation that
// practitioners reported: the ids alone (EleutherAI/gpt-neox#1016), every
// step under torch.autocast (huggingface/transformers#29285), and cos and
// sin alone (KellerJordan/modded-nanogpt#39; transformers' own cast of
// them to the activations' dtype, the fix).
var Roundings = []Rounding{
	{"ids in bfloat16", posenc.RoPEPrecision{Position: posenc.BFloat16}},
	{"autocast: every step in bfloat16", posenc.RoPEPrecision{InvFreq: posenc.BFloat16, Position: posenc.BFloat16, Angle: posenc.BFloat16, CosSin: posenc.BFloat16}},
	{"cos and sin in bfloat16", posenc.RoPEPrecision{CosSin: posenc.BFloat16}},
}

// PrecisionRow is what each rounding costs at an offset: the tokens run at
// positions offset … offset+n−1, with the exact rotation and rounded.
type PrecisionRow struct {
	Offset   int
	NLLExact float64
	// NLL and MaxLogitDiff (against the exact rotation at this offset) of
	// each rounding, in the order given.
	NLL          []float64
	MaxLogitDiff []float64
}

// RotationPrecision runs ids at each offset with the model's own rotation
// and with each rounding (a model of its own, SetRoPEPrecision). The
// relative property makes the exact rows at every offset those of offset
// 0; bfloat16 represents every integer below 256, so at offset 0 only the
// roundings of ω, the angles or cos and sin can change anything.
func RotationPrecision(backend compute.Backend, w *Weights, ids []int32, offsets []int, roundings []Rounding) ([]PrecisionRow, error) {
	n := len(ids)
	exact, err := New(backend, w, posenc.Scaling{})
	if err != nil {
		return nil, err
	}
	rows := make([]PrecisionRow, len(offsets))
	base := make([]probeOut, len(offsets))
	for i, off := range offsets {
		if base[i], err = exact.probe(probeIn{tokens: [][]int32{ids}, positions: [][]int32{arange(off, n)}}); err != nil {
			return nil, err
		}
		rows[i] = PrecisionRow{Offset: off, NLLExact: rowsNLL(base[i].logits[0], ids, 0, n-1)}
	}
	for _, r := range roundings {
		m, err := New(backend, w, posenc.Scaling{})
		if err != nil {
			return nil, err
		}
		if err := m.SetRoPEPrecision(r.Precision); err != nil {
			return nil, fmt.Errorf("smollm: rounding %q: %w", r.Name, err)
		}
		for i, off := range offsets {
			got, err := m.probe(probeIn{tokens: [][]int32{ids}, positions: [][]int32{arange(off, n)}})
			if err != nil {
				return nil, err
			}
			rows[i].NLL = append(rows[i].NLL, rowsNLL(got.logits[0], ids, 0, n-1))
			rows[i].MaxLogitDiff = append(rows[i].MaxLogitDiff, maxDiff(got.logits[0], base[i].logits[0]))
		}
	}
	return rows, nil
}

// StaleCache is dynamic NTK's cache bug: keys cached at one factor read by
// queries at another.
type StaleCache struct {
	// NLL of the continuation ids[prefill:]: with the prefill's keys kept
	// from the shorter length's base (stale), with every key recomputed at
	// the full length's base (fresh, the fix), and with the prefill's base
	// kept for all (fixed: one factor for the whole generation, vLLM's
	// choice).
	Stale, Fresh, Fixed float64
	// Greedy continuations of ids[:prefill], gen tokens each.
	StaleGen, FreshGen []int32
}

// DynamicNTKStaleCache scores ids after a prefill of prefill tokens with
// dynamic NTK scaling of factor at a trained length originalLen (smaller
// than the model's own, so that the base changes within a few hundred
// tokens): the prefill's keys are rotated with the base of length prefill,
// the continuation's with that of len(ids) (transformers recomputed the
// base as the sequence grew, not the cached keys). It also generates gen
// tokens greedily both ways.
func DynamicNTKStaleCache(backend compute.Backend, w *Weights, ids []int32, prefill, originalLen int, factor float64, gen int) (StaleCache, error) {
	n := len(ids)
	short, err := New(backend, w, posenc.DynamicNTKScaling(factor, originalLen, prefill))
	if err != nil {
		return StaleCache{}, err
	}
	long, err := New(backend, w, posenc.DynamicNTKScaling(factor, originalLen, n))
	if err != nil {
		return StaleCache{}, err
	}
	targets := append(append([]int32(nil), ids[1:]...), -1)
	mean := func(x []float32) float64 {
		s := 0.0
		for _, v := range x {
			s += float64(v)
		}
		return s / float64(len(x))
	}
	var sc StaleCache
	// Stale: prefill with the short base, continue with the long one.
	cache, err := short.NewCache(n + gen)
	if err != nil {
		return sc, err
	}
	if _, _, err = short.Forward(cache, ids[:prefill], arange(0, prefill), nil, nil); err != nil {
		return sc, err
	}
	_, nll, err := long.Forward(cache, ids[prefill:], arange(prefill, n-prefill), nil, targets[prefill:])
	if err != nil {
		return sc, err
	}
	sc.Stale = mean(nll[:n-prefill-1])
	for _, c := range []struct {
		m   *Model
		dst *float64
	}{{long, &sc.Fresh}, {short, &sc.Fixed}} {
		s, err := c.m.Score(ids)
		if err != nil {
			return sc, err
		}
		*c.dst = mean(s[prefill : n-1])
	}
	// Generation: the stale cache continued one token at a time by the
	// long base, against the long base throughout.
	generate := func(first *Model) ([]int32, error) {
		cache, err := first.NewCache(prefill + gen)
		if err != nil {
			return nil, err
		}
		logits, _, err := first.Forward(cache, ids[:prefill], arange(0, prefill), []int{prefill - 1}, nil)
		if err != nil {
			return nil, err
		}
		var out []int32
		for len(out) < gen {
			next := int32(Argmax(logits[0]))
			out = append(out, next)
			if logits, _, err = long.Forward(cache, []int32{next}, []int32{int32(cache.Len)}, []int{0}, nil); err != nil {
				return nil, err
			}
		}
		return out, nil
	}
	if sc.StaleGen, err = generate(short); err != nil {
		return sc, err
	}
	sc.FreshGen, err = generate(long)
	return sc, err
}

// ScalingCost is the NLL of a short prompt under one RoPE scaling.
type ScalingCost struct {
	Name    string
	Scaling posenc.Scaling
	NLL     float64
}

// ShortPromptCost runs ids, a prompt well inside the trained length, with
// no scaling and with static scalings: YaRN at factors 2 and 4 with the
// right original length (the model's), and YaRN ×2 told a wrong original
// length (a quarter of the right one, as when original_max_position_embeddings
// is left at a smaller model's value). A static scaling changes every
// position's angles, so even a prompt that never needed it pays: what
// vLLM's and Qwen's users report when YaRN is switched on for every
// request.
func ShortPromptCost(backend compute.Backend, w *Weights, ids []int32) ([]ScalingCost, error) {
	l0 := w.ContextLen
	cases := []ScalingCost{
		{Name: "none", Scaling: posenc.Scaling{}},
		{Name: "yarn ×2", Scaling: posenc.YaRNScaling(2, l0)},
		{Name: "yarn ×4", Scaling: posenc.YaRNScaling(4, l0)},
		{Name: fmt.Sprintf("yarn ×2, original length %d (wrong)", l0/4), Scaling: posenc.YaRNScaling(2, l0/4)},
		{Name: "pi ×2", Scaling: posenc.LinearScaling(2)},
	}
	for i, c := range cases {
		m, err := New(backend, w, c.Scaling)
		if err != nil {
			return nil, err
		}
		if cases[i].NLL, err = m.nllAt(ids, arange(0, len(ids))); err != nil {
			return nil, err
		}
	}
	return cases, nil
}
