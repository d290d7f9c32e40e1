package tensorio

import (
	"runtime"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/fstensor/fstensor"
	"github.com/fstensor/fstensor/arrowipc"
	"github.com/fstensor/fstensor/internal/errs"
	"github.com/fstensor/fstensor/metadata"
	"github.com/fstensor/fstensor/objstore"
)

// Option configures Open, Create or NewWriter. Each entry point documents
// the options it reads and ignores the others. An invalid option value (a
// nil allocator, a negative count, zero workers, an unknown codec) fails
// the entry point, before it opens or creates anything, with an *Error
// wrapping fstensor.ErrOption and arrow.ErrInvalid that names the option
// and the value. A nil Option is ignored.
type Option func(*config)

type config struct {
	format      Format
	mem         memory.Allocator
	columns     []string
	offset      int64
	limit       int64 // < 0: no limit
	batchRows   int
	mapped      bool
	leaseOnly   bool // WithLeasedMmap: map IPC files only under a lease
	copyAll     bool // WithoutZeroCopy
	newOnly     bool // Create of a URL makes a new object only (a dataset's files)
	single      bool
	name        string
	shape       *metadata.Metadata
	workers     int
	compression Compression
	fill        bool
	fillWith    float64
	store       *objstore.Client // WithStore; nil: one from the environment
	dataset     datasetOptions   // of CreateDataset
	rowMajor    bool
	pageBytes   int
	err         error // of the first invalid option
}

// newConfig applies opts; the error is that of the first invalid option
// value, wrapping fstensor.ErrOption. A nil Option is skipped.
func newConfig(opts []Option) (*config, error) {
	c := &config{mem: memory.DefaultAllocator, limit: -1, workers: runtime.GOMAXPROCS(0)}
	for _, o := range opts {
		if o != nil {
			o(c)
		}
	}
	return c, c.err
}

// invalid records the error of an invalid option value, keeping the
// first.
func (c *config) invalid(name string, value any, why string) {
	if c.err == nil {
		c.err = &Error{errs.Option("tensorio", name, value, why)}
	}
}

// mapOptions are the options of arrowipc's mapped readers.
func (c *config) mapOptions() []arrowipc.Option {
	o := []arrowipc.Option{arrowipc.WithAllocator(c.mem)}
	if c.leaseOnly {
		o = append(o, arrowipc.WithLeaseRequired())
	}
	return o
}

// formatOf returns the format of WithFormat, checked, or else the format
// path's extension names.
func (c *config) formatOf(path string) (Format, error) {
	if c.format == "" {
		return FormatOf(path)
	}
	if _, err := ParseFormat(string(c.format)); err != nil {
		return "", err
	}
	return c.format, nil
}

// atLeast returns the Option that sets *field(c) to n, or records n as
// invalid, for the reason why, when it is below least.
func atLeast[T int | int64](name string, n, least T, why string, field func(*config) *T) Option {
	return func(c *config) {
		if n < least {
			c.invalid(name, n, why)
			return
		}
		*field(c) = n
	}
}

// WithFormat names the format instead of the file extension (Open,
// Create); NewWriter needs it.
func WithFormat(f Format) Option { return func(c *config) { c.format = f } }

// WithAllocator sets the allocator of the batches read and of the copies
// a writer makes (default memory.DefaultAllocator). The codecs of .pb,
// .zio and .dt decode into memory of their own. hugepage.NewAllocator
// puts large batches on huge pages, which computing over them reads
// faster. A nil mem is an invalid option.
func WithAllocator(mem memory.Allocator) Option {
	return func(c *config) {
		if mem == nil {
			c.invalid("WithAllocator", nil, "want an allocator")
			return
		}
		c.mem = mem
	}
}

// WithColumns keeps only the named columns, in the order given (Open). A
// name the file lacks fails Open with an error wrapping ErrMismatch.
func WithColumns(names ...string) Option {
	return func(c *config) { c.columns = append([]string(nil), names...) }
}

// WithOffset skips the first n rows, counted over all batches (Open).
// A negative n is an invalid option.
func WithOffset(n int64) Option {
	return atLeast("WithOffset", n, 0, "want a row count of 0 or more", func(c *config) *int64 { return &c.offset })
}

// WithLimit stops after n rows (Open): with WithOffset(a), the reader
// yields rows [a, a+n). Batches past the last row are not read. A
// negative n is an invalid option.
func WithLimit(n int64) Option {
	return atLeast("WithLimit", n, 0, "want a row count of 0 or more", func(c *config) *int64 { return &c.limit })
}

// WithBatchRows cuts the batches read into batches of at most n rows
// (Open), zero-copy slices of the file's batches; Parquet row groups are
// decoded n rows at a time. n == 0 keeps the file's batches (the
// default); a negative n is an invalid option.
func WithBatchRows(n int) Option {
	return atLeast("WithBatchRows", n, 0, "want a row count of 1 or more, or 0 for the file's batches", func(c *config) *int { return &c.batchRows })
}

// WithMmap maps IPC files and .npy files into memory instead of reading
// each batch (Open): uncompressed data is then zero-copy and its batches
// point into the mapping, so they and every view of them must not be used
// after the reader is closed. Other formats ignore it. An IPC file's
// mapping holds a read lease where the system grants one, so that the
// file changed in place meanwhile does not fault its batches (see
// arrowipc's package doc, Memory). Parquet files are mapped whatever
// this option: their uncompressed tensor columns in the layout fstensor
// writes are zero-copy under a read lease, and those batches stay valid
// after the reader is closed (see parquetconv's package doc, Reading).
func WithMmap() Option { return func(c *config) { c.mapped = true } }

// WithLeasedMmap maps IPC files as WithMmap does, but only under a read
// lease (arrowipc.WithLeaseRequired): where the system grants none, the
// file is read as without WithMmap. Its batches then never fault, however
// the file changes while they are in use, which a server that hands them
// to other goroutines needs. Other formats ignore it.
func WithLeasedMmap() Option {
	return func(c *config) { c.mapped, c.leaseOnly = true, true }
}

// WithoutZeroCopy makes readers of Parquet files copy every tensor
// column into memory from the allocator (parquetconv.WithoutZeroCopy)
// instead of handing out the uncompressed chunks fstensor writes where
// they lie in the file mapped under a read lease: the batches then hold
// no mapping, lease or file descriptor. Other formats ignore it.
func WithoutZeroCopy() Option { return func(c *config) { c.copyAll = true } }

// WithSingleTensor reads a .npy file as one tensor, a column of one row,
// instead of a column whose first axis is the batch axis (Open). Other
// formats fail with an error wrapping ErrMismatch.
func WithSingleTensor() Option { return func(c *config) { c.single = true } }

// WithColumnName names the column of a single-column file (.npy, .pb,
// .zio, .dt), which is otherwise named after the file: its base name
// without the extension ("x" for data/x.npy) (Open). Other formats name
// their columns themselves and fail with an error wrapping ErrMismatch;
// an empty name keeps the default.
func WithColumnName(name string) Option { return func(c *config) { c.name = name } }

// WithShape reads the plain FixedSizeList and list columns of numbers
// whose values number m.Size() as tensor columns described by m (Open),
// as tools without a tensor type write embeddings: a FixedSizeList column
// shares its buffers, a list column is copied and every valid list must
// hold m.Size() numbers. Open fails with an error wrapping ErrMismatch when
// no column fits.
func WithShape(m metadata.Metadata) Option { return func(c *config) { c.shape = &m } }

// WithWorkers sets the number of goroutines decoding Parquet row groups
// (Open; default GOMAXPROCS), and reading the files of a dataset
// (Dataset.Open, Dataset.Take). An n below 1 is an invalid option.
func WithWorkers(n int) Option {
	return atLeast("WithWorkers", n, 1, "want 1 or more", func(c *config) *int { return &c.workers })
}

// Compression is a codec of the writers, fstensor.Compression: IPC takes
// LZ4 and ZSTD, Parquet LZ4, ZSTD, Snappy and Gzip, .npz Deflate, the
// other formats none. fstensor.ParseCompression reads their names.
type Compression = fstensor.Compression

// The codecs, those of package fstensor.
const (
	Uncompressed = fstensor.Uncompressed
	LZ4          = fstensor.LZ4 // LZ4 frames in IPC, LZ4_RAW in Parquet
	ZSTD         = fstensor.ZSTD
	Snappy       = fstensor.Snappy  // Parquet pages
	Gzip         = fstensor.Gzip    // Parquet pages
	Deflate      = fstensor.Deflate // .npz members, as numpy.savez_compressed writes them
)

// WithCompression sets the codec of a writer (Create, NewWriter). A codec
// the format lacks fails with an error wrapping ErrMismatch; a value that
// is no codec at all is an invalid option.
func WithCompression(cmp Compression) Option {
	return func(c *config) {
		if !cmp.Valid() {
			c.invalid("WithCompression", cmp, "unknown codec")
			return
		}
		c.compression = cmp
	}
}

// WithFillNulls writes null tensors to .npy and .npz, which have no nulls,
// as tensors whose every element is v (Create, NewWriter). Without it a
// null tensor fails Close with an error wrapping npy.ErrNullTensor. A v
// that some column's element type cannot hold exactly (NaN or an infinity
// for an integer or bool column, a fraction or a value out of range for
// an integer column, anything but 0 and 1 for bool, a finite value that
// overflows float16 or float32) fails Create and NewWriter with an error
// naming the column that wraps ErrMismatch and npy.ErrFill; float columns
// take every other value, rounded to the nearest of their type (NaN is the
// usual fill).
func WithFillNulls(v float64) Option {
	return func(c *config) { c.fill, c.fillWith = true, v }
}

// WithPageBytes sets the size of the data pages of Parquet files written
// (parquetconv.WithPageBytes; by default an uncompressed tensor column
// chunk is one page, which readers hand out where it lies in the mapped
// file, and compressed ones have pages of parquetconv.DefaultPageBytes):
// small pages make Take of compressed files read less, scans a little
// slower. n below 1 is an invalid option; other formats ignore it.
func WithPageBytes(n int) Option {
	return func(c *config) {
		if n < 1 {
			c.invalid("WithPageBytes", n, "want at least 1")
			return
		}
		c.pageBytes = n
	}
}
