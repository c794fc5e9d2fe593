package exercises

import (
	"testing"

	"github.com/posenc/course/exercises/internal/check"
)

func TestRelativeScores(t *testing.T) { check.RelativeScores(RoPEScores, IsToeplitz).Run(t) }
