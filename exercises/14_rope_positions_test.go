package exercises

import (
	"testing"

	"github.com/posenc/course/exercises/internal/check"
)

func TestRoPEPositions(t *testing.T) { check.RoPEPositions(CachePositions, PackedPositions, RotateAt).Run(t) }
