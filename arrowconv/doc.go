// Package arrowconv moves tensor columns (package fixedshape) between
// Go and everything else that speaks Arrow, without copying wherever the
// layout allows: arrow-go's arrow/tensor, plain and nested FixedSizeList
// arrays, IPC files and streams and, with cgo, the C Data Interface.
// Parquet is in package parquetconv.
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
//   - IPC: [OpenIPCFile], [OpenMappedIPCFile], [MapIPCFile] (an open
//     file), [NewIPCFileReader],
//     [NewIPCStreamReader], [NewIPCFileWriter], [NewIPCStreamWriter],
//     with [WithBodySizeLimit] and [WithCompression].
//   - Readers of other formats: [NewRecordReader].
//   - C Data Interface (build tag cgo): ExportArray, ImportArray,
//     ExportRecordBatch, ImportRecordBatch.
//
// Readers return records whose tensor columns are fixedshape arrays,
// validated in full ([ValidateRecord]) before they are handed out, and
// read the metadata written by pyarrow (always an explicit permutation),
// Arrow C++ and arrow-rs ("permutations", null values) as package
// metadata does.
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
// only where named: [FromTensor] with [WithCopy], plain IPC file readers
// (the bytes are read into memory from [WithAllocator]), and compressed IPC
// bodies. [OpenMappedIPCFile] maps the file: its
// batches point into the mapping and must not be used after
// FileReader.Close. Readers hand out batches the caller releases
// ([FileReader.RecordBatch]) or that live until the next call
// ([RecordReader.Next]).
//
// arrow-go defects routed around: the C
// Data exporter drops the child of an extension column and the importer
// does not rebuild extension types (ExportArray, ImportArray); the IPC
// readers' 256 MiB body limit is raised to [DefaultBodySizeLimit], and
// the decompressed buffer sizes arrow-go allocates unchecked are bounded
// by the same limit ([WithBodySizeLimit]); arrow-go's IPC decoder trusts
// the flatbuffer metadata of each message and its stream reader applies
// no metadata size limit (see Errors); arrow-go's mapped file reader
// cannot read dictionary-encoded columns ([OpenMappedIPCFile] fails on
// them); arrow/tensor validates nothing (FromTensor does).
//
// # Errors
//
// Errors from outside data (files, tensors, metadata, foreign arrays)
// are *[Error] values that wrap arrow.ErrInvalid, plus their cause
// (arrow.ErrNotImplemented for what arrow-go cannot represent: float16
// tensors, size-0 shapes; arrow.ErrIndex for a
// record index out of range). Readers recover panics of arrow-go's
// decoders on malformed input and return them as errors.
//
// The IPC readers check the metadata of every message, and a file's
// footer, before arrow-go decodes it, since arrow-go sizes Go slices
// from its vector lengths and expands shared or cyclic tables once per
// path: a few hundred crafted bytes would otherwise make it allocate
// terabytes or recurse without end. Refused are metadata over 64 MiB;
// tables, vectors and strings that leave the message; schema fields
// nested deeper than 64 levels; more tables, elements or string bytes
// than the message holds without sharing; record batches with fewer
// field nodes or variadic buffer counts than their schema needs, counts
// beyond their buffers, buffers outside the body, negative lengths or an
// unknown codec; and tensor columns whose validity bitmaps are short.
// The checks read the metadata in place, in time linear in its size.
//
// Before arrow-go decodes a record or dictionary batch, the readers also
// check each buffer of every column, children included, against the
// length and null count of its field node, as the columnar format
// requires: a validity bitmap of ceil(length/8) bytes where there are
// nulls (or a bitmap is present), length values of the type's width (bits
// for bool), length+1 offsets whose first and last lie in order and
// within the data or child array, FixedSizeList children of
// length*list size elements, struct and sparse union children at least
// as long as their parent, union type ids and dense offsets, list-view
// offsets and sizes, and run ends without nulls; all sizes in
// overflow-checked arithmetic. The errors name the column (a child by
// its path, "col.item") and the buffer. arrow-go would slice past such
// buffers and panic half-way through a batch. The check reads a few
// bytes of the body per array (the length prefix of a compressed buffer,
// two offsets of an uncompressed one), never every element: offsets
// inside compressed buffers, offsets other than the first and last, and
// view, union and dictionary indices are left to the full validation
// below, and to the readers' recovery, which frees what a failed decode
// allocated.
//
// Every batch a reader decodes, and every batch [IPCWriter.Write] is
// given, is then validated in full ([ValidateRecord]) before it is
// handed out or written: all offsets in order and within their data or
// child, UTF-8 of string values, null counts equal to the bitmaps, union
// type ids and offsets, dictionary indices, run ends, for every column
// and child, as Arrow C++'s ValidateFull does; arrow-go's writers would
// otherwise panic on such a batch or copy it. The errors name the column
// (a child by its path) and the row. The writers recover a panic of
// arrow-go's writers as an error wrapping arrow.ErrInvalid.
// Panics are reserved for caller bugs announced in the doc (a slot index
// out of range).
package arrowconv
