package posgraph

import (
	"fmt"
	"strconv"

	"github.com/gomlx/compute/dtypes"
	"github.com/posenc/course/pkg/posenc"
)

// Errors. Every function of this package validates its configuration and
// shapes while the graph is being built and panics with a *posenc.ParamError
// — the error the host layer returns for the same input, with the same
// message — which is GoMLX's convention for errors in graph construction
// (graph.Exec's non-Must calls turn the panic into an error).

// must panics with err when it is not nil.
func must(err error) {
	if err != nil {
		panic(err)
	}
}

// paramErr returns a *posenc.ParamError: "posenc: <param> <reason>, got <value>".
func paramErr(param string, value any, reason string) error {
	return &posenc.ParamError{Param: param, Value: value, Reason: reason}
}

func checkPositive(param string, v int) error {
	if v <= 0 {
		return paramErr(param, v, "must be positive")
	}
	return nil
}

// maxElements bounds the size of a host table built for a graph constant,
// as the host layer bounds the tables it allocates (1<<31 elements), so that
// an absurd length is an error rather than an out-of-memory crash.
const maxElements = 1 << 31

// checkElements returns a *ParamError when the product of factors (all
// positive) exceeds maxElements.
func checkElements(param string, factors ...int) error {
	n := 1
	for _, f := range factors {
		if f > maxElements || n > maxElements/f {
			return paramErr(param, factors, fmt.Sprintf("must describe at most %d elements", maxElements))
		}
		n *= f
	}
	return nil
}

// checkFloatDType panics unless dtype is a floating-point type.
func checkFloatDType(param string, dtype dtypes.DType) {
	if !dtype.IsFloat() {
		must(paramErr(param, dtype, "must be a floating-point dtype"))
	}
}

func itoa(v int) string { return strconv.Itoa(v) }
