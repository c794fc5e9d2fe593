package lab

import (
	"fmt"
	"math"

	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/ml/model"
	"github.com/gomlx/gomlx/ml/train/optimizer"
)

// Schedule is the learning rate at each step: a linear warm-up from
// Peak/Warmup to Peak over the first Warmup steps, then a half cosine down
// to MinFraction·Peak at the last of Steps (Loshchilov & Hutter 2017,
// SGDR; the schedule of GPT-2/3 and nanoGPT).
type Schedule struct {
	Peak        float64 `json:"peak"`
	Warmup      int     `json:"warmup"`
	Steps       int     `json:"steps"`
	MinFraction float64 `json:"min_fraction"`
}

// Validate reports the first invalid field of s.
func (s Schedule) Validate() error {
	switch {
	case !(s.Peak > 0):
		return fmt.Errorf("lab: learning rate must be positive, got %g", s.Peak)
	case s.Warmup < 0:
		return fmt.Errorf("lab: warm-up steps must not be negative, got %d", s.Warmup)
	case !(s.MinFraction >= 0 && s.MinFraction <= 1):
		return fmt.Errorf("lab: minimum learning-rate fraction must be in [0, 1], got %g", s.MinFraction)
	}
	return nil
}

// At returns the learning rate of step (0-based).
func (s Schedule) At(step int) float64 {
	if step < s.Warmup {
		return s.Peak * float64(step+1) / float64(s.Warmup)
	}
	decay := s.Steps - s.Warmup - 1
	if decay <= 0 {
		return s.Peak
	}
	t := math.Min(float64(step-s.Warmup)/float64(decay), 1)
	low := s.MinFraction * s.Peak
	return low + (s.Peak-low)*(1+math.Cos(math.Pi*t))/2
}

// clippedAdam is Adam on gradients whose global norm is clipped to at most
// clip (Pascanu et al. 2013): all gradients are scaled by min(1, clip/‖g‖),
// which keeps their direction. GoMLX's Adam clips each step's values, not
// the gradients' norm.
type clippedAdam struct {
	adam interface {
		optimizer.Interface
		UpdateGraphWithGradients(scope *model.Scope, grads []*graph.Node, lossDType dtypes.DType)
	}
	clip float64
}

func newClippedAdam(learningRate, clip float64) (*clippedAdam, error) {
	a, ok := optimizer.Adam().LearningRate(learningRate).Done().(interface {
		optimizer.Interface
		UpdateGraphWithGradients(scope *model.Scope, grads []*graph.Node, lossDType dtypes.DType)
	})
	if !ok {
		return nil, fmt.Errorf("lab: this GoMLX's Adam takes no gradients from outside")
	}
	return &clippedAdam{adam: a, clip: clip}, nil
}

// UpdateGraph implements optimizer.Interface.
func (o *clippedAdam) UpdateGraph(scope *model.Scope, g *graph.Graph, loss *graph.Node) {
	grads := scope.BuildTrainableVariablesGradientsGraph(loss)
	if o.clip > 0 {
		var sq *graph.Node
		for _, gr := range grads {
			s := graph.ReduceAllSum(graph.Square(gr)) // scalar
			if sq == nil {
				sq = s
			} else {
				sq = graph.Add(sq, s)
			}
		}
		norm := graph.Sqrt(sq)                                                                           // scalar: ‖g‖
		scale := graph.Min(graph.OnesLike(norm), graph.Div(graph.Scalar(g, norm.DType(), o.clip), norm)) // scalar: min(1, clip/‖g‖)
		scale = graph.Where(graph.IsFinite(scale), scale, graph.OnesLike(scale))                         // ‖g‖ = 0: no scaling
		for i := range grads {
			grads[i] = graph.Mul(grads[i], graph.ConvertDType(scale, grads[i].DType()))
		}
	}
	o.adam.UpdateGraphWithGradients(scope, grads, loss.DType())
}

// Clear implements optimizer.Interface.
func (o *clippedAdam) Clear(scope *model.Scope) error { return o.adam.Clear(scope) }
