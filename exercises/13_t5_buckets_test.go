package exercises

import (
	"testing"

	"github.com/posenc/course/exercises/internal/check"
)

func TestT5Buckets(t *testing.T) { check.T5Buckets(T5Bucket, T5BucketMatrix).Run(t) }
