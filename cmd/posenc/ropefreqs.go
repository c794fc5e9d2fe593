package main

import (
	"fmt"
	"io"
	"math"
	"strconv"

	"github.com/posenc/course/pkg/posenc"
)

// maxHeadDim bounds -dim for RoPE: far above any real head (128–256), low
// enough that a typo cannot ask for gigabytes.
const maxHeadDim = 1 << 20

func defineRoPEFreqs(f *flags) func(io.Writer) error {
	f.synopsis = "-dim D [-rotary-dim R] [-base B] [-scaling KIND -factor S ...] [-json]"
	dim := f.Int("dim", 0, "head dimension `D` of queries and keys")
	f.Require("dim")
	rotaryDim := f.Int("rotary-dim", 0, "rotate only the first `R` dimensions (even); 0 means all of D")
	base := f.Finite("base", 10000, "θ (rope_theta) `B`; must be > 1")
	sf := defineScalingFlags(f)
	asJSON := f.JSON()
	f.notes = []string{
		"Prints ω_i = B^(−2i/R) for each pair i, scaled as -scaling says (Hugging Face's inv_freq,\n" +
			"float64), and the attention factor that multiplies cos and sin (YaRN; 1 otherwise).\n" +
			"JSON: {\"inv_freq\": [...], \"attention_factor\": a}.",
	}
	f.examples = []string{
		"posenc rope-freqs -dim 8",
		"posenc rope-freqs -dim 128 -base 500000 -scaling llama3 -factor 8 -orig-len 8192 -json",
		"posenc rope-freqs -dim 64 -scaling yarn -factor 4 -orig-len 2048 -beta-fast 32 -beta-slow 1",
	}
	return func(w io.Writer) error {
		r, err := ropeFromFlags(f, *dim, "dim", *rotaryDim, *base, posenc.Interleaved, sf)
		if err != nil {
			return err
		}
		freqs, err := r.InvFreq()
		if err != nil {
			return paramError(err, ropeParamsFor(f, "dim"))
		}
		af := r.AttentionFactor()
		if *asJSON {
			b := []byte(`{"inv_freq": `)
			b = appendArray(b, freqs, 64)
			b = append(b, `, "attention_factor": `...)
			b = appendNumber(b, af, 64)
			b = append(b, "}\n"...)
			_, err := w.Write(b)
			return err
		}
		header := []string{"pair", "inv_freq", "wavelength"}
		if err := writeTable(w, header, len(freqs), func(i, c int) string {
			switch c {
			case 0:
				return strconv.Itoa(i)
			case 1:
				return sci(freqs[i])
			}
			return strconv.FormatFloat(2*math.Pi/freqs[i], 'f', 2, 64)
		}); err != nil {
			return err
		}
		_, err = fmt.Fprintf(w, "attention factor: %s\n", strconv.FormatFloat(af, 'g', -1, 64))
		return err
	}
}

// ropeFromFlags validates the RoPE flags shared by rope-freqs, rope and
// plot and returns the configuration. headDimFlag names the flag that set
// headDim, for messages.
func ropeFromFlags(f *flags, headDim int, headDimFlag string, rotaryDim int, base float64,
	layout posenc.Layout, sf *scalingFlags) (posenc.RoPE, error) {
	if err := checkPositive(headDimFlag, headDim); err != nil {
		return posenc.RoPE{}, err
	}
	if headDim > maxHeadDim {
		return posenc.RoPE{}, usagef("-%s must be at most %d, got %d", headDimFlag, maxHeadDim, headDim)
	}
	if err := checkRotaryDim(rotaryDim, headDim, headDimFlag); err != nil {
		return posenc.RoPE{}, err
	}
	sc, err := sf.build(f)
	if err != nil {
		return posenc.RoPE{}, err
	}
	r := posenc.NewRoPE(headDim).WithRotaryDim(rotaryDim).WithBase(base).WithLayout(layout).WithScaling(sc)
	if err := r.Validate(); err != nil {
		return r, paramError(err, ropeParamsFor(f, headDimFlag))
	}
	return r, nil
}
