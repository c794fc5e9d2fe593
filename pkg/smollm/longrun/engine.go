package longrun

import (
	"slices"

	"github.com/gomlx/compute"

	"github.com/posenc/course/pkg/posenc"
	"github.com/posenc/course/pkg/smollm"
)

// Engine scores token sequences from position 0 under a RoPE scaling. The
// run needs nothing else of the model, so that its bookkeeping (cells,
// resuming, summaries) is tested without one.
type Engine interface {
	// NLL returns −log p(ids[i+1] | ids[:i+1]) for i = 0 … len(ids)−2.
	NLL(ids []int32, sc posenc.Scaling) ([]float32, error)
	// Logits returns the logits at rows (ascending indices into ids).
	Logits(ids []int32, rows []int, sc posenc.Scaling) ([][]float32, error)
}

// PrefixSharer is an Engine that can run a prefix once for the Logits
// calls that follow it: the passkey trials of one length and depth share
// everything before the needle, so each trial runs only from the needle
// on. The logits are those of the whole sequence, to float32 rounding.
type PrefixSharer interface {
	// SharePrefix runs prefix, or a part of it from its start, under sc,
	// for sequences of up to capacity tokens that start with it, and
	// returns how many tokens it ran; a nil prefix forgets the last one.
	SharePrefix(prefix []int32, capacity int, sc posenc.Scaling) (int, error)
}

// ModelEngine runs SmolLM2 (smollm.Model) on a backend. The weights go on
// the backend once, and every scaling runs the same compiled calls, with
// RoPE's vectors as inputs (smollm.Model.WithScaling): a long run compiles
// a graph per chunk length and cache size, not one per method as well.
type ModelEngine struct {
	Backend   compute.Backend
	Weights   *smollm.Weights
	ChunkSize int

	base    *smollm.Model // the weights on the backend, as trained
	current posenc.Scaling
	model   *smollm.Model

	// The shared prefix (SharePrefix): its ids, the model that ran it and
	// its cache, cloned for each sequence that starts with it.
	prefix      []int32
	prefixModel *smollm.Model
	prefixCache *smollm.Cache
}

// modelFor returns the model for scaling sc on a sequence of n tokens.
// Dynamic NTK gets SeqLen = n: its factor follows the length of the
// sequence scored, as transformers computes it for one forward pass,
// rather than the length of each chunk.
func (e *ModelEngine) modelFor(sc posenc.Scaling, n int) (*smollm.Model, error) {
	if sc.Kind == posenc.ScalingDynamic {
		sc.SeqLen = n
	}
	if e.model != nil && e.current == sc {
		return e.model, nil
	}
	if e.base == nil {
		b, err := smollm.New(e.Backend, e.Weights, posenc.Scaling{})
		if err != nil {
			return nil, err
		}
		if e.ChunkSize > 0 {
			b.ChunkSize = e.ChunkSize
		}
		e.base = b
	}
	m, err := e.base.WithScaling(sc)
	if err != nil {
		return nil, err
	}
	e.model, e.current = m, sc
	return m, nil
}

func positions(n int) []int32 {
	p := make([]int32, n)
	for i := range p {
		p[i] = int32(i)
	}
	return p
}

// NLL implements Engine.
func (e *ModelEngine) NLL(ids []int32, sc posenc.Scaling) ([]float32, error) {
	m, err := e.modelFor(sc, len(ids))
	if err != nil {
		return nil, err
	}
	return m.Score(ids)
}

// SharePrefix implements PrefixSharer. It runs the prefix's whole chunks
// only, and each sequence runs the rest of the prefix itself: every call
// then starts at a multiple of the chunk size, so the trials of every
// length and depth reuse the same few compiled graphs (a graph is compiled
// per chunk start, cache size and chunk length), where a prefix ending
// anywhere would make each depth compile its own. It returns the number of
// tokens run, which may be 0.
func (e *ModelEngine) SharePrefix(prefix []int32, capacity int, sc posenc.Scaling) (int, error) {
	e.prefix, e.prefixModel, e.prefixCache = nil, nil, nil
	if len(prefix) == 0 {
		return 0, nil
	}
	m, err := e.modelFor(sc, capacity)
	if err != nil {
		return 0, err
	}
	prefix = prefix[:len(prefix)/m.ChunkSize*m.ChunkSize]
	if len(prefix) == 0 {
		return 0, nil
	}
	cache, err := m.NewCache(capacity)
	if err != nil {
		return 0, err
	}
	if _, _, err := m.Forward(cache, prefix, positions(len(prefix)), nil, nil); err != nil {
		return 0, err
	}
	e.prefix, e.prefixModel, e.prefixCache = slices.Clone(prefix), m, cache
	return len(prefix), nil
}

// Logits implements Engine. A sequence that starts with the shared prefix,
// under the model that ran it, runs from a clone of its cache.
func (e *ModelEngine) Logits(ids []int32, rows []int, sc posenc.Scaling) ([][]float32, error) {
	m, err := e.modelFor(sc, len(ids))
	if err != nil {
		return nil, err
	}
	p := len(e.prefix)
	if m == e.prefixModel && p < len(ids) && len(ids) <= e.prefixCache.Cap && slices.Equal(ids[:p], e.prefix) &&
		(len(rows) == 0 || rows[0] >= p) {
		after := make([]int, len(rows))
		for i, r := range rows {
			after[i] = r - p
		}
		cache := e.prefixCache.Clone()
		defer cache.Free() // its own tensors, written from the needle on
		logits, _, err := m.Forward(cache, ids[p:], positions(len(ids))[p:], after, nil)
		return logits, err
	}
	cache, err := m.NewCache(len(ids))
	if err != nil {
		return nil, err
	}
	defer cache.Free()
	logits, _, err := m.Forward(cache, ids, positions(len(ids)), rows, nil)
	return logits, err
}
