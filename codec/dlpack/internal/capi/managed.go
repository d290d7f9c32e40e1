//go:build cgo

package capi

/*
#include "dlpack.h"
*/
import "C"

import (
	"unsafe"

	"github.com/fstensor/fstensor/codec/dlpack/internal/dltype"
	"github.com/fstensor/fstensor/metadata"
)

// VersionMajor is the DLPack major version written by [NewVersioned] and
// accepted by dlpack.ImportVersioned.
const VersionMajor = C.FST_DLPACK_MAJOR

// MaxNDim is the largest ndim read from a producer: metadata.MaxDims
// tensor axes plus a batch axis.
const MaxNDim = metadata.MaxDims + 1

const maxInt = int(^uint(0) >> 1)

// ManagedTensorVersioned is DLPack's DLManagedTensorVersioned (v1.1), a C
// struct in C memory. Pass unsafe.Pointer(m) to C code or wrap it in a
// "dltensor_versioned" capsule; the consumer calls its deleter once.
type ManagedTensorVersioned C.DLManagedTensorVersioned

// ManagedTensor is DLPack's legacy DLManagedTensor, a C struct in C
// memory, for consumers that predate DLPack 1.0 (capsule "dltensor").
type ManagedTensor C.DLManagedTensor

// Delete calls m's deleter, for a producer that gives up a tensor nobody
// consumed. m must not be used afterwards.
func (m *ManagedTensorVersioned) Delete() { C.fst_call_versioned((*C.DLManagedTensorVersioned)(m)) }

// Delete calls m's deleter; m must not be used afterwards.
func (m *ManagedTensor) Delete() { C.fst_call_legacy((*C.DLManagedTensor)(m)) }

// Layout returns the description of m's DLTensor (shape and strides
// copied). It trusts ndim and the shape and strides pointers: use it on
// well-formed structs only.
func (m *ManagedTensorVersioned) Layout() dltype.Layout { return layoutOf(&m.dl_tensor) }

// Layout is [ManagedTensorVersioned.Layout] for a legacy tensor.
func (m *ManagedTensor) Layout() dltype.Layout { return layoutOf(&m.dl_tensor) }

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

// Tensor is the DLTensor of a producer's managed tensor, as the importer
// reads it. It points into the producer's C struct and is valid until
// the producer's deleter runs.
type Tensor struct{ t *C.DLTensor }

// VersionedTensor returns the DLTensor of m, which must not be nil.
func VersionedTensor(m *ManagedTensorVersioned) Tensor { return Tensor{&m.dl_tensor} }

// LegacyTensor returns the DLTensor of m, which must not be nil.
func LegacyTensor(m *ManagedTensor) Tensor { return Tensor{&m.dl_tensor} }

// CheckedLayout returns t's layout, shape and strides copied, after
// checking that ndim is in [0, MaxNDim] and that shape is not NULL when
// ndim > 0; only then are ndim int64s read at shape (and at strides when
// not NULL, which gives a nil Strides). Errors wrap arrow.ErrInvalid.
func (t Tensor) CheckedLayout() (dltype.Layout, error) {
	if t.t.ndim < 0 || int(t.t.ndim) > MaxNDim {
		return dltype.Layout{}, dltype.Errorf("ndim %d is out of range [0, %d]", t.t.ndim, MaxNDim)
	}
	if t.t.ndim > 0 && t.t.shape == nil {
		return dltype.Layout{}, dltype.Errorf("NULL shape for ndim %d", t.t.ndim)
	}
	return layoutOf(t.t), nil
}

// HasData reports whether t's data pointer is not NULL.
func (t Tensor) HasData() bool { return t.t.data != nil }

// Bytes returns the n bytes that start off bytes (negative for negative
// strides) from t's data pointer plus its byte_offset, sharing the
// producer's memory: no byte is copied or read. n == 0 gives nil. It
// fails with an error wrapping arrow.ErrInvalid when n < 0, when data is
// NULL (and n > 0), when byte_offset exceeds the int range, when
// byte_offset+off overflows int, or when the span would wrap around the
// address space. That the span lies in the producer's allocation is the
// producer's promise, which no check can verify.
func (t Tensor) Bytes(off, n int) ([]byte, error) {
	switch {
	case n < 0:
		return nil, dltype.Errorf("negative data span of %d bytes", n)
	case n == 0:
		return nil, nil
	case t.t.data == nil:
		return nil, dltype.Errorf("NULL data for a %d-byte span", n)
	}
	bo := uint64(t.t.byte_offset)
	if bo > uint64(maxInt) {
		return nil, dltype.Errorf("byte_offset %d overflows int", bo)
	}
	if off > maxInt-int(bo) {
		return nil, dltype.Errorf("byte_offset %d + %d overflows int", bo, off)
	}
	at := int(bo) + off
	base, start := uintptr(t.t.data), uintptr(0)
	if at < 0 {
		back := uintptr(-(at + 1)) + 1 // -at, without overflow at math.MinInt
		if back > base {
			return nil, dltype.Errorf("data span starts %d bytes below the data pointer %#x", back, base)
		}
		start = base - back
	} else {
		if uintptr(at) > ^uintptr(0)-base {
			return nil, dltype.Errorf("data span starts %d bytes above the data pointer %#x, past the address space", at, base)
		}
		start = base + uintptr(at)
	}
	if uintptr(n) > ^uintptr(0)-start {
		return nil, dltype.Errorf("data span of %d bytes at %#x wraps the address space", n, start)
	}
	return unsafe.Slice((*byte)(unsafe.Add(t.t.data, at)), n), nil
}

// layoutOf reads t's layout, trusting ndim and the pointers.
func layoutOf(t *C.DLTensor) dltype.Layout {
	l := dltype.Layout{
		Device:     dltype.Device{Type: dltype.DeviceType(t.device.device_type), ID: int32(t.device.device_id)},
		DataType:   dltype.DataType{Code: dltype.Code(t.dtype.code), Bits: uint8(t.dtype.bits), Lanes: uint16(t.dtype.lanes)},
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
