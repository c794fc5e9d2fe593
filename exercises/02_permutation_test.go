package exercises

import (
	"testing"

	"github.com/posenc/course/exercises/internal/check"
)

func TestPermutation(t *testing.T) { check.Permutation(Permute, IsPermutationEquivariant).Run(t) }
