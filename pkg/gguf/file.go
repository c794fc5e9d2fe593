package gguf

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
)

// magic is "GGUF" read as a little-endian uint32.
const magic = 0x46554747

// defaultAlignment is the alignment of the tensor data when the metadata
// has no general.alignment.
const defaultAlignment = 32

// File is an open GGUF file: its metadata and tensor directory, read when
// it was opened, and the file itself, from which Tensor reads values.
type File struct {
	Version  uint32
	Metadata map[string]any // key → uint8…int64, float32, float64, bool, string, or a []T of them
	Tensors  []TensorInfo   // in file order
	// DataOffset is where the tensor data begins, aligned to
	// general.alignment; each TensorInfo.Offset counts from it.
	DataOffset int64

	path   string
	f      *os.File
	byName map[string]int
}

// TensorInfo describes one tensor of the directory.
type TensorInfo struct {
	Name string
	// Dims are GGML's ne[0], ne[1], …: the first is the fastest-varying.
	// A weight matrix applied as W·x has Dims [in, out] and is stored as
	// out rows of in values.
	Dims   []int
	Type   Type
	Offset int64 // from File.DataOffset
}

// Shape returns the dimensions in row-major order (Dims reversed), as numpy
// and gguf-py's GGUFReader report the data.
func (t TensorInfo) Shape() []int {
	s := make([]int, len(t.Dims))
	for i, d := range t.Dims {
		s[len(s)-1-i] = d
	}
	return s
}

// Len returns the number of values.
func (t TensorInfo) Len() int {
	n := 1
	for _, d := range t.Dims {
		n *= d
	}
	return n
}

// Open reads the header, metadata and tensor directory of the GGUF file at
// path. Close releases it.
func Open(path string) (*File, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("gguf: %w", err)
	}
	gf, err := parse(f, path)
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("gguf: %s: %w", path, err)
	}
	return gf, nil
}

// Close closes the file.
func (f *File) Close() error { return f.f.Close() }

// header reads little-endian values from the start of a file, counting the
// bytes read.
type header struct {
	r   *bufio.Reader
	n   int64
	err error
}

func (h *header) read(v any) {
	if h.err != nil {
		return
	}
	h.err = binary.Read(h.r, binary.LittleEndian, v)
	if h.err == nil {
		h.n += int64(binary.Size(v))
	}
}

func (h *header) u32() uint32 { var v uint32; h.read(&v); return v }
func (h *header) u64() uint64 { var v uint64; h.read(&v); return v }

// maxString bounds a string's length, so that a corrupt length fails
// instead of allocating terabytes.
const maxString = 1 << 24

func (h *header) str() string {
	n := h.u64()
	if h.err != nil {
		return ""
	}
	if n > maxString {
		h.err = fmt.Errorf("string of %d bytes at offset %d", n, h.n-8)
		return ""
	}
	b := make([]byte, n)
	_, h.err = io.ReadFull(h.r, b)
	h.n += int64(n)
	return string(b)
}

// Metadata value types (gguf.md, "gguf_metadata_value_type").
const (
	tUint8, tInt8, tUint16, tInt16, tUint32, tInt32, tFloat32, tBool, tString, tArray, tUint64, tInt64, tFloat64 = 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12
)

// value reads one metadata value of type typ.
func (h *header) value(typ uint32) any {
	switch typ {
	case tUint8:
		var v uint8
		h.read(&v)
		return v
	case tInt8:
		var v int8
		h.read(&v)
		return v
	case tUint16:
		var v uint16
		h.read(&v)
		return v
	case tInt16:
		var v int16
		h.read(&v)
		return v
	case tUint32:
		return h.u32()
	case tInt32:
		var v int32
		h.read(&v)
		return v
	case tFloat32:
		var v float32
		h.read(&v)
		return v
	case tBool:
		var v uint8
		h.read(&v)
		return v != 0
	case tString:
		return h.str()
	case tUint64:
		return h.u64()
	case tInt64:
		var v int64
		h.read(&v)
		return v
	case tFloat64:
		var v float64
		h.read(&v)
		return v
	case tArray:
		return h.array()
	}
	if h.err == nil {
		h.err = fmt.Errorf("unknown metadata value type %d at offset %d", typ, h.n-4)
	}
	return nil
}

// maxArray bounds an array's length (SmolLM2's vocabulary is 49,152).
const maxArray = 1 << 24

// array reads an array value: its element type, its length, its elements.
func (h *header) array() any {
	typ, n := h.u32(), h.u64()
	if h.err != nil {
		return nil
	}
	if n > maxArray {
		h.err = fmt.Errorf("array of %d values at offset %d", n, h.n-8)
		return nil
	}
	switch typ {
	case tString:
		return collect[string](h, typ, n)
	case tInt32:
		return collect[int32](h, typ, n)
	case tUint32:
		return collect[uint32](h, typ, n)
	case tFloat32:
		return collect[float32](h, typ, n)
	case tInt64:
		return collect[int64](h, typ, n)
	case tUint64:
		return collect[uint64](h, typ, n)
	case tFloat64:
		return collect[float64](h, typ, n)
	case tBool:
		return collect[bool](h, typ, n)
	case tUint8:
		return collect[uint8](h, typ, n)
	case tInt8:
		return collect[int8](h, typ, n)
	case tUint16:
		return collect[uint16](h, typ, n)
	case tInt16:
		return collect[int16](h, typ, n)
	}
	vs := make([]any, n) // arrays of arrays
	for i := range vs {
		vs[i] = h.value(typ)
	}
	return vs
}

func collect[T any](h *header, typ uint32, n uint64) []T {
	vs := make([]T, n)
	for i := range vs {
		v, _ := h.value(typ).(T)
		vs[i] = v
	}
	return vs
}

// parse reads what Open returns from f.
func parse(f *os.File, path string) (*File, error) {
	h := &header{r: bufio.NewReaderSize(f, 1<<20)}
	if m := h.u32(); h.err == nil && m != magic {
		return nil, fmt.Errorf("not a GGUF file (magic %#08x, want %#08x)", m, magic)
	}
	gf := &File{Version: h.u32(), Metadata: map[string]any{}, path: path, f: f, byName: map[string]int{}}
	if h.err == nil && gf.Version != 3 {
		return nil, fmt.Errorf("GGUF version %d, want 3", gf.Version)
	}
	nTensors, nKV := h.u64(), h.u64()
	if h.err == nil && (nTensors > maxArray || nKV > maxArray) {
		return nil, fmt.Errorf("%d tensors and %d metadata keys: not a sane header", nTensors, nKV)
	}
	for range nKV {
		key := h.str()
		gf.Metadata[key] = h.value(h.u32())
	}
	for range nTensors {
		t := TensorInfo{Name: h.str()}
		nDims := h.u32()
		if h.err == nil && nDims > 8 {
			return nil, fmt.Errorf("tensor %q has %d dimensions", t.Name, nDims)
		}
		for range nDims {
			d := h.u64()
			if d > math.MaxInt32 {
				h.err = fmt.Errorf("tensor %q has a dimension of %d", t.Name, d)
			}
			t.Dims = append(t.Dims, int(d))
		}
		t.Type = Type(h.u32())
		t.Offset = int64(h.u64())
		gf.byName[t.Name] = len(gf.Tensors)
		gf.Tensors = append(gf.Tensors, t)
	}
	if h.err != nil {
		if errors.Is(h.err, io.EOF) || errors.Is(h.err, io.ErrUnexpectedEOF) {
			return nil, fmt.Errorf("truncated header (%d bytes read)", h.n)
		}
		return nil, h.err
	}
	align := int64(defaultAlignment)
	if a, ok := gf.Metadata["general.alignment"].(uint32); ok && a > 0 {
		align = int64(a)
	}
	gf.DataOffset = (h.n + align - 1) / align * align
	return gf, nil
}

// Tensor returns the directory entry of the tensor called name.
func (f *File) Tensor(name string) (TensorInfo, error) {
	i, ok := f.byName[name]
	if !ok {
		return TensorInfo{}, fmt.Errorf("gguf: %s has no tensor %q", f.path, name)
	}
	return f.Tensors[i], nil
}

// Float32 returns the values of the tensor called name, dequantized, in
// row-major order of TensorInfo.Shape, with its directory entry.
func (f *File) Float32(name string) ([]float32, TensorInfo, error) {
	t, err := f.Tensor(name)
	if err != nil {
		return nil, t, err
	}
	raw, err := f.raw(t)
	if err != nil {
		return nil, t, err
	}
	out := make([]float32, t.Len())
	if err := Dequantize(out, raw, t.Type); err != nil {
		return nil, t, fmt.Errorf("gguf: tensor %q: %w", name, err)
	}
	return out, t, nil
}

// raw returns the bytes of tensor t.
func (f *File) raw(t TensorInfo) ([]byte, error) {
	n, err := t.Type.bytes(t.Len())
	if err != nil {
		return nil, fmt.Errorf("gguf: tensor %q: %w", t.Name, err)
	}
	b := make([]byte, n)
	if _, err := f.f.ReadAt(b, f.DataOffset+t.Offset); err != nil {
		return nil, fmt.Errorf("gguf: tensor %q (%d bytes at %d): %w", t.Name, n, f.DataOffset+t.Offset, err)
	}
	return b, nil
}

// Uint returns the unsigned integer metadata value key (any integer type).
func (f *File) Uint(key string) (uint64, error) {
	switch v := f.Metadata[key].(type) {
	case uint8:
		return uint64(v), nil
	case uint16:
		return uint64(v), nil
	case uint32:
		return uint64(v), nil
	case uint64:
		return v, nil
	case int32:
		if v >= 0 {
			return uint64(v), nil
		}
	case int64:
		if v >= 0 {
			return uint64(v), nil
		}
	}
	return 0, f.missing(key, "a non-negative integer")
}

// Float returns the floating-point metadata value key.
func (f *File) Float(key string) (float64, error) {
	switch v := f.Metadata[key].(type) {
	case float32:
		return float64(v), nil
	case float64:
		return v, nil
	}
	return 0, f.missing(key, "a float")
}

// String returns the string metadata value key.
func (f *File) String(key string) (string, error) {
	if v, ok := f.Metadata[key].(string); ok {
		return v, nil
	}
	return "", f.missing(key, "a string")
}

// Strings returns the string-array metadata value key.
func (f *File) Strings(key string) ([]string, error) {
	if v, ok := f.Metadata[key].([]string); ok {
		return v, nil
	}
	return nil, f.missing(key, "an array of strings")
}

func (f *File) missing(key, want string) error {
	v, ok := f.Metadata[key]
	if !ok {
		return fmt.Errorf("gguf: %s has no metadata key %q", f.path, key)
	}
	return fmt.Errorf("gguf: %s: metadata %q is %T, want %s", f.path, key, v, want)
}
