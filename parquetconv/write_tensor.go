package parquetconv

import (
	"encoding/binary"
	"fmt"
	"io"
	"math"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/metadata"
	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/internal/unsafeslice"
)

// pageSlot holds one data page of a tensor column from its assembly to
// its write: the uncompressed page, its header fields and, with a codec,
// the compressed bytes, produced by a goroutine of its own while the next
// pages are assembled.
type pageSlot struct {
	buf     []byte // backing of page
	page    []byte // levels (v1: with their lengths) then values
	head    int    // bytes of levels at the start of page
	valAt   int    // where the values start in page (after a run header)
	values  []byte // the values, when the sink writes them (assemblePage)
	levels  int32  // repetition (= definition) levels
	nulls   int32  // null tensors
	rows    int32
	repLen  int32
	defLen  int32
	first   int64 // index of the page's first row in its row group
	enc     parquet.Encoding
	out     []byte        // compressor's destination
	data    []byte        // compressed values (v1: compressed page)
	err     error         // of the compression
	pending chan struct{} // open while the page is compressed
}

// writeTensorChunk writes rows [start, end) of a tensor column as one
// column chunk of data pages of c.pageRows rows, then closes pager
// (which writes the chunk's metadata). With a codec, pages are
// compressed by up to len(fw.slots) goroutines and written in order.
//
// A valid tensor of n elements has the repetition levels 0 then n-1
// times 1 and n definition levels of the maximum; a null tensor has one
// repetition level 0 and one definition level 0 and no value. Values are
// PLAIN (or BYTE_STREAM_SPLIT) copies of the elements, widened to INT32
// for 1- and 2-byte integers, or with an identity dictionary one
// bit-packed run of indexes that are the elements' bytes (zero-padded to
// a multiple of 8 indexes); float bits are never touched.
func (fw *fastWriter) writeTensorChunk(pager file.PageWriter, c *column, arr *fixedshape.Array, start, end int) (err error) {
	if c.single && int64(end-start)*int64(c.size)*int64(c.valWidth) <= SinglePageBytes {
		return fw.writeSinglePage(pager, c, arr, start, end)
	}
	if err := fw.writeDictionary(pager, c); err != nil {
		return err
	}
	var codec compress.Codec
	if fw.codec != compress.Codecs.Uncompressed {
		if codec, err = compress.GetCodec(fw.codec); err != nil {
			return err
		}
	}
	slots := fw.slots
	if codec == nil {
		slots = slots[:1]
	}
	next := 0
	// On an error, wait for the compressions under way.
	defer func() {
		for i := range slots {
			if s := &slots[i]; s.pending != nil {
				<-s.pending
				s.pending = nil
			}
		}
	}()
	for p := start; p < end; p += c.pageRows {
		s := &slots[next]
		next = (next + 1) % len(slots)
		if s.pending != nil { // the oldest page: write it first
			<-s.pending
			s.pending = nil
			if err := fw.writePage(pager, s); err != nil {
				return err
			}
		}
		if err := fw.assemblePage(s, c, arr, start, p, min(p+c.pageRows, end), false); err != nil {
			return err
		}
		src := s.page // what the codec compresses: v2 keeps the levels apart
		if fw.v2 {
			src = s.page[s.head:]
		}
		switch {
		case codec == nil:
			s.data = s.page
		case len(slots) == 1:
			s.out, s.data, s.err = compressValues(codec, fw.level, s.out, src)
		default:
			s.pending = make(chan struct{})
			go func() {
				defer close(s.pending)
				s.out, s.data, s.err = compressValues(codec, fw.level, s.out, src)
			}()
			continue
		}
		if err := fw.writePage(pager, s); err != nil {
			return err
		}
	}
	for range slots {
		s := &slots[next]
		next = (next + 1) % len(slots)
		if s.pending != nil {
			<-s.pending
			s.pending = nil
			if err := fw.writePage(pager, s); err != nil {
				return err
			}
		}
	}
	return pager.Close(c.dict != nil, false)
}

// writeDictionary writes the identity dictionary page of c, if it has
// one.
func (fw *fastWriter) writeDictionary(pager file.PageWriter, c *column) error {
	if c.dict == nil {
		return nil
	}
	dp := file.NewDictionaryPage(memory.NewBufferBytes(c.dict), int32(len(c.dict)/4), fw.props.DictionaryPageEncoding())
	_, err := pager.WriteDictionaryPage(dp)
	dp.Release()
	return err
}

// valueAlign is the file offset of which the values of a single-page
// chunk start at a multiple.
const valueAlign = 64

// writeSinglePage writes rows [start, end) of an uncompressed tensor
// column as one data page, after as many zero bytes as put its values
// at a multiple of valueAlign in the file, then closes pager. The bytes
// before the values (the dictionary page, the data page's header and
// levels) are measured by writing the same pages to a counter with a
// page writer of the same settings: arrow-go writes the headers.
func (fw *fastWriter) writeSinglePage(pager file.PageWriter, c *column, arr *fixedshape.Array, start, end int) error {
	s := &fw.slots[0]
	if err := fw.assemblePage(s, c, arr, start, start, end, true); err != nil {
		return err
	}
	s.data = s.page
	dry := &tellWriter{w: io.Discard}
	pw, err := file.NewPageWriter(dry, fw.codec, fw.level, metadata.NewColumnChunkMetaDataBuilder(fw.props, c.descr), 0, 0, fw.props.Allocator(), false, nil, nil)
	if err != nil {
		return err
	}
	if err := fw.writeDictionary(pw, c); err != nil {
		return err
	}
	if err := fw.writePage(pw, s); err != nil {
		return err
	}
	valuesAt := fw.sink.Tell() + dry.Tell() - int64(len(s.page)) + int64(s.valAt)
	if gap := -valuesAt & (valueAlign - 1); gap > 0 {
		if _, err := fw.sink.Write(zeros[:gap]); err != nil {
			return err
		}
	}
	if err := fw.writeDictionary(pager, c); err != nil {
		return err
	}
	if s.values != nil {
		fw.sink.splice = s
	}
	if err := fw.writePage(pager, s); err != nil {
		return err
	}
	if fw.sink.splice != nil {
		fw.sink.splice = nil
		return errorf("the page of %d bytes was not written as one piece", len(s.page))
	}
	return pager.Close(c.dict != nil, false)
}

// compressValues compresses src into out (grown as needed) and returns
// out and the compressed bytes; a panic of the codec becomes an error.
func compressValues(codec compress.Codec, level int, out, src []byte) (_, data []byte, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("compress: %v", r)
		}
	}()
	bound := int(codec.CompressBound(int64(len(src))))
	if cap(out) < bound {
		out = make([]byte, bound)
	}
	return out, codec.EncodeLevel(out[:bound], src, level), nil
}

// writePage writes the page of s: uncompressed, or its levels (v2) and
// compressed data.
func (fw *fastWriter) writePage(pager file.PageWriter, s *pageSlot) error {
	if s.err != nil {
		return s.err
	}
	compressed := pager.HasCompressor()
	data := s.data
	if compressed && fw.v2 {
		fw.cbuf = append(append(fw.cbuf[:0], s.page[:s.head]...), s.data...)
		data = fw.cbuf
	}
	cfg := file.DataPageConfig{Num: s.levels, Encoding: s.enc, UncompressedSize: int32(len(s.page)), FirstRowIndex: s.first}
	var dp file.DataPage
	if fw.v2 {
		dp = file.NewDataPageV2WithConfig(memory.NewBufferBytes(data), s.nulls, s.rows, s.defLen, s.repLen, compressed, cfg)
	} else {
		dp = file.NewDataPageV1WithConfig(memory.NewBufferBytes(data), parquet.Encodings.RLE, parquet.Encodings.RLE, cfg)
	}
	_, err := pager.WriteDataPage(dp)
	dp.Release()
	return err
}

// assemblePage writes the uncompressed page of rows [p, q) of a tensor
// column into s: repetition and definition levels (v1: each after its
// 4-byte length), then the values. With splice, values that are the
// column's bytes as they are (no null tensor, no widening, no
// BYTE_STREAM_SPLIT) are not copied: s.values is set to them, and the
// page's bytes from s.valAt are left for the sink to write from there
// (tellWriter.splice).
func (fw *fastWriter) assemblePage(s *pageSlot, c *column, arr *fixedshape.Array, start, p, q int, splice bool) error {
	fsl := arr.Storage().(*array.FixedSizeList)
	child := fsl.ListValues()
	var elems []byte
	if bufs := child.Data().Buffers(); len(bufs) > 1 && bufs[1] != nil {
		elems = bufs[1].Bytes()
	}
	// Element index of tensor row r of arr: first + r*size.
	first := child.Data().Offset() + fsl.Data().Offset()*c.size
	maxDef := c.descr.MaxDefinitionLevel()
	fw.rep.Reset(1)
	fw.def.Reset(maxDef)
	valid := 0
	for r := p; r < q; r++ {
		if arr.IsNull(r) {
			if !c.nullable {
				return fmt.Errorf("null tensor at row %d of a non-nullable field", r)
			}
			fw.rep.Put(0, 1)
			fw.def.Put(0, 1)
			continue
		}
		valid++
		fw.rep.Put(0, 1)
		fw.rep.Put(1, c.size-1)
		fw.def.Put(maxDef, c.size)
	}
	rep, def := fw.rep.Bytes(), fw.def.Bytes()
	nvals := valid * c.size
	nlevels := int64(nvals) + int64(q-p-valid)
	valBytes := nvals * c.valWidth
	var runHead []byte // identity dictionary: bit width and one bit-packed run
	if c.dict != nil {
		groups := (nvals + 7) / 8
		runHead = append(fw.runHead[:0], byte(8*c.elemWidth))
		if groups > 0 {
			runHead = binary.AppendUvarint(runHead, uint64(groups)<<1|1)
		}
		fw.runHead = runHead
		valBytes = len(runHead) + groups*8*c.elemWidth
	}
	head := len(rep) + len(def)
	if !fw.v2 {
		head += 8
	}
	total := int64(head) + int64(valBytes)
	if total > math.MaxInt32 || nlevels > math.MaxInt32 {
		return fmt.Errorf("page of %d bytes, %d levels overflows int32", total, nlevels)
	}
	page := s.pageBuffer(int(total), head)
	o := 0
	if !fw.v2 {
		binary.LittleEndian.PutUint32(page, uint32(len(rep)))
		o += 4
	}
	o += copy(page[o:], rep)
	if !fw.v2 {
		binary.LittleEndian.PutUint32(page[o:], uint32(len(def)))
		o += 4
	}
	o += copy(page[o:], def)
	s.enc = parquet.Encodings.Plain
	rowBytes := c.size * c.elemWidth
	s.values = nil
	if splice && valid == q-p && !c.bss && (c.dict != nil || c.kind == valueCopy) {
		lo := first*c.elemWidth + p*rowBytes
		s.values = elems[lo : lo+nvals*c.elemWidth]
	}
	switch {
	case s.values != nil:
		if c.dict != nil {
			s.enc = fw.props.DictionaryIndexEncoding()
			copy(page[o:], runHead)
		}
	case c.dict != nil:
		s.enc = fw.props.DictionaryIndexEncoding()
		v := o + copy(page[o:], runHead)
		n := nvals * c.elemWidth
		fw.putPageValues(page[v:v+n], c, elems, first, p, q, arr, rowBytes)
		clear(page[v+n:])
	case c.bss:
		s.enc = parquet.Encodings.ByteStreamSplit
		fw.putPageValues(page[o:], c, elems, first, p, q, arr, rowBytes)
	default:
		fw.putPageValues(page[o:], c, elems, first, p, q, arr, rowBytes)
	}
	s.page, s.head, s.valAt = page, o, o
	if c.dict != nil {
		s.valAt += len(runHead)
	}
	s.levels, s.nulls, s.rows = int32(nlevels), int32(q-p-valid), int32(q-p)
	s.repLen, s.defLen = int32(len(rep)), int32(len(def))
	s.first = int64(p - start)
	return nil
}

// pageBuffer returns a buffer of s of n bytes whose byte at offset head
// (where the values start) is 8-byte aligned, so that values are stored
// as aligned words.
func (s *pageSlot) pageBuffer(n, head int) []byte {
	if cap(s.buf) < n+8 {
		s.buf = make([]byte, n+8)
	}
	b := s.buf[:n+8]
	pad := 0
	for pad < 7 && !unsafeslice.Aligned(b[pad+head:], 8) {
		pad++
	}
	return b[pad : pad+n]
}

// putPageValues writes the values of the valid tensors of rows [p, q)
// to dst, a run of consecutive valid rows at a time.
func (fw *fastWriter) putPageValues(dst []byte, c *column, elems []byte, first, p, q int, arr *fixedshape.Array, rowBytes int) {
	out := dst
	if c.bss {
		if cap(fw.vals) < len(dst) {
			fw.vals = make([]byte, len(dst))
		}
		out = fw.vals[:len(dst)]
	}
	o := 0
	for r := p; r < q; {
		if arr.IsNull(r) {
			r++
			continue
		}
		s := r
		for r < q && arr.IsValid(r) {
			r++
		}
		lo := (first + s*c.size) * c.elemWidth
		src := elems[lo : lo+(r-s)*rowBytes]
		n := (r - s) * c.size * c.valWidth
		if c.dict != nil {
			copy(out[o:o+n], src) // the elements' bytes are their indexes
		} else {
			putValues(out[o:o+n], src, c.kind)
		}
		o += n
	}
	if c.bss {
		splitStreams(dst, out, c.valWidth)
	}
}
