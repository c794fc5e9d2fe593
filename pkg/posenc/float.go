package posenc

import "github.com/posenc/course/internal/validate"

// Float is the element type of host-layer slices.
type Float interface {
	~float32 | ~float64
}

// Layout says where the two members of each rotation pair live in a vector
// of dimension d. Sinusoidal tables and RoPE both work on pairs
// (sin, cos) or (x, y) sharing one frequency.
type Layout int

const (
	// Interleaved puts pair i at dimensions 2i and 2i+1: Vaswani et al.'s
	// sinusoidal table (even = sin, odd = cos), RoFormer, GPT-J and Meta's
	// Llama reference code.
	Interleaved Layout = iota
	// Halves puts pair i at dimensions i and i+d/2: tensor2tensor's
	// [sin | cos] sinusoidal table, GPT-NeoX and Hugging Face's rotate_half.
	Halves
)

// String returns "interleaved" or "halves".
func (l Layout) String() string {
	switch l {
	case Interleaved:
		return "interleaved"
	case Halves:
		return "halves"
	}
	return "Layout(invalid)"
}

func checkLayout(param string, l Layout) error {
	if l != Interleaved && l != Halves {
		return validate.Err(param, int(l), "must be Interleaved or Halves")
	}
	return nil
}

// pairIndex returns the dimensions holding pair i of a d-dimensional vector.
func pairIndex(l Layout, d, i int) (a, b int) {
	if l == Halves {
		return i, i + d/2
	}
	return 2 * i, 2*i + 1
}

// Rows splits a row-major table into views of its rows (no copy). It returns
// nil when cols is not positive or does not divide len(flat).
func Rows[T any](flat []T, cols int) [][]T {
	if cols <= 0 || len(flat)%cols != 0 {
		return nil
	}
	rows := make([][]T, len(flat)/cols)
	for i := range rows {
		rows[i] = flat[i*cols : (i+1)*cols : (i+1)*cols]
	}
	return rows
}
