package exercises

import "math"

// InterpolateTable stretches (or shrinks) a learned position table of L rows
// to newLen rows by linear interpolation along the positions, with the ends
// aligned: the first new row is the first trained row, the last new row is
// the last trained row, and the rows in between are spread evenly between
// them, each a linear blend of its two nearest trained rows. This is
// torch.nn.functional.interpolate(mode="linear", align_corners=True), the
// way vision Transformers resize their position tables.
//
// table has L ≥ 1 rows; newLen ≥ 1 (a single new row is the first trained
// row). The result is a new table; table is left unchanged.
//
// Read lesson 3, “No row, no position”. Hints: exercises/README.md.
func InterpolateTable(table [][]float64, newLen int) [][]float64 {
	last := len(table) - 1
	step := 0.0 // a single new row is row 0
	if newLen > 1 {
		step = float64(last) / float64(newLen-1)
	}
	out := make([][]float64, newLen)
	for p := range out {
		x := float64(p) * step // where new row p sits in the old table
		lo := min(int(math.Floor(x)), last)
		hi := min(lo+1, last)
		t := x - float64(lo)
		row := make([]float64, len(table[lo]))
		for c := range row {
			row[c] = (1-t)*table[lo][c] + t*table[hi][c]
		}
		out[p] = row
	}
	return out
}
