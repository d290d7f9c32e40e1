package npy

import (
	"encoding/binary"
	"errors"
	"io"
	"math/bits"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/fstensor/fstensor/codec/internal/rawcol"
	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/internal/unsafeslice"
	"github.com/fstensor/fstensor/metadata"
)

// layout says how a header maps to a column.
type layout struct {
	h         Header
	typ       *fixedshape.Type
	n         int  // tensors
	size      int  // data bytes
	transpose bool // Fortran-order batch-first: data is (S x n), want (n x S)
}

// plan maps a header to a column type: whole means the array is one
// tensor, otherwise axis 0 is the batch axis.
func plan(h Header, whole bool, o *readConfig) (layout, error) {
	l := layout{h: h}
	var err error
	if l.size, err = h.DataSize(); err != nil {
		return l, err
	}
	if o.maxDataSize > 0 && l.size > o.maxDataSize {
		return l, errorf("data of %d bytes exceeds the limit %d", l.size, o.maxDataSize)
	}
	shape := h.Shape
	l.n = 1
	if !whole {
		if len(shape) == 0 {
			return l, errorf("a 0-D array has no batch axis; read it as one tensor")
		}
		l.n, shape = shape[0], shape[1:]
	}
	var perm []int
	if h.FortranOrder && len(h.Shape) > 1 {
		// Fortran order is row-major in the reversed shape: the tensor
		// axes keep that layout as the reversed permutation. For a batch,
		// the batch axis is the fastest one in the file and is moved
		// outermost by a copy.
		if len(shape) > 1 {
			perm = reversed(len(shape))
		}
		l.transpose = !whole && l.n > 1
	}
	m, err := metadata.New(shape, nil, perm)
	if err != nil {
		return l, wrapf(err, "shape %s", metadata.FormatShape(h.Shape))
	}
	if l.typ, err = fixedshape.NewType(h.Type, m); err != nil {
		return l, wrapf(err, "shape %s", metadata.FormatShape(h.Shape))
	}
	return l, nil
}

// DecodeColumn reads the .npy file in b as a column: axis 0 of the array
// is the batch axis, so shape (N, d1, ..., dk) gives N tensors of shape
// (d1, ..., dk) (a 1-D array gives 0-D tensors). The result shares b's
// memory, without copying, when the file is little-endian (or 1-byte),
// the data is aligned for the element type and the array is C-ordered
// (or has at most one tensor): b must then stay unmodified while the
// array is in use, which makes DecodeColumn over a memory-mapped file a
// zero-copy view. Otherwise the data is copied into memory from
// [WithAllocator]: big-endian data is byte-swapped, and a Fortran-order array
// is transposed so that each tensor is contiguous, its axes keeping the
// Fortran layout as the reversed permutation. Bytes after the data are
// ignored.
//
// Errors wrap arrow.ErrInvalid: everything [ParseHeader] refuses, a 0-D
// array (use [DecodeTensor]), tensors with a size-0 dimension (also
// arrow.ErrNotImplemented; see fixedshape.NewType), data shorter than the
// header announces or above [WithMaxDataSize]. The caller releases the
// array.
func DecodeColumn(b []byte, opts ...ReadOption) (*fixedshape.Array, error) {
	c, err := newReadConfig(opts)
	if err != nil {
		return nil, err
	}
	return decode(b, false, c)
}

// DecodeTensor is [DecodeColumn] for a file holding one tensor: the
// result is a column of length 1 whose tensor has the array's shape
// (0-D included). A Fortran-order array becomes the reversed permutation
// and is not copied.
func DecodeTensor(b []byte, opts ...ReadOption) (*fixedshape.Array, error) {
	c, err := newReadConfig(opts)
	if err != nil {
		return nil, err
	}
	return decode(b, true, c)
}

func decode(b []byte, whole bool, o *readConfig) (*fixedshape.Array, error) {
	h, err := ParseHeader(b, o.maxHeaderSize)
	if err != nil {
		return nil, err
	}
	l, err := plan(h, whole, o)
	if err != nil {
		return nil, err
	}
	if avail := len(b) - h.DataOffset; avail < l.size {
		return nil, wrapf(io.ErrUnexpectedEOF, "data of %d bytes announced, %d present", l.size, avail)
	}
	data := b[h.DataOffset : h.DataOffset+l.size]
	w := elemWidth(h.Type)
	if !h.BigEndian && !l.transpose && !isBool(h.Type) && unsafeslice.Aligned(data, w) {
		return fixedshape.NewArrayFromBuffer(l.typ, l.n, memory.NewBufferBytes(data))
	}
	buf := memory.NewResizableBuffer(o.mem)
	buf.Resize(l.size)
	copy(buf.Bytes(), data)
	return finish(l, buf, o)
}

// ReadColumn is [DecodeColumn] for a stream: it reads the header and
// exactly the data bytes from r into memory from [WithAllocator], growing the
// buffer as data arrives (or allocating once when r reports its
// remaining size through Len or Seek), so a header that lies about the
// size costs no more memory than the input. r is never read past the
// data. Errors are those of DecodeColumn, plus read errors (an
// early end wraps io.ErrUnexpectedEOF too).
func ReadColumn(r io.Reader, opts ...ReadOption) (*fixedshape.Array, error) {
	c, err := newReadConfig(opts)
	if err != nil {
		return nil, err
	}
	return read(r, false, c)
}

// ReadTensor is [ReadColumn] for a file holding one tensor, as
// [DecodeTensor].
func ReadTensor(r io.Reader, opts ...ReadOption) (*fixedshape.Array, error) {
	c, err := newReadConfig(opts)
	if err != nil {
		return nil, err
	}
	return read(r, true, c)
}

// ReadHeader reads the magic, version, length field and header of a .npy
// stream from r, leaving r at the first data byte. maxHeaderSize is as
// for [ParseHeader].
func ReadHeader(r io.Reader, maxHeaderSize int) (Header, error) {
	if maxHeaderSize <= 0 {
		maxHeaderSize = DefaultMaxHeaderSize
	}
	var pre [prefixLenV2]byte
	if _, err := io.ReadFull(r, pre[:8]); err != nil {
		return Header{}, wrapf(eof(err), "reading magic and version")
	}
	if string(pre[:6]) != Magic {
		return Header{}, errorf("magic %q is not %q", pre[:6], Magic)
	}
	if err := checkVersion(int(pre[6]), int(pre[7])); err != nil {
		return Header{}, err
	}
	pl := prefixLen(int(pre[6]))
	if _, err := io.ReadFull(r, pre[8:pl]); err != nil {
		return Header{}, wrapf(eof(err), "reading the header length")
	}
	var hlen uint64
	if pl == prefixLenV1 {
		hlen = uint64(binary.LittleEndian.Uint16(pre[8:10]))
	} else {
		hlen = uint64(binary.LittleEndian.Uint32(pre[8:12]))
	}
	if hlen > uint64(maxHeaderSize) {
		return Header{}, errorf("header length %d exceeds the limit %d", hlen, maxHeaderSize)
	}
	buf := make([]byte, pl+int(hlen))
	copy(buf, pre[:pl])
	if _, err := io.ReadFull(r, buf[pl:]); err != nil {
		return Header{}, wrapf(eof(err), "reading a header of %d bytes", hlen)
	}
	return ParseHeader(buf, maxHeaderSize)
}

// eof turns io.EOF into io.ErrUnexpectedEOF: a .npy stream never ends
// where a read is still needed.
func eof(err error) error {
	if errors.Is(err, io.EOF) {
		return io.ErrUnexpectedEOF
	}
	return err
}

func read(r io.Reader, whole bool, o *readConfig) (*fixedshape.Array, error) {
	h, err := ReadHeader(r, o.maxHeaderSize)
	if err != nil {
		return nil, err
	}
	l, err := plan(h, whole, o)
	if err != nil {
		return nil, err
	}
	buf, err := readData(r, o.mem, l.size)
	if err != nil {
		return nil, err
	}
	return finish(l, buf, o)
}

// firstChunk is the first allocation when the input size is unknown.
const firstChunk = 1 << 20

// readData reads exactly size bytes into a new buffer.
func readData(r io.Reader, mem memory.Allocator, size int) (*memory.Buffer, error) {
	buf := memory.NewResizableBuffer(mem)
	if rem, ok := remaining(r); ok {
		if rem < int64(size) {
			buf.Release()
			return nil, wrapf(io.ErrUnexpectedEOF, "data of %d bytes announced, %d present", size, rem)
		}
		buf.Resize(size)
		if _, err := io.ReadFull(r, buf.Bytes()); err != nil {
			buf.Release()
			return nil, wrapf(eof(err), "reading %d data bytes", size)
		}
		return buf, nil
	}
	got := 0
	for got < size {
		next := nextChunk(got, size)
		buf.Resize(next)
		n, err := io.ReadFull(r, buf.Bytes()[got:next])
		got += n
		if err != nil {
			buf.Release()
			return nil, wrapf(eof(err), "reading %d data bytes after %d", size, got)
		}
	}
	buf.Resize(size)
	return buf, nil
}

// nextChunk returns the buffer length to read up to after got of size
// bytes: double what arrived, at least firstChunk, at most size. got < size.
// 2*got is not formed past size/2: on a 32-bit platform it would overflow
// after 1 GiB and shrink the buffer below got.
func nextChunk(got, size int) int {
	if got > size/2 {
		return size
	}
	return min(size, max(2*got, firstChunk))
}

// remaining reports the bytes left in r when r can tell cheaply.
func remaining(r io.Reader) (int64, bool) {
	switch v := r.(type) {
	case interface{ Len() int }:
		return int64(v.Len()), true
	case io.Seeker:
		cur, err := v.Seek(0, io.SeekCurrent)
		if err != nil {
			return 0, false
		}
		end, err := v.Seek(0, io.SeekEnd)
		if err != nil {
			return 0, false
		}
		if _, err := v.Seek(cur, io.SeekStart); err != nil {
			return 0, false
		}
		return end - cur, true
	}
	return 0, false
}

// finish byte-swaps and transposes buf, and packs bools into bits; the
// column then owns the result.
func finish(l layout, buf *memory.Buffer, o *readConfig) (*fixedshape.Array, error) {
	defer buf.Release()
	w := elemWidth(l.h.Type)
	if l.h.BigEndian {
		swapBytes(buf.Bytes(), w)
	}
	if l.transpose {
		t := memory.NewResizableBuffer(o.mem)
		defer t.Release()
		t.Resize(l.size)
		// The file holds a (S x n) row-major matrix of elements, S the
		// tensor size: element k of tensor i is at k*n + i. Its (n x S)
		// transpose is the view of strides (1, n).
		rawcol.Gather(t.Bytes(), buf.Bytes(), w, []int{l.n, l.typ.ListSize()}, []int{1, l.n}, 0)
		buf = t
	}
	if isBool(l.h.Type) {
		bits := memory.NewResizableBuffer(o.mem)
		defer bits.Release()
		bits.Resize((l.size + 7) / 8)
		packBools(bits.Bytes(), buf.Bytes())
		buf = bits
	}
	return fixedshape.NewArrayFromBuffer(l.typ, l.n, buf)
}

// isBool reports whether dt is bool, stored one byte per element in a
// .npy file and one bit per element in a column.
func isBool(dt arrow.DataType) bool { return dt.ID() == arrow.BOOL }

// packBools sets bit k of dst, least significant first, when byte k of
// src is not zero, as NumPy reads a bool (np.load keeps other bytes than
// 0 and 1, and its operations take them for true); dst holds
// ceil(len(src)/8) bytes.
func packBools(dst, src []byte) {
	full := len(src) / 8
	for i := range full {
		s := src[8*i : 8*i+8 : 8*i+8]
		var b byte
		for k, v := range s {
			if v != 0 {
				b |= 1 << k
			}
		}
		dst[i] = b
	}
	if rest := src[8*full:]; len(rest) > 0 {
		var b byte
		for k, v := range rest {
			if v != 0 {
				b |= 1 << k
			}
		}
		dst[full] = b
	}
}

// swapBytes reverses the byte order of every w-byte element of b.
func swapBytes(b []byte, w int) {
	switch w {
	case 2:
		for i := 0; i+2 <= len(b); i += 2 {
			binary.LittleEndian.PutUint16(b[i:], bits.ReverseBytes16(binary.LittleEndian.Uint16(b[i:])))
		}
	case 4:
		for i := 0; i+4 <= len(b); i += 4 {
			binary.LittleEndian.PutUint32(b[i:], bits.ReverseBytes32(binary.LittleEndian.Uint32(b[i:])))
		}
	case 8:
		for i := 0; i+8 <= len(b); i += 8 {
			binary.LittleEndian.PutUint64(b[i:], bits.ReverseBytes64(binary.LittleEndian.Uint64(b[i:])))
		}
	}
}

// reversed returns the permutation (n-1, ..., 1, 0).
func reversed(n int) []int {
	p := make([]int, n)
	for i := range p {
		p[i] = n - 1 - i
	}
	return p
}
