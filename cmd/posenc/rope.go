package main

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/posenc/course/pkg/posenc"
)

// floatList is a flag holding a comma-separated list of finite numbers.
type floatList []float64

func (v *floatList) String() string {
	parts := make([]string, len(*v))
	for i, x := range *v {
		parts[i] = strconv.FormatFloat(x, 'g', -1, 64)
	}
	return strings.Join(parts, ",")
}

func (v *floatList) Set(s string) error {
	fields := strings.Split(s, ",")
	if len(fields) > maxHeadDim {
		return fmt.Errorf("more than %d values", maxHeadDim)
	}
	out := make([]float64, len(fields))
	for i, field := range fields {
		x, err := parseFinite(strings.TrimSpace(field))
		if err != nil {
			return fmt.Errorf("element %d, %s, is %v", i, quote(field), err)
		}
		out[i] = x
	}
	*v = out
	return nil
}

// ropeLayouts are the -layout words of RoPE: where each rotated pair lives.
var ropeLayouts = []string{"interleaved", "half"}

func ropeLayout(name string) posenc.Layout {
	if name == "half" {
		return posenc.Halves
	}
	return posenc.Interleaved
}

func defineRoPE(f *flags) func(io.Writer) error {
	f.synopsis = "-x v1,v2,... -pos P [-base B] [-layout interleaved|half] [-rotary-dim R] [-scaling KIND ...] [-json]"
	var x floatList
	f.Var(&x, "x", "the head vector `v1,v2,...` to rotate; its length is the head dimension")
	pos := f.Int("pos", 0, "position `P` to rotate to (≥ 0)")
	f.Require("x", "pos")
	base := f.Finite("base", 10000, "θ (rope_theta) `B`; must be > 1")
	layout := f.Choice("layout", "interleaved", ropeLayouts, "where pair i lives, `interleaved|half`: interleaved = dims 2i, 2i+1\n"+
		"(RoFormer, GPT-J, Llama); half = dims i, i+D/2 (GPT-NeoX, HF rotate_half)")
	rotaryDim := f.Int("rotary-dim", 0, "rotate only the first `R` dimensions (even); 0 means all")
	sf := defineScalingFlags(f)
	asJSON := f.JSON()
	f.notes = []string{
		"Each pair (a, b) of x becomes (a·cos θ − b·sin θ, a·sin θ + b·cos θ), θ = P·ω_i, computed in float64\n" +
			"(YaRN also multiplies by its attention factor). JSON: {\"y\": [...]}.",
	}
	f.examples = []string{
		"posenc rope -x 1,0,1,0 -pos 1",
		"posenc rope -x 0.5,-1,2,0.25 -pos 100 -layout half -json",
	}
	return func(w io.Writer) error {
		if *rotaryDim == 0 && len(x)%2 != 0 {
			return usagef("-x must have an even number of values (the head dimension), got %d", len(x))
		}
		r, err := ropeFromFlags(f, len(x), "x", *rotaryDim, *base, ropeLayout(*layout), sf)
		if err != nil {
			return err
		}
		if *pos < 0 {
			return usagef("-pos must be >= 0, got %d", *pos)
		}
		y := make([]float64, len(x))
		if err := posenc.RotateTo(y, x, r, *pos); err != nil {
			params := ropeParamsFor(f, "x")
			params["pos"] = "pos"
			return paramError(err, params)
		}
		if *asJSON {
			b := []byte(`{"y": `)
			b = appendArray(b, y, 64)
			b = append(b, "}\n"...)
			_, err := w.Write(b)
			return err
		}
		return writeTable(w, []string{"dim", "x", "y"}, len(x), func(i, c int) string {
			switch c {
			case 0:
				return strconv.Itoa(i)
			case 1:
				return fixed(x[i])
			}
			return fixed(y[i])
		})
	}
}
