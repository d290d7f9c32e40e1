//go:build cgo

package dlpack

import (
	"github.com/fstensor/fstensor"
	"github.com/fstensor/fstensor/codec/dlpack/internal/capi"
	"github.com/fstensor/fstensor/codec/dlpack/internal/dltype"
	"github.com/fstensor/fstensor/fixedshape"
)

// ManagedTensorVersioned is DLPack's DLManagedTensorVersioned (v1.1), a C
// struct in C memory. Pass unsafe.Pointer(m) to C code or wrap it in a
// "dltensor_versioned" capsule; the consumer calls its deleter once.
//
// Its methods:
//
//   - Delete() calls m's deleter, for a producer that gives up a tensor
//     nobody consumed. m must not be used afterwards.
//   - Layout() Layout returns the description of m's DLTensor (shape and
//     strides copied). It trusts ndim and the shape and strides
//     pointers: use it on well-formed structs only.
//   - Data() unsafe.Pointer returns m's data pointer (without the byte
//     offset).
//   - Version() (major, minor uint32) returns the DLPack version m
//     declares.
//   - Flags() uint64 returns m's flags (bit 0 READ_ONLY, bit 1
//     IS_COPIED).
type ManagedTensorVersioned = capi.ManagedTensorVersioned

// ManagedTensor is DLPack's legacy DLManagedTensor, a C struct in C
// memory, for consumers that predate DLPack 1.0 (capsule "dltensor").
// Its methods Delete, Layout and Data are those of
// [ManagedTensorVersioned].
type ManagedTensor = capi.ManagedTensor

// Outstanding returns the number of tensors exported by this package
// whose deleter has not been called yet.
func Outstanding() int64 { return capi.Outstanding() }

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
	return export(a, 0, a.Len(), true, capi.NewVersioned)
}

// ExportTensor is [Export] for tensor i of a alone: shape = its logical
// shape, strides = its logical element strides. It panics if i is out
// of range.
func ExportTensor(a *fixedshape.Array, i int) (*ManagedTensorVersioned, error) {
	checkIndex(a, i)
	return export(a, i, 1, false, capi.NewVersioned)
}

// ExportLegacy is [Export] as a legacy DLManagedTensor (no version, no
// read-only flag: the consumer must still not write).
func ExportLegacy(a *fixedshape.Array) (*ManagedTensor, error) {
	return export(a, 0, a.Len(), true, capi.NewLegacy)
}

// ExportTensorLegacy is [ExportTensor] as a legacy DLManagedTensor.
func ExportTensorLegacy(a *fixedshape.Array, i int) (*ManagedTensor, error) {
	checkIndex(a, i)
	return export(a, i, 1, false, capi.NewLegacy)
}

// checkIndex panics if i is not the index of a tensor of a.
func checkIndex(a *fixedshape.Array, i int) {
	if i < 0 || i >= a.Len() {
		panic("dlpack: tensor index out of range")
	}
}

// export describes tensors [first, first+n) of a (see describe), retains
// a for the struct newStruct (capi.NewVersioned or capi.NewLegacy) makes
// of the description, and returns that struct.
func export[M any](a *fixedshape.Array, first, n int, column bool, newStruct func(capi.Desc, capi.Owner) (M, error)) (M, error) {
	d, err := describe(a, first, n, column)
	if err != nil {
		var zero M
		return zero, err
	}
	a.Retain()
	return newStruct(d, a)
}

// describe returns the export of tensors [first, first+n) of a.
func describe(a *fixedshape.Array, first, n int, column bool) (capi.Desc, error) {
	if err := a.Validate(); err != nil {
		return capi.Desc{}, err
	}
	typ := a.TensorType()
	dt, err := DataTypeOf(typ.ElemType())
	if err != nil {
		return capi.Desc{}, err
	}
	// NullN is counted once and cached: checking it keeps export O(1).
	for i := first; a.NullN() > 0 && i < first+n; i++ {
		if a.IsNull(i) {
			return capi.Desc{}, dltype.Kindf(fstensor.ErrNullTensor, "tensor %d is null and DLPack has no nulls", i)
		}
	}
	shape, strides := ExportLayout(typ, n, column)
	bytesPer := typ.ListSize() * typ.ElemWidth()
	return capi.Desc{
		Data:     a.ValueBytes()[first*bytesPer : (first+n)*bytesPer],
		Device:   Device{Type: CPU},
		DataType: dt,
		Shape:    shape,
		Strides:  strides,
	}, nil
}
