package bandview

import (
	"fmt"
	"image/color"
	"math"

	"github.com/posenc/course/pkg/viz"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// regimeColor is the colour of each Regime's markers (Okabe–Ito): green for
// kept, orange for blended, blue for interpolated, vermillion for beyond.
var regimeColor = map[Regime]color.Color{
	Kept:         viz.OkabeIto[2],
	Blended:      viz.OkabeIto[4],
	Interpolated: viz.OkabeIto[0],
	Beyond:       viz.OkabeIto[1],
}

// Figure draws every pair's wavelength, unscaled (a grey dashed line) and
// scaled (a marker coloured by its regime; without scaling, by whether it
// turns at least once in L), on a log scale, against the
// training length L and the target s·L. Shaded stripes mark the
// wavelengths YaRN and Llama 3 treat alike or differently: both keep a pair
// whose wavelength is below L/32, YaRN blends and Llama 3 keeps between
// L/32 and L/4, both blend between L/4 and L, and both interpolate above L.
func (b *Bands) Figure() *viz.Figure {
	p := plot.New()
	p.Title.Text = fmt.Sprintf("%s, s = %g (d = %d, base %g, L = %d)", b.Method, b.Factor, b.HeadDim, b.Base, b.TrainLen)
	p.Title.TextStyle.Font.Size = vg.Points(11)
	p.X.Label.Text = "pair i"
	p.Y.Label.Text = "wavelength 2π/ω (tokens, log scale)"
	L := float64(b.TrainLen)
	p.Add(stripes{
		{L / 32, L / 4, color.NRGBA{0xE6, 0x9F, 0x00, 0x1A}, "YaRN blends, Llama 3 keeps"},
		{L / 4, L, color.NRGBA{0xE6, 0x9F, 0x00, 0x40}, "YaRN and Llama 3 blend"},
		{L, math.Inf(1), color.NRGBA{0x00, 0x72, 0xB2, 0x26}, "YaRN and Llama 3 interpolate"},
	})
	p.Add(plotter.NewGrid())

	legend := plot.NewLegend()
	legend.Top, legend.Left = true, true
	legend.Padding = vg.Points(2)
	pairs := viz.Range(len(b.Wavelength))
	last := pairs[len(pairs)-1]
	line := func(xs, ys []float64, c color.Color, dashes []vg.Length, width float64, name string) {
		pts := make(plotter.XYs, len(xs))
		for i := range xs {
			pts[i] = plotter.XY{X: xs[i], Y: ys[i]}
		}
		l, err := plotter.NewLine(pts)
		if err != nil {
			panic(fmt.Sprintf("bandview: %v", err)) // finite by construction
		}
		l.Color, l.Dashes, l.Width = c, dashes, vg.Points(width)
		p.Add(l)
		legend.Add(name, l)
	}
	line([]float64{0, last}, []float64{L, L}, color.Black, nil, 1.5, fmt.Sprintf("training length L = %d", b.TrainLen))
	if b.Factor > 1 {
		line([]float64{0, last}, []float64{float64(b.Target()), float64(b.Target())}, color.Black,
			[]vg.Length{vg.Points(5), vg.Points(3)}, 1, fmt.Sprintf("target s·L = %d", b.Target()))
	}
	line(pairs, b.Wavelength, color.Gray{0x80}, []vg.Length{vg.Points(3), vg.Points(2)}, 1.2, "unscaled")
	dots := func(name string, c color.Color, in func(i int) bool) {
		var pts plotter.XYs
		for i := range b.Scaled {
			if in(i) {
				pts = append(pts, plotter.XY{X: float64(i), Y: b.Scaled[i]})
			}
		}
		if len(pts) == 0 {
			return // only the groups present get a legend entry
		}
		sc, err := plotter.NewScatter(pts)
		if err != nil {
			panic(fmt.Sprintf("bandview: %v", err))
		}
		sc.Color, sc.Shape, sc.Radius = c, draw.CircleGlyph{}, vg.Points(2.6)
		p.Add(sc)
		legend.Add(fmt.Sprintf("%s: %d", name, len(pts)), sc)
	}
	if b.Count(Kept) == len(b.Regime) {
		// Nothing scaled: what matters is which pairs a training
		// sequence turns at least once.
		dots("turn once or more in L", regimeColor[Kept], func(i int) bool { return b.Wavelength[i] <= L })
		dots("turn less than once in L", regimeColor[Beyond], func(i int) bool { return b.Wavelength[i] > L })
	} else {
		for _, r := range regimes {
			dots(r.String(), regimeColor[r], func(i int) bool { return b.Regime[i] == r })
		}
	}
	return viz.FromPlot(p, &legend).LogY().WithSize(17, 10)
}

// stripe is a horizontal band of wavelengths, shaded under the data.
type stripe struct {
	lo, hi float64 // hi may be +Inf: up to the top of the plot
	fill   color.Color
	label  string
}

// stripes draws its bands across the whole data area, each labelled at its
// left end (the top left of the plot, which the pairs leave empty: short
// wavelengths come first).
type stripes []stripe

// Plot implements plot.Plotter.
func (s stripes) Plot(c draw.Canvas, plt *plot.Plot) {
	_, trY := plt.Transforms(&c)
	sty := draw.TextStyle{Color: color.Gray{0x55}, Font: plt.X.Label.TextStyle.Font, XAlign: draw.XLeft, YAlign: draw.YCenter}
	sty.Font.Size = vg.Points(8)
	sty.Handler = plt.X.Label.TextStyle.Handler
	for _, st := range s {
		y0, y1 := c.Min.Y, c.Max.Y
		if st.lo > plt.Y.Min {
			y0 = trY(st.lo)
		}
		if st.hi < plt.Y.Max {
			y1 = trY(st.hi)
		}
		y0, y1 = max(y0, c.Min.Y), min(y1, c.Max.Y)
		if y1 <= y0 {
			continue
		}
		c.FillPolygon(st.fill, []vg.Point{{X: c.Min.X, Y: y0}, {X: c.Max.X, Y: y0}, {X: c.Max.X, Y: y1}, {X: c.Min.X, Y: y1}})
		if y1-y0 > sty.Height(st.label) {
			c.FillText(sty, vg.Point{X: c.Min.X + vg.Points(4), Y: (y0 + y1) / 2}, st.label)
		}
	}
}
