package viz

import (
	"fmt"
	"image/color"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/palette"
	"gonum.org/v1/plot/palette/moreland"
	"gonum.org/v1/plot/plotter"
)

// HeatmapRange is Heatmap with a fixed colour range [lo, hi], for heatmaps
// that are meant to be compared (two similarity matrices on one scale, say):
// Heatmap fits its scale to each matrix, so equal colours in two of its
// figures need not mean equal values. The scale is the diverging blue–red
// one when lo < 0 < hi, with its white midpoint at (lo+hi)/2 (pass a range
// symmetric about 0 to centre it there), and the sequential one otherwise.
// Values outside [lo, hi] take the colour of the nearer end; NaN and ±Inf
// cells are left blank. It panics when lo and hi are not finite with
// lo < hi, or when len(data) != rows·cols: programming errors.
func HeatmapRange(data []float64, rows, cols int, lo, hi float64, title, xLabel, yLabel string) *Figure {
	if rows <= 0 || cols <= 0 || len(data) != rows*cols {
		panic(fmt.Sprintf("viz.HeatmapRange: len(data) must equal rows×cols > 0, got %d for %d×%d", len(data), rows, cols))
	}
	hm, cm := rangeHeatMap(grid{data: data, rows: rows, cols: cols}, lo, hi)
	f := newFigure(title, xLabel, yLabel)
	f.plot.Add(hm)
	f.plot.Y.Tick.Marker = flippedTicks{rows: rows}
	f.plot.X.Min, f.plot.X.Max = -0.5, float64(cols)-0.5
	f.plot.Y.Min, f.plot.Y.Max = -0.5, float64(rows)-0.5

	bar := plot.New()
	bar.HideX()
	bar.Y.Padding = 0
	bar.Title.Text = " "
	bar.Add(&plotter.ColorBar{ColorMap: cm, Vertical: true})
	f.bar = bar
	return f
}

// rangeHeatMap returns the heat map plotter of g over the fixed range
// [lo, hi], clamping values outside it to the end colours, and its colour
// map (for the colour bar).
func rangeHeatMap(g plotter.GridXYZ, lo, hi float64) (*plotter.HeatMap, palette.ColorMap) {
	if !(isFinite(lo) && isFinite(hi) && lo < hi) {
		panic(fmt.Sprintf("viz.HeatmapRange: the range must be finite with lo < hi, got [%g, %g]", lo, hi))
	}
	var cm palette.ColorMap
	if lo < 0 && hi > 0 {
		cm = moreland.SmoothBlueRed()
	} else {
		cm = moreland.ExtendedKindlmann()
	}
	cm.SetMin(lo)
	cm.SetMax(hi)
	pal := cm.Palette(255)
	hm := plotter.NewHeatMap(g, pal)
	hm.Min, hm.Max = lo, hi
	colors := pal.Colors()
	hm.Underflow, hm.Overflow = colors[0], colors[len(colors)-1]
	hm.NaN = color.Transparent
	return hm, cm
}
