// Package viz draws the course's figures with gonum/plot: heatmaps of
// position tables and bias matrices, and line charts. A Figure renders to
// PNG or SVG, saves to a file, or shows itself in a GoNB notebook.
package viz

import (
	"bytes"
	"fmt"
	"image/color"
	"image/png"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"

	"github.com/janpfeifer/gonb/gonbui"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"
)

// Default figure size, in centimetres: wide enough for a notebook column.
const (
	DefaultWidthCm  = 16
	DefaultHeightCm = 10
)

// pngDPI is the resolution of PNG output: sharp in notebooks, small on disk.
const pngDPI = 110

// Figure is one chart: a gonum plot, plus a colour bar for heatmaps and a
// legend beside or below the data for line charts; or a row of charts
// under one title (Side).
type Figure struct {
	plot   *plot.Plot
	bar    *plot.Plot   // nil unless the figure is a heatmap
	legend *plot.Legend // drawn outside the data; nil when there is none
	panels []*Figure    // the charts of a Grid figure, row by row
	heat   *heatLayer   // the cells of a heatmap; nil for other charts
	cols   int          // the Grid's columns
	// yLabel, when set, is the vertical axis's label, drawn by the figure
	// beside the plot instead of by gonum (see LogY).
	yLabel string
	// WidthCm and HeightCm are the size used by Show, PNG and SVG when
	// called with zero sizes.
	WidthCm, HeightCm float64
}

// newFigure returns a figure with one empty plot. Its title and labels
// write "_i" and "_{12}" as subscripts where the font has them (ωᵢ).
func newFigure(title, xLabel, yLabel string) *Figure {
	p := plot.New()
	p.Title.Text = Subscripts(title)
	p.X.Label.Text = Subscripts(xLabel)
	p.Y.Label.Text = Subscripts(yLabel)
	p.X.Tick.Marker, p.Y.Tick.Marker = plainTicks{}, plainTicks{}
	return &Figure{plot: p, WidthCm: DefaultWidthCm, HeightCm: DefaultHeightCm}
}

// FromPlot returns a figure drawing p, a chart built with gonum directly
// (plotters under the data, say, which Lines cannot add), and legend beside
// or below the data as Lines places its own (nil for none). Its title and
// labels are p's, as given.
func FromPlot(p *plot.Plot, legend *plot.Legend) *Figure {
	return &Figure{plot: p, legend: legend, WidthCm: DefaultWidthCm, HeightCm: DefaultHeightCm}
}

// Plot returns the underlying gonum plot, to adjust axes, legend or add
// plotters.
func (f *Figure) Plot() *plot.Plot { return f.plot }

// WithSize returns f with another default size in centimetres.
func (f *Figure) WithSize(widthCm, heightCm float64) *Figure {
	f.WidthCm, f.HeightCm = widthCm, heightCm
	return f
}

// draw renders the figure on c: a colour bar takes a narrow strip on the
// right; a legend a strip on the right when it is narrow enough, else one
// below the data; the panels of a Grid figure share the space under its
// title, in equal cells.
func (f *Figure) draw(c draw.Canvas) {
	w := c.Max.X - c.Min.X
	h := c.Max.Y - c.Min.Y
	if len(f.panels) > 0 {
		c.SetColor(color.White)
		c.Fill(c.Rectangle.Path())
		top := vg.Length(0)
		if f.plot.Title.Text != "" {
			pad := vg.Length(0.2) * vg.Centimeter
			top = f.plot.Title.TextStyle.Height(f.plot.Title.Text) + 2*pad
			c.FillText(f.plot.Title.TextStyle, vg.Point{X: c.Min.X + w/2, Y: c.Max.Y - pad}, f.plot.Title.Text)
		}
		rows := (len(f.panels) + f.cols - 1) / f.cols
		pw, ph := w/vg.Length(f.cols), (h-top)/vg.Length(rows)
		for i, p := range f.panels {
			col, row := vg.Length(i%f.cols), vg.Length(i/f.cols)
			p.draw(draw.Crop(c, pw*col, -(w - pw*(col+1)), h-top-ph*(row+1), -top-ph*row))
		}
		return
	}
	if f.yLabel != "" {
		c = f.drawYLabel(c)
		w = c.Max.X - c.Min.X
	}
	if f.legend != nil {
		pad := vg.Length(0.3) * vg.Centimeter
		r := f.legend.Rectangle(c)
		lw, lh := r.Max.X-r.Min.X+pad, r.Max.Y-r.Min.Y+pad
		if lw <= w*0.38 { // beside the data, top-aligned with it
			title := vg.Length(0)
			if f.plot.Title.Text != "" {
				title = f.plot.Title.TextStyle.Height(f.plot.Title.Text) + f.plot.Title.Padding
			}
			f.plot.Draw(draw.Crop(c, 0, -lw, 0, 0))
			f.legend.Draw(draw.Crop(c, w-lw+pad/2, 0, 0, -title-pad/2))
		} else if lh < h/2 { // below the data
			f.plot.Draw(draw.Crop(c, 0, 0, lh, 0))
			f.legend.Draw(draw.Crop(c, pad*2, 0, 0, -(h - lh)))
		} else {
			f.plot.Draw(c)
		}
		return
	}
	if f.bar == nil {
		f.plot.Draw(c)
		return
	}
	barW := vg.Length(2.6) * vg.Centimeter
	if barW > w*0.22 { // a narrow panel of a Grid
		barW = w * 0.22
	}
	gap := vg.Length(0.3) * vg.Centimeter // between the data and the bar's labels
	f.plot.Draw(draw.Crop(c, 0, -barW-gap, 0, 0))
	f.bar.Draw(draw.Crop(c, w-barW, 0, 0, 0))
}

// drawYLabel draws f.yLabel along the left edge of c, rotated and centred
// on the data area, and returns the rest of c.
func (f *Figure) drawYLabel(c draw.Canvas) draw.Canvas {
	sty := f.plot.Y.Label.TextStyle
	h := sty.Height(f.yLabel)
	sty.Rotation += math.Pi / 2
	top := vg.Length(0)
	if f.plot.Title.Text != "" {
		top = f.plot.Title.TextStyle.Height(f.plot.Title.Text) + f.plot.Title.Padding
	}
	bottom := f.plot.X.Label.TextStyle.Height(f.plot.X.Label.Text) + f.plot.X.Tick.Label.Height("0") + f.plot.X.Tick.Length
	y := (c.Min.Y + bottom + c.Max.Y - top) / 2
	descent := f.plot.Y.Label.TextStyle.FontExtents().Descent
	c.FillText(sty, vg.Point{X: c.Min.X + h - descent, Y: y}, f.yLabel)
	return draw.Crop(c, h+f.plot.Y.Label.Padding, 0, 0, 0)
}

// Side returns one figure showing figs side by side, left to right, under
// title: Grid with one row.
func Side(title string, figs ...*Figure) *Figure {
	return Grid(title, len(figs), figs...)
}

// Grid returns one figure showing figs in rows of cols, left to right and
// top to bottom, under title: heatmaps that each need their own colour
// scale, say. Each cell is as wide as the widest figure and as tall as the
// tallest; the figure is the size of the cells together, plus the title
// (Show, PNG and SVG with zero sizes). It panics when figs is empty or
// holds nil, or when cols < 1.
func Grid(title string, cols int, figs ...*Figure) *Figure {
	if len(figs) == 0 {
		panic("viz.Grid: no figures")
	}
	if cols < 1 {
		panic(fmt.Sprintf("viz.Grid: cols must be at least 1, got %d", cols))
	}
	cols = min(cols, len(figs))
	f := newFigure(title, "", "")
	var cellW, cellH float64
	for _, p := range figs {
		if p == nil {
			panic("viz.Grid: a nil figure")
		}
		cellW, cellH = math.Max(cellW, p.WidthCm), math.Max(cellH, p.HeightCm)
	}
	rows := (len(figs) + cols - 1) / cols
	f.WidthCm, f.HeightCm = cellW*float64(cols), cellH*float64(rows)
	if title != "" {
		f.HeightCm += 1
	}
	f.panels, f.cols = figs, cols
	return f
}

func (f *Figure) size(widthCm, heightCm float64) (vg.Length, vg.Length, error) {
	if widthCm == 0 && heightCm == 0 {
		widthCm, heightCm = f.WidthCm, f.HeightCm
	}
	if !(widthCm > 0 && heightCm > 0 && widthCm <= 500 && heightCm <= 500) {
		return 0, 0, fmt.Errorf("viz: figure size must be in (0, 500] cm, got %g×%g", widthCm, heightCm)
	}
	return vg.Length(widthCm) * vg.Centimeter, vg.Length(heightCm) * vg.Centimeter, nil
}

// PNG renders the figure as PNG bytes; zero sizes mean f's default size.
func (f *Figure) PNG(widthCm, heightCm float64) ([]byte, error) {
	return f.EncodePNG(&png.Encoder{}, widthCm, heightCm)
}

// EncodePNG is PNG with an encoder of the caller's:
// png.Encoder{CompressionLevel: png.BestSpeed} encodes about twice as fast,
// into a somewhat larger file, for a figure redrawn while a learner moves
// a slider.
func (f *Figure) EncodePNG(enc *png.Encoder, widthCm, heightCm float64) ([]byte, error) {
	w, h, err := f.size(widthCm, heightCm)
	if err != nil {
		return nil, err
	}
	img := vgimg.NewWith(vgimg.UseWH(w, h), vgimg.UseDPI(pngDPI))
	f.draw(draw.New(img))
	var buf bytes.Buffer
	if err := enc.Encode(&buf, img.Image()); err != nil {
		return nil, fmt.Errorf("viz: encoding PNG: %w", err)
	}
	return buf.Bytes(), nil
}

// SVG renders the figure as an SVG document; zero sizes mean f's default
// size.
func (f *Figure) SVG(widthCm, heightCm float64) ([]byte, error) {
	return f.svg(widthCm, heightCm, false)
}

// svg renders the figure as SVG, with its fonts embedded or not.
func (f *Figure) svg(widthCm, heightCm float64, embed bool) ([]byte, error) {
	w, h, err := f.size(widthCm, heightCm)
	if err != nil {
		return nil, err
	}
	c := vgsvg.NewWith(vgsvg.UseWH(w, h), vgsvg.EmbedFonts(embed))
	f.draw(draw.New(c))
	var buf bytes.Buffer
	if _, err := c.WriteTo(&buf); err != nil {
		return nil, fmt.Errorf("viz: encoding SVG: %w", err)
	}
	// Images (a rasterized heatmap's cells, a colour bar) fill the
	// rectangle gonum gives them (SVG would keep their aspect ratio,
	// letterboxed) and are scaled up without smoothing: a cell stays one
	// colour to its edges.
	return bytes.ReplaceAll(buf.Bytes(), []byte("<image "), []byte(`<image preserveAspectRatio="none" style="image-rendering:pixelated" `)), nil
}

// InlineSVG renders the figure as an <svg> element to put in an HTML page,
// sized in CSS pixels like PNG's image (its width in centimetres at PNG's
// resolution), so that a page can show one in place of the other; and the
// CSS @font-face rules of the fonts its text uses, embedded from gonum's
// own, which the page needs once: text set in a font the reader lacks
// would not fit the layout gonum computed. Drawing an SVG takes a few
// milliseconds where a PNG's rasterizing and compression take tens.
func (f *Figure) InlineSVG(widthCm, heightCm float64) (svg []byte, fontCSS string, err error) {
	data, err := f.svg(widthCm, heightCm, true)
	if err != nil {
		return nil, "", err
	}
	// gonum writes: <?xml …?>, a comment, <svg width="…pt" height="…pt"
	// viewBox=…, then <defs><style>the @font-face rules</style></defs>.
	i := bytes.Index(data, []byte("<svg "))
	j := bytes.Index(data, []byte(" viewBox="))
	k := bytes.Index(data, []byte("<defs>\n\t<style>\n"))
	l := bytes.Index(data, []byte("\t</style>\n</defs>\n"))
	if i < 0 || j < i || k < j || l < k {
		return nil, "", fmt.Errorf("viz: unexpected SVG from gonum: %.120q", data)
	}
	w, h, _ := f.size(widthCm, heightCm)                             // valid: svg checked them
	px := func(l vg.Length) int { return int(l.Dots(pngDPI) + 0.5) } // as vgimg sizes its image
	var out bytes.Buffer
	fmt.Fprintf(&out, `<svg width="%dpx" height="%dpx"`, px(w), px(h))
	out.Write(data[j:k])
	out.Write(data[l+len("\t</style>\n</defs>\n"):])
	return out.Bytes(), string(data[k+len("<defs>\n\t<style>\n") : l]), nil
}

// WriteTo writes the figure in format "png" or "svg" to w.
func (f *Figure) WriteTo(w io.Writer, format string, widthCm, heightCm float64) error {
	var data []byte
	var err error
	switch strings.ToLower(format) {
	case "png":
		data, err = f.PNG(widthCm, heightCm)
	case "svg":
		data, err = f.SVG(widthCm, heightCm)
	default:
		return fmt.Errorf("viz: format must be png or svg, got %q", format)
	}
	if err != nil {
		return err
	}
	_, err = w.Write(data)
	return err
}

// Save writes the figure to path, as PNG or SVG according to its extension.
// Zero sizes mean f's default size.
func Save(f *Figure, path string, widthCm, heightCm float64) error {
	ext := strings.TrimPrefix(strings.ToLower(filepath.Ext(path)), ".")
	if ext != "png" && ext != "svg" {
		return fmt.Errorf("viz: output file must end in .png or .svg, got %q", path)
	}
	var buf bytes.Buffer
	if err := f.WriteTo(&buf, ext, widthCm, heightCm); err != nil {
		return err
	}
	return os.WriteFile(path, buf.Bytes(), 0o644)
}

// Show displays the figure as a PNG in a GoNB notebook cell. Outside a
// notebook it prints a one-line note instead, so that lesson code also runs
// as a plain program.
func Show(f *Figure) {
	data, err := f.PNG(0, 0)
	if err != nil {
		panic(err)
	}
	if !gonbui.IsNotebook {
		fmt.Printf("[figure %q: %d bytes of PNG; shown in notebooks]\n", f.plot.Title.Text, len(data))
		return
	}
	gonbui.DisplayPng(data)
	// Wait until GoNB has taken the picture: a cell's program may end right
	// after it, and a display still in the pipe then never shows.
	gonbui.Sync()
}
