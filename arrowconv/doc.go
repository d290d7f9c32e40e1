// Package arrowconv moves tensor columns (package fixedshape) between
// Go and everything else that speaks Arrow, without copying wherever the
// layout allows: arrow-go's arrow/tensor, plain and nested FixedSizeList
// arrays and, with cgo, the C Data Interface. IPC files and streams are
// in package arrowipc, Parquet in package parquetconv: this package
// imports neither arrow-go's ipc nor its pqarrow.
//
// # Overview
//
//   - arrow/tensor: [ToTensor] (a whole column as an (N+1)-D tensor, batch
//     axis first), [SlotTensor] (one tensor), [FromTensor] and
//     [FromSlotTensor] (dense layouts in any axis order zero-copy, the
//     permutation derived from the strides; other layouts copied only
//     with [WithCopy]).
//   - FixedSizeList: [Wrap] and [Unwrap] (plain list plus metadata),
//     [FromNested] (FSL<FSL<T,4>,3> -> shape (3,4)).
//   - Records and schemas: [StorageField], [TensorField],
//     [StorageRecord], [TensorRecord], [ValidateRecord].
//   - C Data Interface (build tag cgo): ExportArray, ImportArray,
//     ExportRecordBatch, ImportRecordBatch (records with fixed- and
//     variable-shape tensor columns, both as their storage with the
//     extension keys).
//
// [TensorField], [TensorSchema] and [TensorRecord] read the metadata
// written by pyarrow (always an explicit permutation), Arrow C++ and
// arrow-rs ("permutations", null values) as package metadata does;
// [ValidateRecord] is the full validation the readers of packages
// arrowipc, parquetconv and tensorio run on every batch.
//
// # Layout
//
// The Go side is logical, the storage physical (see package fixedshape).
// A tensor view of a column has the spec's strides: logical axis i of a
// tensor has the row-major byte stride of physical axis perm[i], the
// batch axis comes first with a stride of one tensor. This is
// numpy.transpose(physical, perm); Arrow C++ and pyarrow compute other
// strides for permutations that are not their own inverse (3-cycles),
// and store the inverse permutation in FromTensor, so tensors converted
// here differ from theirs in exactly those cases. Conversely,
// [FromTensor] derives perm from dense strides such that converting back
// reproduces the strides.
//
// # Memory
//
// Conversions share buffers and retain them: the result stays valid after
// the source is released, and the caller releases both. Copies happen
// only where named: [FromTensor] with [WithCopy].
//
// arrow-go defects routed around: the C Data exporter drops the children
// of an extension column (a variable-shape column went out as a struct
// without children) and the importer does not rebuild extension types
// (ExportArray, ImportArray, ExportRecordBatch, ImportRecordBatch);
// arrow/tensor validates nothing (FromTensor does).
//
// # Errors
//
// Errors from outside data (files, tensors, metadata, foreign arrays)
// are *[Error] values that wrap arrow.ErrInvalid, plus their cause
// (arrow.ErrNotImplemented for what arrow-go cannot represent: float16
// tensors, size-0 shapes).
//
// [ValidateRecord] validates a batch in full: all offsets in order and
// within their data or child, UTF-8 of string values, null counts equal
// to the bitmaps, union type ids and offsets, dictionary indices, run
// ends, for every column and child, as Arrow C++'s ValidateFull does;
// arrow-go's writers would otherwise panic on such a batch or copy it.
// The errors name the column (a child by its path) and the row.
//
// Panics are reserved for caller bugs announced in the doc (a slot index
// out of range).
package arrowconv
