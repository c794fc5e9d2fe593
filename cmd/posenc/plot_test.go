package main

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/posenc/course/pkg/posenc"
)

func TestPlotWritesFiles(t *testing.T) {
	dir := t.TempDir()
	pngMagic := []byte("\x89PNG\r\n\x1a\n")
	tests := []struct {
		name string
		args []string
	}{
		{"sinusoidal", []string{"--kind", "sinusoidal", "--len", "32", "--dim", "16"}},
		{"sinusoidal concat", []string{"--kind", "sinusoidal", "--len", "32", "--dim", "16", "--layout", "concat", "--start", "100"}},
		{"rope cos", []string{"--kind", "rope", "--len", "64", "--dim", "32"}},
		{"rope angle yarn", []string{"--kind", "rope", "--len", "64", "--dim", "32", "--value", "angle",
			"--scaling", "yarn", "--factor", "4", "--orig-len", "16"}},
		{"alibi tiled causal", []string{"--kind", "alibi", "--heads", "6", "--len", "8", "--causal"}},
		{"alibi one head", []string{"--kind", "alibi", "--heads", "8", "--head", "3", "--len", "8"}},
		{"t5", []string{"--kind", "t5", "--len", "40", "--bidirectional=false"}},
	}
	for _, tt := range tests {
		for _, ext := range []string{".png", ".svg"} {
			t.Run(tt.name+ext, func(t *testing.T) {
				path := filepath.Join(dir, filepath.Base(t.Name())+ext)
				out := mustRun(t, append(append([]string{"plot"}, tt.args...), "-o", path)...)
				if out != "" {
					t.Errorf("stdout %q; want empty", out)
				}
				data, err := os.ReadFile(path)
				if err != nil {
					t.Fatal(err)
				}
				switch ext {
				case ".png":
					if !bytes.HasPrefix(data, pngMagic) {
						t.Errorf("%s does not start with the PNG signature: % x", path, data[:min(8, len(data))])
					}
				case ".svg":
					if !bytes.HasPrefix(data, []byte("<?xml")) && !bytes.HasPrefix(data, []byte("<svg")) {
						t.Errorf("%s does not start like SVG: %q", path, data[:min(20, len(data))])
					}
					if !bytes.Contains(data, []byte("</svg>")) {
						t.Errorf("%s is not a complete SVG document", path)
					}
				}
			})
		}
	}
}

func TestPlotUnwritableFileExits1(t *testing.T) {
	path := filepath.Join(t.TempDir(), "missing", "out.png")
	code, out, errOut := runCLI(t, "plot", "--kind", "t5", "--len", "4", "-o", path)
	if code != 1 || out != "" {
		t.Errorf("exit %d, stdout %q; want 1 and nothing", code, out)
	}
	if !bytes.Contains([]byte(errOut), []byte("missing")) {
		t.Errorf("stderr %q; want the path's problem", errOut)
	}
}

// The heatmaps' data, checked against the library and the formulas.

func TestPlotSinusoidalData(t *testing.T) {
	hm, err := plotSinusoidal(6, 8, 3, 10000, "interleaved", "float64")
	if err != nil {
		t.Fatal(err)
	}
	if hm.rows != 6 || hm.cols != 8 {
		t.Fatalf("%d×%d; want 6×8", hm.rows, hm.cols)
	}
	for i, v := range hm.data {
		if ref := sinusoidalRef("interleaved", 8, 3+i/8, i%8); math.Abs(v-ref) > 1e-9 {
			t.Errorf("cell %d = %v; want %v", i, v, ref)
		}
	}
}

func TestPlotRoPEData(t *testing.T) {
	for _, value := range []string{"cos", "angle"} {
		f := newFlags("plot")
		sf := defineScalingFlags(f)
		if err := f.parse(nil); err != nil {
			t.Fatal(err)
		}
		hm, err := plotRoPE(f, 5, 8, 10, 0, 10000, value, sf)
		if err != nil {
			t.Fatal(err)
		}
		if hm.rows != 5 || hm.cols != 4 {
			t.Fatalf("%d×%d; want 5 positions × 4 pairs", hm.rows, hm.cols)
		}
		for p := range 5 {
			for i := range 4 {
				angle := float64(10+p) * math.Pow(10000, -float64(2*i)/8)
				want := math.Cos(angle)
				got := hm.data[p*4+i]
				if value == "angle" {
					// The wrapped angle has the same cos and lies in [−π, π].
					if math.Abs(got) > math.Pi {
						t.Errorf("angle %v outside [−π, π]", got)
					}
					got = math.Cos(got)
				}
				if math.Abs(got-want) > 1e-12 {
					t.Errorf("%s: position %d pair %d: cos = %v; want %v", value, 10+p, i, got, want)
				}
			}
		}
	}
}

func TestPlotALiBiTiles(t *testing.T) {
	const heads, n = 5, 4
	hm, err := plotALiBi(heads, n, -1, true)
	if err != nil {
		t.Fatal(err)
	}
	// 5 heads: a 3-wide grid of 2 rows, one blank cell between tiles.
	if hm.rows != 2*(n+1)-1 || hm.cols != 3*(n+1)-1 {
		t.Fatalf("%d×%d; want %d×%d", hm.rows, hm.cols, 2*(n+1)-1, 3*(n+1)-1)
	}
	want, err := posenc.ALiBiBias[float64](heads, n, true)
	if err != nil {
		t.Fatal(err)
	}
	seen := 0
	for r := range hm.rows {
		for c := range hm.cols {
			v := hm.data[r*hm.cols+c]
			tr, tc, i, j := r/(n+1), c/(n+1), r%(n+1), c%(n+1)
			h := tr*3 + tc
			if i == n || j == n || h >= heads {
				if !math.IsNaN(v) {
					t.Errorf("gap cell (%d, %d) = %v; want NaN", r, c, v)
				}
				continue
			}
			seen++
			if w := want[(h*n+i)*n+j]; v != w {
				t.Errorf("head %d (%d, %d) = %v; want %v", h, i, j, v, w)
			}
		}
	}
	if seen != heads*n*n {
		t.Errorf("%d bias cells; want %d", seen, heads*n*n)
	}

	one, err := plotALiBi(heads, n, 2, false)
	if err != nil {
		t.Fatal(err)
	}
	slopes, _ := posenc.ALiBiSlopes(heads)
	for i := range n {
		for j := range n {
			if got, w := one.data[i*n+j], -slopes[2]*math.Abs(float64(i-j)); got != w {
				t.Errorf("head 2 (%d, %d) = %v; want %v", i, j, got, w)
			}
		}
	}
}

func TestPlotT5Data(t *testing.T) {
	f := newFlags("plot")
	tf := defineT5Flags(f)
	if err := f.parse([]string{"--bidirectional=false"}); err != nil {
		t.Fatal(err)
	}
	hm, err := plotT5(tf, 50)
	if err != nil {
		t.Fatal(err)
	}
	cfg := posenc.T5Buckets{NumBuckets: 32, MaxDistance: 128}
	for i := range 50 {
		for j := range 50 {
			want, err := cfg.Bucket(j - i)
			if err != nil {
				t.Fatal(err)
			}
			if got := hm.data[i*50+j]; got != float64(want) {
				t.Errorf("(%d, %d) = %v; want bucket %d", i, j, got, want)
			}
		}
	}
}
