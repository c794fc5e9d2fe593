package posenc

import (
	"math"

	"github.com/posenc/course/internal/validate"
)

// T5Buckets configures T5's relative position buckets (Raffel et al. 2020,
// https://arxiv.org/abs/1910.10683, section 2.1), exactly as Hugging Face's
// T5Attention._relative_position_bucket: the relative position key − query
// is mapped to one of NumBuckets buckets, one bucket per distance below
// max_exact (half the buckets available to a direction), then logarithmically
// wider buckets up to MaxDistance, beyond which all distances share the last
// bucket. Each (bucket, head) has one learned scalar bias (see T5Bias).
type T5Buckets struct {
	// NumBuckets is the total number of buckets (32 in T5).
	NumBuckets int
	// MaxDistance is where the logarithmic buckets end (128 in T5): every
	// distance from it on shares the last bucket. Bucket indices are
	// floored, so that last bucket starts earlier (at 91 in T5's encoder).
	MaxDistance int
	// Bidirectional gives keys after the query their own half of the
	// buckets (encoder); a causal decoder sets it false and maps every key
	// after the query to bucket 0.
	Bidirectional bool
}

// NewT5Buckets returns T5's encoder configuration: 32 buckets, max distance
// 128, bidirectional.
func NewT5Buckets() T5Buckets {
	return T5Buckets{NumBuckets: 32, MaxDistance: 128, Bidirectional: true}
}

// maxExact is the number of distances that get a bucket each.
func (t T5Buckets) maxExact() int {
	n := t.NumBuckets
	if t.Bidirectional {
		n /= 2
	}
	return n / 2
}

// Validate returns a *ParamError when NumBuckets leaves no exact bucket or
// MaxDistance is not beyond the exact range.
func (t T5Buckets) Validate() error {
	minBuckets := 2
	if t.Bidirectional {
		minBuckets = 4
	}
	if t.NumBuckets < minBuckets {
		return validate.Err("num_buckets", t.NumBuckets, "must be >= "+itoa(minBuckets))
	}
	if t.NumBuckets > 1<<20 {
		return validate.Err("num_buckets", t.NumBuckets, "must be <= 1048576")
	}
	if t.MaxDistance <= t.maxExact() {
		return validate.Err("max_distance", t.MaxDistance, "must be > max_exact ("+itoa(t.maxExact())+")")
	}
	if t.MaxDistance > validate.MaxPosition {
		return validate.Err("max_distance", t.MaxDistance, "must be <= 2^40")
	}
	return nil
}

// Bucket returns the bucket of relative position rel = key − query.
func (t T5Buckets) Bucket(rel int) (int, error) {
	if err := t.Validate(); err != nil {
		return 0, err
	}
	if rel < -validate.MaxPosition || rel > validate.MaxPosition {
		return 0, validate.Err("rel", rel, "must be within ±2^40")
	}
	return t.bucket(rel), nil
}

// bucket follows HF's arithmetic step by step, including its float32 math
// (torch computes the logarithm on a float32 tensor), so that distances on a
// bucket boundary land where HF puts them.
func (t T5Buckets) bucket(rel int) int {
	numBuckets := t.NumBuckets
	bucket := 0
	if t.Bidirectional {
		numBuckets /= 2
		if rel > 0 {
			bucket += numBuckets
		}
		if rel < 0 {
			rel = -rel
		}
	} else {
		rel = -min(rel, 0)
	}
	maxExact := numBuckets / 2
	if rel < maxExact {
		return bucket + rel
	}
	ratio := float32(rel) / float32(maxExact)
	logRatio := float32(math.Log(float64(ratio)))
	scale := float32(math.Log(float64(t.MaxDistance) / float64(maxExact)))
	large := maxExact + int(logRatio/scale*float32(numBuckets-maxExact))
	return bucket + min(large, numBuckets-1)
}

// BucketsTo fills dst, a row-major [qLen, kLen] matrix, with the bucket of
// key j − query i, both counted from 0.
func (t T5Buckets) BucketsTo(dst []int32, qLen, kLen int) error {
	if err := t.Validate(); err != nil {
		return err
	}
	if err := validate.Positive("q_len", qLen); err != nil {
		return err
	}
	if err := validate.Positive("k_len", kLen); err != nil {
		return err
	}
	if qLen > validate.MaxPosition || kLen > validate.MaxPosition {
		return validate.Err("q_len×k_len", []int{qLen, kLen}, "must have both sides <= 2^40")
	}
	if err := validate.Elements("q_len×k_len", qLen, kLen); err != nil {
		return err
	}
	if err := validate.Len("dst", len(dst), qLen*kLen); err != nil {
		return err
	}
	// Buckets depend on j − i only: compute each distance once.
	for i := range qLen {
		row := dst[i*kLen : (i+1)*kLen]
		for j := range row {
			row[j] = int32(t.bucket(j - i))
		}
	}
	return nil
}
