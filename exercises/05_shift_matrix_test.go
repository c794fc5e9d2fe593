package exercises

import (
	"testing"

	"github.com/posenc/course/exercises/internal/check"
)

func TestShiftMatrix(t *testing.T) { check.ShiftMatrix(ShiftMatrix).Run(t) }
