package exercises

import (
	"testing"

	"github.com/posenc/course/exercises/internal/check"
)

func TestAddPositions(t *testing.T) { check.AddPositions(AddPositions).Run(t) }
