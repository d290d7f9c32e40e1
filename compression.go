package fstensor

import (
	"fmt"
	"strings"

	"github.com/fstensor/fstensor/internal/errs"
)

// Compression names the codec a writer compresses with. Each writer
// documents the codecs its format takes and refuses the others with an
// error wrapping arrow.ErrInvalid.
type Compression int

// The codecs. Their names, as [Compression.String] prints them and
// [ParseCompression] reads them, are in parentheses.
const (
	// Uncompressed writes plain data ("none"); the default.
	Uncompressed Compression = iota
	// LZ4 writes LZ4 frames in IPC bodies, LZ4_RAW in Parquet pages
	// ("lz4").
	LZ4
	// ZSTD writes Zstandard in IPC bodies and Parquet pages ("zstd").
	ZSTD
	// Snappy writes Snappy-compressed Parquet pages ("snappy").
	Snappy
	// Gzip writes gzip-compressed Parquet pages ("gzip").
	Gzip
	// Deflate writes deflated .npz members, as numpy.savez_compressed
	// does ("deflate").
	Deflate
)

var compressionNames = [...]string{
	Uncompressed: "none",
	LZ4:          "lz4",
	ZSTD:         "zstd",
	Snappy:       "snappy",
	Gzip:         "gzip",
	Deflate:      "deflate",
}

// String returns the name of c: "none", "lz4", "zstd", "snappy", "gzip"
// or "deflate", and "Compression(N)" for a value that is none of them.
func (c Compression) String() string {
	if c >= 0 && int(c) < len(compressionNames) {
		return compressionNames[c]
	}
	return fmt.Sprintf("Compression(%d)", int(c))
}

// Valid reports whether c is one of the codecs above.
func (c Compression) Valid() bool { return c >= 0 && int(c) < len(compressionNames) }

// CompressionNames returns the names of the codecs, "none" first, as
// [ParseCompression] reads them. The slice is new.
func CompressionNames() []string { return append([]string(nil), compressionNames[:]...) }

// ParseCompression returns the codec named s, a name of
// [CompressionNames] in any case; "" is "none". Another name is an error
// wrapping [ErrOption] and arrow.ErrInvalid that lists the names.
func ParseCompression(s string) (Compression, error) {
	if s == "" {
		return Uncompressed, nil
	}
	for c, name := range compressionNames {
		if strings.EqualFold(s, name) {
			return Compression(c), nil
		}
	}
	return 0, &Error{errs.Option("fstensor", "ParseCompression", s, "unknown codec; want one of "+strings.Join(compressionNames[:], ", "))}
}
