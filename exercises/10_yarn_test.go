package exercises

import (
	"testing"

	"github.com/posenc/course/exercises/internal/check"
)

func TestYaRN(t *testing.T) { check.YaRN(YaRNInvFreq, YaRNAttentionFactor).Run(t) }
