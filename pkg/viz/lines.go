package viz

import (
	"fmt"
	"image/color"
	"math"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Series is one line of a line chart: Y[i] at X[i]. Points draws markers
// instead of a line; Dashed draws a dashed line.
type Series struct {
	Name   string
	X, Y   []float64
	Points bool
	Dashed bool
	// Lo and Hi, when set (as long as Y), draw a vertical bar from Lo[j]
	// to Hi[j] at each point: the spread over seeds, or an interval.
	Lo, Hi []float64
	// Color, when set, is the series' colour wherever it is drawn, instead
	// of the colour of its place in the chart (SeriesColor): a chart that
	// shows a thing in several figures keeps its colour. Marker, when
	// positive, draws glyph plotutil.Shape(Marker−1) at each point of a
	// line too (with Points, it picks the glyph).
	Color  color.Color
	Marker int
}

// Range returns 0, 1, …, n−1 as float64: the X of a series indexed by
// position or dimension.
func Range(n int) []float64 {
	x := make([]float64, max(n, 0))
	for i := range x {
		x[i] = float64(i)
	}
	return x
}

// Lines draws each series as a line (or points), in the colours of
// OkabeIto, with a legend beside the data (below it when the names are
// long) when there are two series or more and at least one has a name;
// the legend lists the named ones. Names, like the title and labels, write
// "_i" as a subscript where the font has one. It panics when a series' X
// and Y differ in length: a programming error. Non-finite points are
// skipped.
func Lines(title, xLabel, yLabel string, series ...Series) *Figure {
	f := newFigure(title, xLabel, yLabel)
	legend := plot.NewLegend()
	legend.Top, legend.Left = true, true
	legend.Padding = vg.Points(2)
	named := 0
	for i, s := range series {
		if len(s.X) != len(s.Y) {
			panic(fmt.Sprintf("viz.Lines: series %q has %d X and %d Y values", s.Name, len(s.X), len(s.Y)))
		}
		pts := make(plotter.XYs, 0, len(s.X))
		for j := range s.X {
			if isFinite(s.X[j]) && isFinite(s.Y[j]) {
				pts = append(pts, plotter.XY{X: s.X[j], Y: s.Y[j]})
			}
		}
		col := SeriesColor(i)
		if s.Color != nil {
			col = s.Color
		}
		shape := plotutil.Shape(i)
		if s.Marker > 0 {
			shape = plotutil.Shape(s.Marker - 1)
		}
		if s.Lo != nil || s.Hi != nil {
			if len(s.Lo) != len(s.Y) || len(s.Hi) != len(s.Y) {
				panic(fmt.Sprintf("viz.Lines: series %q has %d Y, %d Lo and %d Hi values", s.Name, len(s.Y), len(s.Lo), len(s.Hi)))
			}
			f.plot.Add(errorBars(s, col))
		}
		var thumb plot.Thumbnailer
		if s.Points {
			sc, err := plotter.NewScatter(pts)
			if err != nil {
				panic(fmt.Sprintf("viz.Lines: series %q: %v", s.Name, err))
			}
			sc.Color = col
			sc.Shape = shape
			sc.Radius = vg.Points(2.5)
			f.plot.Add(sc)
			thumb = sc
		} else {
			ln, err := plotter.NewLine(pts)
			if err != nil {
				panic(fmt.Sprintf("viz.Lines: series %q: %v", s.Name, err))
			}
			ln.Color = col
			ln.Width = vg.Points(1.5)
			if s.Dashed {
				ln.Dashes = []vg.Length{vg.Points(5), vg.Points(3)}
			}
			f.plot.Add(ln)
			thumb = ln
			if s.Marker > 0 {
				sc, err := plotter.NewScatter(pts)
				if err != nil {
					panic(fmt.Sprintf("viz.Lines: series %q: %v", s.Name, err))
				}
				sc.Color, sc.Shape, sc.Radius = col, shape, vg.Points(2.5)
				f.plot.Add(sc)
				thumb = lineAndGlyph{ln, sc}
			}
		}
		if s.Name != "" {
			named++
			legend.Add(Subscripts(s.Name), thumb)
		}
	}
	if named > 0 && len(series) > 1 {
		f.legend = &legend
	}
	f.plot.Add(plotter.NewGrid())
	return f
}

// LogY switches the vertical axis to a logarithmic scale (all Y must be
// positive) and returns f.
//
// The axis label is then drawn by the figure: gonum places a centred
// vertical label at the data midpoint (min+max)/2, which a log scale puts
// near the top, and a long label then pushes the whole plot down.
func (f *Figure) LogY() *Figure {
	f.plot.Y.Scale = plot.LogScale{}
	f.plot.Y.Tick.Marker = decadeTicks{}
	if f.yLabel == "" {
		f.yLabel, f.plot.Y.Label.Text = f.plot.Y.Label.Text, ""
	}
	return f
}

// LogX switches the horizontal axis to a logarithmic scale and returns f.
func (f *Figure) LogX() *Figure {
	f.plot.X.Scale = plot.LogScale{}
	f.plot.X.Tick.Marker = decadeTicks{}
	return f
}

// errorBars returns the bars from Lo to Hi of s, in colour col.
func errorBars(s Series, col color.Color) *plotter.YErrorBars {
	var pts plotter.XYs
	var errs plotter.YErrors
	for j := range s.X {
		if isFinite(s.X[j]) && isFinite(s.Y[j]) && isFinite(s.Lo[j]) && isFinite(s.Hi[j]) {
			pts = append(pts, plotter.XY{X: s.X[j], Y: s.Y[j]})
			errs = append(errs, struct{ Low, High float64 }{s.Y[j] - s.Lo[j], s.Hi[j] - s.Y[j]})
		}
	}
	bars := &plotter.YErrorBars{XYs: pts, YErrors: errs, LineStyle: plotter.DefaultLineStyle, CapWidth: vg.Points(4)}
	bars.LineStyle.Color = col
	bars.LineStyle.Width = vg.Points(1)
	return bars
}

func isFinite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

// TicksX puts the horizontal axis' ticks at values, labelled with them as
// integers where they are whole (evaluation lengths, say), and returns f.
func (f *Figure) TicksX(values ...float64) *Figure {
	ticks := make(plot.ConstantTicks, len(values))
	for i, v := range values {
		label := strconv.FormatFloat(v, 'g', 4, 64)
		if v == math.Trunc(v) && math.Abs(v) < 1e9 {
			label = strconv.FormatInt(int64(v), 10)
		}
		ticks[i] = plot.Tick{Value: v, Label: label}
	}
	f.plot.X.Tick.Marker = ticks
	return f
}

// lineAndGlyph is a legend entry showing a line and its marker.
type lineAndGlyph struct {
	line  *plotter.Line
	glyph *plotter.Scatter
}

func (t lineAndGlyph) Thumbnail(c *draw.Canvas) {
	t.line.Thumbnail(c)
	t.glyph.Thumbnail(c)
}
