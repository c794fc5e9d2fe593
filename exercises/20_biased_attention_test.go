package exercises

import (
	"testing"

	"github.com/posenc/course/exercises/internal/check"
)

func TestBiasedAttention(t *testing.T) { check.BiasedAttention(BiasedAttention).Run(t) }
