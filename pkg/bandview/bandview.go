// Package bandview shows what a RoPE context-extension method does to each
// rotary pair of a head: the pair's wavelength before and after scaling,
// against the training length, and the regime the method puts it in (kept,
// blended, interpolated). Lessons 4, 5 and 9 draw it, with live controls
// (Explore) in a notebook.
//
// The frequencies come from pkg/posenc (RoPE.InvFreq with a Scaling), so the
// view shows exactly what the library computes.
package bandview

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"sync"

	"github.com/posenc/course/pkg/posenc"
	"github.com/posenc/course/pkg/posenc/modelconfigs"
)

// Config is one head, trained on TrainLen tokens, extended Factor times.
type Config struct {
	HeadDim  int     // d: the rotary dimension, even
	Base     float64 // b: ω_i = b^(−2i/d)
	TrainLen int     // L: the training length, in tokens
	Factor   float64 // s ≥ 1: the target length is s·L
	Method   string  // the name of one of Methods
}

// Method is a context-extension method: how it scales the frequencies of a
// configuration.
type Method struct {
	Name    string
	Scaling func(c Config) posenc.Scaling
	// HeadDim, when not 0, is the only head size the method has factors
	// for (LongRoPE's are searched per pair): the view uses it.
	HeadDim int
}

// Methods are the methods the view offers: lesson 5's, then lesson 9's. A
// new one is one line here.
var Methods = []Method{
	{Name: "none", Scaling: func(Config) posenc.Scaling { return posenc.Scaling{} }},
	{Name: "PI", Scaling: func(c Config) posenc.Scaling { return posenc.LinearScaling(c.Factor) }},
	{Name: "NTK", Scaling: func(c Config) posenc.Scaling { return posenc.NTKScaling(c.Factor) }},
	{Name: "dynamic NTK", Scaling: func(c Config) posenc.Scaling { return posenc.DynamicNTKScaling(c.Factor, c.TrainLen, c.Target()) }},
	{Name: "YaRN", Scaling: func(c Config) posenc.Scaling { return posenc.YaRNScaling(c.Factor, c.TrainLen) }},
	{Name: "Llama 3", Scaling: func(c Config) posenc.Scaling { return posenc.Llama3Scaling(c.Factor, c.TrainLen) }},
	{Name: "LongRoPE (Phi-3.5)", Scaling: phi35LongRoPE, HeadDim: 96},
}

// phi35LongRoPE is LongRoPE with Phi-3.5-mini's searched factors (its
// config.json, shipped in posenc/modelconfigs; 48 pairs, a head of 96), at
// the target length: its long factors whenever s > 1.
func phi35LongRoPE(c Config) posenc.Scaling {
	f, err := phi35Factors()
	if err != nil {
		panic(fmt.Sprintf("bandview: Phi-3.5-mini's LongRoPE factors: %v", err)) // a broken fixture
	}
	return posenc.LongRoPEScaling(c.Factor, c.TrainLen, c.Target(), f.Short, f.Long)
}

// phi35Factors reads Phi-3.5-mini's LongRoPE factors from its fixture, once.
var phi35Factors = sync.OnceValues(func() (*posenc.LongRoPEFactors, error) {
	data, err := modelconfigs.Config("phi-3.5-mini")
	if err != nil {
		return nil, err
	}
	m, err := posenc.ParseHFConfig(data)
	if err != nil {
		return nil, err
	}
	for _, l := range m.Layers {
		if l.RoPE != nil && l.RoPE.Scaling.LongRoPE != nil {
			return l.RoPE.Scaling.LongRoPE, nil
		}
	}
	return nil, fmt.Errorf("no layer has LongRoPE factors")
})

// MethodNames returns the names of Methods, in order.
func MethodNames() []string {
	names := make([]string, len(Methods))
	for i, m := range Methods {
		names[i] = m.Name
	}
	return names
}

// method returns the Method called name.
func method(name string) (Method, error) {
	for _, m := range Methods {
		if m.Name == name {
			return m, nil
		}
	}
	return Method{}, fmt.Errorf("bandview: method must be one of %s, got %q", strings.Join(MethodNames(), ", "), name)
}

// Target returns the target length s·L, rounded to a whole token.
func (c Config) Target() int { return int(math.Round(c.Factor * float64(c.TrainLen))) }

// Regime is what a method does to one pair's frequency ω.
type Regime int

const (
	Kept         Regime = iota // ω' = ω
	Blended                    // ω/s < ω' < ω (or any other change short of ω/s)
	Interpolated               // ω' = ω/s, position interpolation's
	Beyond                     // ω' < ω/s: divided by more than s
)

// regimes lists the Regimes in order, for loops and legends.
var regimes = []Regime{Kept, Blended, Interpolated, Beyond}

func (r Regime) String() string {
	switch r {
	case Kept:
		return "kept"
	case Blended:
		return "blended"
	case Interpolated:
		return "interpolated (÷s)"
	case Beyond:
		return "divided by more than s"
	}
	return fmt.Sprintf("Regime(%d)", int(r))
}

// Bands is what a method does to every pair of a head.
type Bands struct {
	Config
	// Wavelength and Scaled are each pair's 2π/ω before and after
	// scaling, in tokens.
	Wavelength, Scaled []float64
	// Regime is what the method does to each pair.
	Regime []Regime
	// Past lists the pairs past their trained angle at the target length:
	// pairs that never finished a turn in L tokens (their largest trained
	// angle is L·ω) and reach a larger angle at a distance of s·L.
	Past []int
	// LogitScale is what the method multiplies every attention logit by
	// (YaRN's 1/t; 1 for the others).
	LogitScale float64
}

// Compute returns the bands of c. The error names a bad parameter.
func Compute(c Config) (*Bands, error) {
	m, err := method(c.Method)
	if err != nil {
		return nil, err
	}
	if m.HeadDim != 0 {
		c.HeadDim = m.HeadDim
	}
	if c.TrainLen < 1 {
		return nil, fmt.Errorf("bandview: training length must be at least 1, got %d", c.TrainLen)
	}
	if !(c.Factor >= 1) || math.IsInf(c.Factor, 0) {
		return nil, fmt.Errorf("bandview: factor must be a finite number ≥ 1, got %g", c.Factor)
	}
	plain := posenc.NewRoPE(c.HeadDim).WithBase(c.Base)
	w, err := plain.InvFreq()
	if err != nil {
		return nil, fmt.Errorf("bandview: %w", err)
	}
	scaled := plain.WithScaling(m.Scaling(c))
	ws, err := scaled.InvFreq()
	if err != nil {
		return nil, fmt.Errorf("bandview: %s: %w", c.Method, err)
	}
	b := &Bands{Config: c, Wavelength: make([]float64, len(w)), Scaled: make([]float64, len(w)),
		Regime: make([]Regime, len(w)), LogitScale: scaled.AttentionFactor() * scaled.AttentionFactor()}
	L, target := float64(c.TrainLen), float64(c.Target())
	for i := range w {
		b.Wavelength[i], b.Scaled[i] = 2*math.Pi/w[i], 2*math.Pi/ws[i]
		q := ws[i] / w[i]
		switch {
		case math.Abs(q-1) < 1e-12:
			b.Regime[i] = Kept
		case math.Abs(q*c.Factor-1) < 1e-12:
			b.Regime[i] = Interpolated
		case q*c.Factor < 1:
			b.Regime[i] = Beyond
		default:
			b.Regime[i] = Blended
		}
		if L*w[i] < 2*math.Pi && target*ws[i] > L*w[i]*(1+1e-9) {
			b.Past = append(b.Past, i)
		}
	}
	return b, nil
}

// Count returns how many pairs are in regime r.
func (b *Bands) Count(r Regime) int {
	n := 0
	for _, x := range b.Regime {
		if x == r {
			n++
		}
	}
	return n
}

// Unfinished returns the pairs that turn less than once in the training
// length (wavelength > L): the ones a longer input can push onto angles
// they never saw.
func (b *Bands) Unfinished() []int {
	var out []int
	for i, l := range b.Wavelength {
		if l > float64(b.TrainLen) {
			out = append(out, i)
		}
	}
	return out
}

// Check is the claim a readout reports on.
type Check int

const (
	// PastTrained counts the pairs past their trained angle at s·L
	// (lesson 5).
	PastTrained Check = iota
	// Relative measures how far the scaled RoPE is from depending on
	// m − n alone (lesson 4): it should be rounding error.
	Relative
)

// Readout returns a few lines for a notebook: the configuration, the
// regimes, and the check.
func (b *Bands) Readout(check Check) string {
	var s strings.Builder
	fmt.Fprintf(&s, "%s: d = %d, base = %g, L = %d, factor s = %g (target %d tokens)\n",
		b.Method, b.HeadDim, b.Base, b.TrainLen, b.Factor, b.Target())
	fmt.Fprintf(&s, "wavelengths: %.1f to %.0f tokens unscaled, %.1f to %.0f scaled\n",
		b.Wavelength[0], b.Wavelength[len(b.Wavelength)-1], b.Scaled[0], b.Scaled[len(b.Scaled)-1])
	fmt.Fprintf(&s, "pairs kept %d, blended %d, interpolated %d, divided by more than s %d\n",
		b.Count(Kept), b.Count(Blended), b.Count(Interpolated), b.Count(Beyond))
	switch check {
	case PastTrained:
		fmt.Fprintf(&s, "pairs past their trained angle at %d tokens: %d%s", b.Target(), len(b.Past), span(b.Past))
		if b.LogitScale != 1 {
			fmt.Fprintf(&s, "\nlogit multiplier 1/t = %.4f", b.LogitScale)
		}
	case Relative:
		u := b.Unfinished()
		fmt.Fprintf(&s, "pairs that turn less than once in L = %d tokens: %d%s\n", b.TrainLen, len(u), span(u))
		e, err := RelativeError(b.Config)
		if err != nil {
			fmt.Fprintf(&s, "relative property: %v", err)
		} else {
			fmt.Fprintf(&s, "relative property: max |q(m)·k(n) − q(m+t)·k(n+t)| = %.1e", e)
		}
	}
	return s.String()
}

// span writes a sorted list of pairs as " (pairs 46 to 63)", or "".
func span(pairs []int) string {
	switch len(pairs) {
	case 0:
		return ""
	case 1:
		return fmt.Sprintf(" (pair %d)", pairs[0])
	}
	if pairs[len(pairs)-1]-pairs[0] == len(pairs)-1 {
		return fmt.Sprintf(" (pairs %d to %d)", pairs[0], pairs[len(pairs)-1])
	}
	return fmt.Sprintf(" (pairs %d … %d)", pairs[0], pairs[len(pairs)-1])
}

// RelativeError returns the largest |⟨R_m q, R_n k⟩ − ⟨R_{m+t} q, R_{n+t} k⟩|
// over a fixed random query and key and a few positions and shifts up to
// the target length, under c's scaling: 0 up to rounding for every static
// scaling, since each only changes the frequencies.
func RelativeError(c Config) (float64, error) {
	m, err := method(c.Method)
	if err != nil {
		return 0, err
	}
	if m.HeadDim != 0 {
		c.HeadDim = m.HeadDim
	}
	r := posenc.NewRoPE(c.HeadDim).WithBase(c.Base).WithScaling(m.Scaling(c))
	rng := rand.New(rand.NewPCG(4, 23))
	q, k := make([]float64, c.HeadDim), make([]float64, c.HeadDim)
	for i := range q {
		q[i], k[i] = rng.NormFloat64(), rng.NormFloat64()
	}
	rq, rk := make([]float64, c.HeadDim), make([]float64, c.HeadDim)
	score := func(m, n int) (float64, error) {
		if err := posenc.RotateTo(rq, q, r, m); err != nil {
			return 0, err
		}
		if err := posenc.RotateTo(rk, k, r, n); err != nil {
			return 0, err
		}
		sum := 0.0
		for i := range rq {
			sum += rq[i] * rk[i]
		}
		return sum, nil
	}
	L := c.TrainLen
	worst := 0.0
	for _, p := range [][3]int{{5, 2, 1}, {3, 40, 1000}, {L - 1, 0, L}, {L / 2, L / 3, c.Target() - L}} {
		a, err := score(p[0], p[1])
		if err != nil {
			return 0, err
		}
		b, err := score(p[0]+p[2], p[1]+p[2])
		if err != nil {
			return 0, err
		}
		worst = math.Max(worst, math.Abs(a-b))
	}
	return worst, nil
}
