package posenc

import (
	"math"
	"testing"
)

// hfRelativePositionBucket is a transcription of Hugging Face's
// T5Attention._relative_position_bucket (src/transformers/models/t5/modeling_t5.py)
// for one relative position, with torch's dtypes: the logarithm runs on a
// float32 tensor, the Python float math.log(max_distance / max_exact) is
// cast to float32 when it meets that tensor, and .to(torch.long) truncates.
//
//	relative_buckets = 0
//	if bidirectional:
//	    num_buckets //= 2
//	    relative_buckets += (relative_position > 0).to(torch.long) * num_buckets
//	    relative_position = torch.abs(relative_position)
//	else:
//	    relative_position = -torch.min(relative_position, torch.zeros_like(relative_position))
//	max_exact = num_buckets // 2
//	is_small = relative_position < max_exact
//	relative_position_if_large = max_exact + (
//	    torch.log(relative_position.float() / max_exact)
//	    / math.log(max_distance / max_exact)
//	    * (num_buckets - max_exact)
//	).to(torch.long)
//	relative_position_if_large = torch.min(relative_position_if_large, torch.full_like(…, num_buckets - 1))
//	relative_buckets += torch.where(is_small, relative_position, relative_position_if_large)
func hfRelativePositionBucket(relativePosition int64, bidirectional bool, numBuckets, maxDistance int64) int64 {
	var relativeBuckets int64
	if bidirectional {
		numBuckets /= 2
		if relativePosition > 0 {
			relativeBuckets += numBuckets
		}
		if relativePosition < 0 {
			relativePosition = -relativePosition
		}
	} else {
		relativePosition = -min(relativePosition, 0)
	}
	maxExact := numBuckets / 2
	isSmall := relativePosition < maxExact
	ratio := float32(relativePosition) / float32(maxExact)                     // float32 tensor / int
	logRatio := float32(math.Log(float64(ratio)))                              // torch.log, float32
	denominator := float32(math.Log(float64(maxDistance) / float64(maxExact))) // Python float → float32
	scaled := logRatio / denominator * float32(numBuckets-maxExact)
	var ifLarge int64
	if !math.IsInf(float64(scaled), 0) && !math.IsNaN(float64(scaled)) {
		ifLarge = maxExact + int64(scaled) // .to(torch.long) truncates toward zero
	}
	ifLarge = min(ifLarge, numBuckets-1)
	if isSmall {
		return relativeBuckets + relativePosition
	}
	return relativeBuckets + ifLarge
}

var t5Configs = []T5Buckets{
	NewT5Buckets(),
	{NumBuckets: 32, MaxDistance: 128, Bidirectional: false},
	{NumBuckets: 16, MaxDistance: 64, Bidirectional: true},
	{NumBuckets: 64, MaxDistance: 256, Bidirectional: false},
	{NumBuckets: 33, MaxDistance: 100, Bidirectional: true},
	{NumBuckets: 8, MaxDistance: 20, Bidirectional: false},
	{NumBuckets: 4, MaxDistance: 3, Bidirectional: true},
	{NumBuckets: 128, MaxDistance: 1000, Bidirectional: true},
	// Here float64 arithmetic would put a distance one bucket lower than
	// torch's float32 does (for example 6 with 4 buckets and max distance 18:
	// log(3)/log(9)·2 is exactly 1 in float32 and 0.999… in float64).
	{NumBuckets: 4, MaxDistance: 18, Bidirectional: false},
	{NumBuckets: 8, MaxDistance: 36, Bidirectional: false},
	{NumBuckets: 18, MaxDistance: 128, Bidirectional: true},
}

func TestT5BucketsMatchHuggingFace(t *testing.T) {
	for _, tb := range t5Configs {
		for rel := -1000; rel <= 1000; rel++ {
			got, err := tb.Bucket(rel)
			if err != nil {
				t.Fatal(err)
			}
			want := hfRelativePositionBucket(int64(rel), tb.Bidirectional, int64(tb.NumBuckets), int64(tb.MaxDistance))
			if int64(got) != want {
				t.Fatalf("%+v: Bucket(%d) = %d; want %d (HF)", tb, rel, got, want)
			}
			if got < 0 || got >= tb.NumBuckets {
				t.Fatalf("%+v: Bucket(%d) = %d outside [0, %d)", tb, rel, got, tb.NumBuckets)
			}
		}
	}
}

func TestT5BucketsKnownValues(t *testing.T) {
	// HF defaults (num_buckets 32, max_distance 128): rel = key − query.
	enc := NewT5Buckets()
	for rel, want := range map[int]int{0: 0, 1: 17, -1: 1, 8: 24, -8: 8, 200: 31, -200: 15, 7: 23, -7: 7, 127: 31, 1 << 40: 31} {
		if got, err := enc.Bucket(rel); err != nil || got != want {
			t.Errorf("encoder Bucket(%d) = %d, %v; want %d", rel, got, err, want)
		}
	}
	// A causal decoder puts every later key in bucket 0 and has 16 exact
	// distances before going logarithmic.
	dec := T5Buckets{NumBuckets: 32, MaxDistance: 128}
	for rel, want := range map[int]int{0: 0, 5: 0, 1000: 0, -1: 1, -15: 15, -16: 16, -200: 31} {
		if got, err := dec.Bucket(rel); err != nil || got != want {
			t.Errorf("decoder Bucket(%d) = %d, %v; want %d", rel, got, err, want)
		}
	}
}

func TestT5BucketsFollowFloat32(t *testing.T) {
	// 4 buckets, max distance 18, causal: max_exact 2, and distance 6 gives
	// 2 + trunc(log(3)/log(9)·2), which is 2 + 1 in float32 (torch) but
	// 2 + 0 in float64.
	tb := T5Buckets{NumBuckets: 4, MaxDistance: 18}
	if got, _ := tb.Bucket(-6); got != 3 {
		t.Errorf("%+v: Bucket(−6) = %d; want 3 (float32 arithmetic, as torch)", tb, got)
	}
	if f64 := 2 + int(math.Log(6.0/2)/math.Log(18.0/2)*2); f64 != 2 {
		t.Errorf("float64 arithmetic gives %d here; the example no longer shows the difference", f64)
	}
	enc := T5Buckets{NumBuckets: 18, MaxDistance: 128, Bidirectional: true}
	if got, _ := enc.Bucket(16); got != 9+6 {
		t.Errorf("%+v: Bucket(16) = %d; want 15", enc, got)
	}
}

func TestT5BucketsMonotonic(t *testing.T) {
	for _, tb := range t5Configs {
		prev := -1
		for dist := 0; dist <= 5000; dist++ {
			b, _ := tb.Bucket(-dist)
			if b < prev {
				t.Fatalf("%+v: Bucket(−%d) = %d < Bucket(−%d) = %d", tb, dist, b, dist-1, prev)
			}
			prev = b
		}
	}
}

func TestT5BucketsTo(t *testing.T) {
	for _, tb := range t5Configs {
		for _, sz := range [][2]int{{1, 1}, {5, 9}, {9, 5}, {40, 300}} {
			q, k := sz[0], sz[1]
			dst := make([]int32, q*k)
			if err := tb.BucketsTo(dst, q, k); err != nil {
				t.Fatal(err)
			}
			for i := range q {
				for j := range k {
					want, _ := tb.Bucket(j - i)
					if int(dst[i*k+j]) != want {
						t.Fatalf("%+v: BucketsTo[%d, %d] = %d; want Bucket(%d) = %d", tb, i, j, dst[i*k+j], j-i, want)
					}
				}
			}
		}
	}
}
