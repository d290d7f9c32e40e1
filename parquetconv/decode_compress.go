package parquetconv

import (
	"bytes"
	"github.com/fstensor/fstensor/parquetconv/internal/format"
	"io"

	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/s2"
	"github.com/klauspost/compress/zstd"
	"github.com/pierrec/lz4/v4"
)

// decompressor decompresses pages into buffers of their stated size,
// never beyond: Snappy's stated length is checked first, LZ4 and Zstd
// decode into a buffer of exactly that capacity, gzip is read through a
// limit. One decompressor serves one goroutine.
type decompressor struct {
	zstd    *zstd.Decoder
	gz      *gzip.Reader
	src     bytes.Reader
	maxPage int64 // the largest page accepted, bounding zstd's window
}

// supportedCodec reports whether the fast path decompresses codec.
func supportedCodec(codec int) bool {
	switch codec {
	case format.CodecNone, format.CodecSnappy, format.CodecGzip, format.CodecZstd, format.CodecLz4Raw:
		return true
	}
	return false
}

// plausible reports whether src, compressed with codec, can decompress
// to n bytes, from what its header states or the codec's largest ratio,
// so that a small page cannot make the reader allocate the largest page
// size: Snappy states its length, a Zstandard frame its content size (a
// single frame when it does), LZ4 expands at most 255 times and
// deflate at most 1032 times.
func plausible(codec int, src []byte, n int) bool {
	switch codec {
	case format.CodecSnappy:
		m, err := s2.DecodedLen(src)
		return err == nil && m == n
	case format.CodecZstd:
		var h zstd.Header
		if h.Decode(src) == nil && h.HasFCS && h.FrameContentSize > uint64(n) {
			return false
		}
		return true
	case format.CodecLz4Raw:
		return int64(n) <= 255*int64(len(src))+16
	case format.CodecGzip:
		return int64(n) <= 1032*int64(len(src))+64
	}
	return true
}

// decode decompresses src into dst, whose length is the stated size; it
// fails unless src decompresses to exactly len(dst) bytes.
func (d *decompressor) decode(codec int, dst, src []byte) error {
	switch codec {
	case format.CodecNone:
		if len(src) != len(dst) {
			return errorf("uncompressed page of %d bytes states %d", len(src), len(dst))
		}
		copy(dst, src)
		return nil
	case format.CodecSnappy:
		n, err := s2.DecodedLen(src)
		if err != nil || n != len(dst) {
			return errorf("snappy page decodes to %d bytes (%v), its header states %d", n, err, len(dst))
		}
		if _, err := s2.Decode(dst, src); err != nil {
			return errorf("snappy page: %v", err)
		}
		return nil
	case format.CodecLz4Raw:
		n, err := lz4.UncompressBlock(src, dst)
		if err != nil || n != len(dst) {
			return errorf("lz4 page decodes to %d bytes (%v), its header states %d", n, err, len(dst))
		}
		return nil
	case format.CodecZstd:
		if d.zstd == nil {
			z, err := zstd.NewReader(nil, zstd.WithDecoderConcurrency(1), zstd.WithDecodeAllCapLimit(true), zstd.WithDecoderLowmem(true), zstd.WithDecoderMaxMemory(uint64(max(d.maxPage, 1))))
			if err != nil {
				return errorf("zstd: %v", err)
			}
			d.zstd = z
		}
		out, err := d.zstd.DecodeAll(src, dst[:0:len(dst)])
		if err != nil || len(out) != len(dst) {
			return errorf("zstd page decodes to %d bytes (%v), its header states %d", len(out), err, len(dst))
		}
		return nil
	case format.CodecGzip:
		d.src.Reset(src)
		var err error
		if d.gz == nil {
			d.gz, err = gzip.NewReader(&d.src)
		} else {
			err = d.gz.Reset(&d.src)
		}
		if err != nil {
			return errorf("gzip page: %v", err)
		}
		if _, err := io.ReadFull(d.gz, dst); err != nil {
			return errorf("gzip page shorter than the %d bytes its header states: %v", len(dst), err)
		}
		var one [1]byte
		if n, _ := d.gz.Read(one[:]); n != 0 {
			return errorf("gzip page longer than the %d bytes its header states", len(dst))
		}
		return nil
	}
	return unsupported("codec %d", codec)
}

// close releases the decoders' resources.
func (d *decompressor) close() {
	if d.zstd != nil {
		d.zstd.Close()
	}
}
