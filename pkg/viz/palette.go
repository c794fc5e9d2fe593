package viz

import (
	"fmt"
	"image/color"
	"math"

	"gonum.org/v1/plot/palette"
)

// OkabeIto is the categorical palette of Okabe and Ito, "Color Universal
// Design" (2002, https://jfly.uni-koeln.de/color/): eight colours that stay
// distinct under the common forms of colour blindness. Lines takes them in
// this order, the strongest contrasts on white first; yellow, faint on
// white, comes last but one, and black last.
var OkabeIto = []color.Color{
	color.NRGBA{0x00, 0x72, 0xB2, 0xFF}, // blue
	color.NRGBA{0xD5, 0x5E, 0x00, 0xFF}, // vermillion
	color.NRGBA{0x00, 0x9E, 0x73, 0xFF}, // bluish green
	color.NRGBA{0xCC, 0x79, 0xA7, 0xFF}, // reddish purple
	color.NRGBA{0xE6, 0x9F, 0x00, 0xFF}, // orange
	color.NRGBA{0x56, 0xB4, 0xE9, 0xFF}, // sky blue
	color.NRGBA{0xF0, 0xE4, 0x42, 0xFF}, // yellow
	color.NRGBA{0x00, 0x00, 0x00, 0xFF}, // black
}

// SeriesColor returns the colour of the i-th series of a chart: OkabeIto,
// repeated (series past the eighth also differ by marker or dash).
func SeriesColor(i int) color.Color {
	return OkabeIto[((i%len(OkabeIto))+len(OkabeIto))%len(OkabeIto)]
}

// maskColor is the colour of ±Inf cells in a heatmap (a causal mask, −∞):
// a neutral grey, unlike any colour of the colour maps, and unlike NaN
// cells, which are left blank.
var maskColor = color.NRGBA{0xBD, 0xBD, 0xBD, 0xFF}

// viridisStops are matplotlib's viridis colour map (van der Walt and Smith,
// 2015) at 0, 1/8, …, 1: dark blue-violet to yellow, its lightness rising
// evenly, readable in grey and by colour-blind readers.
var viridisStops = []color.NRGBA{
	{0x44, 0x01, 0x54, 0xFF},
	{0x47, 0x2D, 0x7B, 0xFF},
	{0x3B, 0x52, 0x8B, 0xFF},
	{0x2C, 0x72, 0x8E, 0xFF},
	{0x21, 0x91, 0x8C, 0xFF},
	{0x28, 0xAE, 0x80, 0xFF},
	{0x5E, 0xC9, 0x62, 0xFF},
	{0xAD, 0xDC, 0x30, 0xFF},
	{0xFD, 0xE7, 0x25, 0xFF},
}

// viridis is a palette.ColorMap interpolating viridisStops linearly.
type viridis struct {
	min, max, alpha float64
}

// Viridis returns the viridis colour map over [0, 1]: perceptually uniform
// and sequential, for heatmaps of one-signed values. SetMin and SetMax
// change its range.
func Viridis() palette.ColorMap { return &viridis{min: 0, max: 1, alpha: 1} }

func (v *viridis) At(x float64) (color.Color, error) {
	if !(v.min < v.max) {
		return nil, fmt.Errorf("viz: viridis range [%g, %g] is empty", v.min, v.max)
	}
	switch {
	case math.IsNaN(x):
		return nil, palette.ErrNaN
	case x < v.min:
		return nil, palette.ErrUnderflow
	case x > v.max:
		return nil, palette.ErrOverflow
	}
	t := (x - v.min) / (v.max - v.min) * float64(len(viridisStops)-1)
	i := min(int(t), len(viridisStops)-2)
	f := t - float64(i)
	a, b := viridisStops[i], viridisStops[i+1]
	mix := func(p, q uint8) uint8 { return uint8(math.Round(float64(p) + f*(float64(q)-float64(p)))) }
	return color.NRGBA{mix(a.R, b.R), mix(a.G, b.G), mix(a.B, b.B), uint8(math.Round(255 * v.alpha))}, nil
}

func (v *viridis) Max() float64     { return v.max }
func (v *viridis) SetMax(x float64) { v.max = x }
func (v *viridis) Min() float64     { return v.min }
func (v *viridis) SetMin(x float64) { v.min = x }
func (v *viridis) Alpha() float64   { return v.alpha }
func (v *viridis) SetAlpha(a float64) {
	if !(a >= 0 && a <= 1) {
		panic(fmt.Sprintf("viz: alpha must be in [0, 1], got %g", a))
	}
	v.alpha = a
}

// Palette returns n colours evenly spaced over the map.
func (v *viridis) Palette(n int) palette.Palette {
	cs := make([]color.Color, n)
	for i := range cs {
		x := v.min
		if n > 1 {
			x += (v.max - v.min) * float64(i) / float64(n-1)
		}
		cs[i], _ = v.At(x)
	}
	return plainPalette(cs)
}

type plainPalette []color.Color

func (p plainPalette) Colors() []color.Color { return p }
