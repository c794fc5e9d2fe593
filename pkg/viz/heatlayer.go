package viz

import (
	"fmt"
	"image"
	"image/color"
	stddraw "image/draw"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// heatLayer draws a heatmap's cells: as gonum's vector cells by default,
// or, once its figure is Rasterized, as one image sampled per pixel.
type heatLayer struct {
	hm     *plotter.HeatMap
	g      grid
	raster bool
	marks  []mark
}

// mark is a ringed cell of a heatmap, with a short label beside it.
type mark struct {
	row, col int
	label    string
}

// Plot implements plot.Plotter.
func (l *heatLayer) Plot(c draw.Canvas, plt *plot.Plot) {
	if l.raster {
		l.plotRaster(c, plt)
	} else {
		l.hm.Plot(c, plt)
	}
}

// DataRange implements plot.DataRanger.
func (l *heatLayer) DataRange() (xmin, xmax, ymin, ymax float64) { return l.hm.DataRange() }

// GlyphBoxes implements plot.GlyphBoxer: the boxes of the four corner cells
// of gonum's heat map, which gives the same 10-point box around every cell
// centre. gonum pads a plot by its left-, right-, top- and bottom-most
// boxes only, so the corners lay the plot out exactly as all the cells do,
// without building 51,200 boxes for a large matrix (which cost more than
// drawing it rasterized).
func (l *heatLayer) GlyphBoxes(plt *plot.Plot) []plot.GlyphBox {
	all := l.hm.GlyphBoxes // one box per cell, column by column
	c, r := l.hm.GridXYZ.Dims()
	if c*r <= 4 {
		return all(plt)
	}
	box := func(i, j int) plot.GlyphBox {
		return plot.GlyphBox{
			X:         plt.X.Norm(l.hm.GridXYZ.X(i)),
			Y:         plt.Y.Norm(l.hm.GridXYZ.Y(j)),
			Rectangle: vg.Rectangle{Min: vg.Point{X: -5, Y: -5}, Max: vg.Point{X: 5, Y: 5}},
		}
	}
	return []plot.GlyphBox{box(0, 0), box(0, r-1), box(c-1, 0), box(c-1, r-1)}
}

// plotRaster draws the cells as an image with one pixel per device pixel,
// each taking the colour of the cell under its centre (nearest neighbour):
// exact at any size, unlike gonum's Rasterized heat map, whose one pixel per
// cell is stretched with bilinear smoothing, and far faster than vector
// cells for a large matrix (51,200 cells for a 100-position, 512-wide
// sinusoidal table). On a vector canvas the image has one pixel per cell.
func (l *heatLayer) plotRaster(c draw.Canvas, plt *plot.Plot) {
	trX, trY := plt.Transforms(&c)
	xmin, xmax, ymin, ymax := l.hm.DataRange()
	x0, x1, y0, y1 := trX(xmin), trX(xmax), trY(ymin), trY(ymax)
	// The device under gonum's nested canvases (plots crop and pad theirs).
	dev := c.Canvas
	for {
		inner, ok := dev.(draw.Canvas)
		if !ok {
			break
		}
		dev = inner.Canvas
	}
	dpi := 72.0 // a canvas in points (SVG, PDF) without a DPI of its own
	if d, ok := dev.(interface{ DPI() float64 }); ok {
		dpi = d.DPI()
	}
	w, h := int(math.Round((x1 - x0).Dots(dpi))), int(math.Round((y1 - y0).Dots(dpi)))
	if w <= 0 || h <= 0 {
		return
	}
	rc, raster := dev.(interface{ Image() stddraw.Image })
	if !raster {
		// A vector canvas (SVG) gets one pixel per cell, which the figure's
		// SVG asks the viewer to scale without smoothing: small, and exact.
		w, h = l.g.cols, l.g.rows
	}
	pal := l.hm.Palette.Colors()
	ps := float64(len(pal)-1) / (l.hm.Max - l.hm.Min)
	colorOf := func(v float64) color.Color {
		switch {
		case math.IsInf(v, 0):
			return maskColor // in the image: infCells draws nothing over a raster
		case math.IsNaN(v) || math.IsInf(ps, 0):
			return l.hm.NaN
		case v < l.hm.Min:
			return l.hm.Underflow
		case v > l.hm.Max:
			return l.hm.Overflow
		}
		return pal[int((v-l.hm.Min)*ps+0.5)]
	}
	// One colour per cell, then rows of pixels copied from them.
	rows, cols := l.g.rows, l.g.cols
	cell := make([]color.RGBA, rows*cols)
	for i, v := range l.g.data {
		if col := colorOf(v); col != nil {
			cell[i] = color.RGBAModel.Convert(col).(color.RGBA)
		}
	}
	colOf := make([]int, w)
	for px := range w {
		colOf[px] = min(int((float64(px)+0.5)/float64(w)*float64(cols)), cols-1)
	}
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for py := range h { // py = 0 is the top: data row 0
		row := min(int((float64(py)+0.5)/float64(h)*float64(rows)), rows-1)
		line := img.Pix[py*img.Stride : py*img.Stride+4*w]
		for px, col := range colOf {
			k := cell[row*cols+col]
			line[4*px], line[4*px+1], line[4*px+2], line[4*px+3] = k.R, k.G, k.B, k.A
		}
	}
	// On a raster canvas, copy the pixels in place: its DrawImage would
	// resample them through an affine transform even at scale 1.
	if raster {
		dst := rc.Image()
		left := int(math.Round(x0.Dots(dpi)))
		top := dst.Bounds().Dy() - int(math.Round(y1.Dots(dpi)))
		stddraw.Draw(dst, image.Rect(left, top, left+w, top+h), img, image.Point{}, stddraw.Over)
		return
	}
	c.DrawImage(vg.Rectangle{Min: vg.Point{X: x0, Y: y0}, Max: vg.Point{X: x1, Y: y1}}, img)
}

// markLayer draws a heatmap's marks over its cells.
type markLayer struct{ l *heatLayer }

// Plot implements plot.Plotter.
func (m markLayer) Plot(c draw.Canvas, plt *plot.Plot) {
	trX, trY := plt.Transforms(&c)
	font := plt.X.Tick.Label.Font
	font.Size = vg.Points(9)
	sty := draw.TextStyle{Color: color.Black, Font: font, Handler: plt.X.Tick.Label.Handler, XAlign: draw.XLeft, YAlign: draw.YCenter}
	halo := sty
	halo.Color = color.White
	for _, k := range m.l.marks {
		p := vg.Point{X: trX(float64(k.col)), Y: trY(float64(m.l.g.rows - 1 - k.row))}
		c.DrawGlyph(draw.GlyphStyle{Color: color.White, Radius: vg.Points(5.5), Shape: ringShape{vg.Points(3.5)}}, p)
		c.DrawGlyph(draw.GlyphStyle{Color: color.Black, Radius: vg.Points(5.5), Shape: ringShape{vg.Points(1.5)}}, p)
		if k.label != "" {
			at := vg.Point{X: p.X + vg.Points(8), Y: p.Y}
			for _, d := range []vg.Point{{X: -1, Y: 0}, {X: 1, Y: 0}, {X: 0, Y: -1}, {X: 0, Y: 1}} {
				c.FillText(halo, at.Add(d), k.label)
			}
			c.FillText(sty, at, k.label)
		}
	}
}

// ringShape is a ring of the given line width.
type ringShape struct{ width vg.Length }

// DrawGlyph implements draw.GlyphDrawer.
func (r ringShape) DrawGlyph(c *draw.Canvas, sty draw.GlyphStyle, pt vg.Point) {
	c.SetLineStyle(draw.LineStyle{Color: sty.Color, Width: r.width})
	var p vg.Path
	p.Move(vg.Point{X: pt.X + sty.Radius, Y: pt.Y})
	p.Arc(pt, sty.Radius, 0, 2*math.Pi)
	p.Close()
	c.Stroke(p)
}

// Rasterize makes f's heatmaps (f's own, or its panels') draw their cells as
// one image sampled per device pixel instead of one rectangle per cell:
// the same picture when cells span several pixels, drawn in a fraction of
// the time for large matrices, as a figure redrawn while a learner moves a
// slider needs. It returns f.
func (f *Figure) Rasterize() *Figure {
	if f.heat != nil {
		f.heat.raster = true
	}
	for _, p := range f.panels {
		p.Rasterize()
	}
	return f
}

// Mark rings the cell (row, col) of a heatmap figure (row 0 at the top, as
// drawn) and writes label beside it ("" for none). It returns f, and
// panics when f is not a heatmap or the cell is outside it: programming
// errors.
func (f *Figure) Mark(row, col int, label string) *Figure {
	if f.heat == nil {
		panic("viz.Mark: the figure is not a heatmap")
	}
	if row < 0 || row >= f.heat.g.rows || col < 0 || col >= f.heat.g.cols {
		panic(fmt.Sprintf("viz.Mark: cell (%d, %d) is outside the %d×%d heatmap", row, col, f.heat.g.rows, f.heat.g.cols))
	}
	if len(f.heat.marks) == 0 {
		f.plot.Add(markLayer{f.heat})
	}
	f.heat.marks = append(f.heat.marks, mark{row, col, label})
	return f
}
