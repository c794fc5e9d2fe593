package exercises

import (
	"testing"

	"github.com/posenc/course/exercises/internal/check"
)

func TestLlama3(t *testing.T) { check.Llama3(Llama3InvFreq).Run(t) }
