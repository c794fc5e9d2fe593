package viz

import (
	"bytes"
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

func TestGridDrawsInfinitiesBlank(t *testing.T) {
	// Row 0 is drawn at the top: Z(c, r) reads data row rows−1−r.
	g := grid{data: []float64{1, math.Inf(-1), math.Inf(1), 2}, rows: 2, cols: 2}
	for _, tc := range []struct {
		c, r int
		nan  bool
	}{{0, 1, false}, {1, 1, true}, {0, 0, true}, {1, 0, false}} {
		if got := g.Z(tc.c, tc.r); math.IsNaN(got) != tc.nan {
			t.Errorf("Z(%d, %d) = %v; want NaN: %v", tc.c, tc.r, got, tc.nan)
		}
	}
}
