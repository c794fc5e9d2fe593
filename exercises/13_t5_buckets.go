package exercises

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
	// TODO
	panic("not implemented yet: open exercises/13_t5_buckets.go")
}

// T5BucketMatrix: see T5Bucket's comment above.
func T5BucketMatrix(qLen, kLen int, bidirectional bool, numBuckets, maxDistance int) [][]int {
	// TODO
	panic("not implemented yet: open exercises/13_t5_buckets.go")
}
