package parquetconv

import (
	"encoding/binary"
	"errors"
	"io"
	"math"
	"math/bits"
	"sync"
	"sync/atomic"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/metadata"
	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/internal/layout"
	"github.com/fstensor/fstensor/parquetconv/internal/format"
)

// errFallback reports a page the fast path does not decode (an encoding
// or codec it lacks); the column chunk is then read by pqarrow.
var errFallback = errors.New("parquetconv: layout not on the fast path")

// tensorLeaf is a tensor column read by the fast path: the Parquet LIST
// (3 levels) of one primitive leaf.
type tensorLeaf struct {
	field   int // index in the Arrow schema
	leaf    int // index of the Parquet leaf column
	typ     *fixedshape.Type
	n       int // elements per tensor
	codec   elemCodec
	maxDef  int16
	listDef int16 // the lowest definition level of a present list
}

// chunkDecoder decodes tensor column chunks; it holds the scratch
// buffers of one goroutine.
type chunkDecoder struct {
	cfg          *config
	dec          decompressor
	pages        pageCursor
	page         []byte
	vals         []byte
	def, rep     []uint8
	scratch      []byte
	nullRows     []int64
	dataEnd      int64 // where the footer starts: chunks lie before
	readerAt     io.ReaderAt
	mem          []byte  // the file mapped whole (at least dataEnd bytes), or nil
	ref          *mapRef // mem's users when batches may point into it (see view), or nil
	stream       bool    // values are copied with non-temporal stores (see copyValues)
	validity     *memory.Buffer
	nulls        int
	child        []byte
	rows         int64
	col          *tensorLeaf
	dict         []byte
	dictIdentity bool
	walker       format.RepWalker
	levelsLeft   int64
}

// mappedChunks counts the ranges decodeRange read from a mapped file
// (for the tests).
var mappedChunks atomic.Int64

// decoders keeps the scratch buffers of the chunk decoders of readers
// that stopped, for the next readers: a dataset of many files opens a
// reader per file, and each new decoder's page buffers (a page each, 1 MiB
// by default) cost an allocation and a clearing of their memory.
var decoders sync.Pool

// newDecoder returns a chunk decoder of a reader of cfg over r, whose
// data ends at dataEnd, with the scratch buffers of a recycled one; mem,
// if not nil, is r mapped whole (at least dataEnd bytes), from which the
// pages are then read instead of r.
func newDecoder(cfg *config, r io.ReaderAt, mem []byte, dataEnd int64) *chunkDecoder {
	old, _ := decoders.Get().(*chunkDecoder)
	d := &chunkDecoder{cfg: cfg, readerAt: r, mem: mem, dataEnd: dataEnd, dec: decompressor{maxPage: cfg.maxPageBytes}}
	if old != nil {
		d.pages.hdr, d.pages.body = old.pages.hdr[:0], old.pages.body
		d.page, d.vals, d.scratch = old.page, old.vals, old.scratch
		d.def, d.rep, d.nullRows = old.def, old.rep, old.nullRows[:0]
	}
	return d
}

// recycle closes d's decompressors and keeps its scratch buffers for
// newDecoder; d is not used after.
func (d *chunkDecoder) recycle() {
	d.dec.close()
	if d.validity != nil {
		d.validity.Release()
	}
	decoders.Put(&chunkDecoder{
		pages: pageCursor{hdr: d.pages.hdr[:0], body: d.pages.body},
		page:  d.page, vals: d.vals, scratch: d.scratch,
		def: d.def, rep: d.rep, nullRows: d.nullRows,
	})
}

// chunkBounds returns the byte range of a column chunk after checking it
// lies in the file's data, before the footer.
func chunkBounds(cc *metadata.ColumnChunkMetaData, dataEnd, maxChunk int64) (start, n int64, err error) {
	if cc.FilePath() != "" {
		return 0, 0, unsupported("column chunk in another file %q", cc.FilePath())
	}
	start = cc.DataPageOffset()
	if cc.HasDictionaryPage() && cc.DictionaryPageOffset() > 0 && cc.DictionaryPageOffset() < start {
		start = cc.DictionaryPageOffset()
	}
	n = cc.TotalCompressedSize()
	if start < 4 || n < 0 || start > dataEnd || n > dataEnd-start {
		return 0, 0, errorf("column chunk at offset %d of %d bytes is outside the file's data (%d bytes)", start, n, dataEnd)
	}
	if n > maxChunk || n > math.MaxInt {
		return 0, 0, errorf("column chunk of %d bytes is above the limit of %d", n, maxChunk)
	}
	return start, n, nil
}

// decodeTensor decodes the chunk cc of col, rows rows, into a tensor
// array allocated from the configured allocator.
func (d *chunkDecoder) decodeTensor(col *tensorLeaf, cc *metadata.ColumnChunkMetaData, rows int64) (out *fixedshape.Array, err error) {
	codec := int(cc.Compression())
	if !supportedCodec(codec) {
		return nil, errFallback
	}
	total, err := d.decodedBytes(col, rows)
	if err != nil {
		return nil, err
	}
	start, n, err := chunkBounds(cc, d.dataEnd, d.cfg.maxChunkBytes)
	if err != nil {
		return nil, err
	}
	if arr := d.view(col, codec, start, n, rows); arr != nil {
		return arr, nil
	}
	buf, warm := chunkBuffer(d.cfg, total)
	defer buf.Release()
	d.stream = warm && total >= streamBytes // not in the caches by the time it is read
	d.dict = nil
	defer d.endRange()
	if err := d.decodeRange(col, codec, start, n, rows, buf.Bytes()); err != nil {
		return nil, err
	}
	return d.array(buf)
}

// decodedBytes returns the bytes of rows tensors of col, after checking
// them against the chunk limit.
func (d *chunkDecoder) decodedBytes(col *tensorLeaf, rows int64) (int, error) {
	w := col.codec.w
	hi, total := bits.Mul64(uint64(rows), uint64(col.n)*uint64(w))
	if rows < 0 || hi != 0 || total > uint64(d.cfg.maxChunkBytes) || total > math.MaxInt || uint64(col.n)*uint64(w) > uint64(d.cfg.maxChunkBytes) {
		return 0, errorf("column %q: %d rows of %d-byte tensors exceed the chunk limit of %d bytes", col.typ, rows, col.n*w, d.cfg.maxChunkBytes)
	}
	return int(total), nil
}

// decodeRange decodes the pages in bytes [start, start+n) of the file,
// which hold rows rows of col (a column chunk, or some of its pages),
// into child, rows tensors long: values in place, null rows zero-filled
// and recorded in d.validity and d.nulls. A dictionary page among them
// sets d.dict, which the data pages of later ranges then use; the caller
// resets d.dict before the first range of a chunk and calls endRange
// after the last.
func (d *chunkDecoder) decodeRange(col *tensorLeaf, codec int, start, n, rows int64, child []byte) error {
	prefetch(d.readerAt, start, n)
	if d.mem != nil {
		mappedChunks.Add(1)
	}
	d.pages = pageCursor{r: d.readerAt, mem: d.mem, start: start, n: n, hdr: d.pages.hdr[:0], body: d.pages.body}
	d.child = child
	d.validity, d.nulls, d.rows, d.col = nil, 0, rows, col
	d.walker = format.RepWalker{N: col.n}
	d.levelsLeft = rows * int64(col.n)
	for !d.pages.done() {
		h, pb, err := d.pages.nextLazy(d.cfg.maxPageBytes, 64<<10)
		if err != nil {
			return err
		}
		if ok, err := d.direct(h, pb, codec); ok || err != nil {
			if err != nil {
				return err
			}
			continue
		}
		body, err := d.pages.fill(pb)
		if err != nil {
			return err
		}
		switch h.Type {
		case format.PageDictionary:
			err = d.dictionaryPage(h, body, codec)
		case format.PageData:
			err = d.dataPageV1(h, body, codec)
		case format.PageDataV2:
			err = d.dataPageV2(h, body, codec)
		case format.PageIndex:
		default:
			err = errorf("page type %d unknown", h.Type)
		}
		if err != nil {
			return err
		}
	}
	if d.stream {
		layout.Fence() // the values copied are seen by other goroutines
	}
	if d.walker.Rows != rows || d.walker.Pos != 0 {
		return errorf("column chunk holds %d rows and %d elements, its row group %d rows", d.walker.Rows, d.walker.Pos, rows)
	}
	return nil
}

// endRange releases what decodeRange left: the validity bitmap, the
// reference to the child.
func (d *chunkDecoder) endRange() {
	if d.validity != nil {
		d.validity.Release()
		d.validity = nil
	}
	d.child = nil
}

// array wraps the decoded child (and validity) as a tensor array.
func (d *chunkDecoder) array(child *memory.Buffer) (*fixedshape.Array, error) {
	col := d.col
	st := col.typ.StorageType().(*arrow.FixedSizeListType)
	cd := array.NewData(st.Elem(), int(d.rows)*col.n, []*memory.Buffer{nil, child}, nil, 0, 0)
	defer cd.Release()
	var valid *memory.Buffer
	if d.nulls > 0 {
		valid = d.validity
	}
	fd := array.NewData(st, int(d.rows), []*memory.Buffer{valid}, []arrow.ArrayData{cd}, d.nulls, 0)
	defer fd.Release()
	storage := array.MakeFromData(fd)
	defer storage.Release()
	return fixedshape.NewArray(col.typ, storage)
}

// dictionaryPage reads the dictionary of the chunk.
func (d *chunkDecoder) dictionaryPage(h format.PageHeader, body []byte, codec int) error {
	if d.dict != nil {
		return errorf("second dictionary page")
	}
	if h.Encoding != format.EncPlain && h.Encoding != format.EncPlainDict {
		return errFallback
	}
	page, err := d.decompress(codec, body, int(h.Uncompressed))
	if err != nil {
		return err
	}
	d.dict, err = d.col.codec.dictionary(page, int(h.NumValues))
	if d.dict == nil && err == nil {
		d.dict = []byte{}
	}
	d.dictIdentity = identityDict(d.dict, d.col.codec.w)
	return err
}

// decompress returns the n-byte page of body.
func (d *chunkDecoder) decompress(codec int, body []byte, n int) ([]byte, error) {
	if codec == format.CodecNone {
		if len(body) != n {
			return nil, errorf("uncompressed page of %d bytes states %d", len(body), n)
		}
		return body, nil
	}
	if !plausible(codec, body, n) {
		return nil, errorf("page of %d compressed bytes cannot decompress to the %d its header states", len(body), n)
	}
	d.page = grow(d.page, n)
	return d.page, d.dec.decode(codec, d.page, body)
}

// dataPageV1 decodes a data page of format version 1: the page
// compressed whole, levels with 4-byte length prefixes.
func (d *chunkDecoder) dataPageV1(h format.PageHeader, body []byte, codec int) error {
	if !h.HasPage {
		return errorf("data page without its header")
	}
	if h.RepEnc != format.EncRLE || (d.col.maxDef > 0 && h.DefEnc != format.EncRLE) {
		return errFallback
	}
	page, err := d.decompress(codec, body, int(h.Uncompressed))
	if err != nil {
		return err
	}
	rep, page, err := lengthPrefixed(page, "repetition levels")
	if err != nil {
		return err
	}
	var def []byte
	if d.col.maxDef > 0 {
		if def, page, err = lengthPrefixed(page, "definition levels"); err != nil {
			return err
		}
	}
	return d.levelsAndValues(h, rep, def, page)
}

// lengthPrefixed splits the levels of a v1 page from what follows.
func lengthPrefixed(b []byte, what string) (levels, rest []byte, err error) {
	if len(b) < 4 {
		return nil, nil, errorf("%s: no length in a %d-byte page", what, len(b))
	}
	n := uint64(binary.LittleEndian.Uint32(b))
	if n > uint64(len(b)-4) {
		return nil, nil, errorf("%s of %d bytes overrun the page (%d bytes left)", what, n, len(b)-4)
	}
	return b[4 : 4+n], b[4+n:], nil
}

// dataPageV2 decodes a data page of format version 2: levels first and
// never compressed, then the values, compressed unless told otherwise.
func (d *chunkDecoder) dataPageV2(h format.PageHeader, body []byte, codec int) error {
	if !h.HasPage {
		return errorf("data page v2 without its header")
	}
	lv := int64(h.RepLen) + int64(h.DefLen)
	if lv > int64(len(body)) || lv > int64(h.Uncompressed) {
		return errorf("data page v2: %d bytes of levels in a %d-byte page", lv, len(body))
	}
	rep, def := body[:h.RepLen], body[h.RepLen:lv]
	vals := body[lv:]
	if h.CompressedV2 && codec != format.CodecNone {
		if !plausible(codec, vals, int(int64(h.Uncompressed)-lv)) {
			return errorf("page of %d compressed bytes cannot decompress to the %d its header states", len(vals), int64(h.Uncompressed)-lv)
		}
		d.vals = grow(d.vals, int(int64(h.Uncompressed)-lv))
		if err := d.dec.decode(codec, d.vals, vals); err != nil {
			return err
		}
		vals = d.vals
	}
	return d.levelsAndValues(h, rep, def, vals)
}

// prefetcher is a source that reads a range ahead of the reads that
// follow (objstore.Object.Prefetch): one request for a column chunk
// rather than two a page.
type prefetcher interface {
	Prefetch(off, n int64) error
}

// prefetch tells r, if it is a prefetcher, that the n bytes at off are
// about to be read. Its errors are left to the reads.
func prefetch(r io.ReaderAt, off, n int64) {
	if p, ok := r.(prefetcher); ok {
		p.Prefetch(off, n)
	}
}

// pageCursor reads the pages of a column chunk one at a time into
// buffers it reuses, so that memory and cache use stay at a page; from a
// mapped file, it hands out the pages' bytes where they lie.
type pageCursor struct {
	r        io.ReaderAt
	mem      []byte // the file mapped whole, or nil: pages are read from r
	start, n int64  // the chunk
	p        int64  // the next page, from start
	hdr      []byte // the last window read from r
	hdrAt    int64  // its offset in the file (hdr is empty until read)
	body     []byte
}

// done reports whether every page was read.
func (c *pageCursor) done() bool { return c.p >= c.n }

// next returns the next page's header and, when withBody, its body;
// the page must lie in the chunk and be within maxPage bytes, both
// compressed and not.
func (c *pageCursor) next(maxPage int64, withBody bool) (format.PageHeader, []byte, error) {
	win := int64(4 << 10)
	if withBody {
		win = 64 << 10
	}
	h, pb, err := c.nextLazy(maxPage, win)
	if err != nil || !withBody {
		return h, nil, err
	}
	body, err := c.fill(pb)
	return h, body, err
}

// pageBody is a page body not read yet: its first bytes, read with the
// header, and where it lies.
type pageBody struct {
	prefix []byte // the first bytes of the body (at most all of it)
	n      int    // its length
	at     int64  // its offset in the file
}

// nextLazy reads the next page header with a window of win bytes (more
// if the header needs it), which also holds the start of the body. From
// a mapped file the window is the rest of the chunk, and the body is
// whole in pageBody.prefix.
func (c *pageCursor) nextLazy(maxPage, win int64) (format.PageHeader, pageBody, error) {
	left := c.n - c.p
	win = min(left, win)
	if c.mem != nil {
		win = left
	}
	var h format.PageHeader
	var hl int
	var err error
	var w []byte
	for {
		if w, err = c.window(win); err != nil {
			return h, pageBody{}, errorf("read page header: %w", err)
		}
		h, hl, err = format.ParsePageHeader(w)
		if err == nil || win == left || win >= 16<<20 {
			break
		}
		win = min(left, win*8)
	}
	if err != nil {
		return h, pageBody{}, errorf("%w", err)
	}
	c.p += int64(hl)
	if int64(h.Compressed) > c.n-c.p {
		return h, pageBody{}, errorf("page of %d bytes overruns its column chunk (%d bytes left)", h.Compressed, c.n-c.p)
	}
	if int64(h.Uncompressed) > maxPage || int64(h.Compressed) > maxPage {
		return h, pageBody{}, errorf("page of %d bytes is above the limit of %d", max(h.Uncompressed, h.Compressed), maxPage)
	}
	pb := pageBody{prefix: w[hl:min(len(w), hl+int(h.Compressed))], n: int(h.Compressed), at: c.start + c.p}
	c.p += int64(h.Compressed)
	return h, pb, nil
}

// window returns the next win bytes of the chunk: a slice of the
// mapping, or of c.hdr, read from the file unless the last window read
// holds them.
func (c *pageCursor) window(win int64) ([]byte, error) {
	at := c.start + c.p
	if c.mem != nil {
		if at+win > int64(len(c.mem)) {
			return nil, errorf("%d bytes at offset %d overrun the %d-byte file", win, at, len(c.mem))
		}
		return c.mem[at : at+win : at+win], nil
	}
	if at >= c.hdrAt && at+win <= c.hdrAt+int64(len(c.hdr)) {
		// Within the last window: the next header of a chunk of
		// small pages (a dictionary page, then data).
		i := at - c.hdrAt
		return c.hdr[i : i+win : i+win], nil
	}
	c.hdr = grow(c.hdr, int(win))
	if _, err := c.r.ReadAt(c.hdr, at); err != nil {
		c.hdr = c.hdr[:0]
		return nil, err
	}
	c.hdrAt = at
	return c.hdr, nil
}

// fill returns the whole body of pb.
func (c *pageCursor) fill(pb pageBody) ([]byte, error) {
	if len(pb.prefix) == pb.n {
		return pb.prefix, nil
	}
	c.body = grow(c.body, pb.n)
	if err := c.readInto(pb, 0, c.body); err != nil {
		return nil, err
	}
	return c.body, nil
}

// readInto reads bytes [off, off+len(dst)) of the body of pb into dst:
// from the prefix as far as it goes, the rest from the file.
func (c *pageCursor) readInto(pb pageBody, off int, dst []byte) error {
	have := 0
	if off < len(pb.prefix) {
		have = copy(dst, pb.prefix[off:])
	}
	if have < len(dst) {
		if _, err := c.r.ReadAt(dst[have:], pb.at+int64(off+have)); err != nil {
			return errorf("read page: %w", err)
		}
	}
	return nil
}
