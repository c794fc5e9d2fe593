package exercises

import (
	"testing"

	"github.com/posenc/course/exercises/internal/check"
)

func TestRoPEInterleaved(t *testing.T) { check.RoPEInterleaved(RotateInterleaved).Run(t) }
