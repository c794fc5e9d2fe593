package exercises

import (
	"testing"

	"github.com/posenc/course/exercises/internal/check"
)

func TestSinusoidal(t *testing.T) { check.Sinusoidal(Sinusoidal).Run(t) }
