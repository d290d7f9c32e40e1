//go:build cgo

package dlpack

/*
#include "dlpack.h"
*/
import "C"

import "unsafe"

// newSynthetic builds a producer's tensor in C memory for tests and fuzzing:
// l's fields, a zeroed data block of dataBytes (then fill copied in),
// NULL strides when l.Strides is nil. Its deleter frees everything and
// counts ([syntheticDeletes]).
func newSynthetic(l Layout, dataBytes int, fill []byte) *ManagedTensorVersioned {
	m := C.fst_new_synthetic(C.int32_t(len(l.Shape)), boolInt(l.Strides != nil), C.size_t(dataBytes))
	fillSynthetic(&m.dl_tensor, l, dataBytes, fill)
	return (*ManagedTensorVersioned)(m)
}

// newSyntheticLegacy is newSynthetic for a legacy DLManagedTensor.
func newSyntheticLegacy(l Layout, dataBytes int, fill []byte) *ManagedTensor {
	m := C.fst_new_synthetic_legacy(C.int32_t(len(l.Shape)), boolInt(l.Strides != nil), C.size_t(dataBytes))
	fillSynthetic(&m.dl_tensor, l, dataBytes, fill)
	return (*ManagedTensor)(m)
}

// setVersion overwrites m's version, for tests.
func (m *ManagedTensorVersioned) setVersion(major, minor uint32) {
	m.version.major, m.version.minor = C.uint32_t(major), C.uint32_t(minor)
}

// setNDim overwrites m's ndim, for tests of corrupt structs.
func (m *ManagedTensorVersioned) setNDim(n int32) { m.dl_tensor.ndim = C.int32_t(n) }

func fillSynthetic(t *C.DLTensor, l Layout, dataBytes int, fill []byte) {
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

// syntheticDeletes returns how many synthetic tensors were deleted.
func syntheticDeletes() int64 { return int64(C.fst_synthetic_deletes()) }

// cLayout returns the sizes and field offsets of the C structs, for the
// ABI test against dlpack.h.
func cLayout() map[string]int {
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
