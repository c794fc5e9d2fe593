package main

import (
	"io"
	"math"
	"strconv"
	"strings"
)

// appendNumber appends v as a JSON number with the fewest digits that
// round-trip a float of the given bit size (32 or 64), or null for NaN and
// ±Inf, which JSON cannot express. −0 is written as 0.
func appendNumber(b []byte, v float64, bits int) []byte {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return append(b, "null"...)
	}
	if v == 0 {
		v = 0 // drop the sign of −0
	}
	return strconv.AppendFloat(b, v, 'g', -1, bits)
}

// appendArray appends vals as a JSON array of numbers.
func appendArray(b []byte, vals []float64, bits int) []byte {
	b = append(b, '[')
	for i, v := range vals {
		if i > 0 {
			b = append(b, ", "...)
		}
		b = appendNumber(b, v, bits)
	}
	return append(b, ']')
}

// writeMatrix writes the row-major rows×cols matrix vals as a JSON array of
// arrays, one row per line, each line prefixed by indent.
func writeMatrix(w io.Writer, vals []float64, rows, cols, bits int, indent string) error {
	b := make([]byte, 0, 64*cols+16)
	if _, err := io.WriteString(w, "["); err != nil {
		return err
	}
	for r := range rows {
		b = append(b[:0], indent...)
		if r == 0 {
			b = b[:0]
		}
		b = appendArray(b, vals[r*cols:(r+1)*cols], bits)
		if r < rows-1 {
			b = append(b, ",\n"...)
		}
		if _, err := w.Write(b); err != nil {
			return err
		}
	}
	_, err := io.WriteString(w, "]")
	return err
}

// writeTable writes an aligned text table: a header line, then rows lines of
// cols cells each, every column right-aligned and separated by two spaces.
// cell is called twice per cell (once to measure, once to print), so that
// large tables are never held in memory as text.
func writeTable(w io.Writer, header []string, rows int, cell func(r, c int) string) error {
	cols := len(header)
	width := make([]int, cols)
	for c, h := range header {
		width[c] = len(h)
	}
	for r := range rows {
		for c := range cols {
			width[c] = max(width[c], len(cell(r, c)))
		}
	}
	var b []byte
	line := func(get func(c int) string) error {
		b = b[:0]
		for c := range cols {
			s := get(c)
			if c > 0 {
				b = append(b, "  "...)
			}
			b = append(b, strings.Repeat(" ", width[c]-len(s))...)
			b = append(b, s...)
		}
		b = append(b, '\n')
		_, err := w.Write(b)
		return err
	}
	if err := line(func(c int) string { return header[c] }); err != nil {
		return err
	}
	for r := range rows {
		if err := line(func(c int) string { return cell(r, c) }); err != nil {
			return err
		}
	}
	return nil
}

// fixed formats v with 6 decimals for tables; −0 prints as 0 and −Inf as
// -inf.
func fixed(v float64) string {
	switch {
	case math.IsInf(v, -1):
		return "-inf"
	case math.IsInf(v, 1):
		return "inf"
	case v == 0:
		v = 0
	}
	s := strconv.FormatFloat(v, 'f', 6, 64)
	if s == "-0.000000" {
		return "0.000000"
	}
	return s
}

// sci formats v in scientific notation with 6 significant digits, for
// quantities that span many orders of magnitude (frequencies, slopes).
func sci(v float64) string { return strconv.FormatFloat(v, 'e', 5, 64) }
