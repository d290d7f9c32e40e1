// Package arrowipc reads and writes Arrow IPC files and streams of tensor
// columns, checking every message before arrow-go decodes it.
//
// # Overview
//
//   - Files: [OpenIPCFile], [OpenMappedIPCFile], [MapIPCFile] (an open
//     file), [NewIPCFileReader] (any io.ReaderAt and io.Seeker, such as
//     an object of package objstore read by ranges) return a
//     [FileReader], whose [FileReader.BatchRows] counts the rows of a
//     batch from its metadata alone and [FileReader.Prefetch] asks object
//     storage for many batches at once; [NewIPCFileWriter].
//   - Streams: [NewIPCStreamReader], [NewIPCStreamWriter]; messages framed
//     by a transport (Arrow Flight): [NewIPCMessageReader].
//   - Schemas stored elsewhere (Parquet's "ARROW:schema"):
//     [CheckSchemaMessage].
//   - Options: [WithAllocator], [WithBodySizeLimit] ([DefaultBodySizeLimit],
//     [NoBodySizeLimit]), [WithCompression]; an invalid value fails the
//     entry point with an error wrapping fstensor.ErrOption.
//
// Readers return records whose tensor columns are fixedshape arrays,
// validated in full (arrowconv.ValidateRecord) before they are handed
// out, and read the metadata written by pyarrow (always an explicit
// permutation), Arrow C++ and arrow-rs ("permutations", null values) as
// package metadata does. The conversions of the columns themselves
// (arrow/tensor, FixedSizeList, C Data) are in package arrowconv.
//
// # Memory
//
// Plain IPC file readers read the bytes into memory from [WithAllocator],
// and compressed bodies are decompressed into it. What the readers
// allocate (message bodies, decompressed buffers) is written whole before
// it is read, so they take recycled memory when the allocator offers it:
// buffers of 1 MiB or more of batches released before, not cleared, from
// internal/reuse for memory.DefaultAllocator or another
// *memory.GoAllocator, and the mappings hugepage.Allocator.Recycled hands
// out for a hugepage.Allocator; any other allocator (a
// memory.CheckedAllocator, which counts every buffer) is used as it is. A
// loop that releases each batch before it reads the next so reads one
// batch's memory over and over instead of clearing new memory for each.
// The one exception is a schema with a dictionary-encoded field, whose
// readers allocate from the allocator as it is: arrow-go concatenates
// delta dictionaries into bitmaps it does not write whole. [OpenMappedIPCFile]
// and [MapIPCFile] map the file: its batches point into the mapping and
// must not be used after FileReader.Close. On Linux the mapping holds a
// read lease on the file where the system grants one (the file's owner
// or CAP_LEASE, a local file system, the file open for writing nowhere):
// a process that opens the file for writing or truncates it then waits
// while the mapping's pages are replaced by a private copy of the file,
// so the batches keep their bytes and reading them never faults. Without
// a lease (or [WithLeaseRequired] refuses the file, with [ErrNoLease]),
// a file truncated while mapped raises SIGBUS in whatever goroutine
// reads the lost pages, which kills the process.
// Readers hand out batches the caller releases
// ([FileReader.RecordBatch]) or that live until the next call (the Next
// of the array.RecordReader of a stream).
//
// arrow-go defects routed around: the IPC readers' 256 MiB body limit is
// raised to [DefaultBodySizeLimit], and the decompressed buffer sizes
// arrow-go allocates unchecked are bounded by the same limit
// ([WithBodySizeLimit]); arrow-go's IPC decoder trusts the flatbuffer
// metadata of each message and its stream reader applies no metadata
// size limit (see Errors); arrow-go's mapped file reader cannot read
// dictionary-encoded columns ([OpenMappedIPCFile] fails on them).
//
// # Errors
//
// Errors from outside data are *[Error] values that wrap
// arrow.ErrInvalid, plus their cause (arrow.ErrIndex for a record index
// out of range); the error of a file opened by name carries the name in
// [Error.Path]. Readers recover panics of arrow-go's decoders on
// malformed input and return them as errors.
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
// given, is then validated in full (arrowconv.ValidateRecord) before it is
// handed out or written: all offsets in order and within their data or
// child, UTF-8 of string values, null counts equal to the bitmaps, union
// type ids and offsets, dictionary indices, run ends, for every column
// and child, as Arrow C++'s ValidateFull does; arrow-go's writers would
// otherwise panic on such a batch or copy it. The errors name the column
// (a child by its path) and the row. The writers recover a panic of
// arrow-go's writers as an error wrapping arrow.ErrInvalid.
// Panics are reserved for broken internal invariants.
package arrowipc
