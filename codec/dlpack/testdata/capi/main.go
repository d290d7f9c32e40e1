// Command capi is a C shared library (go build -buildmode=c-shared) that
// lets a real DLPack consumer and producer, NumPy driven by
// ../numpy_interop.py through ctypes, exchange tensors with package
// dlpack. It lives under testdata so that ./... ignores it;
// TestNumpyDLPack builds it.
//
// Every function takes a JSON request and returns a JSON reply in C
// memory that the caller frees with fstFree; failures are replies with an
// "error" key.
package main

/*
#include <stdlib.h>
*/
import "C"

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sync"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/float16"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/fstensor/fstensor/codec/dlpack"
	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/metadata"
	"github.com/fstensor/fstensor/stride"
)

func main() {}

// mem allocates every exported column, so that the consumer's deleter
// can be seen to free it: fstAllocated returns its live bytes.
var mem = memory.NewCheckedAllocator(memory.NewGoAllocator())

// exportRequest describes a column to build and export. Logical element k
// of tensor i (row-major over the logical shape) is (i*size + k) % 100.
type exportRequest struct {
	DType  string `json:"dtype"`
	Shape  []int  `json:"shape"`
	Perm   []int  `json:"perm"`
	N      int    `json:"n"`      // tensors in the column
	Nulls  []int  `json:"nulls"`  // indices of null tensors
	Column bool   `json:"column"` // export the whole column, else tensor Tensor
	Tensor int    `json:"tensor"`
	Legacy bool   `json:"legacy"` // DLManagedTensor instead of DLManagedTensorVersioned
}

type exportReply struct {
	Ptr   uintptr `json:"ptr"`  // the DLManagedTensor(Versioned)
	Data  uintptr `json:"data"` // the array's buffer at the exported tensors
	Error string  `json:"error,omitempty"`
}

// importReply describes an imported column, kept alive under ID until
// fstRelease.
type importReply struct {
	ID      int       `json:"id"`
	Len     int       `json:"len"`
	Shape   []int     `json:"shape"`
	Perm    []int     `json:"perm"`
	Values  []float64 `json:"values"` // logical values, tensor after tensor
	Data    uintptr   `json:"data"`   // the column's values buffer
	Error   string    `json:"error,omitempty"`
	Invalid bool      `json:"invalid,omitempty"` // the error wraps arrow.ErrInvalid
}

var (
	mu      sync.Mutex
	held    = map[int]*fixedshape.Array{}
	nextID  = 1
	dtypes  = map[string]arrow.DataType{}
	allElem = []arrow.DataType{
		arrow.PrimitiveTypes.Int8, arrow.PrimitiveTypes.Int16, arrow.PrimitiveTypes.Int32, arrow.PrimitiveTypes.Int64,
		arrow.PrimitiveTypes.Uint8, arrow.PrimitiveTypes.Uint16, arrow.PrimitiveTypes.Uint32, arrow.PrimitiveTypes.Uint64,
		arrow.FixedWidthTypes.Float16, arrow.PrimitiveTypes.Float32, arrow.PrimitiveTypes.Float64,
	}
)

func init() {
	for _, dt := range allElem {
		dtypes[dt.String()] = dt
	}
}

func reply(v any) *C.char {
	b, err := json.Marshal(v)
	if err != nil {
		b = []byte(fmt.Sprintf(`{"error": %q}`, err.Error()))
	}
	return C.CString(string(b))
}

//export fstFree
func fstFree(p *C.char) { C.free(unsafe.Pointer(p)) }

//export fstOutstanding
func fstOutstanding() C.longlong { return C.longlong(dlpack.Outstanding()) }

//export fstAllocated
func fstAllocated() C.longlong { return C.longlong(mem.CurrentAlloc()) }

// fstExport builds the column a JSON exportRequest describes, exports it
// and drops its own reference: only the consumer's deleter keeps the
// column alive.
//
//export fstExport
func fstExport(req *C.char) *C.char {
	var r exportRequest
	if err := json.Unmarshal([]byte(C.GoString(req)), &r); err != nil {
		return reply(exportReply{Error: err.Error()})
	}
	a, err := build(r)
	if err != nil {
		return reply(exportReply{Error: err.Error()})
	}
	defer a.Release()
	var ptr unsafe.Pointer
	switch {
	case r.Column && r.Legacy:
		var m *dlpack.ManagedTensor
		m, err = dlpack.ExportLegacy(a)
		ptr = unsafe.Pointer(m)
	case r.Column:
		var m *dlpack.ManagedTensorVersioned
		m, err = dlpack.Export(a)
		ptr = unsafe.Pointer(m)
	case r.Legacy:
		var m *dlpack.ManagedTensor
		m, err = dlpack.ExportTensorLegacy(a, r.Tensor)
		ptr = unsafe.Pointer(m)
	default:
		var m *dlpack.ManagedTensorVersioned
		m, err = dlpack.ExportTensor(a, r.Tensor)
		ptr = unsafe.Pointer(m)
	}
	if err != nil {
		return reply(exportReply{Error: err.Error()})
	}
	first := 0
	if !r.Column {
		first = r.Tensor
	}
	rep := exportReply{Ptr: uintptr(ptr)}
	if vb := a.ValueBytes(); len(vb) > 0 {
		rep.Data = uintptr(unsafe.Pointer(&vb[first*a.TensorType().ListSize()*a.TensorType().ElemWidth()]))
	}
	return reply(rep)
}

// build makes the column of r from mem.
func build(r exportRequest) (*fixedshape.Array, error) {
	dt, ok := dtypes[r.DType]
	if !ok {
		return nil, fmt.Errorf("unknown dtype %q", r.DType)
	}
	m, err := metadata.New(r.Shape, nil, r.Perm)
	if err != nil {
		return nil, err
	}
	typ, err := fixedshape.NewType(dt, m)
	if err != nil {
		return nil, err
	}
	switch dt.ID() {
	case arrow.INT8:
		return fill(typ, r.N, r.Nulls, func(x int) int8 { return int8(x) })
	case arrow.INT16:
		return fill(typ, r.N, r.Nulls, func(x int) int16 { return int16(x) })
	case arrow.INT32:
		return fill(typ, r.N, r.Nulls, func(x int) int32 { return int32(x) })
	case arrow.INT64:
		return fill(typ, r.N, r.Nulls, func(x int) int64 { return int64(x) })
	case arrow.UINT8:
		return fill(typ, r.N, r.Nulls, func(x int) uint8 { return uint8(x) })
	case arrow.UINT16:
		return fill(typ, r.N, r.Nulls, func(x int) uint16 { return uint16(x) })
	case arrow.UINT32:
		return fill(typ, r.N, r.Nulls, func(x int) uint32 { return uint32(x) })
	case arrow.UINT64:
		return fill(typ, r.N, r.Nulls, func(x int) uint64 { return uint64(x) })
	case arrow.FLOAT16:
		return fill(typ, r.N, r.Nulls, func(x int) float16.Num { return float16.New(float32(x)) })
	case arrow.FLOAT32:
		return fill(typ, r.N, r.Nulls, func(x int) float32 { return float32(x) })
	default:
		return fill(typ, r.N, r.Nulls, func(x int) float64 { return float64(x) })
	}
}

// fill builds n tensors of typ whose logical element k of tensor i is
// conv((i*size + k) % 100), except the null tensors listed in nulls.
func fill[T fixedshape.Elem](typ *fixedshape.Type, n int, nulls []int, conv func(int) T) (*fixedshape.Array, error) {
	b, err := fixedshape.NewBuilder[T](mem, typ)
	if err != nil {
		return nil, err
	}
	defer b.Release()
	size := typ.ListSize()
	phys := make([]T, size)
	for i := range n {
		k := 0
		for off := range stride.Offsets(typ.Shape(), typ.ElemStrides()) {
			phys[off] = conv((i*size + k) % 100)
			k++
		}
		if slices.Contains(nulls, i) {
			b.AppendNull()
			continue
		}
		if err := b.Append(phys); err != nil {
			return nil, err
		}
	}
	return b.NewArray(), nil
}

// importRequest says how to import a producer's struct.
type importRequest struct {
	Legacy    bool `json:"legacy"`
	Column    bool `json:"column"`
	AllowCopy bool `json:"allow_copy"`
}

// fstImport imports the producer's struct at p (a DLManagedTensorVersioned,
// or a DLManagedTensor when legacy) and keeps the column until
// fstRelease. The caller has consumed the capsule, so a failed import
// calls the producer's deleter here.
//
//export fstImport
func fstImport(p unsafe.Pointer, req *C.char) *C.char {
	var r importRequest
	if err := json.Unmarshal([]byte(C.GoString(req)), &r); err != nil {
		return reply(importReply{Error: err.Error()})
	}
	opts := []dlpack.ImportOption{dlpack.WithColumn(r.Column), dlpack.WithCopy(r.AllowCopy), dlpack.WithAllocator(mem)}
	var a *fixedshape.Array
	var err error
	if r.Legacy {
		m := (*dlpack.ManagedTensor)(p)
		if a, err = dlpack.Import(m, opts...); err != nil {
			m.Delete()
		}
	} else {
		m := (*dlpack.ManagedTensorVersioned)(p)
		if a, err = dlpack.ImportVersioned(m, opts...); err != nil {
			m.Delete()
		}
	}
	if err != nil {
		return reply(importReply{Error: err.Error(), Invalid: errors.Is(err, arrow.ErrInvalid)})
	}
	typ := a.TensorType()
	rep := importReply{Len: a.Len(), Shape: typ.Shape(), Perm: typ.Metadata().Permutation(), Values: logical(a)}
	if vb := a.ValueBytes(); len(vb) > 0 {
		rep.Data = uintptr(unsafe.Pointer(&vb[0]))
	}
	mu.Lock()
	rep.ID = nextID
	nextID++
	held[rep.ID] = a
	mu.Unlock()
	return reply(rep)
}

// fstRelease releases the column fstImport kept under id, which runs the
// producer's deleter when the import was zero-copy. It returns 0, or -1
// for an unknown id.
//
//export fstRelease
func fstRelease(id C.int) C.int {
	mu.Lock()
	a, ok := held[int(id)]
	delete(held, int(id))
	mu.Unlock()
	if !ok {
		return -1
	}
	a.Release()
	return 0
}

// logical returns the logical values of every tensor of a.
func logical(a *fixedshape.Array) []float64 {
	switch a.TensorType().ElemType().ID() {
	case arrow.INT8:
		return values(a, func(x int8) float64 { return float64(x) })
	case arrow.INT16:
		return values(a, func(x int16) float64 { return float64(x) })
	case arrow.INT32:
		return values(a, func(x int32) float64 { return float64(x) })
	case arrow.INT64:
		return values(a, func(x int64) float64 { return float64(x) })
	case arrow.UINT8:
		return values(a, func(x uint8) float64 { return float64(x) })
	case arrow.UINT16:
		return values(a, func(x uint16) float64 { return float64(x) })
	case arrow.UINT32:
		return values(a, func(x uint32) float64 { return float64(x) })
	case arrow.UINT64:
		return values(a, func(x uint64) float64 { return float64(x) })
	case arrow.FLOAT16:
		return values(a, func(x float16.Num) float64 { return float64(x.Float32()) })
	case arrow.FLOAT32:
		return values(a, func(x float32) float64 { return float64(x) })
	default:
		return values(a, func(x float64) float64 { return x })
	}
}

func values[T fixedshape.Elem](a *fixedshape.Array, conv func(T) float64) []float64 {
	c, err := fixedshape.ColumnOf[T](a)
	if err != nil {
		return nil
	}
	out := []float64{}
	for i := range c.Len() {
		for x := range c.Tensor(i).All() {
			out = append(out, conv(x))
		}
	}
	return out
}
