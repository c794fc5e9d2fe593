package viz

import (
	"bytes"
	"fmt"
	"math"
	"strings"
	"testing"
)

func TestHeatmapRangeRenders(t *testing.T) {
	data := []float64{-1, 0, 1, math.NaN(), 0.5, 2}
	png, err := HeatmapRange(data, 2, 3, -1, 1, "t", "x", "y").PNG(0, 0)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(png, []byte("\x89PNG\r\n\x1a\n")) {
		t.Errorf("PNG output starts with %q; want the PNG signature", png[:8])
	}
}

func TestHeatmapRangeUsesTheGivenRange(t *testing.T) {
	tests := []struct {
		name   string
		lo, hi float64
	}{
		{"diverging", -1, 1},
		{"sequential", 0.5, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := grid{data: []float64{0.7, 0.8}, rows: 1, cols: 2}
			hm, cm := rangeHeatMap(g, tt.lo, tt.hi)
			if hm.Min != tt.lo || hm.Max != tt.hi {
				t.Errorf("heat map range = [%g, %g]; want [%g, %g]", hm.Min, hm.Max, tt.lo, tt.hi)
			}
			if cm.Min() != tt.lo || cm.Max() != tt.hi {
				t.Errorf("colour bar range = [%g, %g]; want [%g, %g]", cm.Min(), cm.Max(), tt.lo, tt.hi)
			}
			// Values past either end are drawn in the end colours, not left blank.
			colors := hm.Palette.Colors()
			if hm.Underflow != colors[0] || hm.Overflow != colors[len(colors)-1] {
				t.Errorf("underflow, overflow = %v, %v; want the palette's ends %v, %v",
					hm.Underflow, hm.Overflow, colors[0], colors[len(colors)-1])
			}
		})
	}
}

func TestHeatmapRangePanicsOnBadInput(t *testing.T) {
	tests := []struct {
		name   string
		data   []float64
		cols   int
		lo, hi float64
		want   string
	}{
		{"empty range", []float64{1}, 1, 1, 1, "lo < hi"},
		{"reversed range", []float64{1}, 1, 1, -1, "lo < hi"},
		{"NaN bound", []float64{1}, 1, math.NaN(), 1, "finite"},
		{"bad shape", []float64{1, 2, 3}, 2, -1, 1, "rows×cols"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			defer func() {
				r := recover()
				if r == nil || !strings.Contains(fmt.Sprint(r), tt.want) {
					t.Fatalf("recover() = %v; want a panic mentioning %q", r, tt.want)
				}
			}()
			HeatmapRange(tt.data, 1, tt.cols, tt.lo, tt.hi, "", "", "")
		})
	}
}
