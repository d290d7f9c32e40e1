package parquetconv

import (
	"cmp"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math/bits"
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/metadata"

	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/internal/errs"
	"github.com/fstensor/fstensor/parquetconv/internal/format"
)

// ErrRowRange reports a row that [Take] cannot take: a negative one or
// one past the file's last row. It wraps arrow.ErrInvalid.
var ErrRowRange = fmt.Errorf("parquetconv: row out of range: %w", arrow.ErrInvalid)

// ErrColumn reports a column name ([WithColumns]) that the file lacks. It
// wraps arrow.ErrInvalid.
var ErrColumn = fmt.Errorf("parquetconv: no such column: %w", arrow.ErrInvalid)

// Take reads the rows of the Parquet file held by r (size bytes) whose
// numbers, counted from 0 over the file's row groups, are rows, and
// returns them as one record batch in the order of rows: a row asked
// twice comes twice, an empty rows gives a batch of no rows, null rows
// stay null. The batch is allocated from [WithAllocator] and shares
// nothing with r; the caller releases it.
//
// Take reads the file by ranges with r.ReadAt (r may be a file, a
// buffer or a client of object storage; it must allow concurrent
// ReadAt calls): the footer, then for each row group that holds a row
// asked and each column asked, the column chunk's OffsetIndex ([NewWriter]
// writes one unless [WithoutPageIndex]) and only the pages that hold
// rows asked, each decoded whole (their dictionary page too). A chunk
// without an OffsetIndex is read whole. Tensor columns on the fast path
// of the package doc (Reading) are read that way; the other columns
// (flat ones, tensors in other layouts) are read whole, chunk by chunk,
// through arrow-go's pqarrow, in the row groups that hold rows asked.
// Small pages ([WithPageBytes]) make a take read less.
//
// Options: [WithAllocator], [WithColumns], [WithMaxPageBytes],
// [WithMaxChunkBytes]; the others are ignored. The checks of the footer,
// schema, chunks and pages are those of [OpenFile]; each OffsetIndex
// must describe pages within its chunk whose first rows rise from 0, and
// each page must hold the rows the index gives it.
//
// Errors: a negative row, or one the file lacks, is an *[Error] wrapping
// [ErrRowRange] that names the row and the file's row count; a column
// the file lacks, one wrapping [ErrColumn]. Malformed files give the errors of
// [OpenFile].
func Take(r io.ReaderAt, size int64, rows []int64, opts ...Option) (out arrow.RecordBatch, err error) {
	cfg, err := newConfig(opts)
	if err != nil {
		return nil, err
	}
	for _, row := range rows {
		if row < 0 {
			return nil, &Error{errs.Kind(ErrRowRange, "parquetconv", "row %d is negative", row)}
		}
	}
	defer recovered(&err, "take")
	sr := section(r, size)
	pf, footer, err := openFooter(sr, size, cfg)
	if err != nil {
		return nil, err
	}
	defer pf.Close()
	rd := &reader{cfg: cfg, r: sr, pf: pf, dataEnd: size - 8 - int64(len(footer.Bytes)), footerSchema: footer.Schema, ctx: context.Background()}
	if err := rd.open(); err != nil {
		return nil, err
	}
	t := &taker{rd: rd, rows: rows, d: &chunkDecoder{cfg: cfg, readerAt: sr, dataEnd: rd.dataEnd, dec: decompressor{maxPage: cfg.maxPageBytes}}}
	defer t.d.dec.close()
	if err := t.plan(); err != nil {
		return nil, err
	}
	cols := make([]arrow.Array, len(t.fields))
	defer func() {
		for _, c := range cols {
			if c != nil {
				c.Release()
			}
		}
	}()
	for k, i := range t.fields {
		if cols[k], err = t.column(i); err != nil {
			return nil, errorf("column %q: %w", rd.schema.Field(i).Name, err)
		}
	}
	return array.NewRecordBatch(t.schema, cols, int64(len(rows))), nil
}

// taker is the state of one Take.
type taker struct {
	rd      *reader
	rows    []int64
	schema  *arrow.Schema // of the result
	fields  []int         // its fields' indices in rd.schema
	groups  []groupRows   // the row groups holding rows asked, in file order
	d       *chunkDecoder
	scratch []byte                // decoded pages of a tensor column
	levels  []byte                // levels of a page that overrun its header's window
	chunk   []byte                // a chunk without an OffsetIndex
	pages   []format.PageLocation // the OffsetIndex being read
}

// groupRows is what Take reads of one row group: the distinct rows asked
// in it, ascending, and for each the positions in rows that ask it.
type groupRows struct {
	g     int
	rows  int64   // of the row group
	local []int64 // rows asked, counted from the row group's first
	pos   [][]int
}

// plan resolves the columns and sorts the rows asked into row groups.
func (t *taker) plan() error {
	md := t.rd.pf.MetaData()
	all := t.rd.schema
	if len(t.rd.cfg.columns) == 0 {
		t.schema = all
		for i := range all.NumFields() {
			t.fields = append(t.fields, i)
		}
	} else {
		fields := make([]arrow.Field, len(t.rd.cfg.columns))
		for k, name := range t.rd.cfg.columns {
			i := all.FieldIndices(name)
			if len(i) == 0 {
				return &Error{errs.Kind(ErrColumn, "parquetconv", "no column %q (columns: %s)", name, columnNames(all))}
			}
			fields[k] = all.Field(i[0])
			t.fields = append(t.fields, i[0])
		}
		m := all.Metadata()
		t.schema = arrow.NewSchema(fields, &m)
	}
	at := make([]int, len(t.rows))
	for i := range at {
		at[i] = i
	}
	slices.SortStableFunc(at, func(a, b int) int { return cmp.Compare(t.rows[a], t.rows[b]) })
	var start int64
	k := 0
	for g := range md.NumRowGroups() {
		n := md.RowGroup(g).NumRows()
		gr := groupRows{g: g, rows: n}
		for ; k < len(at) && t.rows[at[k]] < start+n; k++ {
			row := t.rows[at[k]] - start
			if m := len(gr.local); m == 0 || gr.local[m-1] != row {
				gr.local = append(gr.local, row)
				gr.pos = append(gr.pos, nil)
			}
			gr.pos[len(gr.pos)-1] = append(gr.pos[len(gr.pos)-1], at[k])
		}
		if len(gr.local) > 0 {
			t.groups = append(t.groups, gr)
		}
		start += n
	}
	if k < len(at) {
		return &Error{errs.Kind(ErrRowRange, "parquetconv", "row %d is out of range: the file has %d rows", t.rows[at[k]], start)}
	}
	return nil
}

// column returns the rows asked of field i: a tensor column on the fast
// path from the pages that hold them, any other (or a tensor column
// whose pages the fast path does not decode) from whole chunks.
func (t *taker) column(i int) (arrow.Array, error) {
	if p := t.rd.fields[i].tensor; p != nil {
		arr, err := t.tensorColumn(p)
		if !errors.Is(err, errFallback) {
			return arr, err
		}
	}
	return t.chunkColumn(i)
}

// tensorColumn gathers the rows asked of the tensor column of plan p
// into a new array.
func (t *taker) tensorColumn(p *tensorLeaf) (arrow.Array, error) {
	mem := t.rd.cfg.mem
	rowBytes := p.n * p.codec.w
	child := memory.NewResizableBuffer(mem)
	defer child.Release()
	child.Resize(len(t.rows) * rowBytes)
	valid := memory.NewResizableBuffer(mem)
	defer valid.Release()
	valid.Resize(int(bitutil.BytesForBits(int64(len(t.rows)))))
	vb := valid.Bytes()
	for i := range vb {
		vb[i] = 0xff
	}
	dst := child.Bytes()
	nulls := 0
	var put putFunc = func(gr *groupRows, k int, run []byte, runValid *memory.Buffer, first, n int64) int {
		for ; k < len(gr.local) && gr.local[k] < first+n; k++ {
			r := gr.local[k] - first
			null := runValid != nil && !bitutil.BitIsSet(runValid.Bytes(), int(r))
			for _, pos := range gr.pos[k] {
				out := dst[pos*rowBytes : (pos+1)*rowBytes]
				if null {
					clear(out)
					bitutil.ClearBit(vb, pos)
					nulls++
					continue
				}
				copy(out, run[int(r)*rowBytes:])
			}
		}
		return k
	}
	var direct directFunc = func(gr *groupRows, k int, read func(dst []byte, r int64) error, first, n int64) (int, error) {
		for ; k < len(gr.local) && gr.local[k] < first+n; k++ {
			pos := gr.pos[k]
			out := dst[pos[0]*rowBytes : (pos[0]+1)*rowBytes]
			if err := read(out, gr.local[k]-first); err != nil {
				return k, err
			}
			for _, q := range pos[1:] {
				copy(dst[q*rowBytes:(q+1)*rowBytes], out)
			}
		}
		return k, nil
	}
	ahead := t.tensorAhead(p)
	for gi := range t.groups {
		ahead.upTo(gi)
		if err := t.tensorGroup(p, &t.groups[gi], put, direct); err != nil {
			return nil, fmt.Errorf("row group %d: %w", t.groups[gi].g, err)
		}
	}
	if nulls == 0 {
		valid = nil
	}
	st := p.typ.StorageType().(*arrow.FixedSizeListType)
	cd := array.NewData(st.Elem(), len(t.rows)*p.n, []*memory.Buffer{nil, child}, nil, 0, 0)
	defer cd.Release()
	fd := array.NewData(st, len(t.rows), []*memory.Buffer{valid}, []arrow.ArrayData{cd}, nulls, 0)
	defer fd.Release()
	storage := array.MakeFromData(fd)
	defer storage.Release()
	arr, err := fixedshape.NewArray(p.typ, storage)
	if err != nil {
		return nil, err
	}
	return arr, nil
}

// putFunc copies the rows asked of gr, from its k-th, that lie among the
// n decoded rows of run (the first of which is row first of the row
// group, runValid its validity or nil), and returns the index of the
// first row asked after them.
type putFunc func(gr *groupRows, k int, run []byte, runValid *memory.Buffer, first, n int64) int

// directFunc is putFunc for a page whose rows are read one by one
// straight into the result: read(dst, r) reads row r of the n rows of
// the page, the first of which is row first of the row group.
type directFunc func(gr *groupRows, k int, read func(dst []byte, r int64) error, first, n int64) (int, error)

// tensorGroup decodes the pages of the tensor chunk of row group gr.g
// that hold rows asked (the whole chunk without an OffsetIndex) and
// hands each to put; uncompressed PLAIN pages without null tensors go
// to direct instead (directPage).
func (t *taker) tensorGroup(p *tensorLeaf, gr *groupRows, put putFunc, direct directFunc) error {
	cc, err := t.rd.pf.MetaData().RowGroup(gr.g).ColumnChunk(p.leaf)
	if err != nil {
		return err
	}
	codec := int(cc.Compression())
	if !supportedCodec(codec) {
		return errFallback
	}
	start, n, err := chunkBounds(cc, t.rd.dataEnd, t.rd.cfg.maxChunkBytes)
	if err != nil {
		return err
	}
	d := t.d
	d.dict = nil
	defer d.endRange()
	// decode decodes the rows rows of the pages in [at, at+size) and puts
	// those asked.
	decode := func(k int, at, size, first, rows int64) (int, error) {
		nb, err := d.decodedBytes(p, rows)
		if err != nil {
			return k, err
		}
		t.scratch = grow(t.scratch, nb)
		if err := d.decodeRange(p, codec, at, size, rows, t.scratch); err != nil {
			return k, err
		}
		k = put(gr, k, t.scratch, d.validity, first, rows)
		d.endRange()
		return k, nil
	}
	pages, err := t.offsetIndex(cc, start, n, gr.rows)
	if err != nil {
		return err
	}
	if pages == nil {
		// The whole chunk, read at once: the page cursor reads ahead a
		// window larger than small pages.
		t.chunk = grow(t.chunk, int(n))
		if _, err := t.rd.r.ReadAt(t.chunk, start); err != nil {
			return errorf("read column chunk: %w", err)
		}
		d.readerAt = &memReaderAt{b: t.chunk, base: start}
		defer func() { d.readerAt = t.rd.r }()
		_, err = decode(0, start, n, 0, gr.rows)
		return err
	}
	if pages[0].Offset > start { // the dictionary page
		if _, err := decode(0, start, pages[0].Offset-start, 0, 0); err != nil {
			return err
		}
	}
	spans := pageSpans(pages, gr)
	k := 0
	for j := 0; j < len(pages) && k < len(gr.local); j++ {
		end := gr.rows
		if j+1 < len(pages) {
			end = pages[j+1].FirstRow
		}
		if gr.local[k] >= end {
			continue
		}
		for len(spans) > 0 && spans[0].from <= j {
			// One read for the pages of this span, on a source that
			// prefetches (object storage): not one per page.
			sp := spanRange(pages, spans[0])
			prefetch(t.rd.r, sp[0], sp[1])
			spans = spans[1:]
		}
		first, rows := pages[j].FirstRow, end-pages[j].FirstRow
		ok, k2, err := t.directPage(p, codec, pages[j], gr, k, first, rows, direct)
		if !ok && err == nil {
			k2, err = decode(k, pages[j].Offset, int64(pages[j].Size), first, rows)
		}
		if err != nil {
			return fmt.Errorf("page %d: %w", j, err)
		}
		k = k2
	}
	return nil
}

// directPage takes the rows asked of the page at pg, which holds rows
// rows from row first, straight from the file when it is an uncompressed
// data page of PLAIN values without null tensors: its header and levels
// are read with a window of 4 KiB, then each row asked with one ReadAt
// into the result, so that a row costs its own bytes, not its page's. It
// returns false, having taken nothing, for any other page (or levels
// that do not fit the window or do not make rows whole tensors), which
// the caller then decodes whole.
func (t *taker) directPage(p *tensorLeaf, codec int, pg format.PageLocation, gr *groupRows, k int, first, rows int64, direct directFunc) (bool, int, error) {
	c := &p.codec
	if c.narrow != nil || c.pw != c.w {
		return false, k, nil
	}
	d := t.d
	d.pages = pageCursor{r: d.readerAt, start: pg.Offset, n: int64(pg.Size), hdr: d.pages.hdr[:0], body: d.pages.body}
	h, pb, err := d.pages.nextLazy(t.rd.cfg.maxPageBytes, 4<<10)
	if err != nil {
		return false, k, err
	}
	if !h.HasPage || h.Encoding != format.EncPlain || !uncompressedData(h, codec) {
		return false, k, nil
	}
	lv, ok, err := t.levelBytes(h, pb, p.maxDef > 0)
	if err != nil || !ok {
		return false, k, err
	}
	rep, def, rest, ok := pageLevels(h, lv, p.maxDef > 0)
	if !ok {
		return false, k, nil
	}
	off := len(lv) - len(rest)
	count := int(h.NumValues)
	if p.maxDef > 0 {
		if all, err := format.AllEqual(def, bits.Len16(uint16(p.maxDef)), count, uint64(p.maxDef), "definition levels"); err != nil || !all {
			return false, k, nil
		}
	}
	w := format.RepWalker{N: p.n}
	rowBytes := int64(p.n) * int64(c.w)
	if err := w.Walk(rep, count); err != nil || w.Rows != rows || w.Pos != 0 || int64(pb.n-off) < rows*rowBytes {
		return false, k, nil
	}
	k, err = direct(gr, k, func(dst []byte, r int64) error {
		return d.pages.readInto(pb, off+int(r*rowBytes), dst)
	}, first, rows)
	return true, k, err
}

// levelBytes returns the first bytes of the body of the data page pb
// up to the end of its levels (v1: each after its 4-byte length; v2:
// RepLen + DefLen bytes), reading past the header's window when they do
// not fit it (a page of many rows: about 5 bytes of levels a row); false
// when the levels overrun the page.
func (t *taker) levelBytes(h format.PageHeader, pb pageBody, hasDef bool) ([]byte, bool, error) {
	b := pb.prefix
	have := func(n int64) (bool, error) {
		if n > int64(pb.n) {
			return false, nil
		}
		if n <= int64(len(b)) {
			return true, nil
		}
		t.levels = grow(t.levels, int(n))
		if err := t.d.pages.readInto(pb, 0, t.levels[:n]); err != nil {
			return false, err
		}
		b = t.levels[:n]
		return true, nil
	}
	var end int64
	switch h.Type {
	case format.PageData:
		sections := 1 // repetition levels, then definition levels
		if hasDef {
			sections = 2
		}
		for range sections {
			if ok, err := have(end + 4); !ok || err != nil {
				return nil, false, err
			}
			end += 4 + int64(binary.LittleEndian.Uint32(b[end:]))
		}
	case format.PageDataV2:
		end = int64(h.RepLen) + int64(h.DefLen)
	}
	if ok, err := have(end); !ok || err != nil {
		return nil, false, err
	}
	return b[:end], true, nil
}

// offsetIndex reads and checks the OffsetIndex of the chunk cc, which
// lies in [start, start+n) and holds rows rows; it returns nil when the
// chunk has none. The pages must lie in the chunk, in order, their
// first rows rising from 0 below rows.
func (t *taker) offsetIndex(cc *metadata.ColumnChunkMetaData, start, n, rows int64) ([]format.PageLocation, error) {
	loc := cc.GetOffsetIndexLocation()
	if loc == nil {
		return nil, nil
	}
	if loc.Offset < 4 || loc.Length <= 0 || int64(loc.Length) > t.rd.dataEnd-loc.Offset || int64(loc.Length) > t.rd.cfg.maxPageBytes {
		return nil, errorf("offset index at %d of %d bytes is outside the file's data (%d bytes) or above the page limit", loc.Offset, loc.Length, t.rd.dataEnd)
	}
	b := make([]byte, loc.Length)
	if _, err := t.rd.r.ReadAt(b, loc.Offset); err != nil {
		return nil, errorf("read offset index: %w", err)
	}
	pages, err := format.ParseOffsetIndex(t.pages[:0], b)
	t.pages = pages
	if err != nil {
		return nil, errorf("%w", err)
	}
	if len(pages) == 0 {
		if rows > 0 {
			return nil, errorf("offset index of no page for %d rows", rows)
		}
		return pages, nil
	}
	at := start
	for j, pg := range pages {
		if (j == 0 && pg.FirstRow != 0) || (j > 0 && pg.FirstRow <= pages[j-1].FirstRow) || pg.FirstRow >= rows {
			return nil, errorf("offset index: page %d starts at row %d (row group of %d rows)", j, pg.FirstRow, rows)
		}
		if pg.Offset < at || int64(pg.Size) > start+n-pg.Offset {
			return nil, errorf("offset index: page %d at %d of %d bytes is outside its chunk [%d, %d) or overlaps page %d", j, pg.Offset, pg.Size, start, start+n, j-1)
		}
		at = pg.Offset + int64(pg.Size)
	}
	return pages, nil
}

// chunkColumn gathers the rows asked of field i from the whole chunks of
// the row groups that hold them, read by pqarrow: each run of rows
// consecutive in one row group is a slice, the column their
// concatenation.
func (t *taker) chunkColumn(i int) (out arrow.Array, err error) {
	srcs := make([]arrow.Array, len(t.groups))
	defer func() {
		for _, s := range srcs {
			if s != nil {
				s.Release()
			}
		}
	}()
	type pick struct {
		src int
		row int64
	}
	picks := make([]pick, len(t.rows))
	ahead := t.chunkAhead(t.rd.fields[i].leaves)
	for gi, gr := range t.groups {
		ahead.upTo(gi)
		if srcs[gi], err = t.rd.readField(t.d, gr.g, i, gr.rows); err != nil {
			return nil, fmt.Errorf("row group %d: %w", gr.g, err)
		}
		for k, r := range gr.local {
			for _, pos := range gr.pos[k] {
				picks[pos] = pick{gi, r}
			}
		}
	}
	if len(picks) == 0 {
		b := array.NewBuilder(t.rd.cfg.mem, t.rd.schema.Field(i).Type)
		defer b.Release()
		return b.NewArray(), nil
	}
	var parts []arrow.Array
	defer func() {
		for _, p := range parts {
			p.Release()
		}
	}()
	for j := 0; j < len(picks); {
		k := j + 1
		for k < len(picks) && picks[k].src == picks[j].src && picks[k].row == picks[j].row+int64(k-j) {
			k++
		}
		parts = append(parts, array.NewSlice(srcs[picks[j].src], picks[j].row, picks[j].row+int64(k-j)))
		j = k
	}
	return array.Concatenate(parts, t.rd.cfg.mem)
}

// columnNames lists the names of the fields of s, quoted, for errors.
func columnNames(s *arrow.Schema) string {
	var b []byte
	for i, f := range s.Fields() {
		if i > 0 {
			b = append(b, ", "...)
		}
		b = fmt.Appendf(b, "%q", f.Name)
	}
	return string(b)
}

// memReaderAt reads from b, the bytes of a file from offset base.
type memReaderAt struct {
	b    []byte
	base int64
}

func (m *memReaderAt) ReadAt(p []byte, off int64) (int, error) {
	off -= m.base
	if off < 0 || off > int64(len(m.b)) {
		return 0, io.EOF
	}
	n := copy(p, m.b[off:])
	if n < len(p) {
		return n, io.EOF
	}
	return n, nil
}

// RowCount returns the number of rows the footer of the Parquet file
// held by r (size bytes) states, after the footer checks of [OpenFile];
// it reads the footer only. Errors are *[Error] values wrapping
// arrow.ErrInvalid.
func RowCount(r io.ReaderAt, size int64) (n int64, err error) {
	defer recovered(&err, "row count")
	sr := io.NewSectionReader(r, 0, size)
	pf, _, err := openFooter(sr, size, &config{mem: memory.DefaultAllocator})
	if err != nil {
		return 0, err
	}
	defer pf.Close()
	return pf.NumRows(), nil
}
