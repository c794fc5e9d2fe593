package cpuattention

import (
	"fmt"
	"reflect"
	"sync"
	"unsafe"

	"github.com/gomlx/compute"
	"github.com/gomlx/compute/shapes"
	"github.com/gomlx/go-xla/compute/xla"
	"github.com/gomlx/go-xla/pjrt"
	"github.com/gomlx/go-xla/stablehlo"
	"github.com/gomlx/gomlx/core/graph"
)

// GoMLX builds a graph through its backend's Function, and the only way
// into it from outside GoMLX is an operation GoMLX already has. So
// Attention calls GoMLX's fused-attention node
// (graph.BackendFusedScaledDotProductAttention) with the graph's backend
// function swapped, for that one call, for a thin wrapper whose
// FusedScaledDotProductAttention emits the kernel's custom call; the
// backend, its buffers and every other operation are go-xla's as before.

// Enable registers the kernel with backend's plugin, so that Attention
// runs it in backend's graphs. It returns an error, and Attention then
// reports false, where the kernel cannot run: a backend other than XLA's
// CPU plugin, a CPU without AVX-512, or a plugin that refuses the
// registration.
func Enable(backend compute.Backend) error {
	x, ok := backend.(*xla.Backend)
	if !ok {
		return fmt.Errorf("cpuattention: the backend is %q, not XLA", backend.Name())
	}
	plugin := *(**pjrt.Plugin)(unexported(x, "plugin"))
	if plugin == nil || !plugin.IsCPU() {
		return fmt.Errorf("cpuattention: the XLA plugin is not the CPU plugin")
	}
	if err := register(plugin.Path()); err != nil {
		return fmt.Errorf("cpuattention: %w", err)
	}
	enabled.Store(plugin, true)
	return nil
}

// enabled are the plugins Enable registered the kernel with.
var enabled sync.Map // *pjrt.Plugin → true

// Enabled says whether Enable has switched backend on.
func Enabled(backend compute.Backend) bool {
	x, ok := backend.(*xla.Backend)
	if !ok {
		return false
	}
	_, ok = enabled.Load(*(**pjrt.Plugin)(unexported(x, "plugin")))
	return ok
}

// unexported returns the address of the named field of the struct p
// points to, exported or not.
func unexported(p any, field string) unsafe.Pointer {
	f := reflect.ValueOf(p).Elem().FieldByName(field)
	if !f.IsValid() {
		panic(fmt.Sprintf("cpuattention: %T has no field %q (GoMLX or go-xla changed?)", p, field))
	}
	return unsafe.Pointer(f.UnsafeAddr())
}

// withKernel runs build with the backend function of g's current function
// swapped for one whose fused attention is the kernel's, out, and swaps it
// back.
func withKernel(g *graph.Graph, out shapes.Shape, build func()) {
	slot := (*compute.Function)(unexported(g.CurrentFunc(), "backendFunc"))
	saved := *slot
	*slot = kernelFunction{saved, out}
	defer func() { *slot = saved }()
	build()
}

// kernelFunction is a backend function whose fused attention is the
// kernel's, with result shape out; everything else is f's.
type kernelFunction struct {
	compute.Function
	out shapes.Shape
}

// FusedScaledDotProductAttention emits the kernel's custom call: q, k, v
// and options.Mask in, the result out.
func (f kernelFunction) FusedScaledDotProductAttention(query, key, value compute.Value, _ compute.AttentionAxesLayout,
	options *compute.ScaledDotProductAttentionConfig) (compute.Value, []compute.Value, error) {
	x, ok := f.Function.(*xla.Function)
	if !ok {
		return nil, nil, fmt.Errorf("cpuattention: the graph's function is a %T, not go-xla's", f.Function)
	}
	outs, err := customCall(x, target, "", [][]int{nil, nil, nil, nil}, []shapes.Shape{f.out}, [][]int{nil},
		query, key, value, options.Mask)
	if err != nil {
		return nil, nil, err
	}
	if err := typedFFI(x); err != nil {
		return nil, nil, err
	}
	return outs[0], nil, nil
}

// customCall is go-xla's own custom-call emitter, which its cuDNN
// attention uses and which it does not export (go-xla v0.4.5,
// compute/xla/ops.go). It writes API version 2, which XLA's CPU plugin no
// longer runs; typedFFI then makes it version 4, the typed FFI.
//
//go:linkname customCall github.com/gomlx/go-xla/compute/xla.(*Function).customCall
func customCall(f *xla.Function, target string, backendConfig string, operandLayouts [][]int,
	outputShapes []shapes.Shape, outputLayouts [][]int, operands ...compute.Value) ([]compute.Value, error)

// typedFFI sets the API version of the custom call just added to f to 4.
func typedFFI(f *xla.Function) error {
	fn := *(**stablehlo.Function)(unexported(f, "fn"))
	if fn == nil || len(fn.Statements) == 0 {
		return fmt.Errorf("cpuattention: the custom call is not in the function")
	}
	st := fn.Statements[len(fn.Statements)-1]
	if st.Attributes["call_target_name"] != target {
		return fmt.Errorf("cpuattention: the last statement is not the custom call")
	}
	st.Attributes["api_version"] = int32(4)
	return nil
}
