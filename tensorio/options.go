package tensorio

import (
	"runtime"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/fstensor/fstensor/metadata"
)

// Option configures Open, Create or NewWriter. Each entry point documents
// the options it reads and ignores the others.
type Option func(*config)

type config struct {
	format      Format
	mem         memory.Allocator
	columns     []string
	offset      int64
	limit       int64 // < 0: no limit
	batchRows   int
	mapped      bool
	single      bool
	name        string
	shape       *metadata.Metadata
	workers     int
	compression Compression
	fill        bool
	fillWith    float64
}

func newConfig(opts []Option) *config {
	c := &config{mem: memory.DefaultAllocator, limit: -1, workers: runtime.GOMAXPROCS(0)}
	for _, o := range opts {
		o(c)
	}
	return c
}

// WithFormat names the format instead of the file extension (Open,
// Create); NewWriter needs it.
func WithFormat(f Format) Option { return func(c *config) { c.format = f } }

// WithAllocator sets the allocator of the batches read and of the copies
// a writer makes (default memory.DefaultAllocator). The codecs of .pb,
// .zio and .dt decode into memory of their own. hugepage.NewAllocator
// puts large batches on huge pages, which computing over them reads
// faster.
func WithAllocator(mem memory.Allocator) Option {
	return func(c *config) {
		if mem != nil {
			c.mem = mem
		}
	}
}

// WithColumns keeps only the named columns, in the order given (Open). A
// name the file lacks fails Open with an error wrapping ErrMismatch.
func WithColumns(names ...string) Option {
	return func(c *config) { c.columns = append([]string(nil), names...) }
}

// WithOffset skips the first n rows, counted over all batches (Open).
// Negative n counts as 0.
func WithOffset(n int64) Option { return func(c *config) { c.offset = max(n, 0) } }

// WithLimit stops after n rows (Open): with WithOffset(a), the reader
// yields rows [a, a+n). Batches past the last row are not read. Negative
// n counts as 0.
func WithLimit(n int64) Option { return func(c *config) { c.limit = max(n, 0) } }

// WithBatchRows cuts the batches read into batches of at most n rows
// (Open), zero-copy slices of the file's batches; Parquet row groups are
// decoded n rows at a time. n <= 0 keeps the file's batches.
func WithBatchRows(n int) Option { return func(c *config) { c.batchRows = n } }

// WithMmap maps IPC files and .npy files into memory instead of reading
// each batch (Open): uncompressed data is then zero-copy and its batches
// point into the mapping, so they and every view of them must not be used
// after the reader is closed. Other formats ignore it.
func WithMmap() Option { return func(c *config) { c.mapped = true } }

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
// (Open; default GOMAXPROCS).
func WithWorkers(n int) Option { return func(c *config) { c.workers = max(n, 1) } }

// Compression is a codec of the writers: IPC and Parquet take LZ4 and
// ZSTD, .npz takes Deflate, the other formats none.
type Compression int

// The codecs.
const (
	Uncompressed Compression = iota
	LZ4                      // LZ4 frames in IPC, LZ4_RAW in Parquet
	ZSTD
	Deflate // .npz members, as numpy.savez_compressed writes them
)

// WithCompression sets the codec of a writer (Create, NewWriter). A codec
// the format lacks fails with an error wrapping ErrMismatch.
func WithCompression(c Compression) Option { return func(cf *config) { cf.compression = c } }

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
