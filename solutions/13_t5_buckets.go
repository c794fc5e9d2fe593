package exercises

import "math"

// T5Bucket returns the bucket of the relative position rel = key − query in
// T5's relative attention bias (Raffel et al. 2020, section 2.1), as Hugging
// Face's T5Attention._relative_position_bucket computes it. Each bucket has
// one learned bias per head, so nearby distances get a bucket each and far
// ones share logarithmically wider buckets.
//
//	n := numBuckets; bucket := 0
//	bidirectional (encoder): n = n/2; keys after the query (rel > 0) use
//	    the upper half, bucket += n; then d := |rel|
//	causal (decoder): d := max(−rel, 0), so every key after the query is
//	    at distance 0
//	maxExact := n/2
//	d < maxExact: bucket + d
//	otherwise:    bucket + min(maxExact + int(ln(d/maxExact) / ln(maxDistance/maxExact) · (n − maxExact)), n−1)
//
// T5BucketMatrix returns the qLen×kLen matrix of buckets, entry [i][j] for
// query i and key j (both counted from 0), with rel = j − i.
//
// Lesson 7 (T5 relative bias), advanced. T5 uses numBuckets 32 and
// maxDistance 128.
func T5Bucket(rel int, bidirectional bool, numBuckets, maxDistance int) int {
	n, bucket, d := numBuckets, 0, 0
	if bidirectional {
		n /= 2
		if rel > 0 {
			bucket += n // keys after the query get their own half
		}
		d = max(rel, -rel)
	} else {
		d = max(-rel, 0) // a decoder never sees keys after the query
	}
	maxExact := n / 2
	if d < maxExact {
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
