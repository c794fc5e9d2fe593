package exercises

import (
	"testing"

	"github.com/posenc/course/exercises/internal/check"
)

func TestInterpolateTable(t *testing.T) { check.InterpolateTable(InterpolateTable).Run(t) }
