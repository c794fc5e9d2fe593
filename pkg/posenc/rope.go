package posenc

import (
	"strconv"

	"github.com/posenc/course/internal/validate"
	"github.com/posenc/course/pkg/posenc/internal/asm"
	"github.com/posenc/course/pkg/posenc/internal/parallel"
	"github.com/posenc/course/pkg/posenc/internal/sincos"
)

// RoPE configures rotary position embeddings (Su et al. 2021, "RoFormer:
// Enhanced Transformer with Rotary Position Embedding",
// https://arxiv.org/abs/2104.09864). Each pair (x, y) of the first RotaryDim
// dimensions of a query or key head at position m is rotated by the angle
// m·ω_i:
//
//	x' = x·cos(mω_i) − y·sin(mω_i)
//	y' = x·sin(mω_i) + y·cos(mω_i),   ω_i = base^(−2i/RotaryDim)
//
// so that ⟨R(m)q, R(n)k⟩ depends only on m−n. Dimensions from RotaryDim on
// pass through unchanged (partial rotary, as GPT-NeoX's rotary_pct and
// GPT-J's rotary_dim). Scaling adjusts the frequencies for longer contexts.
//
// Create one with NewRoPE and adjust it with the With methods.
type RoPE struct {
	// HeadDim is the dimension of each query/key head.
	HeadDim int
	// RotaryDim is how many leading dimensions rotate; 0 means HeadDim. It
	// must be even and at most HeadDim. Frequencies use it as d.
	RotaryDim int
	// Base is θ in the paper (rope_theta in HF); 10000 by default.
	Base float64
	// Layout is where each pair lives: Interleaved (RoFormer, GPT-J, Meta's
	// Llama) or Halves (GPT-NeoX, HF rotate_half).
	Layout Layout
	// Scaling is the frequency scaling; the zero value is none.
	Scaling Scaling
}

// NewRoPE returns RoPE over all headDim dimensions, base 10000, interleaved
// pairs, no scaling.
func NewRoPE(headDim int) RoPE {
	return RoPE{HeadDim: headDim, Base: 10000, Layout: Interleaved}
}

// WithBase returns r with base θ.
func (r RoPE) WithBase(base float64) RoPE { r.Base = base; return r }

// WithLayout returns r with another pair layout.
func (r RoPE) WithLayout(l Layout) RoPE { r.Layout = l; return r }

// WithRotaryDim returns r rotating only the first rotaryDim dimensions.
func (r RoPE) WithRotaryDim(rotaryDim int) RoPE { r.RotaryDim = rotaryDim; return r }

// WithScaling returns r with frequency scaling sc.
func (r RoPE) WithScaling(sc Scaling) RoPE { r.Scaling = sc; return r }

// Rot returns the number of rotating dimensions (RotaryDim, or HeadDim when
// RotaryDim is 0).
func (r RoPE) Rot() int {
	if r.RotaryDim == 0 {
		return r.HeadDim
	}
	return r.RotaryDim
}

// Validate returns a *ParamError for a non-positive HeadDim, a RotaryDim
// that is odd, negative or larger than HeadDim, an odd HeadDim when all of
// it rotates, a base that is not finite and > 1, an unknown layout, or an
// invalid Scaling.
func (r RoPE) Validate() error {
	if err := validate.Positive("head_dim", r.HeadDim); err != nil {
		return err
	}
	if r.HeadDim > validate.MaxElements { // InvFreq and LayoutPermutation allocate by HeadDim alone
		return validate.Err("head_dim", r.HeadDim, "must be <= 2^31")
	}
	if r.RotaryDim < 0 || r.RotaryDim > r.HeadDim {
		return validate.Err("rotary_dim", r.RotaryDim, "must be in [0, head_dim]")
	}
	if r.RotaryDim == 0 {
		if err := validate.EvenPositive("head_dim", r.HeadDim); err != nil {
			return err
		}
	} else if err := validate.EvenPositive("rotary_dim", r.RotaryDim); err != nil {
		return err
	}
	if err := validate.Base("base", r.Base); err != nil {
		return err
	}
	if err := checkLayout("layout", r.Layout); err != nil {
		return err
	}
	return r.Scaling.validate(r.Rot())
}

// InvFreq returns the (scaled) frequency ω_i of each of the Rot()/2 pairs,
// in radians per position: HF's inv_freq, computed in float64.
func (r RoPE) InvFreq() ([]float64, error) {
	if err := r.Validate(); err != nil {
		return nil, err
	}
	out := make([]float64, r.Rot()/2)
	for i := range out {
		out[i] = r.Scaling.invFreq(i, r.Rot(), r.Base)
	}
	return out, nil
}

// AttentionFactor returns the factor by which cos and sin are multiplied
// (HF's attention_scaling): 0.1·ln(s)+1 for YaRN, 1 otherwise. Since it
// multiplies both q and k, logits grow by its square.
func (r RoPE) AttentionFactor() float64 { return r.Scaling.attentionFactor() }

// RotateTo rotates one head vector x (length HeadDim) to position pos and
// writes the result to dst (which may be x). Angles are computed in float64
// and each output is rounded once.
func RotateTo[T Float](dst, x []T, r RoPE, pos int) error {
	if err := r.Validate(); err != nil {
		return err
	}
	if err := validate.Position("pos", pos); err != nil {
		return err
	}
	if err := validate.Len("x", len(x), r.HeadDim); err != nil {
		return err
	}
	if err := validate.Len("dst", len(dst), r.HeadDim); err != nil {
		return err
	}
	rot, af := r.Rot(), r.AttentionFactor()
	for i := range rot / 2 {
		s, c := sincos.Product(float64(pos), r.Scaling.invFreq(i, rot, r.Base))
		s, c = s*af, c*af
		a, b := pairIndex(r.Layout, rot, i)
		xa, xb := float64(x[a]), float64(x[b])
		dst[a], dst[b] = T(xa*c-xb*s), T(xa*s+xb*c)
	}
	copy(dst[rot:], x[rot:])
	return nil
}

// RoPECache holds cos(mω_i) and sin(mω_i), times the attention factor, in
// float64 for positions m in [0, Len()) and every pair i: the table HF's
// rotary embedding module computes, built once and reused by every call that
// rotates queries and keys. It is safe for concurrent use.
type RoPECache struct {
	rope     RoPE
	n, half  int
	cos, sin []float64 // [n, half]
}

// NewRoPECache builds the cache of r for positions [0, maxLen).
func NewRoPECache(r RoPE, maxLen int) (*RoPECache, error) {
	if err := r.Validate(); err != nil {
		return nil, err
	}
	if err := validate.Positive("max_len", maxLen); err != nil {
		return nil, err
	}
	if maxLen > validate.MaxPosition {
		return nil, validate.Err("max_len", maxLen, "must be <= 2^40")
	}
	half := r.Rot() / 2
	if err := validate.Elements("max_len×rotary_dim/2", maxLen, half); err != nil {
		return nil, err
	}
	return newRoPECacheRange(r, 0, maxLen), nil
}

// newRoPECacheRange builds the cache rows of positions start, …, start+n−1
// (row p holds position start+p); r and the sizes must be valid.
func newRoPECacheRange(r RoPE, start, n int) *RoPECache {
	half := r.Rot() / 2
	c := &RoPECache{rope: r, n: n, half: half,
		cos: make([]float64, n*half), sin: make([]float64, n*half)}
	freq, _ := r.InvFreq()
	k := sincos.Get[float64](half)
	copy(k.Freq(), freq)
	k.Cache(c.sin, c.cos, r.AttentionFactor(), start)
	return c
}

// RoPE returns the configuration the cache was built for.
func (c *RoPECache) RoPE() RoPE { return c.rope }

// Len returns the number of cached positions.
func (c *RoPECache) Len() int { return c.n }

// Cos returns a read-only view of the row-major [Len(), Rot()/2] cos table.
func (c *RoPECache) Cos() []float64 { return c.cos }

// Sin returns a read-only view of the row-major [Len(), Rot()/2] sin table.
func (c *RoPECache) Sin() []float64 { return c.sin }

// ApplyRoPETo rotates x, a row-major [..., seqLen, HeadDim] tensor of
// queries or keys at positions start, …, start+seqLen−1, into dst (which may
// be x). It returns a *ParamError when len(x) is not a positive multiple of
// seqLen·HeadDim, len(dst) differs, or a position is outside the cache.
func ApplyRoPETo[T Float](dst, x []T, c *RoPECache, seqLen, start int) error {
	if c == nil {
		return validate.Err("cache", "nil", "must be built with NewRoPECache")
	}
	if err := validate.Positive("seq_len", seqLen); err != nil {
		return err
	}
	if err := validate.NonNegative("start", start); err != nil {
		return err
	}
	if start > c.n-seqLen {
		return validate.Err("start+seq_len", int64(start)+int64(seqLen), "must be <= the cache length "+itoa(c.n))
	}
	return applyRoPE(dst, x, c, seqLen, start, nil)
}

// ApplyRoPEAtTo is ApplyRoPETo at explicit positions: sequence element s is
// at positions[s], for instance a KV-cache offset or a packed batch. Every
// position must be in [0, c.Len()).
func ApplyRoPEAtTo[T Float](dst, x []T, c *RoPECache, positions []int) error {
	if c == nil {
		return validate.Err("cache", "nil", "must be built with NewRoPECache")
	}
	if err := validate.Positive("len(positions)", len(positions)); err != nil {
		return err
	}
	for i, p := range positions {
		if p < 0 || p >= c.n {
			return validate.Err("positions["+itoa(i)+"]", p, "must be in [0, "+itoa(c.n)+")")
		}
	}
	return applyRoPE(dst, x, c, len(positions), 0, positions)
}

func applyRoPE[T Float](dst, x []T, c *RoPECache, seqLen, start int, positions []int) error {
	hd := c.rope.HeadDim
	if validate.MulOverflows(seqLen, hd) || len(x) == 0 || len(x)%(seqLen*hd) != 0 {
		return validate.Err("len(x)", len(x), "must be a positive multiple of seq_len×head_dim = "+itoa(seqLen)+"×"+itoa(hd))
	}
	if err := validate.Len("dst", len(dst), len(x)); err != nil {
		return err
	}
	k := parallel.Get[ropeKernel[T]](&ropeKernels)
	k.dst, k.x, k.c, k.positions = dst, x, c, positions
	k.seqLen, k.start = seqLen, start
	k.rows = len(x) / hd
	k.seqs = k.rows / seqLen
	k.tile = min(seqLen, max(1, ropeTileBytes/(16*max(c.half, 1))))
	tiles := (seqLen + k.tile - 1) / k.tile
	parallel.Run(k, tiles*k.seqs, k.tile*hd, &k.Job)
	k.dst, k.x, k.c, k.positions = nil, nil, nil, nil
	parallel.Put(&ropeKernels, k)
	return nil
}

// ropeTileBytes is the size of the cos and sin rows of one unit of the RoPE
// kernel's work (a tile of positions: 16 of them for head dimension 128).
// They stay in L1 while every sequence (batch × head) of the tile is
// rotated, so the cache table is read from memory once per call rather than
// once per sequence.
const ropeTileBytes = 16 << 10

type ropeKernel[T Float] struct {
	parallel.Job
	dst, x        []T
	c             *RoPECache
	positions     []int
	seqLen, start int
	rows, seqs    int // rows of head_dim values; sequences (rows / seqLen)
	tile          int // positions per unit
}

var ropeKernels parallel.TypedPool[ropeKernel[float32], ropeKernel[float64]]

// RunRows rotates the units [lo, hi). Unit u is tile u/seqs of positions of
// sequence u%seqs: consecutive units share a tile, so its cos and sin rows
// stay in cache while they are reused by every sequence.
func (k *ropeKernel[T]) RunRows(lo, hi int) {
	c := k.c
	hd, half := c.rope.HeadDim, c.half
	rot := 2 * half
	interleaved := c.rope.Layout == Interleaved
	for u := lo; u < hi; u++ {
		s0 := (u / k.seqs) * k.tile
		s1 := min(s0+k.tile, k.seqLen)
		r0 := (u%k.seqs)*k.seqLen + s0
		if interleaved && rot == hd && k.positions == nil {
			// The unit's rows and their cache rows are both contiguous.
			p0, p1 := k.start+s0, k.start+s1
			asm.RotateInterleaved(k.dst[r0*hd:(r0+s1-s0)*hd], k.x[r0*hd:(r0+s1-s0)*hd],
				c.cos[p0*half:p1*half], c.sin[p0*half:p1*half])
			continue
		}
		for s := s0; s < s1; s++ {
			pos := k.start + s
			if k.positions != nil {
				pos = k.positions[s]
			}
			cs := c.cos[pos*half : (pos+1)*half]
			sn := c.sin[pos*half : (pos+1)*half]
			r := r0 + s - s0
			src := k.x[r*hd : (r+1)*hd]
			out := k.dst[r*hd : (r+1)*hd]
			if interleaved {
				asm.RotateInterleaved(out[:rot], src[:rot], cs, sn)
			} else {
				asm.RotateHalves(out[:half], out[half:rot], src[:half], src[half:rot], cs, sn)
			}
			if rot < hd {
				copy(out[rot:], src[rot:])
			}
		}
	}
}

func itoa(v int) string { return strconv.Itoa(v) }
