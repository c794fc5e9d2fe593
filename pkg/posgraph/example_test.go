package posgraph_test

import (
	"fmt"
	"strings"

	"github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"
	"github.com/posenc/course/pkg/posenc"
	"github.com/posenc/course/pkg/posgraph"
)

// row formats values with 4 decimals (and no "-0.0000").
func row[T posenc.Float](values []T) string {
	parts := make([]string, len(values))
	for i, v := range values {
		s := fmt.Sprintf("%.4f", float64(v))
		if s == "-0.0000" {
			s = "0.0000"
		}
		parts[i] = s
	}
	return "[" + strings.Join(parts, " ") + "]"
}

func ExampleChooseBackend() {
	// The choice depends on GOMLX_BACKEND and on the installed XLA plugins,
	// so this example prints no fixed output.
	config, reason := posgraph.ChooseBackend()
	fmt.Printf("backend %s (%s)\n", config, reason)
}

func ExampleApplyRoPE() {
	// RoPE inside a GoMLX graph, on the backend posgraph.Backend() picks.
	// x is [seq=2, headDim=4] at positions 6 and 7.
	x := tensors.FromValue([][]float32{{1, 0, 1, 0}, {1, 0, 1, 0}})
	out := graph.MustExecOnce(posgraph.Backend(), func(x *graph.Node) *graph.Node {
		return posgraph.ApplyRoPE(x, posenc.NewRoPE(4), 6)
	}, x)
	for _, r := range out.Value().([][]float32) {
		fmt.Println(row(r))
	}
	// Output:
	// [0.9602 -0.2794 0.9982 0.0600]
	// [0.7539 0.6570 0.9976 0.0699]
}
