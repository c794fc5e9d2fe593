package viz

import (
	"image/color"
	"math"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/palette"
	"gonum.org/v1/plot/palette/moreland"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// grid adapts a row-major matrix to plotter.GridXYZ, with row 0 drawn at
// the top, as matrices are printed. ±Inf cells read as NaN, left to
// infCells to draw.
type grid struct {
	data       []float64
	rows, cols int
}

func (g grid) Dims() (c, r int) { return g.cols, g.rows }
func (g grid) Z(c, r int) float64 {
	// ±Inf (a causal mask) is not an end colour: infCells draws it.
	if v := g.data[(g.rows-1-r)*g.cols+c]; !math.IsInf(v, 0) {
		return v
	}
	return math.NaN()
}
func (g grid) X(c int) float64 { return float64(c) }
func (g grid) Y(r int) float64 { return float64(r) }

// flippedTicks labels a vertical axis whose coordinate y shows row rows−1−y.
type flippedTicks struct{ rows int }

func (t flippedTicks) Ticks(min, max float64) []plot.Tick {
	// Choose ticks in row numbers, then place each at its drawn coordinate.
	top := float64(t.rows - 1)
	lo, hi := math.Max(top-max, 0), math.Min(top-min, top)
	if lo >= hi { // one row in view: DefaultTicks needs a range
		r := math.Round(lo)
		return []plot.Tick{{Value: top - r, Label: strconv.FormatFloat(r, 'g', -1, 64)}}
	}
	ticks := plainTicks{}.Ticks(lo, hi)
	for i := range ticks {
		ticks[i].Value = top - ticks[i].Value
	}
	return ticks
}

// Heatmap draws data, a row-major rows×cols matrix, as a grid of colours
// with row 0 at the top and a colour bar on the right. Values with both
// signs use a diverging blue–white–red scale centred on 0 (Moreland's);
// one-signed values use viridis, dark to light. NaN cells are left blank;
// ±Inf cells (a causal mask, say) are grey, and the colour bar says so.
// It panics if len(data) != rows·cols or a size is not positive: a
// programming error.
func Heatmap(data []float64, rows, cols int, title, xLabel, yLabel string) *Figure {
	if rows <= 0 || cols <= 0 || len(data) != rows*cols {
		panic("viz.Heatmap: len(data) must equal rows×cols > 0, got " +
			strconv.Itoa(len(data)) + " for " + strconv.Itoa(rows) + "×" + strconv.Itoa(cols))
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, v := range data {
		if !math.IsNaN(v) && !math.IsInf(v, 0) {
			lo, hi = math.Min(lo, v), math.Max(hi, v)
		}
	}
	if lo > hi { // nothing finite
		lo, hi = 0, 1
	}
	if lo < 0 && hi > 0 { // centre the diverging scale on 0
		m := math.Max(-lo, hi)
		lo, hi = -m, m
	}
	if lo == hi {
		hi = lo + 1
	}
	g := grid{data: data, rows: rows, cols: cols}
	hm, cm := heatMap(g, lo, hi, false)
	return heatmapFigure(g, hm, cm, title, xLabel, yLabel)
}

// heatMap returns the heat map plotter of g over [lo, hi] and its colour
// map: diverging blue–red when lo < 0 < hi, viridis otherwise. With
// clamp, values outside the range take the colour of the nearer end;
// without, they are left blank (Heatmap's range holds every finite value).
func heatMap(g plotter.GridXYZ, lo, hi float64, clamp bool) (*plotter.HeatMap, palette.ColorMap) {
	var cm palette.ColorMap
	if lo < 0 && hi > 0 {
		cm = moreland.SmoothBlueRed()
	} else {
		cm = Viridis()
	}
	cm.SetMin(lo)
	cm.SetMax(hi)
	pal := cm.Palette(255)
	hm := plotter.NewHeatMap(g, pal)
	hm.Min, hm.Max = lo, hi
	hm.NaN = color.Transparent
	if clamp {
		colors := pal.Colors()
		hm.Underflow, hm.Overflow = colors[0], colors[len(colors)-1]
	}
	return hm, cm
}

// heatmapFigure draws hm, the heat map of g, with row 0 at the top, its
// ±Inf cells in grey, and cm as a colour bar.
func heatmapFigure(g grid, hm *plotter.HeatMap, cm palette.ColorMap, title, xLabel, yLabel string) *Figure {
	f := newFigure(title, xLabel, yLabel)
	f.heat = &heatLayer{hm: hm, g: g}
	f.plot.Add(f.heat)
	inf := infCells{g, f.heat}
	hasInf := inf.count() > 0
	if hasInf {
		f.plot.Add(inf)
	}
	f.plot.Y.Tick.Marker = flippedTicks{rows: g.rows}
	f.plot.X.Min, f.plot.X.Max = -0.5, float64(g.cols)-0.5
	f.plot.Y.Min, f.plot.Y.Max = -0.5, float64(g.rows)-0.5

	bar := plot.New()
	bar.HideX()
	bar.Y.Padding = 0
	bar.Title.Text = " "
	if hasInf {
		bar.Title.Text = "grey: " + inf.label()
		bar.Title.TextStyle.Font.Size = vg.Points(9)
	}
	bar.Add(&plotter.ColorBar{ColorMap: cm, Vertical: true})
	f.bar = bar
	return f
}

// infCells draws the ±Inf cells of a grid in maskColor, unless the heat
// layer is rasterized (its image has them).
type infCells struct {
	g     grid
	layer *heatLayer
}

func (p infCells) count() int {
	n := 0
	for _, v := range p.g.data {
		if math.IsInf(v, 0) {
			n++
		}
	}
	return n
}

// label names the infinities present: "−∞", "+∞" or "±∞".
func (p infCells) label() string {
	neg, pos := false, false
	for _, v := range p.g.data {
		neg = neg || math.IsInf(v, -1)
		pos = pos || math.IsInf(v, 1)
	}
	switch {
	case neg && pos:
		return "±∞"
	case pos:
		return "+∞"
	}
	return "−∞"
}

// Plot implements plot.Plotter.
func (p infCells) Plot(c draw.Canvas, plt *plot.Plot) {
	if p.layer != nil && p.layer.raster {
		return
	}
	trX, trY := plt.Transforms(&c)
	for i, v := range p.g.data {
		if !math.IsInf(v, 0) {
			continue
		}
		col, row := float64(i%p.g.cols), float64(p.g.rows-1-i/p.g.cols)
		x0, x1 := trX(col-0.5), trX(col+0.5)
		y0, y1 := trY(row-0.5), trY(row+0.5)
		c.FillPolygon(maskColor, c.ClipPolygonXY([]vg.Point{{X: x0, Y: y0}, {X: x1, Y: y0}, {X: x1, Y: y1}, {X: x0, Y: y1}}))
	}
}
