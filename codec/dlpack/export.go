//go:build cgo

package dlpack

/*
#include <stdlib.h>
#include "dlpack.h"
*/
import "C"

import (
	"runtime"
	"runtime/cgo"
	"sync/atomic"
	"unsafe"

	"github.com/fstensor/fstensor/fixedshape"
)

// ManagedTensorVersioned is DLPack's DLManagedTensorVersioned (v1.1), a C
// struct in C memory. Pass unsafe.Pointer(m) to C code or wrap it in a
// "dltensor_versioned" capsule; the consumer calls its deleter once.
type ManagedTensorVersioned C.DLManagedTensorVersioned

// ManagedTensor is DLPack's legacy DLManagedTensor, a C struct in C
// memory, for consumers that predate DLPack 1.0 (capsule "dltensor").
type ManagedTensor C.DLManagedTensor

// exported is what an exported tensor's cgo.Handle holds: the array kept
// alive and the pin that lets C hold its Go memory.
type exported struct {
	arr *fixedshape.Array
	pin runtime.Pinner
}

// live counts exported tensors whose deleter has not run.
var live atomic.Int64

// Outstanding returns the number of tensors exported by this package
// whose deleter has not been called yet.
func Outstanding() int64 { return live.Load() }

//export fstDLPackRelease
func fstDLPackRelease(h C.uintptr_t) {
	handle := cgo.Handle(h)
	e := handle.Value().(*exported)
	handle.Delete()
	e.pin.Unpin()
	e.arr.Release()
	live.Add(-1)
}

// Export returns the column a as one (N+1)-D DLPack tensor, batch axis
// first: shape (N, L...), element strides (ListSize, logical strides...)
// as in [ExportLayout], device CPU, dtype per [DataTypeOf], flag
// READ_ONLY. No element is copied, whatever the permutation: the struct
// points into a's values buffer, which Export retains (and pins, when it
// is Go memory) until the consumer calls the deleter, which also frees
// the struct. The caller keeps its own reference to a. Errors wrap
// arrow.ErrInvalid: an invalid array, a null tensor (DLPack has no
// nulls).
func Export(a *fixedshape.Array) (*ManagedTensorVersioned, error) {
	m, err := export(a, 0, a.Len(), true, true)
	return (*ManagedTensorVersioned)(m), err
}

// ExportTensor is [Export] for tensor i of a alone: shape = its logical
// shape, strides = its logical element strides. It panics if i is out
// of range.
func ExportTensor(a *fixedshape.Array, i int) (*ManagedTensorVersioned, error) {
	if i < 0 || i >= a.Len() {
		panic("dlpack: tensor index out of range")
	}
	m, err := export(a, i, 1, false, true)
	return (*ManagedTensorVersioned)(m), err
}

// ExportLegacy is [Export] as a legacy DLManagedTensor (no version, no
// read-only flag: the consumer must still not write).
func ExportLegacy(a *fixedshape.Array) (*ManagedTensor, error) {
	m, err := export(a, 0, a.Len(), true, false)
	return (*ManagedTensor)(m), err
}

// ExportTensorLegacy is [ExportTensor] as a legacy DLManagedTensor.
func ExportTensorLegacy(a *fixedshape.Array, i int) (*ManagedTensor, error) {
	if i < 0 || i >= a.Len() {
		panic("dlpack: tensor index out of range")
	}
	m, err := export(a, i, 1, false, false)
	return (*ManagedTensor)(m), err
}

// export builds the C struct for tensors [first, first+n) of a.
func export(a *fixedshape.Array, first, n int, column, versioned bool) (unsafe.Pointer, error) {
	if err := a.Validate(); err != nil {
		return nil, err
	}
	typ := a.TensorType()
	dt, err := DataTypeOf(typ.ElemType())
	if err != nil {
		return nil, err
	}
	// NullN is counted once and cached: checking it keeps export O(1).
	for i := first; a.NullN() > 0 && i < first+n; i++ {
		if a.IsNull(i) {
			return nil, errorf("tensor %d is null and DLPack has no nulls", i)
		}
	}
	shape, strides := ExportLayout(typ, n, column)
	bytesPer := typ.ListSize() * typ.ElemWidth()
	data := a.ValueBytes()[first*bytesPer : (first+n)*bytesPer]

	e := &exported{arr: a}
	var ptr unsafe.Pointer
	if len(data) > 0 {
		ptr = unsafe.Pointer(&data[0])
		e.pin.Pin(ptr)
	}
	a.Retain()
	h := cgo.NewHandle(e)
	var t *C.DLTensor
	var m unsafe.Pointer
	if versioned {
		v := C.fst_new_versioned(C.int32_t(len(shape)), C.uintptr_t(h))
		if v != nil {
			t, m = &v.dl_tensor, unsafe.Pointer(v)
		}
	} else {
		l := C.fst_new_legacy(C.int32_t(len(shape)), C.uintptr_t(h))
		if l != nil {
			t, m = &l.dl_tensor, unsafe.Pointer(l)
		}
	}
	if m == nil {
		h.Delete()
		e.pin.Unpin()
		a.Release()
		return nil, errorf("out of C memory for a %d-D tensor", len(shape))
	}
	live.Add(1)
	t.data = ptr
	t.device = C.DLDevice{device_type: C.int32_t(CPU), device_id: 0}
	t.dtype = C.DLDataType{code: C.uint8_t(dt.Code), bits: C.uint8_t(dt.Bits), lanes: C.uint16_t(dt.Lanes)}
	if len(shape) > 0 {
		copy(unsafe.Slice((*int64)(unsafe.Pointer(t.shape)), len(shape)), shape)
		copy(unsafe.Slice((*int64)(unsafe.Pointer(t.strides)), len(strides)), strides)
	}
	return m, nil
}

// Delete calls m's deleter, for a producer that gives up a tensor nobody
// consumed. m must not be used afterwards.
func (m *ManagedTensorVersioned) Delete() { C.fst_call_versioned((*C.DLManagedTensorVersioned)(m)) }

// Delete calls m's deleter; m must not be used afterwards.
func (m *ManagedTensor) Delete() { C.fst_call_legacy((*C.DLManagedTensor)(m)) }

// Layout returns the description of m's DLTensor (shape and strides
// copied). It trusts ndim and the shape and strides pointers: use it on
// well-formed structs only.
func (m *ManagedTensorVersioned) Layout() Layout { return layoutOf(&m.dl_tensor) }

// Layout is [ManagedTensorVersioned.Layout] for a legacy tensor.
func (m *ManagedTensor) Layout() Layout { return layoutOf(&m.dl_tensor) }

// Data returns m's data pointer (without the byte offset).
func (m *ManagedTensorVersioned) Data() unsafe.Pointer { return m.dl_tensor.data }

// Data returns m's data pointer (without the byte offset).
func (m *ManagedTensor) Data() unsafe.Pointer { return m.dl_tensor.data }

// Version returns the DLPack version m declares.
func (m *ManagedTensorVersioned) Version() (major, minor uint32) {
	return uint32(m.version.major), uint32(m.version.minor)
}

// Flags returns m's flags (bit 0 READ_ONLY, bit 1 IS_COPIED).
func (m *ManagedTensorVersioned) Flags() uint64 { return uint64(m.flags) }

func layoutOf(t *C.DLTensor) Layout {
	l := Layout{
		Device:     Device{Type: DeviceType(t.device.device_type), ID: int32(t.device.device_id)},
		DataType:   DataType{Code: Code(t.dtype.code), Bits: uint8(t.dtype.bits), Lanes: uint16(t.dtype.lanes)},
		ByteOffset: uint64(t.byte_offset),
	}
	n := int(t.ndim)
	l.Shape = []int64{}
	if n > 0 && t.shape != nil {
		l.Shape = append(l.Shape, unsafe.Slice((*int64)(unsafe.Pointer(t.shape)), n)...)
	}
	if t.strides != nil {
		l.Strides = append([]int64{}, unsafe.Slice((*int64)(unsafe.Pointer(t.strides)), max(n, 0))...)
	}
	return l
}
