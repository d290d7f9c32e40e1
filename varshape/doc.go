// Package varshape makes Arrow's canonical `arrow.variable_shape_tensor`
// extension type a first-class column: one tensor per row, every row with
// the same number of dimensions but its own shape (images of different
// sizes, sequences of different lengths, per-row crops).
//
// # Overview
//
// [Type] is the extension type, registered with arrow-go on import so that
// IPC and Parquet readers rebuild [Array] columns. [Builder] and
// [FromSlices] make columns; [ColumnOf] gives typed zero-copy views whose
// row i, [Column.Tensor], is a fixedshape.Tensor of the row's logical
// shape. [FromFixed] and [ToFixed] convert to and from fixed-shape columns
// without copying the data buffer; [Array.Row] views one row as a one-row
// fixed-shape column, the bridge to arrowconv (arrow-go's arrow/tensor),
// the codecs and expr. Package expr evaluates expressions over
// variable-shape columns (expr.Compile, one plan per distinct row shape).
//
// Elements are those of fixed-shape columns: the numeric types, the other
// whole-byte fixed-width types, and bool. A bool column's data child is a
// list<bool>, its values bit-packed as Arrow stores them, so a row's
// elements start at any bit: [FromBools] builds one, [Array.BoolAt] and
// [Array.RowBits] read it, and [Array.Row], [ToFixed], [FromFixed],
// [Array.ValueStr], IPC, Parquet and C Data (in the storage form of
// [StorageRecord], read back by [FromStorage], as arrowconv's
// ExportRecordBatch and ImportRecordBatch do) take it as they take the
// others. What works on whole bytes does not take bool: [Builder],
// [FromSlices] and [ColumnOf] (whose element types are Go numbers) refuse
// it, [Array.RowBytes] is nil and [Type.ElemWidth] 0 for it.
//
// # Layout
//
// The storage is struct<data: list<T>, shape: fixed_size_list<int32>[ndim]>.
// The shape column holds each row's physical shape, and the row's data
// list its elements row-major in that shape, as the Arrow specification
// says. The metadata is physical too: dim_names name the physical axes,
// uniform_shape fixes physical sizes (null where rows differ), and the
// permutation maps logical axis i to physical axis permutation[i], as for
// the fixed-shape type. The Go API is logical: [Options], [Type.DimNames],
// [Type.UniformShape], [Array.Shape] and the views speak logical axes, and
// element strides are derived per row (stride[i] is the row-major stride
// of physical axis permutation[i]), never stored. A LargeList data child
// is refused (arrow.ErrNotImplemented), and so are 0-D columns (arrow-go
// cannot type a FixedSizeList of size 0).
//
// # Memory
//
// Arrays are reference counted (Retain, Release). Views ([Column],
// fixedshape.Tensor rows, [Array.RowBytes], [Array.Row]) share the array's
// memory and are valid while it is. FromFixed and ToFixed share the data
// buffer of their input; the caller releases both.
//
// # Errors
//
// Errors wrap arrow.ErrInvalid (plus arrow.ErrNotImplemented for what
// arrow-go cannot represent), start with "varshape:" and name the key,
// value or row at fault. Outside data (metadata JSON, storage buffers)
// never panics: [Type.Deserialize] and [Array.Validate] check it.
package varshape
