package posgraph

import (
	"fmt"

	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/shapes"
	"github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/ml/model"
	"github.com/gomlx/gomlx/ml/model/initializer"
	"github.com/posenc/course/internal/validate"
	"github.com/posenc/course/pkg/posenc"
)

// LearnedVariableName is the name of a learned position table's variable in
// its scope.
const LearnedVariableName = "position_embeddings"

// LearnedInitStddev is the standard deviation of a learned table's initial
// values: 0.02, Hugging Face's initializer_range for GPT-2 and BERT. (The
// original GPT-2 code initialised its position table with 0.01 and its token
// table with 0.02.)
const LearnedInitStddev = 0.02

// LearnedTable returns the trainable [l.MaxLen, l.Dim] variable named
// LearnedVariableName in scope, creating it, initialised from
// N(0, LearnedInitStddev²), on first use: the position embeddings of BERT
// and GPT-2.
func LearnedTable(scope *model.Scope, g *graph.Graph, l posenc.Learned, dtype dtypes.DType) *graph.Node {
	must(l.Validate())
	checkFloatDType("dtype", dtype)
	s := scope.WithInitializer(initializer.RandomNormalFn(scope, LearnedInitStddev))
	v := s.VariableWithShape(LearnedVariableName, shapes.Make(dtype, l.MaxLen, l.Dim))
	return v.NodeValue(g) // [max_len, dim]
}

// checkLearnedInput panics unless x's last axis is l.Dim, and returns x's
// sequence length.
func checkLearnedInput(x *graph.Node, l posenc.Learned) (seq int) {
	seq, dim := lastDims("x", x)
	if dim != l.Dim {
		must(validate.Err("x's last axis", dim, "must equal dim ("+itoa(l.Dim)+")"))
	}
	return seq
}

// AddLearned returns x plus the table's rows for positions start, …,
// start+seq−1, for x shaped [..., seq, l.Dim]. It panics with a
// *posenc.ParamError when start+seq > l.MaxLen: a learned table cannot
// extrapolate.
func AddLearned(scope *model.Scope, x *graph.Node, l posenc.Learned, start int) *graph.Node {
	seq := checkLearnedInput(x, l)
	must(validate.NonNegative("start", start))
	if start > l.MaxLen-seq {
		must(validate.Err("start+seq_len", start+seq,
			"is past the learned table: max_len is "+itoa(l.MaxLen)+" positions"))
	}
	table := LearnedTable(scope, x.Graph(), l, x.DType())                // [max_len, dim]
	rows := graph.SliceAxis(table, 0, graph.AxisRange(start, start+seq)) // [seq, dim]
	return graph.Add(x, graph.ExpandLeftToRank(rows, x.Rank()))          // [..., seq, dim]
}

// AddLearnedAt returns x plus the table's rows at an integer positions node
// shaped like x without its last axis ([..., seq]). Gather clamps
// out-of-range indices inside the graph, so check positions with
// l.CheckPositions first.
func AddLearnedAt(scope *model.Scope, x, positions *graph.Node, l posenc.Learned) *graph.Node {
	checkLearnedInput(x, l)
	if !positions.DType().IsInt() {
		must(validate.Err("positions' dtype", positions.DType(), "must be an integer dtype"))
	}
	table := LearnedTable(scope, x.Graph(), l, x.DType())                                          // [max_len, dim]
	rows := graph.Gather(table, graph.ExpandAxes(graph.ConvertDType(positions, dtypes.Int32), -1)) // [..., seq, dim]
	return graph.Add(x, graph.ExpandLeftToRank(rows, x.Rank()))                                    // [..., seq, dim]
}

// LearnedEncoder adds learned absolute position embeddings (BERT, GPT-2) to
// token embeddings: a pos.PreEncoder over the trainable table of
// LearnedTable, kept in Scope.
type LearnedEncoder struct {
	Scope   *model.Scope
	Learned posenc.Learned
}

// NewLearnedEncoder returns an encoder whose table lives in scope. It panics
// with a *posenc.ParamError for an invalid l.
func NewLearnedEncoder(scope *model.Scope, l posenc.Learned) *LearnedEncoder {
	must(l.Validate())
	return &LearnedEncoder{Scope: scope, Learned: l}
}

// Name implements pos.Encoder.
func (e *LearnedEncoder) Name() string {
	return fmt.Sprintf("posenc.Learned(max_len=%d, dim=%d)", e.Learned.MaxLen, e.Learned.Dim)
}

// PreEncode implements pos.PreEncoder: x plus the table's rows at positions
// ([seq] or [batch, seq]; seq on x's axis seqAxis). Positions are not known
// while the graph is built and Gather clamps out-of-range indices, so check
// them with Learned.CheckPositions first: a learned table has no row past
// MaxLen.
func (e *LearnedEncoder) PreEncode(x, positions *graph.Node, seqAxis int) *graph.Node {
	checkLearnedInput(x, e.Learned)
	axis := seqAxisOf(x, seqAxis)
	checkPositions(x, positions, axis)
	table := LearnedTable(e.Scope, x.Graph(), e.Learned, x.DType())                                // [max_len, dim]
	rows := graph.Gather(table, graph.ExpandAxes(graph.ConvertDType(positions, dtypes.Int32), -1)) // [[batch,] seq, dim]
	rows = alignTable(rows, x, axis)                                                               // broadcasts to x
	return graph.Add(x, rows)                                                                      // x's shape
}
