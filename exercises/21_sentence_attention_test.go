package exercises

import (
	"testing"

	"github.com/posenc/course/exercises/internal/check"
)

func TestSentenceAttention(t *testing.T) { check.SentenceAttention(SentenceAttention).Run(t) }
