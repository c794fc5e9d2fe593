package exercises

import (
	"testing"

	"github.com/posenc/course/exercises/internal/check"
)

func TestALiBi(t *testing.T) { check.ALiBi(ALiBiSlopes, ALiBiBias).Run(t) }
