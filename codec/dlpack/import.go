//go:build cgo

package dlpack

import (
	"sync"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/fstensor/fstensor/codec/dlpack/internal/capi"
	"github.com/fstensor/fstensor/codec/dlpack/internal/dltype"
	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/internal/unsafeslice"
	"github.com/fstensor/fstensor/metadata"
	"github.com/fstensor/fstensor/stride"
)

// ImportVersioned makes a column of the CPU tensor m, per
// [PlanImport]: without copying when the strides are NULL or a dense
// permutation (the column then shares the producer's memory and owns m:
// releasing the column's last reference calls m's deleter), else by a
// copy with [WithCopy](true). It accepts DLPack major version 1. On error
// m is untouched and still owned by the caller; errors wrap
// arrow.ErrInvalid (see PlanImport; also a NULL data pointer with
// elements, an unsupported version, a copy above [WithMaxCopySize], an invalid option, which also
// wraps fstensor.ErrOption).
func ImportVersioned(m *ManagedTensorVersioned, opts ...ImportOption) (*fixedshape.Array, error) {
	c, err := newImportConfig(opts)
	if err != nil {
		return nil, err
	}
	if m == nil {
		return nil, errorf("nil DLManagedTensorVersioned")
	}
	if major, minor := m.Version(); major != capi.VersionMajor {
		return nil, dltype.Kindf(arrow.ErrNotImplemented, "DLPack version %d.%d is not supported (want 1.x)", major, minor)
	}
	return importTensor(capi.VersionedTensor(m), m.Delete, c)
}

// Import is [ImportVersioned] for a legacy DLManagedTensor.
func Import(m *ManagedTensor, opts ...ImportOption) (*fixedshape.Array, error) {
	c, err := newImportConfig(opts)
	if err != nil {
		return nil, err
	}
	if m == nil {
		return nil, errorf("nil DLManagedTensor")
	}
	return importTensor(capi.LegacyTensor(m), m.Delete, c)
}

// importTensor imports the producer's tensor t; deleter runs the
// producer's deleter.
func importTensor(t capi.Tensor, deleter func(), o *importConfig) (*fixedshape.Array, error) {
	// ndim is checked against metadata.MaxDims+1 before shape and
	// strides are read.
	l, err := t.CheckedLayout()
	if err != nil {
		return nil, err
	}
	p, err := PlanImport(l, o.column, o.allowCopy)
	if err != nil {
		return nil, err
	}
	width := int(l.DataType.Bits / 8)
	var src []byte
	if p.Hi > p.Lo {
		if !t.HasData() {
			return nil, errorf("NULL data for %d-element span", p.Hi-p.Lo)
		}
		// PlanImport bounds the element offsets, not their bytes: a
		// producer's huge strides can still overflow here.
		off, ok := stride.MulCheck(-p.Lo, width) // Lo <= 0
		n, ok2 := stride.MulCheck(p.Hi-p.Lo, width)
		if !ok || !ok2 {
			return nil, errorf("strides %v of shape %s span more than %d bytes", p.Strides, metadata.FormatShape(p.Shape), maxInt)
		}
		if src, err = t.Bytes(-off, n); err != nil {
			return nil, err
		}
	}
	aligned := unsafeslice.Aligned(src, width)
	if !aligned && !o.allowCopy {
		return nil, errorf("data is not aligned to %d bytes (copy not allowed)", width)
	}
	if !p.Copy && aligned {
		// Dense: [Lo, Hi) is exactly the Len tensors, Lo == 0.
		owner := &ownerAlloc{deleter: deleter}
		buf := memory.NewBufferWithAllocator(src, owner)
		defer buf.Release()
		a, err := fixedshape.NewArrayFromBuffer(p.Type, p.Len, buf)
		if err == nil {
			owner.armed = true
		}
		return a, err
	}
	mem := o.mem
	n, _ := stride.NumElements(p.Shape)
	if o.maxCopySize > 0 && n*width > o.maxCopySize {
		return nil, errorf("a copy of shape %s needs %d bytes, more than WithMaxCopySize(%d)",
			metadata.FormatShape(p.Shape), n*width, o.maxCopySize)
	}
	buf := memory.NewResizableBuffer(mem)
	defer buf.Release()
	buf.Resize(n * width)
	dst := buf.Bytes()
	k := 0
	for off := range stride.Offsets(p.Shape, p.Strides) {
		at := (off - p.Lo) * width
		copy(dst[k:k+width], src[at:at+width])
		k += width
	}
	a, err := fixedshape.NewArrayFromBuffer(p.Type, p.Len, buf)
	if err != nil {
		return nil, err
	}
	deleter()
	return a, nil
}

// ownerAlloc is the allocator of a buffer over producer memory: freeing
// the buffer calls the producer's deleter, once.
type ownerAlloc struct {
	once    sync.Once
	armed   bool // false until the import succeeded
	deleter func()
}

// Allocate is never used for producer memory; it allocates Go memory.
func (o *ownerAlloc) Allocate(n int) []byte { return make([]byte, n) }

// Reallocate is never used for producer memory; it copies to Go memory.
func (o *ownerAlloc) Reallocate(n int, b []byte) []byte {
	nb := make([]byte, n)
	copy(nb, b)
	return nb
}

// Free calls the producer's deleter the first time, once armed.
func (o *ownerAlloc) Free([]byte) {
	if o.armed {
		o.once.Do(o.deleter)
	}
}
