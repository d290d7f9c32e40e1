package npy

import (
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/fstensor/fstensor"
	"github.com/fstensor/fstensor/internal/errs"
)

// ReadOption configures the readers (DecodeColumn, DecodeTensor,
// ReadColumn, ReadTensor, MapColumn, MapTensor, ReadNPZ). Without options
// they read with memory.DefaultAllocator and the default limits. An
// invalid option value fails the reader before it reads anything, with an
// *Error wrapping fstensor.ErrOption and arrow.ErrInvalid that names the
// option and the value. A nil ReadOption is ignored.
type ReadOption func(*readConfig)

type readConfig struct {
	mem           memory.Allocator
	maxHeaderSize int // 0: DefaultMaxHeaderSize
	maxDataSize   int // 0: no bound beyond int
	maxMembers    int
	maxTotalSize  int
	err           error // of the first invalid option
}

func newReadConfig(opts []ReadOption) (*readConfig, error) {
	c := &readConfig{mem: memory.DefaultAllocator, maxMembers: DefaultMaxMembers, maxTotalSize: DefaultMaxTotalSize}
	for _, o := range opts {
		if o != nil {
			o(c)
		}
	}
	return c, c.err
}

// invalid records the error of an invalid option value, keeping the
// first; it serves both configurations.
func invalid(errp *error, name string, value any, why string) {
	if *errp == nil {
		*errp = &Error{errs.Option("npy", name, value, why)}
	}
}

// atLeast1 returns an option setting *field(c) to n, or recording an
// invalid option when n < 1.
func atLeast1(name string, n int, field func(*readConfig) *int) ReadOption {
	return func(c *readConfig) {
		if n < 1 {
			invalid(&c.err, name, n, "want 1 or more")
			return
		}
		*field(c) = n
	}
}

// WithAllocator sets the allocator of the values buffer whenever the data
// is copied (always for ReadColumn and ReadTensor; for DecodeColumn,
// DecodeTensor, MapColumn and MapTensor only when the data must be
// byte-swapped, transposed or realigned); the default is
// memory.DefaultAllocator. A nil mem is an invalid option.
func WithAllocator(mem memory.Allocator) ReadOption {
	return func(c *readConfig) {
		if mem == nil {
			invalid(&c.err, "WithAllocator", nil, "want an allocator")
			return
		}
		c.mem = mem
	}
}

// WithMaxHeaderSize bounds the header length field, in bytes (default
// [DefaultMaxHeaderSize]). An n below 1 is an invalid option.
func WithMaxHeaderSize(n int) ReadOption {
	return atLeast1("WithMaxHeaderSize", n, func(c *readConfig) *int { return &c.maxHeaderSize })
}

// WithMaxDataSize bounds the data size a header may announce, in bytes.
// Without it there is no bound beyond int: readers never allocate more
// than twice the bytes the input actually holds, whatever the header
// says. An n below 1 is an invalid option.
func WithMaxDataSize(n int) ReadOption {
	return atLeast1("WithMaxDataSize", n, func(c *readConfig) *int { return &c.maxDataSize })
}

// WithMaxMembers bounds the number of members (of any name) of a .npz
// archive that ReadNPZ accepts (default [DefaultMaxMembers]). An n below
// 1 is an invalid option.
func WithMaxMembers(n int) ReadOption {
	return atLeast1("WithMaxMembers", n, func(c *readConfig) *int { return &c.maxMembers })
}

// WithMaxTotalSize bounds the sum of the decompressed sizes of the .npy
// members of a .npz archive, headers included, in bytes: the bound on
// what ReadNPZ decompresses and holds, whatever the compression ratio
// (default [DefaultMaxTotalSize]; math.MaxInt lifts the bound). An n
// below 1 is an invalid option.
func WithMaxTotalSize(n int) ReadOption {
	return atLeast1("WithMaxTotalSize", n, func(c *readConfig) *int { return &c.maxTotalSize })
}

// WriteOption configures the writers (WriteColumn, WriteTensor,
// WriteNPZ). Without options they write what numpy.save and numpy.savez
// write for the same array: version 1.0 (2.0 when the header needs it),
// little-endian, stored .npz members, and an error for null tensors. An
// invalid option value fails the writer before it writes anything, with
// an *Error wrapping fstensor.ErrOption and arrow.ErrInvalid. A nil
// WriteOption is ignored.
type WriteOption func(*writeConfig)

type writeConfig struct {
	major, minor int // 0: picked as NumPy does
	bigEndian    bool
	fillNulls    bool
	fill         float64
	deflate      bool
	err          error // of the first invalid option
}

func newWriteConfig(opts []WriteOption) (*writeConfig, error) {
	c := &writeConfig{}
	for _, o := range opts {
		if o != nil {
			o(c)
		}
	}
	return c, c.err
}

// WithVersion forces the format version: 1.0, 2.0 or 3.0; without it the
// version is picked as NumPy does. Another version is an invalid option.
func WithVersion(major, minor int) WriteOption {
	return func(c *writeConfig) {
		if major < 1 || major > 3 || minor != 0 {
			invalid(&c.err, "WithVersion", [2]int{major, minor}, "want 1.0, 2.0 or 3.0")
			return
		}
		c.major, c.minor = major, minor
	}
}

// WithBigEndian writes multi-byte elements big-endian (descr '>') when on
// is true, little-endian (the default) otherwise.
func WithBigEndian(on bool) WriteOption {
	return func(c *writeConfig) { c.bigEndian = on }
}

// WithFillNulls writes null tensors as tensors whose every element is v;
// without it a null tensor is an error wrapping [ErrNullTensor], since
// .npy has no nulls. The writers check v against the element type with
// [CheckFill] before writing anything, whether or not the column has
// nulls.
func WithFillNulls(v float64) WriteOption {
	return func(c *writeConfig) { c.fillNulls, c.fill = true, v }
}

// WithCompression sets the codec of the members WriteNPZ writes:
// fstensor.Uncompressed stores them (the default), fstensor.Deflate
// deflates them (Go's default level), as numpy.savez_compressed does.
// WriteColumn and WriteTensor ignore it. Another codec is an invalid
// option.
func WithCompression(cmp fstensor.Compression) WriteOption {
	return func(c *writeConfig) {
		switch cmp {
		case fstensor.Uncompressed, fstensor.Deflate:
			c.deflate = cmp == fstensor.Deflate
		default:
			invalid(&c.err, "WithCompression", cmp, "a .npz member is stored (none) or deflated (deflate)")
		}
	}
}
