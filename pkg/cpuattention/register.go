package cpuattention

/*
#cgo CFLAGS: -O3 -std=gnu11 -Wall
#cgo LDFLAGS: -ldl -lpthread -lm
#include <stdlib.h>
#include "attention.h"
*/
import "C"

import (
	"fmt"
	"sync"
	"unsafe"
)

// target is the custom call's name in XLA's FFI registry.
const target = "posenc_cpu_attention"

var registration struct {
	once sync.Once
	err  error
}

// register registers the kernel with the CPU plugin loaded from path, once
// a process; later calls return the first call's answer.
func register(path string) error {
	registration.once.Do(func() {
		if C.posenc_attention_supported() == 0 {
			registration.err = fmt.Errorf("this CPU lacks AVX-512 (F, BW and VL), which the kernel is written in")
			return
		}
		cPath, cTarget := C.CString(path), C.CString(target)
		defer C.free(unsafe.Pointer(cPath))
		defer C.free(unsafe.Pointer(cTarget))
		var msg [512]C.char
		if C.posenc_attention_register(cPath, cTarget, &msg[0], C.size_t(len(msg))) != 0 {
			registration.err = fmt.Errorf("%s", C.GoString(&msg[0]))
		}
	})
	return registration.err
}

// kernel runs the kernel directly on Go slices, for the tests: the shapes
// are as attention.h says, and mask holds 0 or 1.
func kernel(o, q, k, v []float32, mask []byte, b, h, kv, c, n, e, mb int, threads int) {
	C.posenc_attention((*C.float)(&o[0]), (*C.float)(&q[0]), (*C.float)(&k[0]), (*C.float)(&v[0]),
		(*C.uint8_t)(&mask[0]), C.int64_t(b), C.int64_t(h), C.int64_t(kv), C.int64_t(c), C.int64_t(n),
		C.int64_t(e), C.int64_t(mb), C.int(threads))
}

// supported says whether this CPU can run the kernel.
func supported() bool { return C.posenc_attention_supported() != 0 }
