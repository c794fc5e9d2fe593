package exercises

import (
	"testing"

	"github.com/posenc/course/exercises/internal/check"
)

func TestPartialRotary(t *testing.T) { check.PartialRotary(RotatePartial).Run(t) }
