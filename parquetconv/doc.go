// Package parquetconv writes and reads tensor columns (package
// fixedshape) in Parquet files.
//
// # Overview
//
//   - [NewWriter] writes record batches with tensor columns; [Writer.Close]
//     writes the footer.
//   - [OpenFile] and [NewReader] read them back as record batches whose
//     tensor columns are fixedshape arrays, through an
//     array.RecordReader that validates each batch in full
//     (arrowconv.ValidateRecord) and lends it until the next call of Next.
//   - [Take] reads chosen rows of a file through an io.ReaderAt and its
//     size, by ranges: the footer, the page index and only the pages
//     that hold the rows (see Random access).
//
// A tensor column is stored as the Parquet LIST that pyarrow writes for a
// fixed_size_list (Parquet has no fixed-size list), with the Arrow schema
// stored in the file, so that pyarrow, Arrow C++ and arrow-go restore the
// arrow.fixed_shape_tensor type (polars 2.1 too); readers that ignore the
// stored schema (DuckDB) see variable-size lists of the physical elements.
//
// # Writing
//
// [Writer] writes standard Parquet, the file pyarrow writes for a
// fixed_size_list column: the 3-level LIST
//
//	optional group name (LIST) { repeated group list { optional <type> element; } }
//
// (the Parquet schema comes from pqarrow.ToParquet) and the Arrow schema,
// with the tensor columns' child declared as the nullable "item" that
// Arrow C++ needs to restore the extension type, under the "ARROW:schema"
// key. Element types map to Parquet as pqarrow maps them: int8, uint8,
// int16 and uint16 widen to INT32 with their integer logical type, 4- and
// 8-byte types are INT32, INT64, FLOAT or DOUBLE, float16 is
// FIXED_LEN_BYTE_ARRAY(2) with the Float16 logical type.
//
// The fast path takes every schema whose fields are tensor columns or
// flat columns (booleans, integers, floats, strings, binaries, dates,
// times, timestamps, decimals). Tensor columns are written by this
// package: repetition and definition levels as RLE runs built per row (a
// few bytes per row, nothing per element), values PLAIN straight from the
// column's elements ([WithByteStreamSplit]: BYTE_STREAM_SPLIT for float32
// and float64), without statistics, in data pages of about 1 MiB of whole
// tensors ([WithPageBytes]; v1, or v2 with [WithDataPageV2]). An
// uncompressed tensor column chunk (of at most [SinglePageBytes]) is one
// data page unless WithPageBytes is given, with zero bytes before the
// chunk (outside every chunk, which Parquet readers locate by their
// offsets) so that its values start at a multiple of 64 bytes in the
// file: readers of this package then hand them out where they lie
// (Reading, below). Such a page's values are written from the column
// where they lie, not copied into the page first. Tensor
// values are never dictionary-encoded by value (arrow-go's dictionary
// rewrites NaN payloads). The values of int8 and uint8 tensor columns
// (and of int16 and uint16 ones under [WithIdentityDictionary]) are
// encoded with the identity dictionary, a dictionary of every value of
// the type that makes the elements' own bytes their indexes: 1 byte a
// value in the file instead of the 4 of PLAIN INT32, written at copy
// speed; [WithoutIdentityDictionary] writes them PLAIN.
// Flat columns go through arrow-go's column writers (dictionary,
// statistics) in the same row groups. Other schemas (structs, lists,
// maps, dictionaries, other extension types beside the tensors, tensors
// of non-numeric elements, variable-shape tensor columns) fall back to
// arrow-go's pqarrow column writers, which build levels per element and
// ignore [WithRowGroupBytes], [WithByteStreamSplit] and
// the identity dictionary. pqarrow cannot write a null list row that
// spans elements (a null FixedSizeList row always does: "lists with
// non-zero length null components are not supported"); such a column is
// handed to it as a List whose null rows are empty, which has the same
// Parquet LIST and levels, so null tensors are written on this path too.
// A variable-shape column is written as its storage struct with the
// extension keys on the stored Arrow field (as pyarrow writes it) and read
// back as the varshape type.
//
// Floating-point elements are copied, never converted: NaN payloads and
// signs, -0 and infinities survive bit for bit. A null tensor is one null list
// (definition level 0, no values); sliced columns are written from
// their offset.
//
// After the row groups and before the footer, writers write the page
// index (unless [WithoutPageIndex]): for every column chunk an
// OffsetIndex (offset, compressed size and first row of each data page)
// and, where the pages have statistics, a ColumnIndex (per-page minimum,
// maximum, null count). The fast path writes a ColumnIndex for flat
// columns only: it writes no statistics for tensor columns, where Arrow
// C++ and pqarrow write them for the list's leaf. Writing the index costs
// no measurable time (BenchmarkWrite/.../index=none). [Take] reads rows
// through the OffsetIndex.
//
// Each [Writer.Write] writes its record as new row groups of
// at most [WithRowGroupRows] rows and [WithRowGroupBytes] bytes of tensor
// values (at least one row); a record of 0 rows writes none. Codecs:
// [WithCompression] (Snappy, gzip, LZ4_RAW, ZSTD) and
// [WithCompressionLevel].
//
// # Reading
//
// [OpenFile] and [NewReader] decode tensor columns themselves, straight
// into the FixedSizeList child of the batch: a tensor column (a
// fixedshape type restored from the stored Arrow schema, or from the
// extension keys in the field's metadata) stored as the 3-level LIST of
// one primitive leaf whose physical type matches the element type (INT32
// for int8, uint8, int16 and uint16, narrowed with a range check). The
// levels are walked run by run (one check per RLE run, a byte compare
// per bit-packed group while no tensor is null): every valid row must
// hold exactly the tensor's element count and no null element; a null
// tensor (a null list) becomes a null slot, zero-filled. Values: PLAIN,
// BYTE_STREAM_SPLIT and dictionary pages (RLE_DICTIONARY and
// PLAIN_DICTIONARY, what pyarrow writes by default; the identity
// dictionary this package writes is read at copy speed), in data
// pages v1 and v2, uncompressed or Snappy, gzip, LZ4_RAW or ZSTD.
//
// Column chunks the fast path does not take are read by arrow-go's
// pqarrow, per row group, into the same batches: other columns, tensor
// columns in other layouts (2-level lists, an element type whose
// physical type differs), and, chunk by chunk, pages in another encoding
// (DELTA_*, BIT_PACKED levels) or codec (LZ4 with Hadoop framing,
// Brotli). Files without a stored schema (DuckDB's) have no tensor
// columns: lists come back as lists.
//
// [WithColumns] restricts a reader to some top-level fields: the column
// chunks of the others are never read, so that over ranged reads
// (package objstore) only the footer and the chunks of those fields are
// fetched.
//
// A local file (an *os.File, from [OpenFile] or given to [NewReader]) is
// mapped read-only on unix systems, and the pages of the tensor columns
// are decoded from the mapping where they lie: an uncompressed PLAIN page
// is one copy, from the page cache into the column, with no read into a
// buffer first. The values of a chunk of 1 MiB or more are copied with
// non-temporal stores, which do not read the destination's cache lines
// before writing them (copy() does the same for copies of 1 MiB or more),
// so a scan of an uncompressed PLAIN column (or one of identity
// dictionary pages) from the page cache runs at about the speed of
// copy() of the bytes it returns; a narrow integer column stored PLAIN
// as INT32 (by other writers, or [WithoutIdentityDictionary]) reads four
// bytes for each byte of a uint8 or int8 element. The mapping is made when the reader opens and unmapped
// when it is released; a file truncated under a reader makes the reads
// of the lost pages fail with an error, not a crash. Other sources, and
// the columns pqarrow reads, go through ReadAt.
//
// Zero copy: unless [WithoutZeroCopy] is given, the mapping is made under
// a read lease on the file where the system grants one (the file's owner,
// a local file system, no writer holding it open: see arrowipc's package
// doc, Memory), and a tensor column chunk laid out as this package writes
// uncompressed ones (one data page, no null tensor, PLAIN values as wide
// as the elements or identity-dictionary indexes, starting at a multiple
// of 64 bytes) is not copied: its batches' values point into the
// mapping, after the levels were checked as above. The mapping (and its
// lease) then lives until the reader and the last buffer pointing into
// it are released, whatever the order. A process that then opens the
// file for writing, truncates or removes it waits until this process has
// copied the mapped bytes into memory (the lease's break), so those
// batches never change and never fault. Such a read costs the footer, the
// levels' checks and the batches, whatever the size of the values (a
// fresh process reads a 154 MB column at 5-7 times copy()'s speed in the
// perf harness): the values are read from the page cache when used. The
// chunks of other layouts, and all chunks without a lease, are copied.
//
// Row groups are decoded [WithWorkers] at a time, in parallel, from the
// first call of Next on (opening a reader reads its footer only), and
// handed out in file order; a batch is a zero-copy slice of a decoded
// row group of at most [WithBatchRows] rows (batches never span row
// groups). Memory is bounded by the row groups in flight: the workers'
// plus the one being handed out, each a decoded row group plus one page
// buffer per worker.
//
// Before arrow-go parses anything, the reader checks the footer (every
// Thrift list and string within its bytes, the schema's num_children
// forming a tree at most 64 deep, at most 100 MiB), the stored Arrow
// schema ([arrowipc.CheckSchemaMessage], as the IPC readers do: a 2 KB
// file cannot claim a 4 GB vector), every column chunk inside the file
// and within [WithMaxChunkBytes], and each page header before its page
// is read: within its chunk, within [WithMaxPageBytes] compressed and
// decompressed (never inflated beyond its stated size), its level count
// within the row group's rows. The rows a row group states, times what a
// row of each column takes decoded (a whole tensor for a tensor column),
// are also within [WithMaxChunkBytes], before anything is allocated for
// them.
//
// # Random access
//
// [Take] reads the footer, then for each row group holding rows asked
// and each column asked, the chunk's OffsetIndex and the data pages
// whose row ranges hold the rows (with the chunk's dictionary page),
// each with one or two ReadAt calls, decodes them whole into a scratch
// buffer and copies the rows asked, in the order asked, into the result;
// from an uncompressed PLAIN page without null tensors it reads the
// page's header and levels, then each row asked where it lies.
// Without an OffsetIndex the chunk is read at once. Columns off the fast
// path (flat columns, tensors in other layouts or encodings) are read
// whole per row group through pqarrow. With pages of about 1 MiB
// (the default) a row costs a 1 MiB read; [WithPageBytes] trades scan
// speed for cheaper takes. Take of 10 rows of a 5 MB file with 4 KiB
// pages reads under 2% of it (TestTakeReadsPages).
//
// # Memory
//
// Writers do not retain the records written. A fast-path writer holds a
// page buffer (about 1 MiB, or one tensor when larger; for a single-page
// chunk, as large as the page, of which only the levels are written) and the identity
// dictionaries (up to 256 KiB a column), allocated from the Go heap; with
// a codec it compresses up to GOMAXPROCS (at most 4) pages of a column at
// once, in goroutines of its own, with a page and a compression buffer
// each, and writes them in order. arrow-go's column writers of flat
// columns allocate from [WithAllocator].
//
// Readers allocate decoded data from [WithAllocator] (pages and
// decompression buffers come from the Go heap), except the values of
// chunks handed out where they lie in a mapped file (zero copy, above),
// which no allocator counts. With the default,
// memory.DefaultAllocator (any *memory.GoAllocator), the values of a tensor column chunk of 1 MiB
// or more are decoded into the buffer of a chunk released before when
// there is one, which is not cleared first as Go clears every new
// allocation (the decoder writes every byte: values, and zeros for null
// tensors): a scan then writes each byte once, as C++ readers over
// malloc do. The buffers kept are dropped by the garbage collector. An
// allocator with a recycled variant (a Recycled method, as
// hugepage.Allocator has) gives the chunk values that variant, which
// hands out the memory of chunks released before in the same way. The
// caller releases the reader, and each batch is valid until the next call of Next unless
// retained. Releasing a reader early waits for the row groups being
// decoded and releases them.
//
// # Errors
//
// Errors from outside data are *[Error] values that wrap
// arrow.ErrInvalid, plus their cause. Readers recover panics of arrow-go's
// decoders on malformed input and return them as errors; a limit
// exceeded, a tensor of the wrong element count, a null element, a value
// out of its narrow type's range or a dictionary index out of range are
// errors too. Encrypted files are refused (arrow.ErrNotImplemented). Writer errors are
// *[Error] values too, with their cause (the destination's I/O error,
// arrow.ErrNotImplemented for what Parquet or arrow-go cannot hold); after
// a Write failed past the checks of its record, the file is incomplete
// and every later call fails. An invalid option value fails OpenFile,
// NewReader and NewWriter with an *[Error] wrapping fstensor.ErrOption.
package parquetconv
