package lab

import (
	"fmt"

	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/shapes"
	"github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/ml/layers"
	"github.com/gomlx/gomlx/ml/layers/activation"
	"github.com/gomlx/gomlx/ml/layers/attention"
	"github.com/gomlx/gomlx/ml/layers/attention/pos"
	"github.com/gomlx/gomlx/ml/layers/norm"
	"github.com/gomlx/gomlx/ml/model"

	"github.com/posenc/course/pkg/posenc"
	"github.com/posenc/course/pkg/posgraph"
)

// Encoding names how a model knows positions.
type Encoding string

// The encodings the lab trains.
const (
	NoPE       Encoding = "none"       // no position signal: only the causal mask
	Sinusoidal Encoding = "sinusoidal" // Vaswani et al.'s table, added to the embeddings
	Learned    Encoding = "learned"    // a trained table of TrainLen rows, added to the embeddings
	RoPE       Encoding = "rope"       // queries and keys rotated (Su et al.)
	ALiBi      Encoding = "alibi"      // a linear penalty on distance in the logits (Press et al.)
	T5         Encoding = "t5"         // a learned bias per bucket of distance (Raffel et al.)
)

// Encodings lists every encoding, in the order the lab reports them.
var Encodings = []Encoding{NoPE, Sinusoidal, Learned, RoPE, ALiBi, T5}

// ParseEncoding returns the encoding named s.
func ParseEncoding(s string) (Encoding, error) {
	for _, e := range Encodings {
		if string(e) == s {
			return e, nil
		}
	}
	return "", fmt.Errorf("lab: unknown encoding %q (want one of none, sinusoidal, learned, rope, alibi, t5)", s)
}

// Model is a small decoder-only Transformer: token embeddings, Layers
// pre-norm blocks of causal multi-head self-attention and a ReLU
// feed-forward layer, and a linear read-out to the next token's logits.
// Encoding is its only position handling; Scaling, for RoPE, changes the
// rotary frequencies at evaluation time (zero: none).
//
// Dimensions: batch b, sequence s, model width Dim, Heads heads of
// Dim/Heads each, VocabSize tokens.
type Model struct {
	Encoding            Encoding
	Layers, Dim, Heads  int
	TrainLen            int            // L: the learned table has this many rows
	Scaling             posenc.Scaling // RoPE only: PI, NTK, dynamic NTK or YaRN
	T5Buckets, T5MaxLen int            // T5's buckets and where its last one begins
	// NoPEEvery (RoPE only), when positive, leaves every NoPEEvery-th layer
	// without RoPE (layer i with (i+1) % NoPEEvery == 0): 4 gives the 3:1
	// interleaving of Llama 4 and Command A.
	NoPEEvery int
	// Proportion (RoPE only), when positive, rotates only that fraction of
	// each head's pairs, the highest-frequency ones, the others left as they
	// are (p-RoPE, Barbero et al. 2024; posenc.ProportionalScaling).
	Proportion float64
	// ScaleEmbeddings (sinusoidal only) multiplies the token embeddings by
	// √Dim before the table is added, as Vaswani et al. (2017, §3.4) do.
	ScaleEmbeddings bool
}

// Validate reports the first invalid field of m, naming it.
func (m Model) Validate() error {
	if _, err := ParseEncoding(string(m.Encoding)); err != nil {
		return err
	}
	for _, f := range []struct {
		name string
		v    int
	}{{"layers", m.Layers}, {"dim", m.Dim}, {"heads", m.Heads}, {"train length", m.TrainLen}} {
		if f.v < 1 {
			return fmt.Errorf("lab: %s must be positive, got %d", f.name, f.v)
		}
	}
	if m.Dim%(2*m.Heads) != 0 {
		return fmt.Errorf("lab: dim must be a multiple of 2·heads (an even head dimension), got dim %d and %d heads", m.Dim, m.Heads)
	}
	if m.Scaling.Kind != posenc.ScalingNone && m.Encoding != RoPE {
		return fmt.Errorf("lab: scaling %s applies to rope only, not %s", m.Scaling.Kind, m.Encoding)
	}
	if (m.NoPEEvery != 0 || m.Proportion != 0) && m.Encoding != RoPE {
		return fmt.Errorf("lab: NoPE layers and p-RoPE apply to rope only, not %s", m.Encoding)
	}
	if m.ScaleEmbeddings && m.Encoding != Sinusoidal {
		return fmt.Errorf("lab: scaled embeddings apply to sinusoidal only, not %s", m.Encoding)
	}
	if m.NoPEEvery < 0 {
		return fmt.Errorf("lab: NoPE every must not be negative, got %d", m.NoPEEvery)
	}
	if !(m.Proportion >= 0 && m.Proportion <= 1) {
		return fmt.Errorf("lab: rope proportion must be in [0, 1], got %g", m.Proportion)
	}
	if m.Proportion != 0 && m.Scaling.Kind != posenc.ScalingNone {
		return fmt.Errorf("lab: a p-RoPE model cannot also take scaling %s", m.Scaling.Kind)
	}
	if m.Encoding == T5 {
		if err := m.t5().Validate(); err != nil {
			return fmt.Errorf("lab: t5 buckets %d, max length %d: %w", m.T5Buckets, m.T5MaxLen, err)
		}
	}
	return m.rope().Validate()
}

// rope is the model's rotary encoding: halves layout, base 10000, its
// scaling (or its proportion of rotated pairs).
func (m Model) rope() posenc.RoPE {
	sc := m.Scaling
	if m.Proportion != 0 {
		sc = posenc.ProportionalScaling(m.Proportion)
	}
	return posenc.NewRoPE(m.Dim / m.Heads).WithLayout(posenc.Halves).WithScaling(sc)
}

// ropeAt reports whether layer i rotates its queries and keys.
func (m Model) ropeAt(i int) bool {
	return m.Encoding == RoPE && (m.NoPEEvery == 0 || (i+1)%m.NoPEEvery != 0)
}

// t5 is the model's T5 bucketing: causal (one-directional), T5Buckets
// buckets, the last beginning near T5MaxLen.
func (m Model) t5() posenc.T5Buckets {
	return posenc.T5Buckets{NumBuckets: m.T5Buckets, MaxDistance: m.T5MaxLen}
}

// Logits is the model: tokens [batch, seq] int32 → logits [batch, seq,
// VocabSize] for the token after each position.
func (m Model) Logits(scope *model.Scope, tokens *graph.Node) *graph.Node {
	g := tokens.Graph()
	seq := tokens.Shape().Dim(1)
	positions := graph.Iota(g, shapes.Make(dtypes.Int32, seq), 0)                       // [seq]: 0, 1, …, seq−1
	x := layers.Embedding(scope.In("tokens"), tokens, dtypes.Float32, VocabSize, m.Dim) // [batch, seq, dim]

	// Absolute encodings are added once, to the embeddings.
	if pre := m.preEncoder(scope); pre != nil {
		x = pre.PreEncode(x, positions, 1) // [batch, seq, dim]: each position's vector added
	}
	// Relative biases enter every layer's attention logits, the same in each.
	var bias *graph.Node
	if b := m.biasEncoder(scope); b != nil {
		bias = b.AttentionBias(g, dtypes.Float32, m.Heads, seq, seq) // [1, heads, seq, seq]
	}

	for i := range m.Layers {
		layer := scope.In("layer_%d", i)
		h := norm.LayerNorm(layer.In("norm_attention"), x, -1).Done() // [batch, seq, dim]
		// Causal multi-head self-attention: each position sees itself and earlier ones.
		att := attention.SelfAttention(layer.In("attention"), h, m.Heads, m.Dim/m.Heads).WithCausalMask(true)
		if m.ropeAt(i) {
			att = att.WithPositionalEncoder(posgraph.NewRoPEEncoder(m.rope())) // rotates q and k
		}
		if bias != nil {
			att = att.WithAttentionBias(bias)
		}
		x = graph.Add(x, att.Done())                                            // [batch, seq, dim]
		h = norm.LayerNorm(layer.In("norm_ffn"), x, -1).Done()                  // [batch, seq, dim]
		h = activation.Relu(layers.Dense(layer.In("ffn_in"), h, true, 4*m.Dim)) // [batch, seq, 4·dim]
		x = graph.Add(x, layers.Dense(layer.In("ffn_out"), h, true, m.Dim))     // [batch, seq, dim]
	}
	x = norm.LayerNorm(scope.In("norm_out"), x, -1).Done()      // [batch, seq, dim]
	return layers.Dense(scope.In("logits"), x, true, VocabSize) // [batch, seq, vocab]
}

// preEncoder returns the encoding added to the embeddings (sinusoidal,
// learned), or nil.
func (m Model) preEncoder(scope *model.Scope) pos.PreEncoder {
	switch m.Encoding {
	case Sinusoidal:
		return posgraph.NewSinusoidalEncoder(posenc.NewSinusoidal(m.Dim), m.ScaleEmbeddings)
	case Learned:
		return posgraph.NewLearnedEncoder(scope.In("positions"), posenc.NewLearned(m.TrainLen, m.Dim))
	}
	return nil
}

// biasEncoder returns the encoding added to the attention logits (ALiBi,
// T5's buckets), or nil. T5's table is shared by every layer, as in T5.
func (m Model) biasEncoder(scope *model.Scope) posgraph.BiasEncoder {
	switch m.Encoding {
	case ALiBi:
		return posgraph.NewALiBiEncoder(true)
	case T5:
		return posgraph.NewT5Encoder(scope.In("t5"), m.t5())
	}
	return nil
}

// MaxLen is the longest sequence the model is defined on: TrainLen for a
// learned table (it has no row past it), unlimited (0) otherwise.
func (m Model) MaxLen() int {
	if m.Encoding == Learned {
		return m.TrainLen
	}
	return 0
}
