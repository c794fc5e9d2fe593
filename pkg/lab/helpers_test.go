package lab

import (
	"math/big"
	"testing"

	"github.com/gomlx/compute"

	"github.com/posenc/course/pkg/posgraph"
)

// testBackend returns the backend the course's helper picks.
func testBackend(t testing.TB) compute.Backend {
	b, err := posgraph.NewBackend()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(b.Finalize)
	return b
}

// bigInt wraps math/big for binomialTail.
type bigInt struct{ v big.Int }

func (b *bigInt) setInt(x int64) *bigInt { b.v.SetInt64(x); return b }
func (b *bigInt) add(o *bigInt)          { b.v.Add(&b.v, &o.v) }
func (b *bigInt) mulDiv(m, d int) {
	b.v.Mul(&b.v, big.NewInt(int64(m)))
	b.v.Quo(&b.v, big.NewInt(int64(d)))
}

// ratioPow2 returns b/2ⁿ as a float64.
func (b *bigInt) ratioPow2(n int) float64 {
	r := new(big.Rat).SetFrac(&b.v, new(big.Int).Lsh(big.NewInt(1), uint(n)))
	f, _ := r.Float64()
	return f
}
