package exercises

import (
	"testing"

	"github.com/posenc/course/exercises/internal/check"
)

func TestChooseFactor(t *testing.T) { check.ChooseFactor(PairsPastTrained, SmallestNTKFactor).Run(t) }
