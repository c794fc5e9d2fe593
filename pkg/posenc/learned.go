package posenc

import "github.com/posenc/course/internal/validate"

// Learned configures learned absolute position embeddings, as in BERT and
// GPT-2: a trainable [MaxLen, Dim] table whose row p is added to the token
// embedding at position p. It has MaxLen·Dim parameters, and nothing at all
// for positions ≥ MaxLen: those are an error, never a silent clamp.
type Learned struct {
	MaxLen int // number of positions the table has rows for
	Dim    int // width of each row (d_model)
}

// NewLearned returns a table of maxLen positions by dim.
func NewLearned(maxLen, dim int) Learned { return Learned{MaxLen: maxLen, Dim: dim} }

// Validate returns a *ParamError for a non-positive MaxLen or Dim.
func (l Learned) Validate() error {
	if err := validate.Positive("max_len", l.MaxLen); err != nil {
		return err
	}
	if err := validate.Positive("dim", l.Dim); err != nil {
		return err
	}
	return validate.Elements("max_len×dim", l.MaxLen, l.Dim)
}

// NumParams returns MaxLen·Dim, the number of trainable parameters.
func (l Learned) NumParams() int { return l.MaxLen * l.Dim }

// CheckPositions returns a *ParamError naming the first position that has no
// row in the table (negative, or ≥ MaxLen).
func (l Learned) CheckPositions(positions []int) error {
	if err := l.Validate(); err != nil {
		return err
	}
	for i, p := range positions {
		if p < 0 || p >= l.MaxLen {
			return validate.Err("positions["+itoa(i)+"]", p,
				"is past the learned table: max_len is "+itoa(l.MaxLen)+", so positions must be in [0, "+itoa(l.MaxLen)+")")
		}
	}
	return nil
}

// LearnedLookupTo copies the rows of table (a row-major [l.MaxLen, l.Dim]
// matrix, for example a trained variable's value) at positions into dst
// ([len(positions), l.Dim]).
func LearnedLookupTo[T Float](dst, table []T, l Learned, positions []int) error {
	if err := l.CheckPositions(positions); err != nil {
		return err
	}
	if err := validate.Len("table", len(table), l.MaxLen*l.Dim); err != nil {
		return err
	}
	if err := validate.Len("dst", len(dst), len(positions)*l.Dim); err != nil {
		return err
	}
	for i, p := range positions {
		copy(dst[i*l.Dim:(i+1)*l.Dim], table[p*l.Dim:(p+1)*l.Dim])
	}
	return nil
}
