package exercises

import "math"

// T5Bucket returns the bucket of the relative position rel = key − query in
// T5's relative attention bias (Raffel et al. 2020, section 2.1), exactly as
// Hugging Face's T5Attention._relative_position_bucket computes it: an
// encoder (bidirectional) gives each direction half of the numBuckets
// buckets, a decoder puts every key after the query in bucket 0; short
// distances get a bucket each, longer ones share logarithmically wider
// buckets up to maxDistance, and everything beyond shares the last one.
//
// T5BucketMatrix returns the qLen×kLen matrix of buckets, entry [i][j] for
// query i and key j (both counted from 0).
//
// T5 uses numBuckets 32 and maxDistance 128; the tests also use small and
// uneven ones. Read lesson 7, “From distance to bucket”. The recipe, step by
// step, is in exercises/README.md's hints.
func T5Bucket(rel int, bidirectional bool, numBuckets, maxDistance int) int {
	n, bucket, d := numBuckets, 0, 0
	if bidirectional {
		n /= 2
		if rel > 0 {
			bucket = n // keys after the query get their own half
		}
		d = max(rel, -rel)
	} else {
		d = max(-rel, 0) // a decoder never sees keys after the query
	}
	maxExact := n / 2
	if d/maxExact == 0 { // d < maxExact: one bucket per distance
		return bucket + d
	}
	large := maxExact + int(math.Log(float64(d)/float64(maxExact))/
		math.Log(float64(maxDistance)/float64(maxExact))*float64(n-maxExact))
	return bucket + min(large, n-1)
}

// T5BucketMatrix: see T5Bucket's comment above.
func T5BucketMatrix(qLen, kLen int, bidirectional bool, numBuckets, maxDistance int) [][]int {
	m := make([][]int, qLen)
	for i := range m {
		m[i] = make([]int, kLen)
		for j := range m[i] {
			m[i][j] = T5Bucket(j-i, bidirectional, numBuckets, maxDistance)
		}
	}
	return m
}
