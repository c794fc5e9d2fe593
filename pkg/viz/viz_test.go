package viz

import (
	"bytes"
	"fmt"
	"image/color"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestHeatmapRendersPNGAndSVG(t *testing.T) {
	data := []float64{-1, 0, 1, math.Inf(-1), 0.5, 2}
	f := Heatmap(data, 2, 3, "t", "x", "y")
	png, err := f.PNG(0, 0)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(png, []byte("\x89PNG\r\n\x1a\n")) {
		t.Errorf("PNG output starts with %q; want the PNG signature", png[:8])
	}
	svg, err := f.SVG(8, 6)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(svg[:200], []byte("<svg")) {
		t.Errorf("SVG output starts with %q; want an <svg element", svg[:200])
	}
}

func TestHeatmapPanicsOnBadShape(t *testing.T) {
	defer func() {
		if r := recover(); r == nil || !strings.Contains(r.(string), "rows×cols") {
			t.Fatalf("recover() = %v; want a panic about rows×cols", r)
		}
	}()
	Heatmap([]float64{1, 2, 3}, 2, 2, "", "", "")
}

func TestFlippedTicksLabelRows(t *testing.T) {
	// Row r is drawn at y = rows−1−r: the tick labelled "0" must sit at the top.
	ticks := flippedTicks{rows: 101}.Ticks(-0.5, 100.5)
	found := false
	for _, tk := range ticks {
		if tk.Label == "0" {
			found = true
			if tk.Value != 100 {
				t.Errorf("tick %q at y=%g; want y=100 (the top row)", tk.Label, tk.Value)
			}
		}
	}
	if !found {
		t.Errorf("ticks %v have no label \"0\"", ticks)
	}
}

func TestFlippedTicksOneRow(t *testing.T) {
	ticks := flippedTicks{rows: 1}.Ticks(-0.5, 0.5)
	if len(ticks) != 1 || ticks[0].Value != 0 || ticks[0].Label != "0" {
		t.Errorf("ticks of a one-row heatmap = %v; want one tick \"0\" at 0", ticks)
	}
}

func TestLinesColoursAndLegend(t *testing.T) {
	f := Lines("t", "x", "y",
		Series{Name: "a", X: Range(2), Y: []float64{1, 2}},
		Series{Name: "b", X: Range(2), Y: []float64{2, 3}, Dashed: true},
		Series{Name: "c_1", X: Range(2), Y: []float64{3, 4}, Points: true})
	// Each series is drawn in its Okabe–Ito colour: the picture holds
	// pixels of exactly those colours.
	data, err := f.PNG(0, 0)
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	found := map[color.NRGBA]bool{}
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			found[color.NRGBAModel.Convert(img.At(x, y)).(color.NRGBA)] = true
		}
	}
	for i, c := range OkabeIto[:3] {
		if !found[c.(color.NRGBA)] {
			t.Errorf("series %d: no pixel of its colour %v", i, c)
		}
	}
	// The legend is drawn outside the data, not as the plot's own legend.
	if f.legend == nil {
		t.Fatal("no legend for three named series")
	}
	if one := Lines("t", "x", "y", Series{Name: "only", X: Range(2), Y: []float64{1, 2}}); one.legend != nil {
		t.Error("a single series got a legend")
	}
}

// Lines draws a legend when there are two series or more and at least one
// has a name.
func TestLinesLegendRule(t *testing.T) {
	s := func(name string) Series { return Series{Name: name, X: Range(2), Y: []float64{1, 2}} }
	for _, c := range []struct {
		what   string
		series []Series
		want   bool
	}{
		{"no series", nil, false},
		{"one unnamed series", []Series{s("")}, false},
		{"one named series", []Series{s("a")}, false},
		{"two unnamed series", []Series{s(""), s("")}, false},
		{"two series, one named", []Series{s("a"), s("")}, true},
		{"two named series", []Series{s("a"), s("b")}, true},
	} {
		if got := Lines("t", "x", "y", c.series...).legend != nil; got != c.want {
			t.Errorf("%s: legend = %t; want %t", c.what, got, c.want)
		}
	}
}

func TestSeriesColorRepeats(t *testing.T) {
	if SeriesColor(len(OkabeIto)) != SeriesColor(0) || SeriesColor(-1) != OkabeIto[len(OkabeIto)-1] {
		t.Error("SeriesColor does not cycle through OkabeIto")
	}
	seen := map[color.Color]bool{}
	for _, c := range OkabeIto {
		if seen[c] {
			t.Errorf("OkabeIto repeats %v", c)
		}
		seen[c] = true
	}
}

func TestSide(t *testing.T) {
	a := Heatmap([]float64{1, 2}, 1, 2, "a", "", "").WithSize(8, 6)
	b := Heatmap([]float64{-1, 2}, 1, 2, "b", "", "").WithSize(9, 7)
	f := Side("both", a, b)
	if f.WidthCm != 18 || f.HeightCm != 8 {
		t.Errorf("Side size = %g×%g cm; want 18×8 (two cells as wide as the widest, as tall as the tallest, plus the title)", f.WidthCm, f.HeightCm)
	}
	png, err := f.PNG(0, 0)
	if err != nil || !bytes.HasPrefix(png, []byte("\x89PNG")) {
		t.Fatalf("Side PNG: %v", err)
	}
	defer func() {
		if r := recover(); r == nil {
			t.Error("Side() with no figures did not panic")
		}
	}()
	Side("none")
}

func TestGrid(t *testing.T) {
	var figs []*Figure
	for range 3 {
		figs = append(figs, Heatmap([]float64{1, 2}, 1, 2, "p", "", "").WithSize(8, 6))
	}
	f := Grid("three in two columns", 2, figs...)
	if f.WidthCm != 16 || f.HeightCm != 13 {
		t.Errorf("Grid size = %g×%g cm; want 16×13 (two cells wide, two tall, and the title)", f.WidthCm, f.HeightCm)
	}
	if _, err := f.PNG(0, 0); err != nil {
		t.Fatal(err)
	}
	if g := Grid("", 5, figs...); g.cols != 3 || g.HeightCm != 6 {
		t.Errorf("Grid with more columns than figures: %d columns, %g cm tall; want 3 and 6", g.cols, g.HeightCm)
	}
	defer func() {
		if r := recover(); r == nil || !strings.Contains(fmt.Sprint(r), "cols") {
			t.Errorf("Grid with 0 columns: recover() = %v; want a panic naming cols", r)
		}
	}()
	Grid("t", 0, figs...)
}

func TestLines(t *testing.T) {
	f := Lines("t", "x", "y",
		Series{Name: "a", X: Range(3), Y: []float64{1, 10, 100}},
		Series{Name: "b", X: Range(3), Y: []float64{2, math.NaN(), 3}, Points: true}).LogY()
	if _, err := f.PNG(0, 0); err != nil {
		t.Fatal(err)
	}
	defer func() {
		if r := recover(); r == nil {
			t.Fatal("Lines with len(X) != len(Y) did not panic")
		}
	}()
	Lines("t", "x", "y", Series{X: Range(2), Y: []float64{1}})
}

func TestSave(t *testing.T) {
	dir := t.TempDir()
	f := Lines("t", "x", "y", Series{X: Range(2), Y: []float64{1, 2}})
	for _, name := range []string{"a.png", "a.svg"} {
		if err := Save(f, filepath.Join(dir, name), 0, 0); err != nil {
			t.Fatalf("Save(%s): %v", name, err)
		}
		if st, err := os.Stat(filepath.Join(dir, name)); err != nil || st.Size() == 0 {
			t.Errorf("Save(%s) wrote nothing (%v)", name, err)
		}
	}
	if err := Save(f, filepath.Join(dir, "a.jpg"), 0, 0); err == nil || !strings.Contains(err.Error(), ".png or .svg") {
		t.Errorf("Save(a.jpg) = %v; want an error naming the allowed extensions", err)
	}
	if _, err := f.PNG(-1, 3); err == nil {
		t.Error("PNG(-1, 3) succeeded; want a size error")
	}
}

func TestGridLeavesInfinitiesToInfCells(t *testing.T) {
	// Row 0 is drawn at the top: Z(c, r) reads data row rows−1−r. ±Inf reads
	// as NaN (no colour-map colour); infCells paints those cells grey.
	g := grid{data: []float64{1, math.Inf(-1), math.Inf(1), 2}, rows: 2, cols: 2}
	for _, tc := range []struct {
		c, r int
		nan  bool
	}{{0, 1, false}, {1, 1, true}, {0, 0, true}, {1, 0, false}} {
		if got := g.Z(tc.c, tc.r); math.IsNaN(got) != tc.nan {
			t.Errorf("Z(%d, %d) = %v; want NaN: %v", tc.c, tc.r, got, tc.nan)
		}
	}
	if got := (infCells{g: g}).count(); got != 2 {
		t.Errorf("infCells.count() = %d; want 2", got)
	}
}

func TestInfCellsLabel(t *testing.T) {
	for _, tc := range []struct {
		data []float64
		want string
	}{
		{[]float64{0, math.Inf(-1)}, "−∞"},
		{[]float64{0, math.Inf(1)}, "+∞"},
		{[]float64{math.Inf(1), math.Inf(-1)}, "±∞"},
	} {
		if got := (infCells{g: grid{data: tc.data, rows: 1, cols: 2}}).label(); got != tc.want {
			t.Errorf("label of %v = %q; want %q", tc.data, got, tc.want)
		}
	}
}

func TestHeatmapMarksInfinitiesOnTheColourBar(t *testing.T) {
	masked := Heatmap([]float64{0, math.Inf(-1), -1, 0}, 2, 2, "", "", "")
	if got := masked.bar.Title.Text; got != "grey: −∞" {
		t.Errorf("colour bar title with a −∞ cell = %q; want %q", got, "grey: −∞")
	}
	plain := Heatmap([]float64{0, 1, 2, math.NaN()}, 2, 2, "", "", "")
	if got := plain.bar.Title.Text; strings.Contains(got, "grey") {
		t.Errorf("colour bar title without infinities = %q; want no grey note", got)
	}
}

func TestHeatmapColourMaps(t *testing.T) {
	_, seq := heatMap(grid{data: []float64{1, 2}, rows: 1, cols: 2}, 1, 2, false)
	if _, ok := seq.(*viridis); !ok {
		t.Errorf("one-signed values use %T; want viridis", seq)
	}
	_, div := heatMap(grid{data: []float64{-1, 2}, rows: 1, cols: 2}, -2, 2, false)
	if _, ok := div.(*viridis); ok {
		t.Error("values of both signs use viridis; want the diverging map")
	}
}

// axisTop returns the first row, from the top, with a dark pixel in the
// left part of the picture: the top of the vertical axis.
func axisTop(t *testing.T, f *Figure) int {
	t.Helper()
	data, err := f.PNG(0, 0)
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	b := img.Bounds()
	for y := b.Min.Y + 25; y < b.Max.Y; y++ { // below the title
		for x := b.Min.X + 40; x < b.Min.X+120; x++ {
			if r, g, bl, _ := img.At(x, y).RGBA(); r < 0x3000 && g < 0x3000 && bl < 0x3000 {
				return y
			}
		}
	}
	t.Fatal("no axis found")
	return 0
}

func TestLogYKeepsTheDataAreaTall(t *testing.T) {
	// gonum places a centred vertical label at the data midpoint, which a
	// log scale puts near the top: a long label used to push the plot down
	// by about 50 pixels.
	y := make([]float64, 64)
	for i := range y {
		y[i] = math.Pow(500000, -float64(i)/64)
	}
	fig := func() *Figure {
		return Lines("t", "x", "a long label for the vertical axis (log scale)",
			Series{Name: "a", X: Range(64), Y: y}, Series{Name: "b", X: Range(64), Y: y})
	}
	lin, log := axisTop(t, fig()), axisTop(t, fig().LogY())
	if log > lin+8 {
		t.Errorf("the log-scale axis starts at row %d, the linear one at %d: the label pushed the plot down", log, lin)
	}
}

// A series' own colour and marker replace those of its place in the
// chart: two series that do not meet draw the same picture in either
// order.
func TestSeriesOwnStyle(t *testing.T) {
	a := Series{X: []float64{0, 1, 2}, Y: []float64{1, 1.2, 1.1}, Color: OkabeIto[3], Marker: 4}
	b := Series{X: []float64{0, 1, 2}, Y: []float64{3, 2.8, 2.9}, Color: OkabeIto[5], Marker: 2}
	png := func(s ...Series) string {
		data, err := Lines("t", "x", "y", s...).PNG(0, 0)
		if err != nil {
			t.Fatal(err)
		}
		return string(data)
	}
	plainA, plainB := a, b
	plainA.Color, plainA.Marker, plainB.Color, plainB.Marker = nil, 0, nil, 0
	if png(a, b) == png(plainA, plainB) {
		t.Error("Color and Marker changed nothing")
	}
	if png(a, b) != png(b, a) {
		t.Error("a series' own style still depends on its place")
	}
	if png(plainA, plainB) == png(plainB, plainA) {
		t.Error("without their own style the two orders should differ (the test cannot fail)")
	}
}
