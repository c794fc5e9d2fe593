package viz

import (
	"fmt"

	"gonum.org/v1/plot/palette"
	"gonum.org/v1/plot/plotter"
)

// HeatmapRange is Heatmap with a fixed colour range [lo, hi], for heatmaps
// that are meant to be compared (two similarity matrices on one scale, say):
// Heatmap fits its scale to each matrix, so equal colours in two of its
// figures need not mean equal values. The scale is the diverging blue–red
// one when lo < 0 < hi, with its white midpoint at (lo+hi)/2 (pass a range
// symmetric about 0 to centre it there), and viridis otherwise. Values
// outside [lo, hi] take the colour of the nearer end; NaN cells are left
// blank and ±Inf cells are grey, as in Heatmap. It panics when lo and hi are not finite with
// lo < hi, or when len(data) != rows·cols: programming errors.
func HeatmapRange(data []float64, rows, cols int, lo, hi float64, title, xLabel, yLabel string) *Figure {
	if rows <= 0 || cols <= 0 || len(data) != rows*cols {
		panic(fmt.Sprintf("viz.HeatmapRange: len(data) must equal rows×cols > 0, got %d for %d×%d", len(data), rows, cols))
	}
	g := grid{data: data, rows: rows, cols: cols}
	hm, cm := rangeHeatMap(g, lo, hi)
	return heatmapFigure(g, hm, cm, title, xLabel, yLabel)
}

// rangeHeatMap returns the heat map plotter of g over the fixed range
// [lo, hi], clamping values outside it to the end colours, and its colour
// map (for the colour bar).
func rangeHeatMap(g plotter.GridXYZ, lo, hi float64) (*plotter.HeatMap, palette.ColorMap) {
	if !(isFinite(lo) && isFinite(hi) && lo < hi) {
		panic(fmt.Sprintf("viz.HeatmapRange: the range must be finite with lo < hi, got [%g, %g]", lo, hi))
	}
	return heatMap(g, lo, hi, true)
}
