package posenc

import (
	"math"

	"github.com/posenc/course/internal/validate"
	"github.com/posenc/course/pkg/posenc/internal/parallel"
)

// ALiBi (Press, Smith and Lewis 2022, "Train Short, Test Long: Attention with
// Linear Biases Enables Input Length Extrapolation",
// https://arxiv.org/abs/2108.12409) adds no position vector at all: head h
// adds −m_h·|i−j| to the attention logit of query i and key j. The slopes m_h
// are fixed, not learned.

// maxHeads bounds the number of heads ALiBiSlopes accepts; beyond it the
// smallest slopes underflow towards zero.
const maxHeads = 1 << 16

// ALiBiSlopes returns the slope of each of heads heads, following the
// authors' get_slopes (ofirpress/attention_with_linear_biases, fairseq):
//
//   - for n a power of two, the geometric sequence m_k = 2^(−8k/n), k = 1…n;
//   - otherwise, the n' = 2^⌊log₂ n⌋ slopes for n', followed by every other
//     slope (the 1st, 3rd, 5th, …) of the 2n' sequence, until there are n.
//
// The second rule is not the geometric sequence 2^(−8k/n): for 12 heads it
// gives 1/2, 1/4, …, 1/256 and then 2^(−0.5), 2^(−1.5), 2^(−2.5), 2^(−3.5).
func ALiBiSlopes(heads int) ([]float64, error) {
	if err := validate.Positive("heads", heads); err != nil {
		return nil, err
	}
	if heads > maxHeads {
		return nil, validate.Err("heads", heads, "must be <= 65536")
	}
	dst := make([]float64, heads)
	alibiSlopesTo(dst)
	return dst, nil
}

func alibiSlopesTo(dst []float64) {
	n := len(dst)
	p := 1
	for p*2 <= n {
		p *= 2
	}
	geometric := func(n, k int) float64 { // k-th slope (from 1) of n, n a power of two
		return math.Exp2(-8 * float64(k) / float64(n))
	}
	for k := 1; k <= p; k++ {
		dst[k-1] = geometric(p, k)
	}
	// Every other slope of the 2p sequence: k = 1, 3, 5, ….
	for j := 0; p+j < n; j++ {
		dst[p+j] = geometric(2*p, 2*j+1)
	}
}

// ALiBiBiasTo fills dst, a row-major [len(slopes), qLen, kLen] tensor, with
// the ALiBi bias of each head for qLen queries over kLen keys. Queries are
// the last qLen of the kLen positions (query i sits at position kLen−qLen+i,
// as with a KV cache), so qLen must be at most kLen.
//
// Symmetric (causal false): bias = −m·|i−j|. Causal: bias = −m·(i−j) for keys
// j at or before the query, and −Inf after it, so that the bias is also the
// causal mask. Entries are computed in float64 and rounded once.
func ALiBiBiasTo[T Float](dst []T, slopes []float64, qLen, kLen int, causal bool) error {
	if err := validate.Positive("len(slopes)", len(slopes)); err != nil {
		return err
	}
	for i, m := range slopes {
		if math.IsNaN(m) || math.IsInf(m, 0) {
			return validate.Err("slopes["+itoa(i)+"]", m, "must be finite")
		}
	}
	if err := validate.Positive("q_len", qLen); err != nil {
		return err
	}
	if err := validate.Positive("k_len", kLen); err != nil {
		return err
	}
	if qLen > kLen {
		return validate.Err("q_len", qLen, "must be <= k_len ("+itoa(kLen)+")")
	}
	if err := validate.Elements("heads×q_len×k_len", len(slopes), qLen, kLen); err != nil {
		return err
	}
	if err := validate.Len("dst", len(dst), len(slopes)*qLen*kLen); err != nil {
		return err
	}
	k := parallel.Get[alibiKernel[T]](&alibiKernels)
	k.dst, k.slopes, k.qLen, k.kLen, k.causal = dst, slopes, qLen, kLen, causal
	parallel.Run(k, len(slopes)*qLen, kLen, &k.Job)
	k.dst, k.slopes = nil, nil
	parallel.Put(&alibiKernels, k)
	return nil
}

// ALiBiBias returns the [heads, n, n] bias of ALiBiSlopes(heads) for n
// queries over n keys.
func ALiBiBias[T Float](heads, n int, causal bool) ([]T, error) {
	slopes, err := ALiBiSlopes(heads)
	if err != nil {
		return nil, err
	}
	if err := validate.Positive("n", n); err != nil {
		return nil, err
	}
	if err := validate.Elements("heads×n×n", heads, n, n); err != nil {
		return nil, err
	}
	dst := make([]T, heads*n*n)
	return dst, ALiBiBiasTo(dst, slopes, n, n, causal)
}

type alibiKernel[T Float] struct {
	parallel.Job
	dst        []T
	slopes     []float64
	qLen, kLen int
	causal     bool
}

var alibiKernels parallel.TypedPool[alibiKernel[float32], alibiKernel[float64]]

// RunRows fills rows [lo, hi) of dst, row r holding head r/qLen and query
// r%qLen.
//
// Entry j of a row depends only on k = j − qPos (the key's offset from the
// query), so the row of query i+1 of a head is the row of query i shifted
// right by one, plus one new entry at j = 0. A row after the first of its
// head within [lo, hi) is therefore a copy of the previous row (still in
// cache, just written) and one computed value: the kernel runs at the speed
// of copy, and every entry is still exactly the value the formula gives,
// computed in float64 and rounded once.
func (k *alibiKernel[T]) RunRows(lo, hi int) {
	kLen := k.kLen
	for r := lo; r < hi; r++ {
		q := r % k.qLen
		qPos := kLen - k.qLen + q
		row := k.dst[r*kLen : (r+1)*kLen]
		if r == lo || q == 0 {
			k.fillRow(row, k.slopes[r/k.qLen], qPos)
			continue
		}
		prev := k.dst[(r-1)*kLen : r*kLen]
		copy(row[1:], prev[:kLen-1])
		row[0] = alibiEntry[T](k.slopes[r/k.qLen], -qPos, k.causal)
	}
}

// alibiEntry is the bias at key offset d = j − qPos.
func alibiEntry[T Float](m float64, d int, causal bool) T {
	switch {
	case d <= 0: // keys up to the query: −m·(q−j) = m·(j−q), up to +0 at j = q
		return T(m * float64(d))
	case causal:
		return T(math.Inf(-1))
	}
	return T(-m * float64(d))
}

// fillRow computes one row of slope m for the query at qPos directly.
func (k *alibiKernel[T]) fillRow(row []T, m float64, qPos int) {
	for j := range row[:qPos+1] {
		row[j] = T(m * float64(j-qPos))
	}
	after := row[qPos+1:]
	if k.causal {
		negInf := T(math.Inf(-1))
		for j := range after {
			after[j] = negInf
		}
		return
	}
	for j := range after {
		after[j] = T(-m * float64(j+1))
	}
}
