package parquetconv

import (
	"encoding/binary"
	"fmt"
	"math"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/internal/unsafeslice"
)

// writeTensorChunk writes rows [start, end) of a tensor column as one
// column chunk of data pages of c.pageRows rows, then closes pager
// (which writes the chunk's metadata).
//
// A valid tensor of n elements has the repetition levels 0 then n-1
// times 1 and n definition levels of the maximum; a null tensor has one
// repetition level 0 and one definition level 0 and no value. Values are
// PLAIN (or BYTE_STREAM_SPLIT) copies of the elements, widened to INT32
// for 1- and 2-byte integers, or with an identity dictionary one
// bit-packed run of indexes that are the elements' bytes (zero-padded to
// a multiple of 8 indexes); float bits are never touched.
func (fw *fastWriter) writeTensorChunk(pager file.PageWriter, c *column, arr *fixedshape.Array, start, end int) error {
	fsl := arr.Storage().(*array.FixedSizeList)
	child := fsl.ListValues()
	var elems []byte
	if bufs := child.Data().Buffers(); len(bufs) > 1 && bufs[1] != nil {
		elems = bufs[1].Bytes()
	}
	// Element index of tensor row r of arr: first + r*size.
	first := child.Data().Offset() + fsl.Data().Offset()*c.size
	if c.dict != nil {
		dp := file.NewDictionaryPage(memory.NewBufferBytes(c.dict), int32(len(c.dict)/4), fw.props.DictionaryPageEncoding())
		_, err := pager.WriteDictionaryPage(dp)
		dp.Release()
		if err != nil {
			return err
		}
	}
	maxDef := c.descr.MaxDefinitionLevel()
	rowBytes := c.size * c.elemWidth
	for p := start; p < end; p += c.pageRows {
		q := min(p+c.pageRows, end)
		fw.rep.reset(1)
		fw.def.reset(maxDef)
		valid := 0
		for r := p; r < q; r++ {
			if arr.IsNull(r) {
				if !c.nullable {
					return fmt.Errorf("null tensor at row %d of a non-nullable field", r)
				}
				fw.rep.put(0, 1)
				fw.def.put(0, 1)
				continue
			}
			valid++
			fw.rep.put(0, 1)
			fw.rep.put(1, c.size-1)
			fw.def.put(maxDef, c.size)
		}
		rep, def := fw.rep.bytes(), fw.def.bytes()
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
		page := fw.pageBuffer(int(total), head)
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
		enc := parquet.Encodings.Plain
		switch {
		case c.dict != nil:
			enc = fw.props.DictionaryIndexEncoding()
			v := o + copy(page[o:], runHead)
			n := nvals * c.elemWidth
			fw.putPageValues(page[v:v+n], c, elems, first, p, q, arr, rowBytes)
			clear(page[v+n:])
		case c.bss:
			enc = parquet.Encodings.ByteStreamSplit
			fw.putPageValues(page[o:], c, elems, first, p, q, arr, rowBytes)
		default:
			fw.putPageValues(page[o:], c, elems, first, p, q, arr, rowBytes)
		}

		cfg := file.DataPageConfig{Num: int32(nlevels), Encoding: enc, UncompressedSize: int32(total), FirstRowIndex: int64(p - start)}
		var dp file.DataPage
		if fw.v2 {
			data := page
			if pager.HasCompressor() {
				data = fw.compress(pager, page[:o], page[o:])
			}
			dp = file.NewDataPageV2WithConfig(memory.NewBufferBytes(data), int32(q-p-valid), int32(q-p), int32(len(def)), int32(len(rep)), pager.HasCompressor(), cfg)
		} else {
			data := page
			if pager.HasCompressor() {
				data = fw.compress(pager, nil, page)
			}
			dp = file.NewDataPageV1WithConfig(memory.NewBufferBytes(data), parquet.Encodings.RLE, parquet.Encodings.RLE, cfg)
		}
		_, err := pager.WriteDataPage(dp)
		dp.Release()
		if err != nil {
			return err
		}
	}
	return pager.Close(c.dict != nil, false)
}

// pageBuffer returns a reused buffer of n bytes whose byte at offset
// head (where the values start) is 8-byte aligned, so that values are
// stored as aligned words.
func (fw *fastWriter) pageBuffer(n, head int) []byte {
	if cap(fw.page) < n+8 {
		fw.page = make([]byte, n+8)
	}
	b := fw.page[:n+8]
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

// compress returns head (the uncompressed levels of a v2 page, nil for
// v1) followed by body compressed with the pager's codec, in buffers
// reused by the next call.
func (fw *fastWriter) compress(pager file.PageWriter, head, body []byte) []byte {
	fw.ctmp.Reset()
	out := pager.Compress(&fw.ctmp, body)
	if head == nil {
		return out
	}
	fw.cbuf = append(append(fw.cbuf[:0], head...), out...)
	return fw.cbuf
}
