package parallel

import "sync"

// Pool recycles kernel structs so that hot paths allocate nothing.
type Pool[K any] struct{ p sync.Pool }

// Get returns a recycled *K, or a new one when the pool is empty.
func (kp *Pool[K]) Get() *K {
	if v := kp.p.Get(); v != nil {
		return v.(*K)
	}
	return new(K)
}

// Put returns k to the pool.
func (kp *Pool[K]) Put(k *K) { kp.p.Put(k) }

// TypedPool holds one Pool per element type, so that generic host functions
// can recycle their kernel structs: K32 and K64 are the float32 and float64
// instantiations of the same kernel type.
type TypedPool[K32, K64 any] struct {
	f32 Pool[K32]
	f64 Pool[K64]
}

// Get returns a recycled *K from tp when K is one of tp's two types, and a
// new one otherwise (element types such as `type F float32`).
func Get[K, K32, K64 any](tp *TypedPool[K32, K64]) *K {
	switch any((*K)(nil)).(type) {
	case *K32:
		return any(tp.f32.Get()).(*K)
	case *K64:
		return any(tp.f64.Get()).(*K)
	}
	return new(K)
}

// Put returns k to tp when K is one of tp's two types.
func Put[K, K32, K64 any](tp *TypedPool[K32, K64], k *K) {
	switch kk := any(k).(type) {
	case *K32:
		tp.f32.Put(kk)
	case *K64:
		tp.f64.Put(kk)
	}
}
