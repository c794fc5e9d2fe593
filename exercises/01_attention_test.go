package exercises

import (
	"testing"

	"github.com/posenc/course/exercises/internal/check"
)

func TestAttention(t *testing.T) { check.Attention(Attention).Run(t) }
