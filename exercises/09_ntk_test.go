package exercises

import (
	"testing"

	"github.com/posenc/course/exercises/internal/check"
)

func TestNTK(t *testing.T) { check.NTK(LinearInvFreq, NTKInvFreq, DynamicNTKInvFreq).Run(t) }
