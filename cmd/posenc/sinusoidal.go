package main

import (
	"fmt"
	"io"
	"strconv"

	"github.com/posenc/course/pkg/posenc"
)

// sinusoidalParams maps posenc's parameter names to this command's flags.
var sinusoidalParams = map[string]string{
	"dim": "dim", "base": "base", "start": "start", "n": "len", "n×dim": "len",
}

// sinusoidalLayouts are the -layout words of sinusoidal tables, dtypes the
// -dtype words.
var (
	sinusoidalLayouts = []string{"interleaved", "concat"}
	dtypes            = []string{"float32", "float64"}
)

// sinusoidalConfig builds the table configuration from the flags.
func sinusoidalConfig(dim int, base float64, layout string) (posenc.Sinusoidal, error) {
	s := posenc.NewSinusoidal(dim).WithBase(base)
	if layout == "concat" {
		s = s.WithTensor2Tensor()
	}
	if err := s.Validate(); err != nil {
		return s, paramError(err, sinusoidalParams)
	}
	return s, nil
}

func defineSinusoidal(f *flags) func(io.Writer) error {
	f.synopsis = "-len N -dim D [-start P] [-base B] [-layout interleaved|concat] [-dtype float32|float64] [-json]"
	n := f.Int("len", 0, "number of positions `N` (table rows)")
	dim := f.Int("dim", 0, "d_model `D`, the width of each row; must be even")
	f.Require("len", "dim")
	start := f.Int("start", 0, "first position `P`: row r is position P+r")
	base := f.Finite("base", 10000, "frequency base `B`: wavelengths range from 2π to 2π·B; must be > 1")
	layout := f.Choice("layout", "interleaved", sinusoidalLayouts,
		"layout of each row, `interleaved|concat`: interleaved = even dims sin, odd dims cos\n(Vaswani et al.); concat = [sin | cos] with tensor2tensor's frequency spacing")
	dtype := f.Choice("dtype", "float32", dtypes, "compute the table in `float32|float64` (JSON digits round-trip it)")
	asJSON := f.JSON()
	f.notes = []string{
		"Row r is PE(P+r): PE(pos, 2i) = sin(pos·ω_i), PE(pos, 2i+1) = cos(pos·ω_i), ω_i = B^(−2i/D).\n" +
			"JSON: {\"table\": [[...], ...]}, one array of D numbers per position.",
	}
	f.examples = []string{
		"posenc sinusoidal -len 4 -dim 4",
		"posenc sinusoidal -len 128 -dim 64 -layout concat -dtype float64 -json",
	}
	return func(w io.Writer) error {
		if err := checkPositive("len", *n); err != nil {
			return err
		}
		if err := checkPositive("dim", *dim); err != nil {
			return err
		}
		s, err := sinusoidalConfig(*dim, *base, *layout)
		if err != nil {
			return err
		}
		if err := checkSize("len", maxValues, *n, *dim); err != nil {
			return err
		}
		table, bits, err := sinusoidalTable(s, *start, *n, *dtype)
		if err != nil {
			return paramError(err, sinusoidalParams)
		}
		if *asJSON {
			if _, err := io.WriteString(w, "{\"table\": "); err != nil {
				return err
			}
			if err := writeMatrix(w, table, *n, *dim, bits, "          "); err != nil {
				return err
			}
			_, err := io.WriteString(w, "}\n")
			return err
		}
		header := make([]string, *dim+1)
		header[0] = "pos"
		for d := range *dim {
			header[d+1] = "d" + strconv.Itoa(d)
		}
		return writeTable(w, header, *n, func(r, c int) string {
			if c == 0 {
				return strconv.Itoa(*start + r)
			}
			return fixed(table[r**dim+c-1])
		})
	}
}

// sinusoidalTable computes the table in dtype and returns it widened to
// float64 (exactly), with the bit size its JSON digits must round-trip.
func sinusoidalTable(s posenc.Sinusoidal, start, n int, dtype string) ([]float64, int, error) {
	switch dtype {
	case "float64":
		t, err := posenc.SinusoidalTable[float64](s, start, n)
		return t, 64, err
	case "float32":
		t, err := posenc.SinusoidalTable[float32](s, start, n)
		if err != nil {
			return nil, 0, err
		}
		wide := make([]float64, len(t))
		for i, v := range t {
			wide[i] = float64(v)
		}
		return wide, 32, nil
	}
	return nil, 0, fmt.Errorf("unknown dtype %q", dtype)
}
