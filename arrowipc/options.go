package arrowipc

import (
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// Option configures a reader or writer of this package. Each entry point
// documents the options it reads and ignores the others.
type Option func(*config)

// Compression names a compression codec for IPC bodies.
type Compression int

const (
	// Uncompressed writes plain buffers (the default).
	Uncompressed Compression = iota
	// LZ4 writes LZ4 frame-compressed IPC bodies.
	LZ4
	// ZSTD writes Zstandard-compressed IPC bodies.
	ZSTD
)

// String returns "none", "lz4" or "zstd".
func (c Compression) String() string {
	switch c {
	case Uncompressed:
		return "none"
	case LZ4:
		return "lz4"
	case ZSTD:
		return "zstd"
	}
	return "Compression(?)"
}

// DefaultBodySizeLimit is the largest IPC record body the readers of this
// package accept unless told otherwise: 4 GiB. arrow-go's own default,
// 256 MiB, is too small for batches of images or embeddings.
const DefaultBodySizeLimit int64 = 4 << 30

type config struct {
	mem         memory.Allocator
	bodyLimit   int64
	compression Compression
}

func newConfig(opts []Option) *config {
	c := &config{
		mem:       memory.DefaultAllocator,
		bodyLimit: DefaultBodySizeLimit,
	}
	for _, o := range opts {
		if o != nil {
			o(c)
		}
	}
	return c
}

// WithAllocator sets the allocator of decoded data and of the batches
// read into memory (the default is memory.DefaultAllocator). Read by
// every reader and writer.
func WithAllocator(mem memory.Allocator) Option {
	return func(c *config) {
		if mem != nil {
			c.mem = mem
		}
	}
}

// WithBodySizeLimit sets the largest IPC message body, in bytes, that the
// IPC readers accept (default [DefaultBodySizeLimit]); n <= 0 removes
// the limit. It bounds the memory a hostile file can make a reader
// allocate: decoding one message (the body as stored plus its
// decompressed buffers, whose sizes arrow-go takes from the input
// unchecked) may allocate at most 2n bytes from [WithAllocator], and a
// message asking for more fails with an error wrapping arrow.ErrInvalid.
func WithBodySizeLimit(n int64) Option { return func(c *config) { c.bodyLimit = n } }

// WithCompression sets the codec of the IPC writers.
func WithCompression(cmp Compression) Option { return func(c *config) { c.compression = cmp } }
