package exercises

import (
	"testing"

	"github.com/posenc/course/exercises/internal/check"
)

func TestConvertQK(t *testing.T) { check.ConvertQK(ConvertQKRows, HeadScores).Run(t) }
