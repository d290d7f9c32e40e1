package parquetconv

import (
	"math/bits"
	"sync/atomic"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/internal/mmap"
	"github.com/fstensor/fstensor/internal/unsafeslice"
	"github.com/fstensor/fstensor/parquetconv/internal/format"
)

// mapRef counts the users of a reader's leased mapping: the reader until
// it is released, and each buffer of a batch that points into the
// mapping. The last one to go closes the mapping.
type mapRef struct {
	refs atomic.Int64
	m    *mmap.Mapping
}

// newMapRef returns a mapRef of m held by its caller.
func newMapRef(m *mmap.Mapping) *mapRef {
	r := &mapRef{m: m}
	r.refs.Store(1)
	return r
}

// release drops a user; the last one closes the mapping.
func (r *mapRef) release() {
	if r.refs.Add(-1) == 0 {
		r.m.Close()
	}
}

// buffer returns b, bytes of the mapping, as a buffer that holds a
// reference to it until the buffer is released.
func (r *mapRef) buffer(b []byte) *memory.Buffer {
	r.refs.Add(1)
	return memory.NewBufferWithAllocator(b, mapFree{r})
}

// mapFree is the allocator of the buffers of mapRef.buffer: freeing one
// drops its reference. Buffers over the mapping are never grown; should
// one be, it gets Go memory.
type mapFree struct{ r *mapRef }

func (mapFree) Allocate(n int) []byte { return make([]byte, n) }

func (mapFree) Reallocate(n int, b []byte) []byte {
	nb := make([]byte, n)
	copy(nb, b)
	return nb
}

func (f mapFree) Free([]byte) { f.r.release() }

// viewedChunks counts the column chunks decodeTensor handed out where
// they lie in the mapping (for the tests).
var viewedChunks atomic.Int64

// view returns the tensor column chunk of col in bytes [start, start+n)
// of the mapped file, rows rows, as an array whose values point into the
// mapping, when the chunk allows it: uncompressed, one data page (after
// the identity dictionary, if any) whose levels make rows whole tensors
// with no null, PLAIN values as wide as the elements or indices that are
// the elements' bytes, starting at a multiple of valueAlign. It returns
// nil for any other chunk, or one it finds malformed, which the caller
// then decodes (and reports).
func (d *chunkDecoder) view(col *tensorLeaf, codec int, start, n, rows int64) *fixedshape.Array {
	if d.ref == nil || codec != format.CodecNone || rows == 0 {
		return nil
	}
	c := &col.codec
	d.col, d.dict, d.dictIdentity = col, nil, false
	d.pages = pageCursor{mem: d.mem, start: start, n: n, hdr: d.pages.hdr[:0], body: d.pages.body}
	h, pb, err := d.pages.nextLazy(d.cfg.maxPageBytes, 0)
	if err != nil {
		return nil
	}
	if h.Type == format.PageDictionary {
		if err := d.dictionaryPage(h, pb.prefix, codec); err != nil || !d.dictIdentity {
			return nil
		}
		if h, pb, err = d.pages.nextLazy(d.cfg.maxPageBytes, 0); err != nil {
			return nil
		}
	}
	if !d.pages.done() || !h.HasPage || !uncompressedData(h, codec) {
		return nil
	}
	rep, def, body, ok := pageLevels(h, pb.prefix, col.maxDef > 0)
	if !ok {
		return nil
	}
	count := rows * int64(col.n)
	if int64(h.NumValues) != count {
		return nil
	}
	if col.maxDef > 0 {
		if all, err := format.AllEqual(def, bits.Len16(uint16(col.maxDef)), int(count), uint64(col.maxDef), "definition levels"); err != nil || !all {
			return nil
		}
	}
	w := format.RepWalker{N: col.n}
	if err := w.Walk(rep, int(count)); err != nil || w.Rows != rows || w.Pos != 0 {
		return nil
	}
	size := count * int64(c.w)
	var vals []byte
	switch {
	case h.Encoding == format.EncPlain && c.narrow == nil && c.pw == c.w:
		vals = body
	case (h.Encoding == format.EncRLEDict || h.Encoding == format.EncPlainDict) && d.dictIdentity && len(body) > 0 && int(body[0]) == 8*c.w:
		hr := format.HybridReader{B: body[1:], Width: 8 * c.w, Left: int(count)}
		run, err := hr.Next("dictionary indices")
		if err != nil || run.RLE || int64(run.N) != count {
			return nil
		}
		vals = run.Packed
	default:
		return nil
	}
	if int64(len(vals)) < size || !unsafeslice.Aligned(vals, valueAlign) {
		return nil
	}
	d.rows, d.nulls = rows, 0
	buf := d.ref.buffer(vals[:size:size])
	defer buf.Release()
	arr, err := d.array(buf)
	if err != nil {
		return nil
	}
	viewedChunks.Add(1)
	return arr
}
