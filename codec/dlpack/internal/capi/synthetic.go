//go:build cgo

package capi

/*
#include "dlpack.h"
*/
import "C"

import (
	"unsafe"

	"github.com/fstensor/fstensor/codec/dlpack/internal/dltype"
)

// NewSynthetic builds a producer's tensor in C memory for tests and
// fuzzing: l's fields, a zeroed data block of dataBytes (then fill copied
// in, up to dataBytes), NULL strides when l.Strides is nil (else
// len(l.Shape) of them). Its deleter frees everything and counts
// ([SyntheticDeletes]). It panics when C memory runs out or dataBytes is
// negative.
func NewSynthetic(l dltype.Layout, dataBytes int, fill []byte) *ManagedTensorVersioned {
	checkSynthetic(l, dataBytes)
	m := C.fst_new_synthetic(C.int32_t(len(l.Shape)), boolInt(l.Strides != nil), C.size_t(dataBytes))
	if m == nil || m.manager_ctx == nil {
		panic("capi: out of C memory for a synthetic tensor")
	}
	fillSynthetic(&m.dl_tensor, l, dataBytes, fill)
	return (*ManagedTensorVersioned)(m)
}

// NewSyntheticLegacy is [NewSynthetic] for a legacy DLManagedTensor.
func NewSyntheticLegacy(l dltype.Layout, dataBytes int, fill []byte) *ManagedTensor {
	checkSynthetic(l, dataBytes)
	m := C.fst_new_synthetic_legacy(C.int32_t(len(l.Shape)), boolInt(l.Strides != nil), C.size_t(dataBytes))
	if m == nil || m.manager_ctx == nil {
		panic("capi: out of C memory for a synthetic tensor")
	}
	fillSynthetic(&m.dl_tensor, l, dataBytes, fill)
	return (*ManagedTensor)(m)
}

func checkSynthetic(l dltype.Layout, dataBytes int) {
	if dataBytes < 0 || len(l.Shape) > MaxNDim {
		panic("capi: synthetic tensor with negative data size or too many dimensions")
	}
}

// SetVersion overwrites m's version, for tests.
func SetVersion(m *ManagedTensorVersioned, major, minor uint32) {
	m.version.major, m.version.minor = C.uint32_t(major), C.uint32_t(minor)
}

// SetNDim overwrites m's ndim, for tests of corrupt structs; reading the
// layout of m with an ndim above the one it was built with reads past
// its shape.
func SetNDim(m *ManagedTensorVersioned, n int32) { m.dl_tensor.ndim = C.int32_t(n) }

// SetNullData sets m's data pointer to NULL, for tests; its deleter still
// frees the data block.
func SetNullData(m *ManagedTensorVersioned) { m.dl_tensor.data = nil }

// SetNullShape sets m's shape pointer to NULL, for tests of corrupt
// structs.
func SetNullShape(m *ManagedTensorVersioned) { m.dl_tensor.shape = nil }

// SyntheticDeletes returns how many synthetic tensors were deleted.
func SyntheticDeletes() int64 { return int64(C.fst_synthetic_deletes()) }

func fillSynthetic(t *C.DLTensor, l dltype.Layout, dataBytes int, fill []byte) {
	t.device = C.DLDevice{device_type: C.int32_t(l.Device.Type), device_id: C.int32_t(l.Device.ID)}
	t.dtype = C.DLDataType{code: C.uint8_t(l.DataType.Code), bits: C.uint8_t(l.DataType.Bits), lanes: C.uint16_t(l.DataType.Lanes)}
	t.byte_offset = C.uint64_t(l.ByteOffset)
	if n := len(l.Shape); n > 0 {
		copy(unsafe.Slice((*int64)(unsafe.Pointer(t.shape)), n), l.Shape)
		if l.Strides != nil {
			copy(unsafe.Slice((*int64)(unsafe.Pointer(t.strides)), n), l.Strides)
		}
	}
	if dataBytes > 0 {
		copy(unsafe.Slice((*byte)(t.data), dataBytes), fill)
	}
}

func boolInt(b bool) C.int {
	if b {
		return 1
	}
	return 0
}

// ABI returns the sizes and field offsets of the C structs, for the ABI
// test against dlpack.h: keys "DLTensor" (sizes), "t.data" (DLTensor
// fields), "l.deleter" (DLManagedTensor), "v.flags"
// (DLManagedTensorVersioned)...
func ABI() map[string]int {
	var t C.DLTensor
	var l C.DLManagedTensor
	var v C.DLManagedTensorVersioned
	return map[string]int{
		"DLDevice": C.sizeof_DLDevice, "DLDataType": C.sizeof_DLDataType, "DLTensor": C.sizeof_DLTensor,
		"DLManagedTensor": C.sizeof_DLManagedTensor, "DLManagedTensorVersioned": C.sizeof_DLManagedTensorVersioned,
		"DLPackVersion": C.sizeof_DLPackVersion,
		"t.data":        int(unsafe.Offsetof(t.data)), "t.device": int(unsafe.Offsetof(t.device)), "t.ndim": int(unsafe.Offsetof(t.ndim)),
		"t.dtype": int(unsafe.Offsetof(t.dtype)), "t.shape": int(unsafe.Offsetof(t.shape)), "t.strides": int(unsafe.Offsetof(t.strides)),
		"t.byte_offset": int(unsafe.Offsetof(t.byte_offset)),
		"l.manager_ctx": int(unsafe.Offsetof(l.manager_ctx)), "l.deleter": int(unsafe.Offsetof(l.deleter)),
		"v.manager_ctx": int(unsafe.Offsetof(v.manager_ctx)), "v.deleter": int(unsafe.Offsetof(v.deleter)),
		"v.flags": int(unsafe.Offsetof(v.flags)), "v.dl_tensor": int(unsafe.Offsetof(v.dl_tensor)),
	}
}
