package smollm

import (
	"fmt"

	"github.com/gomlx/compute"
	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/shapes"
	"github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"
	"github.com/gomlx/gomlx/ml/model"

	"github.com/posenc/course/pkg/cpuattention"
	"github.com/posenc/course/pkg/posenc"
	"github.com/posenc/course/pkg/posgraph"
)

// DefaultChunkSize is how many query positions one call runs by default:
// prefill goes in chunks of this many tokens, each reading the cache of
// the earlier ones, so that the attention scores of a long sequence never
// need its whole [seq, seq] matrix at once. The cache grows in steps of
// the chunk size, so a chunk reads only the slots filled so far (rounded
// up to a step), not the whole capacity: a causal prefill then costs about
// half the attention of one that reads every slot.
const DefaultChunkSize = 512

// Model runs SmolLM2 on a GoMLX backend: the weights live on the backend as
// variables of a model.Store, and each call runs one chunk of tokens.
type Model struct {
	Weights *Weights
	// RoPE is the rotation queries and keys get: the weights' layout and
	// base, and the scaling New was given.
	RoPE posenc.RoPE
	// ChunkSize is the most query positions per call (DefaultChunkSize),
	// and the step in which a cache grows.
	ChunkSize int
	// KeyBlockSize is the most cache slots attention reads at a time
	// (DefaultKeyBlockSize, keyblocks.go) where it is GoMLX's operations:
	// a chunk of several queries reads its cache in blocks of this many
	// slots. The kernel (Attention) picks its own.
	KeyBlockSize int
	// Progress, when set, is called after each chunk of a Forward with the
	// tokens done and the total.
	Progress func(done, total int)

	backend compute.Backend
	store   *model.Store
	execs   map[variant]*model.Exec
	// vectors, when set, are RoPE's per-dimension vectors, fed to each
	// call as inputs: execs is then shared by every model WithScaling
	// made from the same one, whatever its scaling (see WithScaling).
	vectors *posgraph.RoPEVectors
	// shared are the calls compiled with RoPE's vectors as inputs, which
	// this model's WithScaling models use.
	shared map[variant]*model.Exec
	// wholeCapacity makes every call read all Cap slots of the cache, as
	// the model first did: the tests compare it with the growing cache.
	wholeCapacity bool
	// precision rounds the rotation's steps (SetRoPEPrecision); ran says a
	// call was compiled, after which it can no longer change.
	precision *posenc.RoPEPrecision
	ran       bool
	// noKernel says why attention is not cpuattention's kernel on this
	// backend; nil: it is.
	noKernel error
}

// Attention says how the model's softmax and values run on its backend:
// cpuattention's kernel, or GoMLX's operations in key blocks and why.
func (m *Model) Attention() string {
	if m.noKernel == nil {
		return "cpuattention's kernel"
	}
	return fmt.Sprintf("GoMLX's operations in key blocks of %d (%v)", m.KeyBlockSize, m.noKernel)
}

// variant says which outputs a compiled call has besides the caches, and
// how it grows the cache: fresh (no cache yet: the call makes one of grow
// slots) or by grow slots at its end (0: none); and how attention reads
// the cache: in blocks of keyBlock slots (0: all at once), for a chunk
// whose first query is in slot start (−1: known only when it runs).
type variant struct {
	logits, nll bool
	fresh       bool
	grow        int
	keyBlock    int
	start       int
}

// New puts w on backend, to run with RoPE scaling sc (zero: none, as
// trained). For dynamic NTK scaling, set sc.SeqLen to the length of the
// sequence to run: posgraph would otherwise take the chunk's length.
func New(backend compute.Backend, w *Weights, sc posenc.Scaling) (*Model, error) {
	r := w.RoPE(sc)
	if err := r.Validate(); err != nil {
		return nil, err
	}
	store := model.NewStore()
	root := store.RootScope()
	add := func(scope *model.Scope, name string, data []float32, dims ...int) error {
		_, err := scope.CreateVariable(name, tensors.FromFlatDataAndDimensions(data, dims...))
		return err
	}
	c := w.Config
	qk := c.Heads * c.HeadDim
	kv := c.KVHeads * c.HeadDim
	errs := []error{
		add(root, "embed", w.Embed, c.Vocab, c.Dim),
		add(root, "out_norm", w.OutNorm, c.Dim),
	}
	for i, l := range w.Layers {
		s := root.In("layer_%02d", i)
		errs = append(errs,
			add(s, "attn_norm", l.AttnNorm, c.Dim), add(s, "ffn_norm", l.FFNNorm, c.Dim),
			add(s, "attn_q", l.Q, qk, c.Dim), add(s, "attn_k", l.K, kv, c.Dim), add(s, "attn_v", l.V, kv, c.Dim),
			add(s, "attn_output", l.O, c.Dim, qk),
			add(s, "ffn_gate", l.Gate, c.FFN, c.Dim), add(s, "ffn_up", l.Up, c.FFN, c.Dim),
			add(s, "ffn_down", l.Down, c.Dim, c.FFN))
	}
	for _, err := range errs {
		if err != nil {
			return nil, fmt.Errorf("smollm: %w", err)
		}
	}
	return &Model{Weights: w, RoPE: r, ChunkSize: DefaultChunkSize, KeyBlockSize: DefaultKeyBlockSize,
		backend: backend, store: store, execs: map[variant]*model.Exec{},
		noKernel: cpuattention.Enable(backend)}, nil
}

// exec returns the compiled call of variant v (GoMLX compiles it again for
// each new set of input shapes: chunk length, cache capacity, rows).
func (m *Model) exec(v variant) (*model.Exec, error) {
	if e, ok := m.execs[v]; ok {
		return e, nil
	}
	m.ran = true
	net := network{Config: m.Weights.Config, rope: m.RoPE, precision: m.precision, keyBlock: v.keyBlock, start: v.start}
	layers := m.Weights.Layers
	vectors := m.vectors != nil
	e, err := model.NewExec(m.backend, m.store, func(scope *model.Scope, inputs []*graph.Node) []*graph.Node {
		in := stepIn{tokens: inputs[0], positions: inputs[1], start: inputs[2]}
		rest := inputs[3:]
		if vectors {
			net.vectors, rest = &ropeInputs{freq: rest[0], amp: rest[1], sign: rest[2]}, rest[3:] // [e] float64 ×3
		}
		if v.logits {
			in.rows, rest = rest[0], rest[1:]
		}
		if v.nll {
			in.targets, rest = rest[0], rest[1:]
		}
		if v.fresh {
			g := inputs[0].Graph()
			empty := graph.Zeros(g, shapes.Make(dtypes.Float32, inputs[0].Shape().Dim(0), m.Weights.KVHeads, v.grow, m.Weights.HeadDim)) // [b, k, grow, e]
			for range layers {
				in.cacheK, in.cacheV = append(in.cacheK, empty), append(in.cacheV, empty)
			}
		} else {
			in.cacheK, in.cacheV = rest[:len(layers)], rest[len(layers):]
			if v.grow > 0 {
				in.cacheK, in.cacheV = grown(in.cacheK, v.grow), grown(in.cacheV, v.grow)
			}
		}
		out := net.forward(scope, in)
		var outputs []*graph.Node
		if v.logits {
			outputs = append(outputs, out.logits)
		}
		if v.nll {
			outputs = append(outputs, out.nll)
		}
		return append(append(outputs, out.cacheK...), out.cacheV...)
	})
	if err != nil {
		return nil, fmt.Errorf("smollm: %w", err)
	}
	// A graph per chunk length and cache size: a long run's passkey cells
	// need more than GoMLX's default of 32, past which a call fails.
	e.SetMaxCache(-1)
	m.execs[v] = e
	return e, nil
}

// WithScaling returns the model under RoPE scaling sc, sharing m's weights
// on the backend (nothing is copied) and its compiled calls: the calls of
// a model WithScaling made take RoPE's vectors (posgraph.RoPEVectors) as
// inputs, so every scaling runs the same graphs, compiled once. Dynamic
// NTK scaling with sc.SeqLen 0 takes its length from each chunk as the
// graph is built, and a model with a RoPE precision rounds its rotation
// in the graph: either compiles calls of its own, as New's do. The
// logits are those of New(backend, w, sc) (TestWithScalingSharesCompiledCalls).
func (m *Model) WithScaling(sc posenc.Scaling) (*Model, error) {
	r := m.Weights.RoPE(sc)
	if err := r.Validate(); err != nil {
		return nil, err
	}
	out := &Model{Weights: m.Weights, RoPE: r, ChunkSize: m.ChunkSize, KeyBlockSize: m.KeyBlockSize, Progress: m.Progress,
		backend: m.backend, store: m.store, wholeCapacity: m.wholeCapacity, precision: m.precision, noKernel: m.noKernel}
	if v, err := posgraph.NewRoPEVectors(r, dtypes.Float32); err == nil && m.precision == nil {
		if m.shared == nil {
			m.shared = map[variant]*model.Exec{}
		}
		out.vectors, out.execs, out.shared = &v, m.shared, m.shared
		return out, nil
	}
	out.execs = map[variant]*model.Exec{}
	return out, nil
}

// grown returns each cache [b, k, n, e] with slots more slots at its end
// (zeros: no query reads them before a chunk writes them).
func grown(caches []*graph.Node, slots int) []*graph.Node {
	out := make([]*graph.Node, len(caches))
	for i, c := range caches {
		dims := c.Shape().Dimensions
		more := graph.Zeros(c.Graph(), shapes.Make(c.DType(), dims[0], dims[1], slots, dims[3])) // [b, k, slots, e]
		out[i] = graph.Concatenate([]*graph.Node{c, more}, 2)                                    // [b, k, n+slots, e]
	}
	return out
}

// Cache holds the rotated keys and the values of every position run so
// far through one sequence, on the backend: Len positions of at most Cap.
// Its tensors grow with it, a chunk size at a time, so that a call reads
// only the slots filled so far.
type Cache struct {
	Len, Cap int
	k, v     []*tensors.Tensor // L × [1, k, slots, e], slots ≥ Len; none before the first call
	// shared: another Cache holds the same tensors (Clone), so a call
	// leaves them to the garbage collector instead of freeing them.
	shared bool
}

// NewCache returns an empty cache for a sequence of up to capacity tokens.
func (m *Model) NewCache(capacity int) (*Cache, error) {
	if capacity < 1 {
		return nil, fmt.Errorf("smollm: cache capacity %d, want at least 1", capacity)
	}
	return &Cache{Cap: capacity}, nil
}

// Clone returns a cache of the same positions, to run another continuation
// from: runs on either leave the other as it was. It copies nothing (a call
// writes new tensors), so a shared prefix costs its memory once.
func (c *Cache) Clone() *Cache {
	c.shared = true
	return &Cache{Len: c.Len, Cap: c.Cap, k: c.k, v: c.v, shared: true}
}

// Free releases the cache's tensors on the backend now, rather than when
// Go next collects garbage: a long run allocates little on Go's heap, so
// Go may not collect for many gigabytes of caches. Tensors shared with a
// clone are left to the garbage collector. The cache is empty after.
func (c *Cache) Free() {
	if !c.shared {
		for i := range c.k {
			c.k[i].FinalizeAll()
			c.v[i].FinalizeAll()
		}
	}
	c.k, c.v, c.Len, c.shared = nil, nil, 0, false
}

// slots is how many positions the cache's tensors hold now.
func (c *Cache) slots() int {
	if len(c.k) == 0 {
		return 0
	}
	return c.k[0].Shape().Dim(2)
}

// slotsFor returns how many slots the cache needs to hold need positions:
// what it has, or else need rounded up to a chunk size, at most Cap (all
// Cap when wholeCapacity).
func (m *Model) slotsFor(c *Cache, need int) int {
	have := c.slots()
	switch {
	case need <= have:
		return have
	case m.wholeCapacity:
		return c.Cap
	}
	step := max(m.ChunkSize, 1)
	return min((need+step-1)/step*step, c.Cap)
}

// Forward runs tokens, at position ids positions, after those already in
// cache, and adds them to it. It returns the logits at rows (indices into
// tokens, ascending), and, when targets is not nil (one per token, −1 for
// none), −log p(target) at each token. Only the rows asked for go through
// the output head, unless targets asks for every row's loss.
func (m *Model) Forward(cache *Cache, tokens, positions []int32, rows []int, targets []int32) (logits [][]float32, nll []float32, err error) {
	n := len(tokens)
	switch {
	case m.ChunkSize < 1:
		return nil, nil, fmt.Errorf("smollm: chunk size %d, want at least 1 token", m.ChunkSize)
	case n == 0:
		return nil, nil, fmt.Errorf("smollm: no tokens to run")
	case len(positions) != n:
		return nil, nil, fmt.Errorf("smollm: %d positions for %d tokens", len(positions), n)
	case targets != nil && len(targets) != n:
		return nil, nil, fmt.Errorf("smollm: %d targets for %d tokens", len(targets), n)
	case cache.Len+n > cache.Cap:
		return nil, nil, fmt.Errorf("smollm: %d tokens after %d do not fit a cache of %d", n, cache.Len, cache.Cap)
	}
	if err := checkKeyBlockSize(m.KeyBlockSize); err != nil {
		return nil, nil, err
	}
	for i, r := range rows {
		if r < 0 || r >= n || (i > 0 && r <= rows[i-1]) {
			return nil, nil, fmt.Errorf("smollm: rows must be ascending indices into %d tokens, got %v", n, rows)
		}
	}
	for _, t := range tokens {
		if t < 0 || int(t) >= m.Weights.Vocab {
			return nil, nil, fmt.Errorf("smollm: token id %d outside the vocabulary [0, %d)", t, m.Weights.Vocab)
		}
	}
	for lo := 0; lo < n; lo += m.ChunkSize {
		hi := min(lo+m.ChunkSize, n)
		var chunkRows []int
		for _, r := range rows {
			if r >= lo && r < hi {
				chunkRows = append(chunkRows, r-lo)
			}
		}
		var chunkTargets []int32
		if targets != nil {
			chunkTargets = targets[lo:hi]
		}
		l, s, err := m.call(cache, tokens[lo:hi], positions[lo:hi], chunkRows, chunkTargets)
		if err != nil {
			return nil, nil, err
		}
		logits, nll = append(logits, l...), append(nll, s...)
		if m.Progress != nil {
			m.Progress(hi, n)
		}
	}
	return logits, nll, nil
}

// call runs one chunk. GoMLX compiles a graph for each new chunk length
// and cache size, so a Forward of many tokens compiles one per chunk size
// step of its length (the graphs serve every later sequence), and one for
// the rest.
func (m *Model) call(cache *Cache, tokens, positions []int32, rows []int, targets []int32) ([][]float32, []float32, error) {
	n := len(tokens)
	have := cache.slots()
	v := variant{logits: len(rows) > 0, nll: targets != nil, fresh: have == 0, grow: m.slotsFor(cache, cache.Len+n) - have, start: -1}
	if n > 1 {
		// Key blocks, which need the chunk's start as the graph is built:
		// a graph per start, which prefill in chunks has anyway (each
		// chunk's cache is a size of its own). A decoding step, one query,
		// reads its scores [1, k, g, 1, n] whole, and keeps one graph for
		// every position of a cache size.
		v.keyBlock, v.start = m.KeyBlockSize, cache.Len
	}
	e, err := m.exec(v)
	if err != nil {
		return nil, nil, err
	}
	args := []any{
		tensors.FromFlatDataAndDimensions(tokens, 1, n),
		tensors.FromFlatDataAndDimensions(positions, 1, n),
		tensors.FromScalar(int32(cache.Len)),
	}
	if m.vectors != nil {
		for _, v := range [][]float64{m.vectors.Freq, m.vectors.Amp, m.vectors.Sign} {
			args = append(args, tensors.FromFlatDataAndDimensions(v, len(v))) // [e] float64
		}
	}
	if v.logits {
		r := make([]int32, len(rows))
		for i, row := range rows {
			r[i] = int32(row)
		}
		args = append(args, tensors.FromFlatDataAndDimensions(r, 1, len(r)))
	}
	if v.nll {
		args = append(args, tensors.FromFlatDataAndDimensions(targets, 1, n))
	}
	for _, t := range cache.k {
		args = append(args, t)
	}
	for _, t := range cache.v {
		args = append(args, t)
	}
	out, err := e.Call(args...)
	if err != nil {
		return nil, nil, fmt.Errorf("smollm: %w", err)
	}
	var logits [][]float32
	var nll []float32
	if v.logits {
		flat, err := tensors.CopyFlatData[float32](out[0])
		out[0].FinalizeAll() // copied: its backend buffer is not needed
		if err != nil {
			return nil, nil, err
		}
		vocab := m.Weights.Vocab
		for i := range rows {
			logits = append(logits, flat[i*vocab:(i+1)*vocab])
		}
		out = out[1:]
	}
	if v.nll {
		flat, err := tensors.CopyFlatData[float32](out[0])
		out[0].FinalizeAll()
		if err != nil {
			return nil, nil, err
		}
		nll = flat
		out = out[1:]
	}
	layers := len(m.Weights.Layers)
	if !cache.shared {
		for i := range cache.k {
			cache.k[i].FinalizeAll()
			cache.v[i].FinalizeAll()
		}
	}
	cache.k, cache.v, cache.shared = out[:layers], out[layers:], false
	cache.Len += n
	return logits, nll, nil
}
