package posenc

import (
	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/shapes"
	. "github.com/gomlx/gomlx/core/graph" //nolint:revive // GoMLX's idiom.
	"github.com/gomlx/gomlx/ml/model"
	"github.com/gomlx/gomlx/ml/model/initializer"
)

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

// LearnedInitStddev is the standard deviation of the table's initial values
// (GPT-2's initializer_range).
const LearnedInitStddev = 0.02

// LearnedVariableName is the name of the table's variable in its scope.
const LearnedVariableName = "position_embeddings"

// Validate returns a *ParamError for a non-positive MaxLen or Dim.
func (l Learned) Validate() error {
	if err := checkPositive("max_len", l.MaxLen); err != nil {
		return err
	}
	if err := checkPositive("dim", l.Dim); err != nil {
		return err
	}
	return checkElements("max_len×dim", l.MaxLen, l.Dim)
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
			return paramErr("positions["+itoa(i)+"]", p,
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
	if err := checkLen("table", len(table), l.MaxLen*l.Dim); err != nil {
		return err
	}
	if err := checkLen("dst", len(dst), len(positions)*l.Dim); err != nil {
		return err
	}
	for i, p := range positions {
		copy(dst[i*l.Dim:(i+1)*l.Dim], table[p*l.Dim:(p+1)*l.Dim])
	}
	return nil
}

// Table returns the trainable [MaxLen, Dim] variable named
// LearnedVariableName in scope, creating it, initialised from
// N(0, LearnedInitStddev²), on first use.
func (l Learned) Table(scope *model.Scope, g *Graph, dtype dtypes.DType) *Node {
	must(l.Validate())
	checkFloatDType("dtype", dtype)
	s := scope.WithInitializer(initializer.RandomNormalFn(scope, LearnedInitStddev))
	v := s.VariableWithShape(LearnedVariableName, shapes.Make(dtype, l.MaxLen, l.Dim))
	return v.NodeValue(g) // [max_len, dim]
}

// Add returns x plus the table's rows for positions start, …, start+seq−1,
// for x shaped [..., seq, Dim]. It panics with a *ParamError when
// start+seq > MaxLen: a learned table cannot extrapolate.
func (l Learned) Add(scope *model.Scope, x *Node, start int) *Node {
	seq, dim := lastDims("x", x)
	if dim != l.Dim {
		must(paramErr("x's last axis", dim, "must equal dim ("+itoa(l.Dim)+")"))
	}
	must(checkNonNegative("start", start))
	if start > l.MaxLen-seq {
		must(paramErr("start+seq_len", start+seq,
			"is past the learned table: max_len is "+itoa(l.MaxLen)+" positions"))
	}
	table := l.Table(scope, x.Graph(), x.DType())            // [max_len, dim]
	rows := SliceAxis(table, 0, AxisRange(start, start+seq)) // [seq, dim]
	return Add(x, ExpandLeftToRank(rows, x.Rank()))          // [..., seq, dim]
}

// AddAt returns x plus the table's rows at an integer positions node shaped
// like x without its last axis ([..., seq]). Gather clamps out-of-range
// indices inside the graph, so check positions with CheckPositions first.
func (l Learned) AddAt(scope *model.Scope, x, positions *Node) *Node {
	_, dim := lastDims("x", x)
	if dim != l.Dim {
		must(paramErr("x's last axis", dim, "must equal dim ("+itoa(l.Dim)+")"))
	}
	if !positions.DType().IsInt() {
		must(paramErr("positions' dtype", positions.DType(), "must be an integer dtype"))
	}
	table := l.Table(scope, x.Graph(), x.DType())                                // [max_len, dim]
	rows := Gather(table, ExpandAxes(ConvertDType(positions, dtypes.Int32), -1)) // [..., seq, dim]
	return Add(x, ExpandLeftToRank(rows, x.Rank()))                              // [..., seq, dim]
}
