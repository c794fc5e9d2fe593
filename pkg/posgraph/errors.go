package posgraph

import (
	"strconv"

	"github.com/gomlx/compute/dtypes"
	"github.com/posenc/course/internal/validate"
)

// Errors. Every function of this package validates its configuration and
// shapes while the graph is being built, with the host layer's checks
// (internal/validate), and panics with a *posenc.ParamError — the error the
// host layer returns for the same input, with the same message — which is
// GoMLX's convention for errors in graph construction (graph.Exec's non-Must
// calls turn the panic into an error).

// must panics with err when it is not nil.
func must(err error) {
	if err != nil {
		panic(err)
	}
}

// checkFloatDType panics unless dtype is a floating-point type.
func checkFloatDType(param string, dtype dtypes.DType) {
	if !dtype.IsFloat() {
		must(validate.Err(param, dtype, "must be a floating-point dtype"))
	}
}

func itoa(v int) string { return strconv.Itoa(v) }
