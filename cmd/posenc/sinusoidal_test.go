package main

import (
	"encoding/json"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/posenc/course/pkg/posenc"
)

// decodeJSON decodes out, which must be exactly one JSON object, keeping
// numbers as their text so that digits can be checked.
func decodeJSON(t *testing.T, out string, v any) {
	t.Helper()
	dec := json.NewDecoder(strings.NewReader(out))
	dec.UseNumber()
	if err := dec.Decode(v); err != nil {
		t.Fatalf("stdout is not JSON: %v\n%s", err, out)
	}
	if dec.More() {
		t.Fatalf("stdout holds more than one JSON value:\n%s", out)
	}
}

func parseNumber(t *testing.T, n json.Number, bits int) float64 {
	t.Helper()
	v, err := strconv.ParseFloat(string(n), bits)
	if err != nil {
		t.Fatalf("%q is not a number: %v", n, err)
	}
	return v
}

func TestSinusoidalJSONMatchesPaper(t *testing.T) {
	var got struct{ Table [][]json.Number }
	decodeJSON(t, mustRun(t, "sinusoidal", "--len", "4", "--dim", "4", "--json"), &got)
	if len(got.Table) != 4 {
		t.Fatalf("%d rows; want 4", len(got.Table))
	}
	// PE(3) for d = 4 (Vaswani et al. 2017, section 3.5): ω = 1, 1/100.
	want := []float64{math.Sin(3), math.Cos(3), math.Sin(0.03), math.Cos(0.03)}
	if want[0]-0.1411 > 1e-4 || want[1]+0.99 > 1e-3 {
		t.Fatalf("reference PE(3) = %v is off", want)
	}
	for i, n := range got.Table[3] {
		if v := parseNumber(t, n, 64); math.Abs(v-want[i]) > 1e-4 {
			t.Errorf("PE(3)[%d] = %v; want %v ± 1e-4", i, v, want[i])
		}
	}
}

// TestSinusoidalJSONRoundTrips checks that every JSON number is the shortest
// text that parses back to exactly the library's value, for both dtypes and
// both layouts, at a start position where float32 rounding matters.
func TestSinusoidalJSONRoundTrips(t *testing.T) {
	const n, dim, start = 5, 8, 123456
	for _, layout := range []string{"interleaved", "concat"} {
		s := posenc.NewSinusoidal(dim)
		if layout == "concat" {
			s = s.WithTensor2Tensor()
		}
		t.Run(layout+"/float32", func(t *testing.T) {
			want, err := posenc.SinusoidalTable[float32](s, start, n)
			if err != nil {
				t.Fatal(err)
			}
			var got struct{ Table [][]json.Number }
			decodeJSON(t, mustRun(t, "sinusoidal", "--len", "5", "--dim", "8", "--start", "123456",
				"--layout", layout, "--json"), &got)
			checkTable(t, got.Table, n, dim, func(i int, num json.Number) {
				if v := float32(parseNumber(t, num, 32)); v != want[i] {
					t.Errorf("value %d = %v; want exactly %v", i, v, want[i])
				}
				if w := strconv.FormatFloat(float64(want[i]), 'g', -1, 32); string(num) != w {
					t.Errorf("value %d printed %q; want %q", i, num, w)
				}
			})
		})
		t.Run(layout+"/float64", func(t *testing.T) {
			want, err := posenc.SinusoidalTable[float64](s, start, n)
			if err != nil {
				t.Fatal(err)
			}
			var got struct{ Table [][]json.Number }
			decodeJSON(t, mustRun(t, "sinusoidal", "--len", "5", "--dim", "8", "--start", "123456",
				"--layout", layout, "--dtype", "float64", "--json"), &got)
			checkTable(t, got.Table, n, dim, func(i int, num json.Number) {
				if v := parseNumber(t, num, 64); v != want[i] {
					t.Errorf("value %d = %v; want exactly %v", i, v, want[i])
				}
				// An independent float64 reference: tensor2tensor's or
				// Vaswani's formula at position start + row.
				row, col := i/dim, i%dim
				if ref := sinusoidalRef(layout, dim, start+row, col); math.Abs(want[i]-ref) > 1e-9 {
					t.Errorf("value %d = %v; reference %v", i, want[i], ref)
				}
			})
		})
	}
}

// sinusoidalRef is PE(pos, col) written from the papers: Vaswani et al.
// (interleaved, ω_i = 10000^(−2i/d)) or tensor2tensor's
// get_timing_signal_1d ([sin | cos], ω_i = 10000^(−i/(d/2−1))).
func sinusoidalRef(layout string, dim, pos, col int) float64 {
	half := dim / 2
	if layout == "concat" {
		i, f := col%half, math.Sin
		if col >= half {
			f = math.Cos
		}
		return f(float64(pos) * math.Exp(-float64(i)*math.Log(10000)/float64(half-1)))
	}
	w := math.Pow(10000, -float64(2*(col/2))/float64(dim))
	if col%2 == 0 {
		return math.Sin(float64(pos) * w)
	}
	return math.Cos(float64(pos) * w)
}

func checkTable(t *testing.T, table [][]json.Number, rows, cols int, check func(i int, n json.Number)) {
	t.Helper()
	if len(table) != rows {
		t.Fatalf("%d rows; want %d", len(table), rows)
	}
	for r, row := range table {
		if len(row) != cols {
			t.Fatalf("row %d has %d values; want %d", r, len(row), cols)
		}
		for c, n := range row {
			check(r*cols+c, n)
		}
	}
}

func TestSinusoidalHuman(t *testing.T) {
	out := mustRun(t, "sinusoidal", "--len", "4", "--dim", "4", "--start", "7")
	lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
	if len(lines) != 5 {
		t.Fatalf("%d lines; want header + 4:\n%s", len(lines), out)
	}
	if got := strings.Fields(lines[0]); strings.Join(got, " ") != "pos d0 d1 d2 d3" {
		t.Errorf("header %q; want pos d0 d1 d2 d3", lines[0])
	}
	// Row 3 is position 10: sin(10) = −0.544021.
	if got := strings.Fields(lines[4]); got[0] != "10" || got[1] != "-0.544021" {
		t.Errorf("last row %q; want position 10 with d0 = -0.544021", lines[4])
	}
	// Columns are aligned: every line has the same length.
	for _, l := range lines {
		if len(l) != len(lines[0]) {
			t.Errorf("line %q is not aligned with the header %q", l, lines[0])
		}
	}
}
