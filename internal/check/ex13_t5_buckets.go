package check

import (
	"fmt"
	"math"

	"github.com/posenc/course/internal/catalog"
	"github.com/posenc/course/pkg/posenc"
)

func init() {
	registerExercise(Entry{
		Exercise: catalog.Exercise{Num: 13, Slug: "t5_buckets", Title: "T5 relative position buckets", Test: "TestT5Buckets",
			Funcs: []string{"T5Bucket", "T5BucketMatrix"}, Lesson: 7, Section: "From distance to bucket", Difficulty: catalog.Advanced},
		Blurb: "distance to bucket, bidirectional and causal, exactly as Hugging Face computes it.",
		Hints: Hints{
			Read: []Section{secT5Buckets},
			Idea: []string{
				"T5 gives every distance a bucket: one each for the small distances, logarithmically wider ones " +
					"beyond, and one for everything past maxDistance. An encoder splits the buckets between keys " +
					"before and after the query; a decoder sees no keys after it. Hugging Face's " +
					"`_relative_position_bucket` is the reference, and the lesson follows it.",
			},
			Formula: []string{
				"With rel = key − query:",
				"1. n := numBuckets; bucket := 0.",
				"2. Encoder (bidirectional): n = n/2; if rel > 0 (strictly), bucket += n; then d := |rel|. " +
					"Decoder: d := max(−rel, 0), so every key after the query is at distance 0.",
				"3. maxExact := n/2. If d < maxExact, the answer is bucket + d.",
				"4. Otherwise bucket + min(maxExact + ⌊ln(d/maxExact)/ln(maxDistance/maxExact)·(n − maxExact)⌋, " +
					"n − 1).",
				"With 32 buckets and max distance 128 (encoder), distances 0 … 7 get a bucket each, 8 … 127 " +
					"share buckets 8 … 15 logarithmically, and everything from 128 on is in bucket 15 (plus 16 for " +
					"keys after the query). For the matrix, entry [i][j] is the bucket of j − i.",
			},
			Code: []string{
				"- Both ratios in float64, `math.Log(float64(d)/float64(maxExact)) / " +
					"math.Log(float64(maxDistance)/float64(maxExact))`, and `int(...)` to truncate (not " +
					"`math.Round`).",
				"- The matrix: `T5Bucket(j-i, bidirectional, numBuckets, maxDistance)` for entry [i][j].",
			},
		},
		Cases:  t5Cases(),
		Checks: func(cases any) *Exercise { return T5Buckets(nil, nil, cases.(T5Cases)) },
	})
}

var (
	hintT5QueryMinusKey = newHint("t5/query − key", secT5Buckets,
		"your relative position is query − key: T5 uses rel = key − query (memory_position − query_position in "+
			"Hugging Face), so entry [i][j] is the bucket of j − i and keys after the query have rel > 0")
	hintT5Direction = newHint("t5/direction reversed", secT5Buckets,
		"your buckets treat the two directions the other way round: rel = key − query, so in an encoder the keys "+
			"after the query (rel > 0) get the upper half of the buckets, and in a decoder they all fall in bucket 0")
	hintT5ZeroUpper = newHint("t5/zero in the upper half", secT5Buckets,
		"rel = 0 (the query's own position) is in the lower half: only keys strictly after the query, rel > 0, move to "+
			"the upper half (test rel > 0, not rel ≥ 0)")
	hintT5Clamp = newHint("t5/no clamp", secT5Buckets,
		"distances beyond maxDistance must all share the last bucket: take min(large, n−1), or far keys land in "+
			"buckets that do not exist")
	hintT5ClampHigh = newHint("t5/clamped one too high", secT5Buckets,
		"your farthest keys land in bucket n (numBuckets/2 in an encoder, numBuckets in a decoder), one past the last: "+
			"the buckets of one direction are numbered 0 … n−1, so clamp with min(large, n−1), not min(large, n)")
	hintT5Halve = newHint("t5/buckets not halved", secT5Buckets,
		"a bidirectional model splits its buckets between the two directions: work with n = numBuckets/2 (and "+
			"maxExact = n/2) before anything else")
	hintT5Round = newHint("t5/rounded instead of truncated", secT5Buckets,
		"the logarithmic bucket is truncated, not rounded: Hugging Face converts with .to(torch.long), which drops the "+
			"fraction; int(x) does the same, math.Round does not")
	hintT5IntDiv = newHint("t5/integer division in the log", secT5Buckets,
		"the ratios inside the logarithms were computed with integer division: with maxExact = 8 and maxDistance = 100, "+
			"maxDistance/maxExact is 12.5, not 12, and distance 20 gives 2.5, not 2. Convert to float64 before dividing")
	hintT5Fallback = generic("t5/fallback", secT5Buckets,
		"follow the recipe for one distance by hand, e.g. rel = −20: halve the buckets in an encoder, take the "+
			"distance, then an exact bucket below maxExact or a logarithmic one above")
	hintT5MatrixFallback = generic("t5/matrix fallback", secT5Buckets,
		"entry [i][j] is T5Bucket(j − i, …)")
)

// t5Opts selects known wrong variants of the bucket function.
type t5Opts struct {
	flip, noClamp, clampHigh, noHalve, round, zeroUpper, intDiv bool
}

// refT5Bucket computes the bucket from Hugging Face's formula, in float64,
// with variants.
func refT5Bucket(rel int, bi bool, nb, maxDist int, o t5Opts) int {
	if o.flip {
		rel = -rel
	}
	n, bucket, d := nb, 0, 0
	if bi {
		if !o.noHalve {
			n /= 2
		}
		if rel > 0 || (o.zeroUpper && rel == 0) {
			bucket = n
		}
		d = max(rel, -rel)
	} else {
		d = max(-rel, 0)
	}
	me := n / 2
	if d < me {
		return bucket + d
	}
	ratio, span := float64(d)/float64(me), float64(maxDist)/float64(me)
	if o.intDiv {
		ratio, span = float64(d/me), float64(maxDist/me)
	}
	x := math.Log(ratio) / math.Log(span) * float64(n-me)
	if o.round {
		x = math.Round(x)
	}
	large := me + int(x)
	switch {
	case o.clampHigh:
		large = min(large, n)
	case !o.noClamp:
		large = min(large, n-1)
	}
	return bucket + large
}

// refT5 is posenc's bucket.
func refT5(rel int, bi bool, nb, maxDist int) int {
	b, err := posenc.T5Buckets{NumBuckets: nb, MaxDistance: maxDist, Bidirectional: bi}.Bucket(rel)
	if err != nil {
		panic(err)
	}
	return b
}

// BucketsCase is one configuration: T5Bucket(rel, Bidirectional,
// NumBuckets, MaxDistance) must equal Want[k] for each rel = Rels[k].
type BucketsCase struct {
	Name                    string
	Bidirectional           bool
	NumBuckets, MaxDistance int
	Rels, Want              []int
}

// BucketMatrixCase is one call: T5BucketMatrix(QLen, KLen, Bidirectional,
// NumBuckets, MaxDistance) must equal Want.
type BucketMatrixCase struct {
	Name                    string
	QLen, KLen              int
	Bidirectional           bool
	NumBuckets, MaxDistance int
	Want                    [][]int
}

// T5Cases is exercise 13's case table.
type T5Cases struct {
	Buckets []BucketsCase      `doc:"T5Bucket(rel, Bidirectional, NumBuckets, MaxDistance) must equal Want[k] for each rel = Rels[k]: Hugging Face's _relative_position_bucket, as pkg/posenc computes it."`
	Matrix  []BucketMatrixCase `doc:"T5BucketMatrix(QLen, KLen, Bidirectional, NumBuckets, MaxDistance) must equal Want: entry [i][j] is the bucket of j − i."`
}

func t5Cases() T5Cases {
	rels := []int{0, 1, -1, 2, -2, 3, -3, 5, -5, 7, -7, 8, -8, 9, -9, 12, -12, 20, -20, 33, -33, 45, -45, 64, -64,
		100, -100, 127, -127, 128, -128, 500, -500}
	buckets := func(bi bool, nb, maxDist int) BucketsCase {
		mode := "decoder"
		if bi {
			mode = "encoder"
		}
		want := make([]int, len(rels))
		for k, rel := range rels {
			// Hugging Face computes the logarithm in float32 and posenc follows it; the
			// distances here are chosen so that float64 agrees.
			want[k] = refT5(rel, bi, nb, maxDist)
			if want[k] != refT5Bucket(rel, bi, nb, maxDist, t5Opts{}) {
				panic(fmt.Sprintf("check: T5 bucket of %d differs in float32 and float64; pick other distances", rel))
			}
		}
		return BucketsCase{fmt.Sprintf("%s_buckets_%d_%d", mode, nb, maxDist), bi, nb, maxDist, rels, want}
	}
	matrix := func(q, kLen int, bi bool) BucketMatrixCase {
		const nb, maxDist = 32, 128
		flat := make([]int32, q*kLen)
		if err := (posenc.T5Buckets{NumBuckets: nb, MaxDistance: maxDist, Bidirectional: bi}).BucketsTo(flat, q, kLen); err != nil {
			panic(err)
		}
		want := make([][]int, q)
		for i := range want {
			want[i] = make([]int, kLen)
			for j := range want[i] {
				want[i][j] = int(flat[i*kLen+j])
			}
		}
		return BucketMatrixCase{fmt.Sprintf("matrix_%dx%d_bidirectional=%v", q, kLen, bi), q, kLen, bi, nb, maxDist, want}
	}
	return T5Cases{
		Buckets: []BucketsCase{
			buckets(true, 32, 128), buckets(false, 32, 128), buckets(true, 16, 64), buckets(false, 64, 256),
			buckets(true, 32, 100), buckets(false, 12, 50), buckets(true, 8, 21),
		},
		Matrix: []BucketMatrixCase{matrix(4, 6, true), matrix(3, 5, false), matrix(2, 200, true), matrix(5, 3, true)},
	}
}

// diagBuckets names the idea behind wrong buckets.
func diagBuckets(got []int, c BucketsCase) *Hint {
	variantOf := func(o t5Opts) []float64 {
		v := make([]float64, len(c.Rels))
		for k, rel := range c.Rels {
			v[k] = float64(refT5Bucket(rel, c.Bidirectional, c.NumBuckets, c.MaxDistance, o))
		}
		return v
	}
	type v = variant[[]float64]
	return firstMatch(intsToFloats(got), sameVec(0),
		v{hintT5Direction, variantOf(t5Opts{flip: true})},
		v{hintT5ZeroUpper, variantOf(t5Opts{zeroUpper: true})},
		v{hintT5Clamp, variantOf(t5Opts{noClamp: true})},
		v{hintT5ClampHigh, variantOf(t5Opts{clampHigh: true})},
		v{hintT5Halve, variantOf(t5Opts{noHalve: true})},
		v{hintT5Round, variantOf(t5Opts{round: true})},
		v{hintT5IntDiv, variantOf(t5Opts{intDiv: true})})
}

// diagBucketMatrix names the idea behind a wrong matrix: with a wrong
// T5Bucket the matrix is wrong too, and only a right one leaves the
// matrix's own indices to blame.
func diagBucketMatrix(got [][]float64, c BucketMatrixCase, bucketFn func(rel int, bidirectional bool, numBuckets, maxDistance int) int) *Hint {
	if !bucketsRight(bucketFn, c.Bidirectional, c.NumBuckets, c.MaxDistance) {
		return nil
	}
	swapped := make([][]float64, c.QLen)
	for i := range swapped {
		swapped[i] = make([]float64, c.KLen)
		for j := range swapped[i] {
			swapped[i][j] = float64(refT5(i-j, c.Bidirectional, c.NumBuckets, c.MaxDistance))
		}
	}
	return firstMatch(got, sameTable(0), variant[[][]float64]{hintT5QueryMinusKey, swapped})
}

func intTable(t [][]int) [][]float64 {
	out := make([][]float64, len(t))
	for i, r := range t {
		out[i] = intsToFloats(r)
	}
	return out
}

// T5Buckets returns exercise 13's checks of bucketFn and matrixFn on cases.
func T5Buckets(bucketFn func(rel int, bidirectional bool, numBuckets, maxDistance int) int,
	matrixFn func(qLen, kLen int, bidirectional bool, numBuckets, maxDistance int) [][]int, cases T5Cases) *Exercise {
	var checks []Check
	for _, c := range cases.Buckets {
		call := func(rel int) string {
			return fmt.Sprintf("T5Bucket(rel=%d, bidirectional=%v, numBuckets=%d, maxDistance=%d)", rel, c.Bidirectional, c.NumBuckets, c.MaxDistance)
		}
		checks = append(checks, Check{Name: c.Name, Call: call(c.Rels[0]), Run: func() *Failure {
			got := make([]int, len(c.Rels))
			for k, rel := range c.Rels {
				got[k] = bucketFn(rel, c.Bidirectional, c.NumBuckets, c.MaxDistance)
			}
			k := diffVec(intsToFloats(got), intsToFloats(c.Want), 0)
			if k < 0 {
				return nil
			}
			return fail(orElse(diagBuckets(got, c), hintT5Fallback), fmt.Sprintf("%s = %d; want %d", call(c.Rels[k]), got[k], c.Want[k]),
				fmt.Sprintf("for rel = %v\ngot  buckets %v\nwant buckets %v", c.Rels, got, c.Want))
		}})
	}
	for _, c := range cases.Matrix {
		call := fmt.Sprintf("T5BucketMatrix(qLen=%d, kLen=%d, bidirectional=%v, numBuckets=%d, maxDistance=%d)", c.QLen, c.KLen, c.Bidirectional, c.NumBuckets, c.MaxDistance)
		checks = append(checks, Check{Name: c.Name, Call: call, Run: func() *Failure {
			gotInts := matrixFn(c.QLen, c.KLen, c.Bidirectional, c.NumBuckets, c.MaxDistance)
			if len(gotInts) != c.QLen {
				return fail(hintT5MatrixFallback, fmt.Sprintf("%s returned %d rows; want %d", call, len(gotInts), c.QLen))
			}
			for i, r := range gotInts {
				if len(r) != c.KLen {
					return fail(hintT5MatrixFallback, fmt.Sprintf("%s: row %d has %d entries; want %d", call, i, len(r), c.KLen))
				}
			}
			got, want := intTable(gotInts), intTable(c.Want)
			r, col := diffTable(got, want, 0)
			if r < 0 {
				return nil
			}
			return fail(orElse(diagBucketMatrix(got, c, bucketFn), hintT5MatrixFallback),
				append([]string{call + ":"}, tableDiffLines(got, want, r, col,
					func(i int) string { return fmt.Sprintf("query %d", i) },
					func(j int) string { return fmt.Sprintf("key %d (rel = %d)", j, j-r) })...)...)
		}})
	}
	return newExercise(13, checks)
}

// bucketsRight reports whether the learner's T5Bucket is right for the
// distances a small matrix needs.
func bucketsRight(fn func(rel int, bidirectional bool, numBuckets, maxDistance int) int, bi bool, nb, maxDist int) bool {
	for rel := -8; rel <= 8; rel++ {
		if fn(rel, bi, nb, maxDist) != refT5(rel, bi, nb, maxDist) {
			return false
		}
	}
	return true
}
