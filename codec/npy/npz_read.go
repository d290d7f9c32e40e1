package npy

import (
	"archive/zip"
	"errors"
	"io"
	"math"
	"slices"
	"strings"

	"github.com/fstensor/fstensor/fixedshape"
)

// DefaultMaxMembers is the default bound on the number of members of a
// .npz archive ([WithMaxMembers]).
const DefaultMaxMembers = 1 << 16

// DefaultMaxTotalSize is the default bound, in bytes, on the decompressed
// size of the .npy members of a .npz archive ([WithMaxTotalSize]):
// 1 GiB.
const DefaultMaxTotalSize = 1 << 30

// maxDeflateRatio is the largest expansion deflate can achieve: a 258-byte
// match coded in 2 bits.
const maxDeflateRatio = 1032

// ReadNPZ reads the .npz archive (a zip file of size bytes) in r: every
// member whose name ends in ".npy" is read as [ReadColumn] reads a
// stream, axis 0 being the batch axis, and named after its member without
// the suffix, in archive order. Other members (directories, text) are
// skipped. Members may be stored or deflated, as numpy.savez and
// numpy.savez_compressed write them. The columns own memory from
// [WithAllocator] and never alias r; the caller releases every one. Bytes of a
// member after its .npy data are read (for the checksum) and ignored.
//
// Limits bound the work of a hostile archive before anything is
// decompressed: at most [WithMaxMembers] members; the decompressed sizes
// the central directory declares for the .npy members add up to at most
// [WithMaxTotalSize]; a stored member's data is as long as it declares, a
// deflated member declares no more than deflate can expand its
// compressed bytes to, and the data of no two members overlap (which
// defeats overlapping-member zip bombs). Reading then holds each member
// to its declared size and checksum (archive/zip) and each .npy header
// to [WithMaxHeaderSize] and [WithMaxDataSize]; memory grows with the bytes
// actually decompressed, never beyond twice them. The central directory
// itself is parsed by archive/zip, in memory proportional to its size.
//
// Errors wrap arrow.ErrInvalid and name the member: a malformed zip
// (wrapping archive/zip's errors, such as zip.ErrFormat and
// zip.ErrChecksum), two members of the same name, an encrypted member or
// one compressed otherwise than stored or deflated, a limit exceeded,
// sizes that disagree, and everything ReadColumn refuses, including a
// 0-D array, which has no batch axis. On error no column is returned.
func ReadNPZ(r io.ReaderAt, size int64, opts ...ReadOption) (names []string, cols []*fixedshape.Array, err error) {
	c, err := newReadConfig(opts)
	if err != nil {
		return nil, nil, err
	}
	zr, err := zip.NewReader(r, size)
	if err != nil && !errors.Is(err, zip.ErrInsecurePath) {
		// Names are keys here, never paths: insecure ones are harmless.
		return nil, nil, wrapf(err, "reading the zip directory")
	}
	maxMembers, maxTotal := c.maxMembers, c.maxTotalSize
	if len(zr.File) > maxMembers {
		return nil, nil, errorf("%d members exceed the limit %d", len(zr.File), maxMembers)
	}
	members, err := npzMembers(zr, size, maxTotal)
	if err != nil {
		return nil, nil, err
	}
	for _, f := range members {
		col, err := readMember(f, c)
		if err != nil {
			for _, c := range cols {
				c.Release()
			}
			return nil, nil, memberError(f.Name, err)
		}
		names = append(names, strings.TrimSuffix(f.Name, NPZExt))
		cols = append(cols, col)
	}
	return names, cols, nil
}

// npzMembers returns the .npy members of zr after checking what the
// central directory declares against the limits and the archive size.
func npzMembers(zr *zip.Reader, size int64, maxTotal int) ([]*zip.File, error) {
	type span struct {
		off, n int64
		name   string
	}
	var (
		members []*zip.File
		spans   []span
		total   uint64
		seen    = map[string]bool{}
	)
	for _, f := range zr.File {
		if !strings.HasSuffix(f.Name, NPZExt) {
			continue
		}
		name := f.Name
		if seen[name] {
			return nil, errorf("member %q repeats", name)
		}
		seen[name] = true
		if f.Flags&0x1 != 0 {
			return nil, errorf("member %q is encrypted", name)
		}
		u, c := f.UncompressedSize64, f.CompressedSize64
		switch f.Method {
		case zip.Store:
			if u != c {
				return nil, errorf("stored member %q declares %d bytes and %d compressed", name, u, c)
			}
		case zip.Deflate:
			if u > 0 && (u-1)/maxDeflateRatio >= c {
				return nil, errorf("deflated member %q declares %d bytes from %d compressed, more than deflate expands to", name, u, c)
			}
		default:
			return nil, errorf("member %q uses compression method %d (only stored and deflated are read)", name, f.Method)
		}
		if u > uint64(maxTotal)-total {
			return nil, errorf("members up to %q decompress to more than the limit of %d bytes", name, maxTotal)
		}
		total += u
		off, err := f.DataOffset()
		if err != nil {
			return nil, wrapf(err, "member %q", name)
		}
		if off < 0 || c > math.MaxInt64 || off > size || int64(c) > size-off {
			return nil, errorf("member %q: %d compressed bytes at offset %d overrun the archive of %d", name, c, off, size)
		}
		members = append(members, f)
		spans = append(spans, span{off, int64(c), name})
	}
	slices.SortFunc(spans, func(a, b span) int {
		switch {
		case a.off < b.off:
			return -1
		case a.off > b.off:
			return 1
		}
		return 0
	})
	for i := 1; i < len(spans); i++ {
		if p := spans[i-1]; p.off+p.n > spans[i].off {
			return nil, errorf("members %q and %q share compressed bytes", p.name, spans[i].name)
		}
	}
	return members, nil
}

// readMember reads one member as a column and then the rest of it, so
// that archive/zip checks its size and checksum.
func readMember(f *zip.File, o *readConfig) (*fixedshape.Array, error) {
	rc, err := f.Open()
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	var r io.Reader = rc
	if f.Method == zip.Store {
		// The bytes are present in the archive: allocate once.
		r = &sizedReader{r: rc, n: int64(f.UncompressedSize64)}
	}
	col, err := read(r, false, o)
	if err != nil {
		return nil, err
	}
	if _, err := io.Copy(io.Discard, rc); err != nil {
		col.Release()
		return nil, wrapf(err, "after the data")
	}
	return col, nil
}

// sizedReader reports the bytes left of a stored member through Len, so
// that ReadColumn allocates its buffer once.
type sizedReader struct {
	r io.Reader
	n int64
}

func (s *sizedReader) Read(p []byte) (int, error) {
	k, err := s.r.Read(p)
	s.n -= int64(k)
	return k, err
}

func (s *sizedReader) Len() int { return int(max(s.n, 0)) }
