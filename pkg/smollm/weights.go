package smollm

import (
	"fmt"
	"slices"

	"github.com/posenc/course/pkg/gguf"
	"github.com/posenc/course/pkg/posenc"
)

// Config is the architecture, read from the GGUF metadata (llama.*).
type Config struct {
	Layers     int     // llama.block_count: 30
	Dim        int     // llama.embedding_length: d = 576
	FFN        int     // llama.feed_forward_length: f = 1536
	Heads      int     // llama.attention.head_count: query heads, 9
	KVHeads    int     // llama.attention.head_count_kv: key/value heads, 3
	HeadDim    int     // llama.rope.dimension_count: 64 (= Dim/Heads)
	Vocab      int     // llama.vocab_size: 49,152
	ContextLen int     // llama.context_length: 8,192, the trained length
	RoPEBase   float64 // llama.rope.freq_base: 100,000
	NormEps    float64 // llama.attention.layer_norm_rms_epsilon: 1e-5
}

// Layer holds one decoder block's weights, each matrix [out, in] row-major
// as GGUF and PyTorch store it (y = W·x).
type Layer struct {
	AttnNorm, FFNNorm []float32 // [Dim]
	Q                 []float32 // [Heads·HeadDim, Dim]
	K, V              []float32 // [KVHeads·HeadDim, Dim]
	O                 []float32 // [Dim, Heads·HeadDim]
	Gate, Up          []float32 // [FFN, Dim]
	Down              []float32 // [Dim, FFN]
}

// Weights is the whole model, dequantized to float32 (540 MB).
type Weights struct {
	Config
	Embed   []float32 // [Vocab, Dim]: token embeddings, also the output head (tied)
	Layers  []Layer
	OutNorm []float32 // [Dim]
	// Layout is where each head's rotary pairs are in Q's and K's output
	// rows. The GGUF file pairs adjacent dimensions (2i, 2i+1), Interleaved:
	// llama.cpp's converter (convert_hf_to_gguf.py, LlamaModel.permute)
	// permuted the rows of the Hugging Face checkpoint, which pairs halves
	// (i, i+32). RoPE must rotate in the layout of the rows.
	Layout posenc.Layout
}

// Load reads and dequantizes the GGUF file at path (smollm.Find's).
func Load(path string) (*Weights, error) {
	f, err := gguf.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if arch, err := f.String("general.architecture"); err != nil || arch != "llama" {
		return nil, fmt.Errorf("smollm: %s: architecture %q (%v), want llama", path, arch, err)
	}
	var c Config
	for _, m := range []struct {
		key string
		dst *int
	}{
		{"llama.block_count", &c.Layers}, {"llama.embedding_length", &c.Dim},
		{"llama.feed_forward_length", &c.FFN}, {"llama.attention.head_count", &c.Heads},
		{"llama.attention.head_count_kv", &c.KVHeads}, {"llama.rope.dimension_count", &c.HeadDim},
		{"llama.vocab_size", &c.Vocab}, {"llama.context_length", &c.ContextLen},
	} {
		v, err := f.Uint(m.key)
		if err != nil {
			return nil, err
		}
		*m.dst = int(v)
	}
	if c.RoPEBase, err = f.Float("llama.rope.freq_base"); err != nil {
		return nil, err
	}
	if c.NormEps, err = f.Float("llama.attention.layer_norm_rms_epsilon"); err != nil {
		return nil, err
	}
	if c.Heads*c.HeadDim != c.Dim || c.Heads%c.KVHeads != 0 {
		return nil, fmt.Errorf("smollm: %s: %d heads of %d do not make d = %d, or %d KV heads do not divide them", path, c.Heads, c.HeadDim, c.Dim, c.KVHeads)
	}

	w := &Weights{Config: c, Layout: posenc.Interleaved}
	read := func(name string, shape ...int) []float32 {
		if err != nil {
			return nil
		}
		var v []float32
		var info gguf.TensorInfo
		v, info, err = f.Float32(name)
		if err == nil && !slices.Equal(info.Shape(), shape) {
			err = fmt.Errorf("smollm: %s: tensor %s is %v, want %v", path, name, info.Shape(), shape)
		}
		return v
	}
	hd := c.HeadDim
	w.Embed = read("token_embd.weight", c.Vocab, c.Dim)
	w.OutNorm = read("output_norm.weight", c.Dim)
	for i := range c.Layers {
		blk := func(s string) string { return fmt.Sprintf("blk.%d.%s.weight", i, s) }
		w.Layers = append(w.Layers, Layer{
			AttnNorm: read(blk("attn_norm"), c.Dim),
			FFNNorm:  read(blk("ffn_norm"), c.Dim),
			Q:        read(blk("attn_q"), c.Heads*hd, c.Dim),
			K:        read(blk("attn_k"), c.KVHeads*hd, c.Dim),
			V:        read(blk("attn_v"), c.KVHeads*hd, c.Dim),
			O:        read(blk("attn_output"), c.Dim, c.Heads*hd),
			Gate:     read(blk("ffn_gate"), c.FFN, c.Dim),
			Up:       read(blk("ffn_up"), c.FFN, c.Dim),
			Down:     read(blk("ffn_down"), c.Dim, c.FFN),
		})
	}
	if err != nil {
		return nil, err
	}
	return w, nil
}

// RoPE returns the model's rotary encoding: every dimension of each head
// rotates, base RoPEBase, in the layout of the Q and K rows, with scaling
// sc (zero: none, as trained).
func (w *Weights) RoPE(sc posenc.Scaling) posenc.RoPE {
	return posenc.NewRoPE(w.HeadDim).WithBase(w.RoPEBase).WithLayout(w.Layout).WithScaling(sc)
}

// WithLayout returns weights whose Q and K rows pair their rotary
// dimensions in layout to, permuted with posenc.ConvertQKWeightsTo; the
// attention scores, hence the logits, are unchanged when RoPE rotates in
// the new layout. WithLayout(posenc.Halves) undoes llama.cpp's permutation
// and gives Hugging Face's rows. The other matrices are shared, not copied.
func (w *Weights) WithLayout(to posenc.Layout) (*Weights, error) {
	out := *w
	out.Layout = to
	out.Layers = make([]Layer, len(w.Layers))
	r := w.RoPE(posenc.Scaling{})
	for i, l := range w.Layers {
		q, k := make([]float32, len(l.Q)), make([]float32, len(l.K))
		if err := posenc.ConvertQKWeightsTo(q, l.Q, r, to, w.Heads, w.Dim, 0); err != nil {
			return nil, err
		}
		if err := posenc.ConvertQKWeightsTo(k, l.K, r, to, w.KVHeads, w.Dim, 0); err != nil {
			return nil, err
		}
		l.Q, l.K = q, k
		out.Layers[i] = l
	}
	return &out, nil
}
