package main

import (
	"fmt"
	"io"
	"math"
	"strconv"

	"github.com/posenc/course/pkg/posenc"
)

// alibiParams maps posenc's ALiBi parameter names to flags.
var alibiParams = map[string]string{"heads": "heads", "n": "len", "heads×n×n": "len"}

func defineALiBi(f *flags) func(io.Writer) error {
	f.synopsis = "-heads H [-len N [-causal]] [-json]"
	heads := f.Int("heads", 0, "number of attention heads `H`")
	f.Require("heads")
	n := f.Int("len", 0, "also print each head's `N`×N bias matrix (query rows, key columns)")
	causal := f.Bool("causal", false, "causal bias: −m·(i−j) for keys j ≤ query i, −Inf (masked) after it; needs -len")
	asJSON := f.JSON()
	f.notes = []string{
		"Slopes follow the ALiBi authors' get_slopes: 2^(−8k/H) for k = 1…H when H is a power of two.\n" +
			"Without -causal the bias is −m·|i−j|.\n" +
			"JSON: {\"slopes\": [...], \"bias\": [[[...]]]} (bias [H][N][N], only with -len). JSON has no\n" +
			"infinity, so the causal −Inf entries are written as null.",
	}
	f.examples = []string{
		"posenc alibi -heads 8",
		"posenc alibi -heads 4 -len 5 -causal -json",
	}
	return func(w io.Writer) error {
		if err := checkPositive("heads", *heads); err != nil {
			return err
		}
		if f.given("len") {
			if err := checkPositive("len", *n); err != nil {
				return err
			}
			if err := checkSize("len", maxValues, *heads, *n, *n); err != nil {
				return err
			}
		} else if *causal {
			return usagef("-causal needs -len (it shapes the bias matrices)")
		}
		slopes, err := posenc.ALiBiSlopes(*heads)
		if err != nil {
			return paramError(err, alibiParams)
		}
		var bias []float64
		if f.given("len") {
			if bias, err = posenc.ALiBiBias[float64](*heads, *n, *causal); err != nil {
				return paramError(err, alibiParams)
			}
		}
		if *asJSON {
			return writeALiBiJSON(w, slopes, bias, *n)
		}
		return writeALiBiTables(w, slopes, bias, *n)
	}
}

func writeALiBiJSON(w io.Writer, slopes, bias []float64, n int) error {
	b := []byte(`{"slopes": `)
	b = appendArray(b, slopes, 64)
	if bias == nil {
		b = append(b, "}\n"...)
		_, err := w.Write(b)
		return err
	}
	b = append(b, ",\n \"bias\": ["...)
	if _, err := w.Write(b); err != nil {
		return err
	}
	for h := range slopes {
		sep := ",\n  "
		if h == 0 {
			sep = ""
		}
		if _, err := io.WriteString(w, sep); err != nil {
			return err
		}
		if err := writeMatrix(w, bias[h*n*n:(h+1)*n*n], n, n, 64, "   "); err != nil {
			return err
		}
	}
	_, err := io.WriteString(w, "]}\n")
	return err
}

func writeALiBiTables(w io.Writer, slopes, bias []float64, n int) error {
	if err := writeTable(w, []string{"head", "slope", "log2(slope)"}, len(slopes), func(h, c int) string {
		switch c {
		case 0:
			return strconv.Itoa(h)
		case 1:
			return strconv.FormatFloat(slopes[h], 'g', 6, 64)
		}
		return strconv.FormatFloat(math.Log2(slopes[h]), 'g', 6, 64)
	}); err != nil {
		return err
	}
	if bias == nil {
		return nil
	}
	header := make([]string, n+1)
	header[0] = `q\k`
	for j := range n {
		header[j+1] = strconv.Itoa(j)
	}
	for h, m := range slopes {
		if _, err := fmt.Fprintf(w, "\nhead %d (slope %s):\n", h, strconv.FormatFloat(m, 'g', 6, 64)); err != nil {
			return err
		}
		mat := bias[h*n*n : (h+1)*n*n]
		if err := writeTable(w, header, n, func(i, c int) string {
			if c == 0 {
				return strconv.Itoa(i)
			}
			return fixed(mat[i*n+c-1])
		}); err != nil {
			return err
		}
	}
	return nil
}
