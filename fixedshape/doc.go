// Package fixedshape makes fixed-shape tensors first-class Arrow columns:
// the canonical `arrow.fixed_shape_tensor` extension type ([Type]), its
// arrays ([Array]), builders ([Builder], [FromSlice]) and zero-copy typed
// views ([Column], [Tensor]).
//
// # Overview
//
// A column of N tensors of logical shape L is a FixedSizeList array with
// one list of prod(L) elements per tensor. Element types are the numeric
// int8..int64, uint8..uint64, float16, float32 and float64 ([Elem], with
// typed views), and the other fixed-width types of whole-byte elements
// (decimals, dates, times, timestamps, durations, intervals,
// fixed-size binaries: [ElemTypeOK]), which are read, written, compared,
// transformed by view expressions and viewed as raw bytes ([Array.RawAt]),
// and bool, bit-packed as Arrow stores it ([BitElem], [FromBools],
// [Array.BoolAt], [Array.ValueBits]).
// Importing the package registers the type with arrow-go, so IPC, Parquet
// and C Data readers produce [Array] values for columns written by
// pyarrow, Arrow C++, arrow-rs or this package ([Register]).
//
// # Layout
//
// The Go API speaks the logical shape (what [Tensor.At] indexes); the
// storage is row-major in the physical shape, and the wire metadata is
// Arrow's physical form (see package metadata). Strides are derived from
// shape and permutation, never stored: logical axis i has the row-major
// element stride of physical axis perm[i] (see package stride).
//
// Read a tensor's elements through the logical accessors, [Tensor.At],
// [Tensor.All] and [Tensor.AppendLogical], which are right for every
// layout. [Tensor.PhysicalData] is the storage slice, in physical order: it
// equals the logical order only without a permutation, so keep it for
// order-free loops (sums, extrema, fills). [TypeOf] and [TypeOfField] give
// the tensor type of a column or field without a type assertion.
//
// Types are equal ([Type.ExtensionEquals], arrow.TypeEqual) when element
// type, logical shape, logical names and permutation are equal, an absent
// permutation equalling the identity. Value equality ([Equal]) is logical:
// two columns are equal when every valid tensor has the same element at
// every logical index, whatever their physical layouts. A typed column
// view is [ColumnOf]; tensor i of it is [Column.Tensor] (Go methods cannot
// be generic, so the typed accessor lives on [Column], not [Array]).
//
// 0-D tensors (shape (), one element) work everywhere. Shapes with a size-0
// dimension are valid metadata but cannot be a [Type]: arrow-go cannot
// represent a FixedSizeList of size 0, so [NewType] and [ParseType]
// refuse them with an error wrapping arrow.ErrNotImplemented.
//
// # Columns that are no tensor type
//
// pyarrow writes `arrow.fixed_shape_tensor` over any value type (string,
// binary, lists included), and a file can carry invalid
// extension metadata on one column. arrow-go's readers fail the whole
// schema when one extension type's Deserialize fails, while they read a
// column of an unregistered extension name as its storage with the
// extension keys left in the field metadata. [Type.Deserialize] therefore
// never fails on such a column: it returns an [Unsupported] type, whose
// arrays ([UnsupportedArray]) are the storage as read, whose
// [Unsupported.Reason] says why (the [ParseType] error), and which is
// written back with the extension name and metadata exactly as read. Every
// other column of the file reads normally; [TypeOf] reports false for the
// column, so tensor code skips it and commands can name it.
//
// # Memory
//
// Arrays are reference counted (Retain, Release) and allocate from the
// memory.Allocator given to [NewBuilder]. [FromSlice] wraps a Go slice
// without copying: the garbage collector owns that memory and the caller
// must not modify it while the array is in use. [Column] and [Tensor] are
// views: they share the array's memory, allocate nothing per tensor, hold
// no reference count and are valid while the array is.
//
// Nulls exist per tensor only. A null tensor's slot is zero-filled by the
// builder; a valid tensor whose storage elements carry nulls fails
// [Array.Validate] (and so [ColumnOf]).
//
// # Errors
//
// Errors from outside data (metadata JSON, storage types, buffers,
// element types) wrap arrow.ErrInvalid; errors.Is works. Indexing a view
// out of range panics, as slice indexing does.
package fixedshape
