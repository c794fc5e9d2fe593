package viz

import (
	"bytes"
	"fmt"
	"image"
	"image/png"
	"math"
	"strings"
	"testing"

	"gonum.org/v1/plot"
)

// decode renders f as a PNG and decodes it.
func decode(t *testing.T, f *Figure, enc *png.Encoder) image.Image {
	t.Helper()
	data, err := f.EncodePNG(enc, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	return img
}

// TestRasterizeDrawsTheSameCells compares a rasterized heatmap with the
// vector one, pixel by pixel away from the cells' edges (where the vector
// drawing antialiases and the raster one does not): the same colours in
// the same places, for small matrices (cells many pixels wide) and a
// large one, with ±Inf cells drawn grey on top in both.
func TestRasterizeDrawsTheSameCells(t *testing.T) {
	for _, c := range []struct{ rows, cols int }{{3, 4}, {16, 16}, {40, 96}} {
		data := make([]float64, c.rows*c.cols)
		for i := range data {
			data[i] = math.Sin(float64(i)*0.7) * float64(i%5)
		}
		data[1] = math.Inf(-1)
		vector := decode(t, Heatmap(data, c.rows, c.cols, "t", "x", "y").WithSize(12, 9), &png.Encoder{})
		raster := decode(t, Heatmap(data, c.rows, c.cols, "t", "x", "y").WithSize(12, 9).Rasterize(), &png.Encoder{})
		if vector.Bounds() != raster.Bounds() {
			t.Fatalf("%d×%d: sizes %v and %v", c.rows, c.cols, vector.Bounds(), raster.Bounds())
		}
		same, compared := 0, 0
		b := vector.Bounds()
		for y := b.Min.Y; y < b.Max.Y; y++ {
			for x := b.Min.X; x < b.Max.X; x++ {
				// Only pixels whose 3×3 neighbourhood is uniform in the
				// vector drawing: inside a cell, not on an edge or a label.
				r0, g0, b0, _ := vector.At(x, y).RGBA()
				uniform := true
				for dy := -1; dy <= 1 && uniform; dy++ {
					for dx := -1; dx <= 1; dx++ {
						r, g, bb, _ := vector.At(x+dx, y+dy).RGBA()
						if r != r0 || g != g0 || bb != b0 {
							uniform = false
							break
						}
					}
				}
				if !uniform {
					continue
				}
				compared++
				r, g, bb, _ := raster.At(x, y).RGBA()
				if absDiff(r, r0) <= 0x300 && absDiff(g, g0) <= 0x300 && absDiff(bb, b0) <= 0x300 {
					same++
				}
			}
		}
		if compared == 0 || float64(same) < 0.995*float64(compared) {
			t.Errorf("%d×%d: %d of %d pixels inside cells agree; want 99.5%%", c.rows, c.cols, same, compared)
		}
		// Sharp cell edges: no more colours than the antialiased vector
		// drawing (a smoothed, resampled image has thousands more).
		if nr, nv := colours(raster), colours(vector); nr > nv {
			t.Errorf("%d×%d: the rasterized figure has %d colours, the vector one %d: its cells are blurred", c.rows, c.cols, nr, nv)
		}
	}
}

// colours counts the distinct colours of img.
func colours(img image.Image) int {
	seen := map[[4]uint32]bool{}
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bb, a := img.At(x, y).RGBA()
			seen[[4]uint32{r, g, bb, a}] = true
		}
	}
	return len(seen)
}

func absDiff(a, b uint32) uint32 {
	if a > b {
		return a - b
	}
	return b - a
}

// BenchmarkHeatmap100x512 draws a 100-position, 512-wide sinusoidal-sized
// matrix both ways (go test -bench Heatmap ./pkg/viz): rasterized is the
// one a live redraw can afford.
func BenchmarkHeatmap100x512(b *testing.B) {
	data := make([]float64, 100*512)
	for i := range data {
		data[i] = math.Sin(float64(i))
	}
	for _, raster := range []bool{false, true} {
		name := "vector"
		if raster {
			name = "raster"
		}
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				f := Heatmap(data, 100, 512, "", "", "")
				if raster {
					f.Rasterize()
				}
				if _, err := f.PNG(0, 0); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func TestMarkRingsTheCell(t *testing.T) {
	data := make([]float64, 8*8) // all zero: one colour everywhere
	plain := decode(t, Heatmap(data, 8, 8, "", "", "").WithSize(10, 10), &png.Encoder{})
	marked := decode(t, Heatmap(data, 8, 8, "", "", "").WithSize(10, 10).Mark(2, 5, "here"), &png.Encoder{})
	// The ring is black: some pixel of the marked figure is much darker
	// than anything in the plain one's data area.
	dark := func(img image.Image) int {
		n := 0
		b := img.Bounds()
		for y := b.Min.Y; y < b.Max.Y; y++ {
			for x := b.Min.X; x < b.Max.X; x++ {
				if r, g, bb, _ := img.At(x, y).RGBA(); r+g+bb < 0x3000 {
					n++
				}
			}
		}
		return n
	}
	if dark(marked) <= dark(plain)+20 {
		t.Errorf("marked figure has %d dark pixels, the plain one %d: no ring drawn", dark(marked), dark(plain))
	}
	for name, f := range map[string]func(){
		"outside":  func() { Heatmap(data, 8, 8, "", "", "").Mark(8, 0, "") },
		"negative": func() { Heatmap(data, 8, 8, "", "", "").Mark(0, -1, "") },
		"not a heatmap": func() {
			Lines("", "", "", Series{X: []float64{0, 1}, Y: []float64{0, 1}}).Mark(0, 0, "")
		},
	} {
		func() {
			defer func() {
				if r := recover(); r == nil || !strings.HasPrefix(r.(string), "viz.Mark: ") {
					t.Errorf("%s: recover() = %v, want a viz.Mark panic", name, r)
				}
			}()
			f()
		}()
	}
}

func TestEncodePNG(t *testing.T) {
	f := Lines("t", "x", "y", Series{X: []float64{0, 1, 2}, Y: []float64{0, 1, 4}})
	def, err := f.PNG(0, 0)
	if err != nil {
		t.Fatal(err)
	}
	same, err := f.EncodePNG(&png.Encoder{}, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(def, same) {
		t.Error("PNG and EncodePNG with the default encoder differ")
	}
	fast := decode(t, f, &png.Encoder{CompressionLevel: png.BestSpeed})
	slow := decode(t, f, &png.Encoder{})
	b := slow.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			if fast.At(x, y) != slow.At(x, y) {
				t.Fatalf("pixel (%d, %d) differs between compression levels", x, y)
			}
		}
	}
}

func TestFromPlot(t *testing.T) {
	p := plot.New()
	p.Title.Text = "custom"
	legend := plot.NewLegend()
	f := FromPlot(p, &legend)
	if f.Plot() != p || f.WidthCm != DefaultWidthCm || f.HeightCm != DefaultHeightCm {
		t.Errorf("FromPlot: plot %p (want %p), size %g×%g", f.Plot(), p, f.WidthCm, f.HeightCm)
	}
	if _, err := f.PNG(0, 0); err != nil {
		t.Fatal(err)
	}
}

func TestInlineSVG(t *testing.T) {
	data := make([]float64, 6*8)
	for i := range data {
		data[i] = float64(i)
	}
	f := Heatmap(data, 6, 8, "title", "x", "y").WithSize(10, 7).Rasterize()
	svg, css, err := f.InlineSVG(0, 0)
	if err != nil {
		t.Fatal(err)
	}
	img := decode(t, f, &png.Encoder{})
	want := fmt.Sprintf(`<svg width="%dpx" height="%dpx" viewBox=`, img.Bounds().Dx(), img.Bounds().Dy())
	if !bytes.HasPrefix(svg, []byte(want)) {
		t.Errorf("InlineSVG starts %.80q, want %q: the size of the PNG", svg, want)
	}
	for _, bad := range []string{"<?xml", "<defs>", "@font-face"} {
		if bytes.Contains(svg, []byte(bad)) {
			t.Errorf("InlineSVG holds %q: it goes in a page, fonts apart", bad)
		}
	}
	if !strings.Contains(css, "@font-face") || !strings.Contains(css, `font-family:"Liberation Serif"`) || !strings.Contains(css, "base64,") {
		t.Errorf("fonts CSS %.120q: want Liberation Serif's @font-face, embedded", css)
	}
	// The cells: one image of 8×6 pixels, scaled without smoothing.
	if n := bytes.Count(svg, []byte(`<image preserveAspectRatio="none" style="image-rendering:pixelated" `)); n < 1 {
		t.Errorf("no pixelated <image> in %d bytes of SVG", len(svg))
	}
	if len(svg) > 60_000 {
		t.Errorf("InlineSVG of a 6×8 heatmap is %d bytes: the cells should be one small image", len(svg))
	}
}
