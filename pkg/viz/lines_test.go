package viz

import (
	"bytes"
	"image/color"
	"image/png"
	"math"
	"strings"
	"testing"

	"gonum.org/v1/plot"
)

// Lo and Hi draw a bar at each point: the plot's range takes them in, and
// the picture changes.
func TestLinesBars(t *testing.T) {
	s := Series{Name: "mean over seeds", X: []float64{16, 32, 64}, Y: []float64{1, 2, 1.5}}
	plain := Lines("t", "x", "y", s)
	s.Lo, s.Hi = []float64{0.5, 1.8, 1.4}, []float64{1.2, 10, 1.6}
	bars := Lines("t", "x", "y", s)
	if p := bars.Plot(); p.Y.Min > 0.5 || p.Y.Max < 10 {
		t.Errorf("with bars from 0.5 to 10, the vertical range is [%g, %g]; want it to hold them", p.Y.Min, p.Y.Max)
	}
	a, err := plain.PNG(0, 0)
	if err != nil {
		t.Fatal(err)
	}
	b, err := bars.PNG(0, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := png.Decode(bytes.NewReader(b)); err != nil {
		t.Fatal(err)
	}
	if bytes.Equal(a, b) {
		t.Error("the figure with bars is the one without")
	}
	// Non-finite bounds (an undefined length) leave that point's bar out.
	s.Lo[1], s.Y[2] = math.NaN(), math.Inf(1)
	if _, err := Lines("t", "x", "y", s).PNG(0, 0); err != nil {
		t.Fatal(err)
	}
}

func TestErrorBars(t *testing.T) {
	s := Series{X: []float64{1, 2, 3, 4}, Y: []float64{1, 2, math.NaN(), 4}, Lo: []float64{0.5, math.NaN(), 2, 3}, Hi: []float64{3, 3, 4, math.Inf(1)}}
	bars := errorBars(s, color.Black)
	if len(bars.XYs) != 1 || len(bars.YErrors) != 1 {
		t.Fatalf("%d points and %d bars; want only the first point's, the others having a non-finite value", len(bars.XYs), len(bars.YErrors))
	}
	if p, e := bars.XYs[0], bars.YErrors[0]; p.X != 1 || p.Y != 1 || e.Low != 0.5 || e.High != 2 {
		t.Errorf("bar at (%g, %g) down %g, up %g; want at (1, 1) from 0.5 to 3: down 0.5, up 2", p.X, p.Y, e.Low, e.High)
	}
}

func TestLinesBarsPanic(t *testing.T) {
	for _, c := range []struct {
		name   string
		lo, hi []float64
	}{
		{"short Lo", []float64{1}, []float64{1, 2}},
		{"no Hi", []float64{1, 2}, nil},
		{"no Lo", nil, []float64{1, 2}},
		{"long Hi", []float64{1, 2}, []float64{1, 2, 3}},
	} {
		t.Run(c.name, func(t *testing.T) {
			defer func() {
				r := recover()
				if msg, ok := r.(string); !ok || !strings.Contains(msg, `series "seeds"`) || !strings.Contains(msg, "Lo") {
					t.Errorf("recover() = %v; want a panic naming the series and Lo and Hi", r)
				}
			}()
			Lines("t", "x", "y", Series{Name: "seeds", X: Range(2), Y: []float64{1, 2}, Lo: c.lo, Hi: c.hi})
		})
	}
}

func TestTicksX(t *testing.T) {
	f := Lines("t", "x", "y", Series{X: []float64{0.5, 16, 32}, Y: []float64{1, 2, 3}}).LogX().TicksX(0.5, 16, 32, 1e10, 0.125)
	if _, ok := f.Plot().X.Scale.(plot.LogScale); !ok {
		t.Errorf("TicksX after LogX: the scale is %T; want it kept logarithmic", f.Plot().X.Scale)
	}
	ticks := f.Plot().X.Tick.Marker.Ticks(0.5, 32)
	var labels []string
	for _, tk := range ticks {
		labels = append(labels, tk.Label)
	}
	want := []string{"0.5", "16", "32", "1e+10", "0.125"} // whole numbers as integers
	if strings.Join(labels, " ") != strings.Join(want, " ") || ticks[1].Value != 16 {
		t.Errorf("ticks %v; want labels %q at their values", ticks, want)
	}
	if _, err := f.PNG(0, 0); err != nil {
		t.Fatal(err)
	}
}
