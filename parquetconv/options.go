package parquetconv

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/compress"

	"github.com/fstensor/fstensor"
	"github.com/fstensor/fstensor/internal/errs"
)

// Option configures a reader or writer of this package. Each entry point
// documents the options it reads and ignores the others. An invalid
// option value (a nil allocator, a count or size below 1, a compression
// level out of the codec's range) fails the entry point, before it reads
// or writes anything, with an *[Error] wrapping fstensor.ErrOption and
// arrow.ErrInvalid that names the option and the value. A nil Option is
// ignored.
type Option func(*config)

// Compression is fstensor.Compression, the codec of the Parquet pages
// written: the writer takes [Uncompressed], [Snappy], [LZ4], [ZSTD] and
// [Gzip]; another codec is an invalid option of [WithCompression].
type Compression = fstensor.Compression

// The codecs of Parquet pages.
const (
	// Uncompressed writes plain pages (the default).
	Uncompressed = fstensor.Uncompressed
	// Snappy writes Snappy-compressed pages.
	Snappy = fstensor.Snappy
	// LZ4 writes LZ4_RAW-compressed pages.
	LZ4 = fstensor.LZ4
	// ZSTD writes Zstandard-compressed pages.
	ZSTD = fstensor.ZSTD
	// Gzip writes gzip-compressed pages.
	Gzip = fstensor.Gzip
)

// DefaultRowGroupRows is the largest number of rows per row group written
// unless told otherwise.
const DefaultRowGroupRows = 64 * 1024

// DefaultBatchRows is the largest number of rows per record batch read
// unless told otherwise.
const DefaultBatchRows = 64 * 1024

// DefaultRowGroupBytes bounds the tensor bytes of a row group written
// unless told otherwise.
const DefaultRowGroupBytes = 64 << 20

type config struct {
	mem          memory.Allocator
	compression  Compression
	rowGroupRows int
	batchRows    int

	// writer
	compressionLevel int
	rowGroupBytes    int64
	dataPageV2       bool
	byteStreamSplit  bool
	identity         identityMode
	noPageIndex      bool
	pageBytes        int
	pageBytesSet     bool // WithPageBytes was given: no single-page chunks
	noZeroCopy       bool // WithoutZeroCopy

	// reader
	columns       []string // WithColumns; nil: every field
	workers       int
	rowLo, rowHi  int64 // WithRows: the rows read, [rowLo, rowHi); rowHi -1: to the end
	maxPageBytes  int64
	maxChunkBytes int64

	err error // of the first invalid option
}

// newConfig applies opts; the error is that of the first invalid option
// value, wrapping fstensor.ErrOption. A nil Option is skipped.
func newConfig(opts []Option) (*config, error) {
	c := &config{
		mem:          memory.DefaultAllocator,
		rowGroupRows: DefaultRowGroupRows,
		batchRows:    DefaultBatchRows,

		compressionLevel: compress.DefaultCompressionLevel,
		rowGroupBytes:    DefaultRowGroupBytes,
		pageBytes:        DefaultPageBytes,

		workers:       1,
		rowHi:         -1,
		maxPageBytes:  DefaultMaxPageBytes,
		maxChunkBytes: DefaultMaxChunkBytes,
	}
	for _, o := range opts {
		if o != nil {
			o(c)
		}
	}
	if lo, hi, ok := levelRange(c.compression); ok && c.compressionLevel != compress.DefaultCompressionLevel &&
		(c.compressionLevel < lo || c.compressionLevel > hi) {
		c.invalid("WithCompressionLevel", c.compressionLevel, fmt.Sprintf("%v takes levels %d to %d", c.compression, lo, hi))
	}
	return c, c.err
}

// levelRange returns the compression levels codec takes; ok is false for
// a codec without levels.
func levelRange(codec Compression) (lo, hi int, ok bool) {
	switch codec {
	case ZSTD:
		return 1, 22, true
	case Gzip:
		return 1, 9, true
	}
	return 0, 0, false
}

// invalid records the error of an invalid option value, keeping the
// first.
func (c *config) invalid(name string, value any, why string) {
	if c.err == nil {
		c.err = &Error{errs.Option("parquetconv", name, value, why)}
	}
}

// atLeast1 returns the Option that sets *field(c) to n, or records n as
// invalid when it is below 1.
func atLeast1[T int | int64](name string, n T, field func(*config) *T) Option {
	return func(c *config) {
		if n < 1 {
			c.invalid(name, n, "want at least 1")
			return
		}
		*field(c) = n
	}
}

// WithAllocator sets the allocator of decoded data and of the writers'
// buffers (the default is memory.DefaultAllocator, with which readers
// reuse the large buffers of tensor column chunks: see the package
// doc, Memory). A nil mem is an invalid option.
func WithAllocator(mem memory.Allocator) Option {
	return func(c *config) {
		if mem == nil {
			c.invalid("WithAllocator", nil, "want an allocator")
			return
		}
		c.mem = mem
	}
}

// WithCompression sets the codec of the pages written (default
// [Uncompressed]); a codec other than Uncompressed, Snappy, LZ4, ZSTD and
// Gzip is an invalid option.
func WithCompression(cmp Compression) Option {
	return func(c *config) {
		switch cmp {
		case Uncompressed, Snappy, LZ4, ZSTD, Gzip:
			c.compression = cmp
		default:
			c.invalid("WithCompression", cmp, "Parquet pages take none, snappy, lz4, zstd and gzip")
		}
	}
}

// WithRowGroupRows sets the largest number of rows per row group written
// (default [DefaultRowGroupRows]); n below 1 is an invalid option.
func WithRowGroupRows(n int) Option {
	return atLeast1("WithRowGroupRows", n, func(c *config) *int { return &c.rowGroupRows })
}

// WithBatchRows sets the largest number of rows per record batch read
// (default [DefaultBatchRows]); n below 1 is an invalid option.
func WithBatchRows(n int) Option {
	return atLeast1("WithBatchRows", n, func(c *config) *int { return &c.batchRows })
}

// WithRows makes readers return only rows [offset, offset+limit) of the
// file (to its end when limit is negative), counted over all row groups:
// row groups holding none of them are neither read nor decoded, and the
// first and last batches are slices of their row groups. A negative
// offset is an invalid option.
func WithRows(offset, limit int64) Option {
	return func(c *config) {
		if offset < 0 {
			c.invalid("WithRows", offset, "want an offset of 0 or more")
			return
		}
		c.rowLo, c.rowHi = offset, -1
		if limit >= 0 {
			c.rowHi = offset + limit
			if c.rowHi < offset { // overflow: to the end
				c.rowHi = -1
			}
		}
	}
}

// WithCompressionLevel sets the level of the codec chosen by
// [WithCompression] (codec-specific: zstd 1..22, gzip 1..9; the default
// is each codec's default, which any codec accepts as
// compress.DefaultCompressionLevel). A level out of the codec's range is
// an invalid option; Snappy and LZ4 ignore it.
func WithCompressionLevel(level int) Option {
	return func(c *config) { c.compressionLevel = level }
}

// WithRowGroupBytes bounds the bytes of tensor values of a row group
// written (default [DefaultRowGroupBytes]); a row group holds at least
// one row. n below 1 is an invalid option.
func WithRowGroupBytes(n int64) Option {
	return atLeast1("WithRowGroupBytes", n, func(c *config) *int64 { return &c.rowGroupBytes })
}

// WithDataPageV2 makes writers write data pages of version 2 (levels
// uncompressed before the values) instead of version 1.
func WithDataPageV2() Option { return func(c *config) { c.dataPageV2 = true } }

// identityMode tells which integer tensor columns writers encode with
// the identity dictionary (see [WithIdentityDictionary]).
type identityMode uint8

const (
	identity8    identityMode = iota // 1-byte integers (the default)
	identityAll                      // 1- and 2-byte integers
	identityNone                     // none: PLAIN INT32
)

// WithIdentityDictionary makes writers encode the values of int16 and
// uint16 tensor columns, besides int8 and uint8 ones, with the identity
// dictionary. Writers encode the values of 1-byte integer tensor columns
// (int8, uint8: pixels, quantized embeddings) as RLE_DICTIONARY indexes
// into a dictionary page of every value of the type (256 INT32 values,
// 1 KiB per column chunk) in which index i is the value whose bits are i:
// the indexes, bit-packed at 8 bits, are then the elements' own bytes.
// Values take 1 byte in the file instead of the 4 of PLAIN INT32 (Parquet
// has no 8-bit physical type) and are written and read at the speed of a
// copy; every reader decodes them as any dictionary-encoded column. For
// 2-byte integers the dictionary has 65,536 values (256 KiB per column
// chunk) and saves 2 bytes a value, a gain only for column chunks of more
// than 131,072 values, hence an option.
func WithIdentityDictionary() Option { return func(c *config) { c.identity = identityAll } }

// WithoutIdentityDictionary makes writers encode the values of every
// integer tensor column PLAIN (INT32 for 1- and 2-byte integers), as
// writers that never dictionary-encode do; see [WithIdentityDictionary]
// for the default.
func WithoutIdentityDictionary() Option { return func(c *config) { c.identity = identityNone } }

// WithByteStreamSplit makes writers encode the values of float32 and
// float64 tensor columns as BYTE_STREAM_SPLIT instead of PLAIN, which
// usually compresses better; it has no effect on other columns.
func WithByteStreamSplit() Option { return func(c *config) { c.byteStreamSplit = true } }

// DefaultPageBytes is the size of the data pages written unless told
// otherwise: a page of a tensor column holds as many whole tensors as
// fit (at least one). An uncompressed tensor column chunk of at most
// [SinglePageBytes] is written as one page unless [WithPageBytes] is
// given (see there).
const DefaultPageBytes = 1 << 20

// SinglePageBytes bounds the uncompressed tensor column chunks that
// writers write as one data page when no [WithPageBytes] is given.
const SinglePageBytes = 128 << 20

// WithPageBytes sets the size of the data pages written, in bytes of
// values (default [DefaultPageBytes]): a tensor column's page holds
// max(1, n / tensor bytes) whole tensors; arrow-go's column writers of
// flat columns take n as their page size. n below 1 is an invalid option.
//
// Without this option, an uncompressed tensor column chunk (of at most
// [SinglePageBytes]) is one data page whose values start at a multiple
// of 64 bytes in the file (zero bytes before the chunk pad it), so that
// readers that map the file hand out its values where they lie (see the
// package doc, Reading); compressed chunks have pages of
// DefaultPageBytes.
//
// Small pages make random access of compressed files cheaper and scans
// a little slower: a take of one row ([Take]) decompresses the whole
// page that holds it, so with 1 MiB pages of 3 KiB tensors it reads 1
// MiB for a row, with 16 KiB pages 16 KiB (from an uncompressed page it
// reads the page's levels and the row's bytes); each page adds a header
// (about 30 bytes), an entry of the page index (about 15 bytes) and,
// with a codec, compresses less well.
func WithPageBytes(n int) Option {
	set := atLeast1("WithPageBytes", n, func(c *config) *int { return &c.pageBytes })
	return func(c *config) {
		set(c)
		c.pageBytesSet = true
	}
}

// WithoutZeroCopy makes readers copy every tensor column chunk into
// memory from [WithAllocator]. By default, a reader of a local file
// ([OpenFile], or [NewReader] of an *os.File) maps the file under a read
// lease where the system grants one, and hands out the chunks laid out
// as the writers of this package write uncompressed tensor columns (one
// page, values aligned: see [WithPageBytes]) where they lie in the
// mapping, with no copy; such batches keep the mapping (and its lease)
// until they are released. See the package doc, Reading.
func WithoutZeroCopy() Option { return func(c *config) { c.noZeroCopy = true } }

// WithoutPageIndex makes writers write no page index. By default they
// write one after the row groups, before the footer: an OffsetIndex (the
// offset, size and first row of every data page) for every column chunk
// and a ColumnIndex (per-page minimum, maximum and null count) for the
// chunks of flat columns; tensor columns have no statistics, so no
// ColumnIndex. [Take] reads only the pages that hold the rows asked
// through the OffsetIndex; without it, it reads the whole column chunks
// of the row groups that hold them.
func WithoutPageIndex() Option { return func(c *config) { c.noPageIndex = true } }

// DefaultMaxPageBytes is the largest Parquet page, compressed or not,
// that readers accept unless told otherwise.
const DefaultMaxPageBytes = 256 << 20

// DefaultMaxChunkBytes is the largest column chunk, as stored and as
// decoded, that readers accept unless told otherwise.
const DefaultMaxChunkBytes = 4 << 30

// WithWorkers sets how many row groups a reader decodes at once (default
// 1; n below 1 is an invalid option). Memory grows with it: each worker
// holds one decoded row group, and one more is being handed out.
func WithWorkers(n int) Option {
	return atLeast1("WithWorkers", n, func(c *config) *int { return &c.workers })
}

// WithMaxPageBytes sets the largest page, compressed or decompressed,
// that a reader accepts (default [DefaultMaxPageBytes]); larger pages
// are an error wrapping arrow.ErrInvalid. n below 1 is an invalid
// option.
func WithMaxPageBytes(n int64) Option {
	return atLeast1("WithMaxPageBytes", n, func(c *config) *int64 { return &c.maxPageBytes })
}

// WithMaxChunkBytes sets the largest column chunk a reader accepts, both
// as stored and as decoded into Arrow memory (default
// [DefaultMaxChunkBytes]); larger chunks are an error wrapping
// arrow.ErrInvalid. n below 1 is an invalid option.
func WithMaxChunkBytes(n int64) Option {
	return atLeast1("WithMaxChunkBytes", n, func(c *config) *int64 { return &c.maxChunkBytes })
}

// WithColumns makes a reader read only the top-level fields named, in
// the file's order: the column chunks of the other fields are neither
// read nor decoded (only their metadata, in the footer, is checked), so
// that a reader over ranged reads (object storage) fetches the footer
// and the chunks of these fields only. Names the file lacks select
// nothing; a name given twice selects its field once. Without it, or
// with no names, every field is read. [Take] returns the fields named in
// the order given instead, and a name the file lacks is an error of Take
// wrapping [ErrColumn].
func WithColumns(names ...string) Option {
	return func(c *config) { c.columns = append([]string(nil), names...) }
}

// identityDictFor reports whether writers encode values of kind with the
// identity dictionary.
func (c *config) identityDictFor(kind valueKind) bool {
	switch kind {
	case valueInt8, valueUint8:
		return c.identity != identityNone
	case valueInt16, valueUint16:
		return c.identity == identityAll
	}
	return false
}
