package main

import (
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/posenc/course/pkg/posenc"
)

// rotateRef rotates x by RoFormer's formula (Su et al. 2021, equation 34):
// pair i, at dims (2i, 2i+1) or (i, i+rot/2), turns by pos·base^(−2i/rot).
func rotateRef(x []float64, pos int, base float64, half bool, rot int) []float64 {
	y := append([]float64(nil), x...)
	for i := range rot / 2 {
		a, b := 2*i, 2*i+1
		if half {
			a, b = i, i+rot/2
		}
		s, c := math.Sincos(float64(pos) * math.Pow(base, -float64(2*i)/float64(rot)))
		y[a], y[b] = x[a]*c-x[b]*s, x[a]*s+x[b]*c
	}
	return y
}

func joinFloats(x []float64) string {
	parts := make([]string, len(x))
	for i, v := range x {
		parts[i] = strconv.FormatFloat(v, 'g', -1, 64)
	}
	return strings.Join(parts, ",")
}

func TestRoPEJSON(t *testing.T) {
	x := []float64{0.5, -1, 2, 0.25, 3, -0.75, 1.5, 0.125}
	tests := []struct {
		name   string
		args   []string
		pos    int
		base   float64
		layout posenc.Layout
		rot    int
	}{
		{"interleaved", nil, 7, 10000, posenc.Interleaved, 8},
		{"half", []string{"--layout", "half"}, 7, 10000, posenc.Halves, 8},
		{"base", []string{"--base", "500000"}, 1000, 500000, posenc.Interleaved, 8},
		{"partial", []string{"--rotary-dim", "4", "--layout", "half"}, 123, 10000, posenc.Halves, 4},
		{"position 0", nil, 0, 10000, posenc.Interleaved, 8},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := append([]string{"rope", "--x", joinFloats(x), "--pos", strconv.Itoa(tt.pos), "--json"}, tt.args...)
			var got struct{ Y []float64 }
			decodeJSONPlain(t, mustRun(t, args...), &got)
			want := make([]float64, len(x))
			r := posenc.NewRoPE(len(x)).WithBase(tt.base).WithLayout(tt.layout)
			if tt.rot != len(x) {
				r = r.WithRotaryDim(tt.rot)
			}
			if err := posenc.RotateTo(want, x, r, tt.pos); err != nil {
				t.Fatal(err)
			}
			ref := rotateRef(x, tt.pos, tt.base, tt.layout == posenc.Halves, tt.rot)
			if len(got.Y) != len(x) {
				t.Fatalf("len(y) = %d; want %d", len(got.Y), len(x))
			}
			for i := range x {
				if got.Y[i] != want[i] {
					t.Errorf("y[%d] = %v; want exactly posenc.RotateTo's %v", i, got.Y[i], want[i])
				}
				if math.Abs(got.Y[i]-ref[i]) > 1e-12 {
					t.Errorf("y[%d] = %v; RoFormer reference %v", i, got.Y[i], ref[i])
				}
			}
		})
	}
}

func TestRoPEScaledMatchesLibrary(t *testing.T) {
	x := []float64{1, 2, 3, 4}
	var got struct{ Y []float64 }
	decodeJSONPlain(t, mustRun(t, "rope", "--x", "1,2,3,4", "--pos", "50", "--scaling", "yarn", "--factor", "4",
		"--orig-len", "32", "--json"), &got)
	want := make([]float64, 4)
	if err := posenc.RotateTo(want, x, posenc.NewRoPE(4).WithScaling(posenc.YaRNScaling(4, 32)), 50); err != nil {
		t.Fatal(err)
	}
	for i := range want {
		if got.Y[i] != want[i] {
			t.Errorf("y[%d] = %v; want %v", i, got.Y[i], want[i])
		}
	}
}

func TestRoPEHuman(t *testing.T) {
	out := mustRun(t, "rope", "--x", "1,0", "--pos", "1")
	want := "dim         x         y\n" +
		"  0  1.000000  0.540302\n" +
		"  1  0.000000  0.841471\n"
	if out != want {
		t.Errorf("output:\n%s\nwant:\n%s", out, want)
	}
}
