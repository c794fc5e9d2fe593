package exercises

import (
	"fmt"
	"math"
	"testing"

	"github.com/posenc/course/pkg/posenc"
)

var exT5 = exInfo{file: "exercises/13_t5_buckets.go", funcs: "T5Bucket and T5BucketMatrix", lesson: "lesson 7, T5 relative bias"}

func TestT5Buckets(t *testing.T) { runExercise(t, exT5, t5Cases(T5Bucket, T5BucketMatrix)) }

var (
	hintT5QueryMinusKey = newHint("t5/query − key",
		"your relative position is query − key: T5 uses rel = key − query (memory_position − query_position in "+
			"Hugging Face), so entry [i][j] is the bucket of j − i and keys after the query have rel > 0 "+
			"(lesson 7, “From distance to bucket”).")
	hintT5Direction = newHint("t5/direction reversed",
		"your buckets treat the two directions the other way round: rel = key − query, so in an encoder the keys "+
			"after the query (rel > 0) get the upper half of the buckets, and in a decoder they all fall in bucket 0 "+
			"(lesson 7, “From distance to bucket”).")
	hintT5Clamp = newHint("t5/no clamp",
		"distances beyond maxDistance must all share the last bucket: take min(large, n−1), or far keys land in "+
			"buckets that do not exist (lesson 7, “From distance to bucket”).")
	hintT5Halve = newHint("t5/buckets not halved",
		"a bidirectional model splits its buckets between the two directions: work with n = numBuckets/2 (and "+
			"maxExact = n/2) before anything else (lesson 7, “From distance to bucket”).")
)

// refT5Opts selects known wrong variants of the bucket function.
type refT5Opts struct{ flip, noClamp, noHalve bool }

// refT5Bucket computes the bucket in float64 from HF's formula, with variants.
func refT5Bucket(rel int, bi bool, nb, maxDist int, o refT5Opts) int {
	if o.flip {
		rel = -rel
	}
	n, bucket, d := nb, 0, 0
	if bi {
		if !o.noHalve {
			n /= 2
		}
		if rel > 0 {
			bucket = n
		}
		d = int(math.Abs(float64(rel)))
	} else {
		d = max(-rel, 0)
	}
	me := n / 2
	if d < me {
		return bucket + d
	}
	large := me + int(math.Log(float64(d)/float64(me))/math.Log(float64(maxDist)/float64(me))*float64(n-me))
	if !o.noClamp {
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

func exIntsToFloats(v []int) []float64 {
	out := make([]float64, len(v))
	for i, x := range v {
		out[i] = float64(x)
	}
	return out
}

func t5Cases(bucketFn func(rel int, bidirectional bool, numBuckets, maxDistance int) int,
	matrixFn func(qLen, kLen int, bidirectional bool, numBuckets, maxDistance int) [][]int) []exCase {
	rels := []int{0, 1, -1, 5, -5, 7, -7, 8, -8, 9, -9, 12, -12, 20, -20, 33, -33, 64, -64, 100, -100, 127, -127, 128, -128, 500, -500}
	const fallback = "follow the recipe in the doc comment step by step for one distance, e.g. rel = −20 " +
		"(lesson 7, “From distance to bucket”)."
	buckets := func(bi bool, nb, maxDist int) exCase {
		call := func(rel int) string {
			return fmt.Sprintf("T5Bucket(rel=%d, bidirectional=%v, numBuckets=%d, maxDistance=%d)", rel, bi, nb, maxDist)
		}
		mode := "decoder"
		if bi {
			mode = "encoder"
		}
		return exCase{name: fmt.Sprintf("%s_buckets_%d_%d", mode, nb, maxDist), call: call(rels[0]), run: func() string {
			got, want := make([]int, len(rels)), make([]int, len(rels))
			for k, rel := range rels {
				got[k], want[k] = bucketFn(rel, bi, nb, maxDist), refT5(rel, bi, nb, maxDist)
			}
			k := exDiffVec(exIntsToFloats(got), exIntsToFloats(want), 0)
			if k < 0 {
				return ""
			}
			variant := func(o refT5Opts) []float64 {
				v := make([]float64, len(rels))
				for k, rel := range rels {
					v[k] = float64(refT5Bucket(rel, bi, nb, maxDist, o))
				}
				return v
			}
			type v = exVariant[[]float64]
			hint := diagFirst(exIntsToFloats(got), exSameVec(0),
				v{hintT5Direction, variant(refT5Opts{flip: true})},
				v{hintT5Clamp, variant(refT5Opts{noClamp: true})},
				v{hintT5Halve, variant(refT5Opts{noHalve: true})})
			return exMsg(hint, fallback, fmt.Sprintf("%s = %d; want %d", call(rels[k]), got[k], want[k]),
				fmt.Sprintf("for rel = %v\ngot  buckets %v\nwant buckets %v", rels, got, want))
		}}
	}
	matrix := func(q, kLen int, bi bool) exCase {
		const nb, maxDist = 32, 128
		call := fmt.Sprintf("T5BucketMatrix(qLen=%d, kLen=%d, bidirectional=%v, numBuckets=%d, maxDistance=%d)", q, kLen, bi, nb, maxDist)
		cells := func(f func(i, j int) int) [][]float64 {
			m := make([][]float64, q)
			for i := range m {
				m[i] = make([]float64, kLen)
				for j := range m[i] {
					m[i][j] = float64(f(i, j))
				}
			}
			return m
		}
		flat := make([]int32, q*kLen)
		if err := (posenc.T5Buckets{NumBuckets: nb, MaxDistance: maxDist, Bidirectional: bi}).BucketsTo(flat, q, kLen); err != nil {
			panic(err)
		}
		want := cells(func(i, j int) int { return int(flat[i*kLen+j]) })
		return exCase{name: fmt.Sprintf("matrix_%dx%d_bidirectional=%v", q, kLen, bi), call: call, run: func() string {
			gotInts := matrixFn(q, kLen, bi, nb, maxDist)
			if len(gotInts) != q {
				return exMsg("", fallback, fmt.Sprintf("%s returned %d rows; want %d", call, len(gotInts), q))
			}
			got := make([][]float64, q)
			for i, r := range gotInts {
				if len(r) != kLen {
					return exMsg("", fallback, fmt.Sprintf("%s: row %d has %d entries; want %d", call, i, len(r), kLen))
				}
				got[i] = exIntsToFloats(r)
			}
			r, c := exDiffTable(got, want, 0)
			if r < 0 {
				return ""
			}
			hint := diagFirst(got, exSameTable(0), exVariant[[][]float64]{hintT5QueryMinusKey,
				cells(func(i, j int) int { return refT5(i-j, bi, nb, maxDist) })})
			return exMsg(hint, "entry [i][j] is T5Bucket(j − i, …) (lesson 7, “From distance to bucket”).",
				append([]string{call + ":"}, exTableDiffLines(got, want, r, c,
					func(i int) string { return fmt.Sprintf("query %d", i) },
					func(j int) string { return fmt.Sprintf("key %d (rel = %d)", j, j-r) })...)...)
		}}
	}
	return []exCase{
		buckets(true, 32, 128),
		buckets(false, 32, 128),
		buckets(true, 16, 64),
		buckets(false, 64, 256),
		matrix(4, 6, true),
		matrix(3, 5, false),
		matrix(2, 200, true),
	}
}
