package posenc

import (
	"math"

	"github.com/posenc/course/internal/validate"
	"github.com/posenc/course/pkg/posenc/internal/sincos"
)

// Spacing selects how a sinusoidal table spaces its frequencies.
type Spacing int

const (
	// SpacingVaswani uses ω_i = base^(−2i/d) for pair i of d dimensions
	// (Vaswani et al. 2017, section 3.5). The lowest frequency is
	// base^(−(d−2)/d), just above 1/base.
	SpacingVaswani Spacing = iota
	// SpacingT2T uses ω_i = base^(−i/(d/2−1)), tensor2tensor's
	// get_timing_signal_1d with min_timescale 1 and max_timescale base: the
	// lowest frequency is exactly 1/base.
	SpacingT2T
)

// Sinusoidal configures the fixed sinusoidal position table of Vaswani et
// al. 2017, "Attention Is All You Need" (https://arxiv.org/abs/1706.03762):
//
//	PE(pos, 2i)   = sin(pos · ω_i)
//	PE(pos, 2i+1) = cos(pos · ω_i),   ω_i = base^(−2i/d)
//
// Create one with NewSinusoidal and adjust it with the With methods; the zero
// value is not valid (its Base is 0).
type Sinusoidal struct {
	// Dim is d_model, the width of each position vector; it must be even.
	Dim int
	// Base sets the range of wavelengths, from 2π to 2π·Base; it must be > 1.
	Base float64
	// Layout is where the sin and cos of each frequency live: Interleaved
	// (even = sin, odd = cos) or Halves ([sin | cos]).
	Layout Layout
	// Spacing is how frequencies are spaced.
	Spacing Spacing
}

// NewSinusoidal returns the table of the paper for d_model = dim: base
// 10000, interleaved, Vaswani spacing.
func NewSinusoidal(dim int) Sinusoidal {
	return Sinusoidal{Dim: dim, Base: 10000, Layout: Interleaved, Spacing: SpacingVaswani}
}

// WithBase returns s with another base (10000 in the paper).
func (s Sinusoidal) WithBase(base float64) Sinusoidal { s.Base = base; return s }

// WithLayout returns s with another layout, keeping its frequency spacing.
func (s Sinusoidal) WithLayout(l Layout) Sinusoidal { s.Layout = l; return s }

// WithTensor2Tensor returns s laid out as tensor2tensor does: [sin | cos]
// halves with SpacingT2T frequencies.
func (s Sinusoidal) WithTensor2Tensor() Sinusoidal {
	s.Layout, s.Spacing = Halves, SpacingT2T
	return s
}

// Validate returns a *ParamError for an odd or non-positive Dim, a Base that
// is not a finite number > 1, or an unknown Layout or Spacing.
func (s Sinusoidal) Validate() error {
	if err := validate.EvenPositive("dim", s.Dim); err != nil {
		return err
	}
	if s.Dim > validate.MaxElements { // Frequencies and ShiftMatrix allocate by Dim alone
		return validate.Err("dim", s.Dim, "must be <= 2^31")
	}
	if err := validate.Base("base", s.Base); err != nil {
		return err
	}
	if err := checkLayout("layout", s.Layout); err != nil {
		return err
	}
	if s.Spacing != SpacingVaswani && s.Spacing != SpacingT2T {
		return validate.Err("spacing", int(s.Spacing), "must be SpacingVaswani or SpacingT2T")
	}
	return nil
}

// Frequencies returns ω_i for each of the Dim/2 pairs, in radians per
// position, highest first.
func (s Sinusoidal) Frequencies() ([]float64, error) {
	if err := s.Validate(); err != nil {
		return nil, err
	}
	return s.frequenciesTo(make([]float64, s.Dim/2)), nil
}

// frequenciesTo fills dst (length Dim/2) with ω_i; s must be valid.
func (s Sinusoidal) frequenciesTo(dst []float64) []float64 {
	half := s.Dim / 2
	logBase := math.Log(s.Base)
	for i := range dst[:half] {
		switch s.Spacing {
		case SpacingT2T:
			// tensor2tensor: log_timescale_increment = log(max/min) / max(num_timescales − 1, 1).
			dst[i] = math.Exp(-float64(i) * logBase / float64(max(half-1, 1)))
		default:
			dst[i] = math.Exp(-float64(2*i) / float64(s.Dim) * logBase)
		}
	}
	return dst
}

// SinusoidalTo fills dst, a row-major [rows, s.Dim] table with
// rows = len(dst)/s.Dim, with the encodings of positions start, start+1, ….
//
// Each pair of row start+r is computed as an exact float64 sin/cos every
// 128 rows and as a float64 rotation of the previous row in between
// (PE(pos+1) is a rotation of PE(pos)); each value is rounded once to T. The
// float32 table stays within 6e-8 of a float64 reference at any position up
// to 2^40.
//
// It returns a *ParamError when s is invalid, start is negative or huge, or
// len(dst) is not a positive multiple of s.Dim. It allocates nothing once
// warm.
func SinusoidalTo[T Float](dst []T, s Sinusoidal, start int) error {
	return sinusoidalTo(dst, nil, 1, s, start)
}

// SinusoidalTable returns the [n, s.Dim] row-major table for positions
// start, …, start+n−1. Use Rows to view it as rows.
func SinusoidalTable[T Float](s Sinusoidal, start, n int) ([]T, error) {
	if err := s.Validate(); err != nil {
		return nil, err
	}
	if err := validate.Positive("n", n); err != nil {
		return nil, err
	}
	if err := validate.Elements("n×dim", n, s.Dim); err != nil {
		return nil, err
	}
	dst := make([]T, n*s.Dim)
	if err := SinusoidalTo(dst, s, start); err != nil {
		return nil, err
	}
	return dst, nil
}

// AddSinusoidalTo sets dst = emb·√d + PE when scaleEmb is true, or
// dst = emb + PE otherwise, for emb a row-major [rows, s.Dim] matrix of token
// embeddings at positions start, start+1, …. dst may be emb itself.
//
// Scaling by √d_model (Vaswani et al. 2017, section 3.4) matters when the
// embedding table is shared with the output layer and initialised with
// variance 1/d: its entries are then about 1/√d in size, and without the
// scale the position signal (entries up to 1) would drown the token signal.
func AddSinusoidalTo[T Float](dst, emb []T, s Sinusoidal, start int, scaleEmb bool) error {
	if err := validate.Len("dst", len(dst), len(emb)); err != nil {
		return err
	}
	scale := 1.0
	if scaleEmb {
		scale = math.Sqrt(float64(s.Dim))
	}
	if emb == nil {
		emb = dst[:0] // keep the "add" path even for empty slices; sinusoidalTo reports the length
	}
	return sinusoidalTo(dst, emb, scale, s, start)
}

// sinusoidalTo validates and runs the kernel; emb == nil means "no embeddings".
func sinusoidalTo[T Float](dst, emb []T, scale float64, s Sinusoidal, start int) error {
	if err := s.Validate(); err != nil {
		return err
	}
	if err := validate.Position("start", start); err != nil {
		return err
	}
	if len(dst) == 0 || len(dst)%s.Dim != 0 {
		return validate.Err("len(dst)", len(dst), "must be a positive multiple of dim")
	}
	rows := len(dst) / s.Dim
	if start > validate.MaxPosition-rows {
		return validate.Err("start", start, "leaves the last position past 2^40")
	}
	k := sincos.Get[T](s.Dim / 2)
	s.frequenciesTo(k.Freq())
	k.Table(dst, emb, scale, start, s.Layout == Interleaved)
	return nil
}

// ShiftMatrix returns T_k, the row-major [Dim, Dim] matrix with
// PE(pos+k) = T_k · PE(pos) for every pos: one 2×2 rotation by k·ω_i per
// pair, placed at the pair's two dimensions,
//
//	[sin((p+k)ω)]   [ cos kω  sin kω] [sin pω]
//	[cos((p+k)ω)] = [−sin kω  cos kω] [cos pω]
//
// It depends on k and the frequencies only, never on pos, which is why a
// linear layer can learn to attend by relative offset. k may be negative.
func ShiftMatrix(s Sinusoidal, k int) ([]float64, error) {
	if err := s.Validate(); err != nil {
		return nil, err
	}
	if k < -validate.MaxPosition || k > validate.MaxPosition {
		return nil, validate.Err("k", k, "must be within ±2^40")
	}
	if err := validate.Elements("dim×dim", s.Dim, s.Dim); err != nil {
		return nil, err
	}
	freq, _ := s.Frequencies()
	d := s.Dim
	m := make([]float64, d*d)
	for i, w := range freq {
		sn, cs := sincos.Product(float64(k), w)
		a, b := pairIndex(s.Layout, d, i) // a holds sin, b holds cos
		m[a*d+a], m[a*d+b] = cs, sn
		m[b*d+a], m[b*d+b] = -sn, cs
	}
	return m, nil
}
