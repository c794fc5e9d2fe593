package main

import (
	"fmt"
	"io"
	"math"
	"path/filepath"
	"slices"
	"strings"

	"github.com/posenc/course/pkg/posenc"
	"github.com/posenc/course/pkg/viz"
)

// savePlot writes a figure; tests replace it to avoid touching the disk.
var savePlot = viz.Save

// maxPlotCells bounds a heatmap's cells: each becomes a rectangle, and a
// larger grid takes long to draw and cannot be seen anyway.
const maxPlotCells = 1 << 18

var plotKinds = []string{"sinusoidal", "rope", "alibi", "t5"}

// plotApplies says which kinds use each kind-specific flag (the rest apply
// to all): giving a flag the chosen kind ignores is an error. A list, so
// that the first offending flag is always the same one.
var plotApplies = []struct {
	flag  string
	kinds []string
}{
	{"dim", []string{"sinusoidal", "rope"}},
	{"start", []string{"sinusoidal", "rope"}},
	{"base", []string{"sinusoidal", "rope"}},
	{"layout", []string{"sinusoidal"}},
	{"dtype", []string{"sinusoidal"}},
	{"rotary-dim", []string{"rope"}},
	{"value", []string{"rope"}},
	{"scaling", []string{"rope"}},
	{"factor", []string{"rope"}},
	{"orig-len", []string{"rope"}},
	{"seq-len", []string{"rope"}},
	{"beta-fast", []string{"rope"}},
	{"beta-slow", []string{"rope"}},
	{"attention-factor", []string{"rope"}},
	{"low-freq-factor", []string{"rope"}},
	{"high-freq-factor", []string{"rope"}},
	{"heads", []string{"alibi"}},
	{"head", []string{"alibi"}},
	{"causal", []string{"alibi"}},
	{"buckets", []string{"t5"}},
	{"max-distance", []string{"t5"}},
	{"bidirectional", []string{"t5"}},
}

// plotRequires lists the flags each kind needs besides -kind, -o and -len.
var plotRequires = map[string][]string{
	"sinusoidal": {"dim"},
	"rope":       {"dim"},
	"alibi":      {"heads"},
}

// heatmap is what a kind computes: a row-major matrix and its labels.
type heatmap struct {
	data                  []float64
	rows, cols            int
	title, xLabel, yLabel string
}

func definePlot(f *flags) func(io.Writer) error {
	f.synopsis = "-kind sinusoidal|rope|alibi|t5 -len N [kind flags] -o out.png|out.svg"
	kind := f.Choice("kind", "", plotKinds, "what to draw, `sinusoidal|rope|alibi|t5`")
	out := f.String("o", "", "output `FILE`; .png or .svg chooses the format")
	n := f.Int("len", 0, "`N` positions (sinusoidal, rope) or queries = keys (alibi, t5)")
	f.Require("kind", "o", "len")
	dim := f.Int("dim", 0, "sinusoidal: d_model `D`; rope: head dimension (required for both)")
	start := f.Int("start", 0, "sinusoidal, rope: first position `P`")
	base := f.Finite("base", 10000, "sinusoidal, rope: frequency base `B`; must be > 1")
	layout := f.Choice("layout", "interleaved", sinusoidalLayouts,
		"sinusoidal: row layout, `interleaved|concat` (concat = [sin | cos], tensor2tensor)")
	dtype := f.Choice("dtype", "float64", dtypes, "sinusoidal: compute the table in `float32|float64`")
	rotaryDim := f.Int("rotary-dim", 0, "rope: rotate only the first `R` dimensions; 0 means all")
	value := f.Choice("value", "cos", []string{"cos", "angle"},
		"rope: draw `cos|angle`: cos(P·ω_i), or the angle P·ω_i wrapped to [−π, π]")
	sf := defineScalingFlags(f)
	heads := f.Int("heads", 0, "alibi: number of heads `H` (required)")
	head := f.Int("head", -1, "alibi: draw head `h` only (from 0); -1 tiles all heads, row by row")
	causal := f.Bool("causal", false, "alibi: causal bias, masked (blank) after the query")
	tf := defineT5Flags(f)
	width := f.Finite("width", viz.DefaultWidthCm, "figure width in `CM` (centimetres)")
	height := f.Finite("height", viz.DefaultHeightCm, "figure height in `CM` (centimetres)")
	f.notes = []string{
		"Heatmaps: sinusoidal, positions × dimensions; rope, positions × pairs; alibi, queries × keys\n" +
			"of one head or all heads tiled; t5, the bucket of key − query for queries × keys.\n" +
			"Scaling flags (-scaling, -factor, ...) apply to rope as in 'posenc rope-freqs'.",
	}
	f.examples = []string{
		"posenc plot -kind sinusoidal -len 100 -dim 64 -o sinusoidal.png",
		"posenc plot -kind rope -len 256 -dim 64 -value angle -o rope.svg",
		"posenc plot -kind alibi -heads 8 -len 32 -causal -o alibi.png",
		"posenc plot -kind t5 -len 64 -bidirectional=false -o t5.svg",
	}
	return func(_ io.Writer) error {
		for _, a := range plotApplies {
			if f.given(a.flag) && !slices.Contains(a.kinds, *kind) {
				return usagef("-%s applies only to -kind %s, not %s", a.flag, orList(a.kinds), *kind)
			}
		}
		for _, name := range plotRequires[*kind] {
			if !f.given(name) {
				return usagef("-%s is required with -kind %s", name, *kind)
			}
		}
		ext := strings.ToLower(filepath.Ext(*out))
		if ext != ".png" && ext != ".svg" {
			return usagef("-o must end in .png or .svg, got %s", quote(*out))
		}
		if !(*width > 0 && *width <= 500) {
			return usagef("-width must be in (0, 500] cm, got %g", *width)
		}
		if !(*height > 0 && *height <= 500) {
			return usagef("-height must be in (0, 500] cm, got %g", *height)
		}
		if err := checkPositive("len", *n); err != nil {
			return err
		}
		var hm heatmap
		var err error
		switch *kind {
		case "sinusoidal":
			hm, err = plotSinusoidal(*n, *dim, *start, *base, *layout, *dtype)
		case "rope":
			hm, err = plotRoPE(f, *n, *dim, *start, *rotaryDim, *base, *value, sf)
		case "alibi":
			hm, err = plotALiBi(*heads, *n, *head, *causal)
		case "t5":
			hm, err = plotT5(tf, *n)
		}
		if err != nil {
			return err
		}
		fig := viz.Heatmap(hm.data, hm.rows, hm.cols, hm.title, hm.xLabel, hm.yLabel)
		return savePlot(fig, *out, *width, *height)
	}
}

func plotSinusoidal(n, dim, start int, base float64, layout, dtype string) (heatmap, error) {
	if err := checkPositive("dim", dim); err != nil {
		return heatmap{}, err
	}
	s, err := sinusoidalConfig(dim, base, layout)
	if err != nil {
		return heatmap{}, err
	}
	if err := checkSize("len", maxPlotCells, n, dim); err != nil {
		return heatmap{}, err
	}
	table, _, err := sinusoidalTable(s, start, n, dtype)
	if err != nil {
		return heatmap{}, paramError(err, sinusoidalParams)
	}
	return heatmap{
		data: table, rows: n, cols: dim,
		title:  fmt.Sprintf("Sinusoidal PE (d=%d, base %g, %s)", dim, base, layout),
		xLabel: "dimension", yLabel: "position",
	}, nil
}

func plotRoPE(f *flags, n, dim, start, rotaryDim int, base float64, value string, sf *scalingFlags) (heatmap, error) {
	r, err := ropeFromFlags(f, dim, "dim", rotaryDim, base, posenc.Interleaved, sf)
	if err != nil {
		return heatmap{}, err
	}
	if start < 0 || start > 1<<40 {
		return heatmap{}, usagef("-start must be in [0, 2^40], got %d", start)
	}
	freqs, err := r.InvFreq()
	if err != nil {
		return heatmap{}, paramError(err, ropeParamsFor(f, "dim"))
	}
	if err := checkSize("len", maxPlotCells, n, len(freqs)); err != nil {
		return heatmap{}, err
	}
	data := make([]float64, n*len(freqs))
	for p := range n {
		for i, w := range freqs {
			angle := float64(start+p) * w
			if value == "angle" {
				data[p*len(freqs)+i] = math.Remainder(angle, 2*math.Pi)
			} else {
				data[p*len(freqs)+i] = math.Cos(angle)
			}
		}
	}
	what := "cos(m·ω_i)"
	if value == "angle" {
		what = "angle m·ω_i mod 2π"
	}
	title := fmt.Sprintf("RoPE %s (d=%d, base %g", what, r.Rot(), base)
	if r.Scaling.Kind != posenc.ScalingNone {
		title += fmt.Sprintf(", %s ×%g", r.Scaling.Kind, r.Scaling.Factor)
	}
	return heatmap{
		data: data, rows: n, cols: len(freqs), title: title + ")",
		xLabel: "pair i", yLabel: "position m",
	}, nil
}

func plotALiBi(heads, n, head int, causal bool) (heatmap, error) {
	if err := checkPositive("heads", heads); err != nil {
		return heatmap{}, err
	}
	if head < -1 || head >= heads {
		return heatmap{}, usagef("-head must be -1 (all) or in [0, %d), got %d", heads, head)
	}
	// Tiles: a grid of gridCols × gridRows heads, one blank (NaN) cell
	// between neighbours.
	gridCols, gridRows := 1, 1
	if head < 0 {
		gridCols = int(math.Ceil(math.Sqrt(float64(heads))))
		gridRows = (heads + gridCols - 1) / gridCols
	}
	if err := checkSize("len", maxPlotCells, gridRows, n+1, gridCols, n+1); err != nil {
		return heatmap{}, err
	}
	slopes, err := posenc.ALiBiSlopes(heads)
	if err != nil {
		return heatmap{}, paramError(err, alibiParams)
	}
	if head >= 0 {
		bias := make([]float64, n*n)
		if err := posenc.ALiBiBiasTo(bias, slopes[head:head+1], n, n, causal); err != nil {
			return heatmap{}, paramError(err, alibiParams)
		}
		return heatmap{
			data: bias, rows: n, cols: n,
			title:  fmt.Sprintf("ALiBi bias, head %d of %d (slope %.4g)%s", head, heads, slopes[head], causalNote(causal)),
			xLabel: "key j", yLabel: "query i",
		}, nil
	}
	bias := make([]float64, heads*n*n)
	if err := posenc.ALiBiBiasTo(bias, slopes, n, n, causal); err != nil {
		return heatmap{}, paramError(err, alibiParams)
	}
	rows, cols := gridRows*(n+1)-1, gridCols*(n+1)-1
	data := make([]float64, rows*cols)
	for i := range data {
		data[i] = math.NaN()
	}
	for h := range heads {
		r0, c0 := (h/gridCols)*(n+1), (h%gridCols)*(n+1)
		for i := range n {
			copy(data[(r0+i)*cols+c0:(r0+i)*cols+c0+n], bias[(h*n+i)*n:(h*n+i+1)*n])
		}
	}
	return heatmap{
		data: data, rows: rows, cols: cols,
		title:  fmt.Sprintf("ALiBi bias, %d heads tiled row by row%s", heads, causalNote(causal)),
		xLabel: "key j (per tile)", yLabel: "query i (per tile)",
	}, nil
}

func causalNote(causal bool) string {
	if causal {
		return ", causal"
	}
	return ""
}

func plotT5(tf *t5Flags, n int) (heatmap, error) {
	cfg, err := tf.config()
	if err != nil {
		return heatmap{}, err
	}
	if err := checkSize("len", maxPlotCells, n, n); err != nil {
		return heatmap{}, err
	}
	buckets := make([]int32, n*n)
	if err := cfg.BucketsTo(buckets, n, n); err != nil {
		return heatmap{}, paramError(err, t5Params)
	}
	data := make([]float64, n*n)
	for i, b := range buckets {
		data[i] = float64(b)
	}
	dir := "bidirectional"
	if !cfg.Bidirectional {
		dir = "causal"
	}
	return heatmap{
		data: data, rows: n, cols: n,
		title:  fmt.Sprintf("T5 buckets (%d buckets, max distance %d, %s)", cfg.NumBuckets, cfg.MaxDistance, dir),
		xLabel: "key j", yLabel: "query i",
	}, nil
}
