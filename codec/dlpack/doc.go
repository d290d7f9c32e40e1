// Package dlpack exchanges fixed-shape tensor columns with DLPack
// producers and consumers (NumPy, PyTorch, JAX, CuPy, ...) without
// copying.
//
// # Overview
//
// [Export] and [ExportTensor] hand out a column (as one (N+1)-D tensor,
// batch axis first) or one tensor as a C DLManagedTensorVersioned
// (DLPack 1.1; [ExportLegacy] and [ExportTensorLegacy] give the legacy
// DLManagedTensor). [ImportVersioned] and [Import] make a column of a
// producer's CPU tensor. The struct layout and dtype codes follow
// dmlc/dlpack include/dlpack/dlpack.h v1.1. The pure-Go parts ([DataType],
// [DataTypeOf], [PlanImport], [ExportLayout]) build without cgo; the C
// structs and functions need cgo, and the package still builds with
// CGO_ENABLED=0 (without them). The C code and every unsafe pointer
// operation live in an internal package; [ManagedTensorVersioned],
// [ManagedTensor], [Layout], [DataType], [Device], [DeviceType], [Code]
// and [Error] are aliases of its types and of those of a pure-Go
// internal package, so their doc comments list their fields and
// methods.
//
// # Layout
//
// DLPack shape is the logical shape; strides are in elements, the
// logical element strides of the column ([stride.Logical]), so every
// permutation is exported as is. On import, NULL strides mean compact
// row-major, and strides that are a dense permutation of the shape
// (stride.Dense) become the column's permutation, zero-copy. Gapped, overlapping or
// negative strides are gathered into a row-major copy only with
// [WithCopy](true). The strides of a tensor without elements
// are ignored (NumPy exports them as zeros). Only the CPU device, one
// lane and the fstensor element types are accepted.
//
// # Memory
//
// An exported struct and its shape and strides live in C memory; the
// Arrow array is retained, and its buffer pinned (runtime.Pinner) when it
// is Go memory, until the consumer calls the deleter, which releases a
// runtime/cgo.Handle and frees the struct. [Outstanding] counts exports
// not yet deleted; export and import are O(1) in the data size. Exports
// are flagged READ_ONLY. A zero-copy import
// owns the producer's struct: releasing the column's last reference runs
// the producer's deleter once. A failed import leaves the struct to the
// caller.
//
// # Errors
//
// Errors wrap arrow.ErrInvalid (and arrow.ErrNotImplemented for size-0
// tensor shapes, which fixedshape cannot represent). Shapes are bounded
// by metadata.MaxDims and by int overflow of element counts and stride
// extents before anything is read; [WithMaxCopySize] bounds what a
// copying import allocates (broadcast strides let a few producer bytes
// describe a huge tensor). A null tensor refused by an export also wraps
// fstensor.ErrNullTensor; an invalid option value (WithAllocator(nil), a
// size below 1) fails an import before it reads anything, with an error
// wrapping fstensor.ErrOption.
//
// # Options
//
// The importers take [ImportOption] values: [WithColumn], [WithCopy],
// [WithAllocator] and [WithMaxCopySize].
package dlpack
