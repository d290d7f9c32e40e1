//go:build cgo

package capi

/*
#include "dlpack.h"
*/
import "C"

import (
	"runtime"
	"runtime/cgo"
	"sync/atomic"
	"unsafe"

	"github.com/fstensor/fstensor/codec/dlpack/internal/dltype"
)

// Desc describes a tensor to export.
type Desc struct {
	// Data is the tensor's memory, from its first element: Go memory
	// (pinned until the deleter runs) or C memory. Empty gives a NULL
	// data pointer.
	Data     []byte
	Device   dltype.Device
	DataType dltype.DataType
	// Shape and Strides (in elements) have the same length, at most
	// MaxNDim.
	Shape, Strides []int64
}

// Owner keeps a Desc's Data alive: its Release runs when the deleter
// does. *fixedshape.Array is one.
type Owner interface{ Release() }

// exported is what an exported tensor's cgo.Handle holds: the owner of
// its data and the pin that lets C hold Go memory.
type exported struct {
	owner Owner
	pin   runtime.Pinner
}

// live counts exported tensors whose deleter has not run.
var live atomic.Int64

// Outstanding returns the number of tensors exported by [NewVersioned]
// and [NewLegacy] whose deleter has not been called yet.
func Outstanding() int64 { return live.Load() }

//export fstDLPackRelease
func fstDLPackRelease(h C.uintptr_t) {
	handle := cgo.Handle(h)
	e := handle.Value().(*exported)
	handle.Delete()
	e.pin.Unpin()
	e.owner.Release()
	live.Add(-1)
}

// NewVersioned returns d as a DLManagedTensorVersioned in C memory:
// version 1.1, flag READ_ONLY, shape and strides copied into the same
// block, data pointing at d.Data (not copied). It takes over one
// reference of owner, released by the deleter, which also frees the
// block; on error it releases it at once. Errors wrap arrow.ErrInvalid:
// more than MaxNDim dimensions, no C memory. It panics if d.Shape and
// d.Strides differ in length.
func NewVersioned(d Desc, owner Owner) (*ManagedTensorVersioned, error) {
	e, h, err := prepare(d, owner)
	if err != nil {
		return nil, err
	}
	m := C.fst_new_versioned(C.int32_t(len(d.Shape)), C.uintptr_t(h))
	if m == nil {
		return nil, e.abandon(h, len(d.Shape))
	}
	live.Add(1)
	fill(&m.dl_tensor, d)
	return (*ManagedTensorVersioned)(m), nil
}

// NewLegacy is [NewVersioned] for a legacy DLManagedTensor (no version,
// no flags).
func NewLegacy(d Desc, owner Owner) (*ManagedTensor, error) {
	e, h, err := prepare(d, owner)
	if err != nil {
		return nil, err
	}
	m := C.fst_new_legacy(C.int32_t(len(d.Shape)), C.uintptr_t(h))
	if m == nil {
		return nil, e.abandon(h, len(d.Shape))
	}
	live.Add(1)
	fill(&m.dl_tensor, d)
	return (*ManagedTensor)(m), nil
}

// prepare checks d, pins its data and makes the handle of the deleter.
func prepare(d Desc, owner Owner) (*exported, cgo.Handle, error) {
	if len(d.Strides) != len(d.Shape) {
		panic("capi: Desc with different Shape and Strides lengths")
	}
	if len(d.Shape) > MaxNDim {
		owner.Release()
		return nil, 0, dltype.Errorf("%d dimensions, more than %d", len(d.Shape), MaxNDim)
	}
	e := &exported{owner: owner}
	if len(d.Data) > 0 {
		e.pin.Pin(unsafe.SliceData(d.Data)) // a no-op for C memory
	}
	return e, cgo.NewHandle(e), nil
}

// abandon undoes prepare when the C struct could not be allocated.
func (e *exported) abandon(h cgo.Handle, ndim int) error {
	h.Delete()
	e.pin.Unpin()
	e.owner.Release()
	return dltype.Errorf("out of C memory for a %d-D tensor", ndim)
}

// fill sets the fields of a fresh exported DLTensor, whose shape and
// strides point at len(d.Shape) int64s each.
func fill(t *C.DLTensor, d Desc) {
	if len(d.Data) > 0 {
		t.data = unsafe.Pointer(unsafe.SliceData(d.Data))
	}
	t.device = C.DLDevice{device_type: C.int32_t(d.Device.Type), device_id: C.int32_t(d.Device.ID)}
	t.dtype = C.DLDataType{code: C.uint8_t(d.DataType.Code), bits: C.uint8_t(d.DataType.Bits), lanes: C.uint16_t(d.DataType.Lanes)}
	if n := len(d.Shape); n > 0 {
		copy(unsafe.Slice((*int64)(unsafe.Pointer(t.shape)), n), d.Shape)
		copy(unsafe.Slice((*int64)(unsafe.Pointer(t.strides)), n), d.Strides)
	}
}
