package exercises

import (
	"testing"

	"github.com/posenc/course/exercises/internal/check"
)

func TestRoPEHalves(t *testing.T) { check.RoPEHalves(RotateHalves, InterleavedToHalves).Run(t) }
