package exercises

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
	// TODO
	panic("not implemented yet: open exercises/13_t5_buckets.go")
}

// T5BucketMatrix: see T5Bucket's comment above.
func T5BucketMatrix(qLen, kLen int, bidirectional bool, numBuckets, maxDistance int) [][]int {
	// TODO
	panic("not implemented yet: open exercises/13_t5_buckets.go")
}
