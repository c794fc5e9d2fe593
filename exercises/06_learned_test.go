package exercises

import (
	"testing"

	"github.com/posenc/course/exercises/internal/check"
)

func TestLearnedLookup(t *testing.T) { check.LearnedLookup(LearnedLookup).Run(t) }
