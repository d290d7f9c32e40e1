package arrowipc

import (
	"math"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/fstensor/fstensor"
	"github.com/fstensor/fstensor/internal/errs"
)

// Option configures a reader or writer of this package. Each entry point
// documents the options it reads and ignores the others. An invalid
// option value (a nil allocator, a body size limit below 1, a codec IPC
// lacks) fails the entry point, before it reads or writes anything, with
// an *[Error] wrapping fstensor.ErrOption and arrow.ErrInvalid that
// names the option and the value. A nil Option is ignored.
type Option func(*config)

// Compression is fstensor.Compression, the codec of IPC bodies: the
// writers take [Uncompressed], [LZ4] and [ZSTD]; another codec is an
// invalid option of [WithCompression].
type Compression = fstensor.Compression

// The codecs of IPC bodies.
const (
	// Uncompressed writes plain buffers (the default).
	Uncompressed = fstensor.Uncompressed
	// LZ4 writes LZ4 frame-compressed IPC bodies.
	LZ4 = fstensor.LZ4
	// ZSTD writes Zstandard-compressed IPC bodies.
	ZSTD = fstensor.ZSTD
)

// DefaultBodySizeLimit is the largest IPC record body the readers of this
// package accept unless told otherwise: 4 GiB. arrow-go's own default,
// 256 MiB, is too small for batches of images or embeddings.
const DefaultBodySizeLimit int64 = 4 << 30

// NoBodySizeLimit, given to [WithBodySizeLimit], lets the readers accept
// a message body of any size: a hostile input may then make them
// allocate as much as it states.
const NoBodySizeLimit int64 = math.MaxInt64

type config struct {
	mem         memory.Allocator
	bodyLimit   int64
	compression Compression
	leaseOnly   bool  // WithLeaseRequired
	err         error // of the first invalid option
}

// newConfig applies opts; the error is that of the first invalid option
// value, wrapping fstensor.ErrOption. A nil Option is skipped.
func newConfig(opts []Option) (*config, error) {
	c := &config{
		mem:       memory.DefaultAllocator,
		bodyLimit: DefaultBodySizeLimit,
	}
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
		c.err = &Error{base: errs.Option("arrowipc", name, value, why)}
	}
}

// WithAllocator sets the allocator of decoded data and of the batches
// read into memory (the default is memory.DefaultAllocator). Read by
// every reader and writer; the readers take its recycled variant, of
// buffers not cleared, where it has one (see the package doc, Memory).
// A nil mem is an invalid option.
func WithAllocator(mem memory.Allocator) Option {
	return func(c *config) {
		if mem == nil {
			c.invalid("WithAllocator", nil, "want an allocator")
			return
		}
		c.mem = mem
	}
}

// WithBodySizeLimit sets the largest IPC message body, in bytes, that the
// IPC readers accept (default [DefaultBodySizeLimit]; [NoBodySizeLimit]
// removes the limit); n below 1 is an invalid option. It bounds the
// memory a hostile file can make a reader allocate: decoding one message
// (the body as stored plus its decompressed buffers, whose sizes arrow-go
// takes from the input unchecked) may allocate at most 2n bytes from
// [WithAllocator], and a message asking for more fails with an error
// wrapping arrow.ErrInvalid.
func WithBodySizeLimit(n int64) Option {
	return func(c *config) {
		if n < 1 {
			c.invalid("WithBodySizeLimit", n, "want at least 1 byte (NoBodySizeLimit for none)")
			return
		}
		c.bodyLimit = n
	}
}

// WithCompression sets the codec of the IPC writers (default
// [Uncompressed]); a codec other than Uncompressed, LZ4 and ZSTD is an
// invalid option.
func WithCompression(cmp Compression) Option {
	return func(c *config) {
		switch cmp {
		case Uncompressed, LZ4, ZSTD:
			c.compression = cmp
		default:
			c.invalid("WithCompression", cmp, "IPC bodies take none, lz4 and zstd")
		}
	}
}

// WithLeaseRequired makes [OpenMappedIPCFile] and [MapIPCFile] map a file
// only under a read lease (see the package doc, Memory): where the system
// grants none they fail with an error wrapping [ErrNoLease], which a
// caller that must not fault (a server) takes as the cue to read the file
// instead. The other entry points ignore it.
func WithLeaseRequired() Option { return func(c *config) { c.leaseOnly = true } }
