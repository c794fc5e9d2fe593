// Package viz draws the course's figures with gonum/plot: heatmaps of
// position tables and bias matrices, and line charts. A Figure renders to
// PNG or SVG, saves to a file, or shows itself in a GoNB notebook.
package viz

import (
	"bytes"
	"fmt"
	"io"
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

// Figure is one chart: a gonum plot, plus a colour bar for heatmaps.
type Figure struct {
	plot *plot.Plot
	bar  *plot.Plot // nil unless the figure is a heatmap
	// WidthCm and HeightCm are the size used by Show, PNG and SVG when
	// called with zero sizes.
	WidthCm, HeightCm float64
}

func newFigure(title, xLabel, yLabel string) *Figure {
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = xLabel
	p.Y.Label.Text = yLabel
	return &Figure{plot: p, WidthCm: DefaultWidthCm, HeightCm: DefaultHeightCm}
}

// Plot returns the underlying gonum plot, to adjust axes, legend or add
// plotters.
func (f *Figure) Plot() *plot.Plot { return f.plot }

// WithSize returns f with another default size in centimetres.
func (f *Figure) WithSize(widthCm, heightCm float64) *Figure {
	f.WidthCm, f.HeightCm = widthCm, heightCm
	return f
}

// draw renders the figure on c; the colour bar takes a narrow strip on the
// right.
func (f *Figure) draw(c draw.Canvas) {
	if f.bar == nil {
		f.plot.Draw(c)
		return
	}
	barW := vg.Length(2.6) * vg.Centimeter
	w := c.Max.X - c.Min.X
	if barW > w/3 {
		barW = w / 3
	}
	f.plot.Draw(draw.Crop(c, 0, -barW, 0, 0))
	f.bar.Draw(draw.Crop(c, w-barW, 0, 0, 0))
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
	w, h, err := f.size(widthCm, heightCm)
	if err != nil {
		return nil, err
	}
	img := vgimg.NewWith(vgimg.UseWH(w, h), vgimg.UseDPI(pngDPI))
	f.draw(draw.New(img))
	var buf bytes.Buffer
	if _, err := (vgimg.PngCanvas{Canvas: img}).WriteTo(&buf); err != nil {
		return nil, fmt.Errorf("viz: encoding PNG: %w", err)
	}
	return buf.Bytes(), nil
}

// SVG renders the figure as an SVG document; zero sizes mean f's default
// size.
func (f *Figure) SVG(widthCm, heightCm float64) ([]byte, error) {
	w, h, err := f.size(widthCm, heightCm)
	if err != nil {
		return nil, err
	}
	c := vgsvg.New(w, h)
	f.draw(draw.New(c))
	var buf bytes.Buffer
	if _, err := c.WriteTo(&buf); err != nil {
		return nil, fmt.Errorf("viz: encoding SVG: %w", err)
	}
	return buf.Bytes(), nil
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
}
