package parquetconv

import (
	"context"
	"encoding/base64"
	"errors"
	"io"
	"math"
	"math/bits"
	"os"
	"runtime/debug"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/metadata"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	"github.com/fstensor/fstensor/arrowconv"
	"github.com/fstensor/fstensor/arrowipc"
	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/internal/batchreader"
	"github.com/fstensor/fstensor/internal/validate"
	"github.com/fstensor/fstensor/parquetconv/internal/format"
)

// OpenFile opens the Parquet file at path and returns a reader of
// its record batches; tensor columns come back as fixedshape arrays when
// the file stores an Arrow schema (fstensor, pyarrow and arrow-go write
// one) or when the field metadata carries the extension keys. Options:
// [WithAllocator], [WithBatchRows], [WithWorkers], [WithMaxPageBytes],
// [WithMaxChunkBytes], [WithColumns], [WithoutZeroCopy]. The caller
// releases the reader, which closes the file. Tensor columns written
// uncompressed by this package come back pointing into the mapped file
// (under a read lease) unless WithoutZeroCopy is given. See the package
// doc (Reading) for what is decoded how and the checks made.
func OpenFile(path string, opts ...Option) (array.RecordReader, error) {
	cfg, err := newConfig(opts)
	if err != nil {
		return nil, err
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, errorf("%w", err) // the error names path
	}
	r, err := newParquetReader(f, f.Close, cfg)
	if err != nil {
		f.Close()
		return nil, errorf("open %s: %w", path, err)
	}
	return r, nil
}

// NewReader is [OpenFile] for a file already open as r, which must allow
// concurrent ReadAt calls when [WithWorkers] is above 1 (os.File and
// bytes.Reader do); releasing the reader does not close r.
func NewReader(r parquet.ReaderAtSeeker, opts ...Option) (array.RecordReader, error) {
	cfg, err := newConfig(opts)
	if err != nil {
		return nil, err
	}
	return newParquetReader(r, nil, cfg)
}

// reader is the state behind the reader of a Parquet file.
type reader struct {
	cfg     *config
	r       io.ReaderAt
	pf      *file.Reader
	fr      *pqarrow.FileReader // see fileReader
	mem     []byte              // r mapped whole, or nil; see mapFile
	ref     *mapRef             // mem's users when chunks may be viewed, or nil; see mapFile
	frOnce  sync.Once
	frErr   error
	dataEnd int64

	footerSchema []byte        // the bytes of the footer's schema list
	schema       *arrow.Schema // the batches' schema, tensor columns as such
	fields       []fieldPlan

	ctx    context.Context
	cancel context.CancelFunc
	order  chan chan groupResult // decoded row groups, in file order
	done   chan struct{}
	decs   chan *chunkDecoder // one per worker

	cur groupResult // the row group being handed out
	off int64       // its next row
}

// fieldPlan says how one top-level field is read.
type fieldPlan struct {
	index  int         // of the field in the file's schema
	tensor *tensorLeaf // the fast path, or nil: pqarrow
	leaves []int       // its Parquet leaf columns
}

// groupResult is a decoded row group.
type groupResult struct {
	cols     []arrow.Array
	rows     int64
	from, to int64 // the rows of cols handed out (WithRows)
	err      error
}

func (g *groupResult) release() {
	for _, c := range g.cols {
		if c != nil {
			c.Release()
		}
	}
	g.cols = nil
}

func newParquetReader(r parquet.ReaderAtSeeker, closeFn func() error, cfg *config) (rr array.RecordReader, err error) {
	defer recovered(&err, "read")
	rd, err := openReader(r, cfg)
	if err != nil {
		return nil, err
	}
	unmap := rd.mapFile()
	pf := rd.pf
	// The decoding starts with the first batch asked, so that a reader
	// opened ahead of its use (the next file of a dataset) holds its
	// footer only.
	started := false
	next := func() (arrow.RecordBatch, error) {
		if !started {
			started = true
			rd.start()
		}
		return rd.next()
	}
	closeAll := func() error {
		if started {
			rd.stop()
		}
		unmap()
		pf.Close()
		if closeFn != nil {
			closeFn()
		}
		return nil
	}
	return batchreader.New(rd.schema, batchreader.Checked(next, arrowconv.ValidateRecord), closeAll), nil
}

// openReader reads and checks the footer of the Parquet file r (its
// schema and the row groups' statements, see open).
func openReader(r parquet.ReaderAtSeeker, cfg *config) (*reader, error) {
	size, err := r.Seek(0, io.SeekEnd)
	if err != nil {
		return nil, errorf("%w", err)
	}
	pf, footer, err := openFooter(r, size, cfg)
	if err != nil {
		return nil, err
	}
	rd := &reader{cfg: cfg, r: r, pf: pf, dataEnd: size - 8 - int64(len(footer.Bytes)), footerSchema: footer.Schema}
	if err := rd.open(); err != nil {
		pf.Close()
		return nil, err
	}
	return rd, nil
}

// openFooter reads and checks the footer of the size-byte Parquet file
// r, once (format.ReadFooter), and hands it to arrow-go's file reader,
// which would read it again; it returns the reader and the footer. A
// footer stating an encryption algorithm is left for arrow-go to read
// and refuse.
func openFooter(r parquet.ReaderAtSeeker, size int64, cfg *config) (*file.Reader, format.Footer, error) {
	footer, err := format.ReadFooter(r, size)
	if err != nil {
		return nil, footer, errorf("%w", err)
	}
	opts := []file.ReadOption{file.WithReadProps(parquet.NewReaderProperties(cfg.mem))}
	md, err := metadata.NewFileMetaData(footer.Bytes, nil)
	if err != nil {
		return nil, footer, errorf("%w", err)
	}
	if !md.IsSetEncryptionAlgorithm() {
		md.SetSourceFileSize(size)
		opts = append(opts, file.WithMetadata(md))
	}
	pf, err := file.NewParquetReader(noCloser{r}, opts...)
	if err != nil {
		return nil, footer, errorf("%w", err)
	}
	return pf, footer, nil
}

// noCloser hides the Close method of a reader from arrow-go's
// file.Reader, whose Close would close it: only closeFn closes the file.
type noCloser struct{ parquet.ReaderAtSeeker }

// open checks the stored Arrow schema and the row groups, builds the
// pqarrow reader and plans the columns. The schema and plan of a file
// whose footer has the schema and key-value metadata of the file opened
// before are that file's (see schemaPlan).
func (rd *reader) open() error {
	plan, err := rd.planSchema()
	if err != nil {
		return err
	}
	full := plan.full
	var fields []arrow.Field
	for i, f := range full.Fields() {
		if rd.cfg.columns != nil && !slices.Contains(rd.cfg.columns, f.Name) {
			continue
		}
		fields = append(fields, f)
		rd.fields = append(rd.fields, fieldPlan{index: i, tensor: plan.tensors[i], leaves: plan.leaves[i]})
	}
	rd.schema = full
	if len(fields) < full.NumFields() {
		meta := full.Metadata()
		rd.schema = arrow.NewSchema(fields, &meta)
	}
	return rd.checkRowGroups()
}

// leavesOf appends the leaf column indices under sf to dst.
func leavesOf(sf *pqarrow.SchemaField, dst []int) []int {
	if sf.IsLeaf() {
		return append(dst, sf.ColIndex)
	}
	for i := range sf.Children {
		dst = leavesOf(&sf.Children[i], dst)
	}
	return dst
}

// checkStoredSchema checks the Arrow schema stored under "ARROW:schema",
// decoded as pqarrow decodes it, before pqarrow does.
func checkStoredSchema(md *metadata.FileMetaData) error {
	kv := md.KeyValueMetadata()
	if kv == nil {
		return nil
	}
	v := kv.FindValue("ARROW:schema")
	if v == nil {
		return nil
	}
	var b []byte
	var err error
	if len(*v)%4 == 0 {
		b, err = base64.StdEncoding.DecodeString(*v)
	}
	if len(b) == 0 || err != nil {
		b, err = base64.RawStdEncoding.DecodeString(*v)
	}
	if err != nil {
		return errorf("stored Arrow schema: %v", err)
	}
	if err := arrowipc.CheckSchemaMessage(b); err != nil {
		return errorf("stored Arrow schema: %w", err)
	}
	return nil
}

// checkRowGroups checks what every row group states before anything is
// read: as many column chunks as leaf columns, each inside the file's
// data and within the chunk limit, and a row count whose decoded size
// in each column ([decodedRowBytes]) stays within the chunk limit.
func (rd *reader) checkRowGroups() error {
	md := rd.pf.MetaData()
	leaves := md.Schema.NumColumns()
	for g := range md.NumRowGroups() {
		rg := md.RowGroup(g)
		if rg.NumColumns() != leaves {
			return errorf("row group %d has %d column chunks, the schema %d columns", g, rg.NumColumns(), leaves)
		}
		rows := rg.NumRows()
		if rows < 0 {
			return errorf("row group %d has %d rows", g, rows)
		}
		// arrow-go reserves memory for the stated rows before it decodes a
		// page.
		for i, f := range rd.schema.Fields() {
			hi, lo := bits.Mul64(uint64(rows), uint64(decodedRowBytes(f.Type)))
			if hi != 0 || lo > uint64(rd.cfg.maxChunkBytes) {
				return errorf("row group %d: %d rows of column %q (index %d) decode to more than the chunk limit of %d bytes", g, rows, f.Name, i, rd.cfg.maxChunkBytes)
			}
		}
		for j := range leaves {
			cc, err := rg.ColumnChunk(j)
			if err != nil {
				return errorf("row group %d, column %d: %w", g, j, err)
			}
			if _, _, err := chunkBounds(cc, rd.dataEnd, rd.cfg.maxChunkBytes); err != nil {
				return errorf("row group %d, column %d: %w", g, j, err)
			}
			// arrow-go leaks the page reader of a codec it lacks.
			if _, err := compress.GetCodec(cc.Compression()); err != nil {
				return unsupported("row group %d, column %d: codec %v", g, j, cc.Compression())
			}
		}
	}
	return nil
}

// decodedRowBytes is a lower bound of the memory one row of a column of
// type dt takes once decoded, levels included: its fixed-width values
// (whole tensors), offsets of variable-size values and lists, and two
// bytes of levels.
func decodedRowBytes(dt arrow.DataType) int64 {
	var walk func(dt arrow.DataType) int64
	walk = func(dt arrow.DataType) int64 {
		switch t := dt.(type) {
		case *fixedshape.Type:
			return int64(t.ListSize()) * int64(t.ElemWidth())
		case *arrow.FixedSizeListType:
			return satMul(int64(t.Len()), walk(t.Elem()))
		case arrow.ListLikeType:
			return 4
		case *arrow.StructType:
			var n int64
			for _, f := range t.Fields() {
				n = min(n+walk(f.Type), math.MaxInt64/2)
			}
			return n
		case arrow.ExtensionType:
			return walk(t.StorageType())
		case arrow.FixedWidthDataType:
			return max(int64(t.BitWidth()/8), 1)
		}
		return 4 // offsets, or whatever else: at least a few bytes
	}
	return 2 + walk(dt)
}

// satMul returns a*b for non-negative a and b, or math.MaxInt64/2 when
// it is larger.
func satMul(a, b int64) int64 {
	hi, lo := bits.Mul64(uint64(a), uint64(b))
	if hi != 0 || lo > math.MaxInt64/2 {
		return math.MaxInt64 / 2
	}
	return int64(lo)
}

// start launches the decoding of the row groups: at most cfg.workers at
// once, at most cfg.workers decoded ahead of the one handed out.
func (rd *reader) start() {
	w := rd.cfg.workers
	rd.ctx, rd.cancel = context.WithCancel(context.Background())
	rd.order = make(chan chan groupResult, w)
	rd.done = make(chan struct{})
	rd.decs = make(chan *chunkDecoder, w)
	for range w {
		d := newDecoder(rd.cfg, rd.r, rd.mem, rd.dataEnd)
		d.ref = rd.ref
		rd.decs <- d
	}
	groups := rd.selectGroups()
	go func() {
		defer close(rd.order)
		for _, sel := range groups {
			g := sel.g
			ch := make(chan groupResult, 1)
			select {
			case rd.order <- ch:
			case <-rd.done:
				return
			}
			go func() {
				d := <-rd.decs
				res := rd.decodeGroup(d, g)
				res.from, res.to = sel.from, min(sel.to, res.rows)
				ch <- res
				rd.decs <- d
			}()
		}
	}()
}

// groupRange is a row group to read and the rows of it handed out.
type groupRange struct {
	g        int
	from, to int64
}

// selectGroups returns the row groups holding rows of the range of
// WithRows (all of them by default), with the rows of each in it, from
// the row counts of the footer (checked by checkRowGroups).
func (rd *reader) selectGroups() []groupRange {
	md := rd.pf.MetaData()
	lo, hi := rd.cfg.rowLo, rd.cfg.rowHi
	all := lo == 0 && hi < 0 // every group, empty ones too, as they are checked
	var out []groupRange
	var start int64
	for g := range md.NumRowGroups() {
		n := md.RowGroup(g).NumRows()
		end := start + n
		from, to := max(lo-start, 0), n
		if hi >= 0 {
			to = min(hi-start, n)
		}
		if all || from < to {
			out = append(out, groupRange{g: g, from: from, to: to})
		}
		start = end
		if hi >= 0 && start >= hi {
			break
		}
	}
	return out
}

// stop ends the decoding and releases what was decoded and not handed
// out.
func (rd *reader) stop() {
	rd.cancel()
	close(rd.done)
	for ch := range rd.order {
		res := <-ch
		res.release()
	}
	rd.cur.release()
	for range rd.cfg.workers {
		(<-rd.decs).recycle()
	}
}

// next returns the next batch: a slice of the current row group, sharing
// its buffers.
func (rd *reader) next() (arrow.RecordBatch, error) {
	for {
		if rd.cur.cols != nil && rd.off < rd.cur.to {
			end := min(rd.off+int64(rd.cfg.batchRows), rd.cur.to)
			cols := make([]arrow.Array, len(rd.cur.cols))
			for i, c := range rd.cur.cols {
				if rd.off == 0 && end == rd.cur.rows {
					c.Retain()
					cols[i] = c
				} else {
					cols[i] = array.NewSlice(c, rd.off, end)
				}
			}
			rec := array.NewRecordBatch(rd.schema, cols, end-rd.off)
			for _, c := range cols {
				c.Release()
			}
			rd.off = end
			return rec, nil
		}
		rd.cur.release()
		ch, ok := <-rd.order
		if !ok {
			return nil, nil
		}
		rd.cur = <-ch
		rd.off = rd.cur.from
		if err := rd.cur.err; err != nil {
			return nil, err
		}
	}
}

// decodeGroup decodes row group g with d: tensor columns on the fast
// path, the others (and tensor chunks the fast path does not take) with
// pqarrow.
func (rd *reader) decodeGroup(d *chunkDecoder, g int) (res groupResult) {
	defer recovered(&res.err, "read")
	// A fault reading the mapping (the file truncated under it) panics
	// rather than kills the process, and recovered makes it an error.
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if res.err != nil {
			res.release()
		}
	}()
	if rd.ctx.Err() != nil {
		return groupResult{err: rd.ctx.Err()}
	}
	rg := rd.pf.MetaData().RowGroup(g)
	res.rows = rg.NumRows()
	res.cols = make([]arrow.Array, len(rd.fields))
	for i, p := range rd.fields {
		name := rd.schema.Field(i).Name
		if p.tensor != nil {
			cc, err := rg.ColumnChunk(p.tensor.leaf)
			if err != nil {
				res.err = errorf("row group %d, column %q: %w", g, name, err)
				return res
			}
			arr, err := d.decodeTensor(p.tensor, cc, res.rows)
			if err == nil {
				res.cols[i] = arr
				continue
			}
			if !errors.Is(err, errFallback) {
				res.err = errorf("row group %d, column %q: %w", g, name, err)
				return res
			}
		}
		arr, err := rd.readField(d, g, i, res.rows)
		if err != nil {
			res.err = errorf("row group %d, column %q: %w", g, name, err)
			return res
		}
		res.cols[i] = arr
	}
	return res
}

// tensorFallbacks counts the tensor column chunks read by pqarrow (for
// the tests).
var tensorFallbacks atomic.Int64

// readField reads field i of row group g with pqarrow, after checking
// the page headers of its column chunks.
func (rd *reader) readField(d *chunkDecoder, g, i int, rows int64) (arrow.Array, error) {
	rg := rd.pf.MetaData().RowGroup(g)
	for _, leaf := range rd.fields[i].leaves {
		cc, err := rg.ColumnChunk(leaf)
		if err != nil {
			return nil, errorf("%w", err)
		}
		if err := scanPages(rd.r, cc, rd.dataEnd, rd.cfg, rows); err != nil {
			return nil, err
		}
	}
	inc := make(map[int]bool, len(rd.fields[i].leaves))
	for _, l := range rd.fields[i].leaves {
		inc[l] = true
	}
	fr, err := rd.fileReader()
	if err != nil {
		return nil, err
	}
	cr, err := fr.GetFieldReader(rd.ctx, rd.fields[i].index, inc, []int{g})
	if cr != nil {
		defer cr.Release() // also on error: arrow-go returns the reader then
	}
	if err != nil {
		return nil, errorf("%w", err)
	}
	ch, err := fr.ReadColumn([]int{g}, cr)
	if err != nil {
		return nil, errorf("%w", err)
	}
	defer ch.Release()
	// pqarrow does not check what it decodes: chunks with offsets out of
	// order must not reach Concatenate (which leaks or panics on them)
	// or the slices of Take.
	for _, c := range ch.Chunks() {
		if err := validate.Array(rd.schema.Field(i).Name, c); err != nil {
			return nil, errorf("%w", err)
		}
	}
	var arr arrow.Array
	switch len(ch.Chunks()) {
	case 0:
		if rows != 0 {
			return nil, errorf("no data for %d rows", rows)
		}
		arr = array.MakeArrayOfNull(rd.cfg.mem, ch.DataType(), 0)
	case 1:
		arr = ch.Chunk(0)
		arr.Retain()
	default:
		if arr, err = array.Concatenate(ch.Chunks(), rd.cfg.mem); err != nil {
			return nil, errorf("%w", err)
		}
	}
	if int64(arr.Len()) != rows {
		arr.Release()
		return nil, errorf("%d values for %d rows", arr.Len(), rows)
	}
	typ, ok := rd.schema.Field(i).Type.(*fixedshape.Type)
	if !ok {
		return arr, nil
	}
	tensorFallbacks.Add(1)
	defer arr.Release()
	if t, ok := arr.(*fixedshape.Array); ok {
		t.Retain()
		return t, nil
	}
	if e, ok := arr.(array.ExtensionArray); ok {
		return fixedshape.NewArray(typ, e.Storage())
	}
	return fixedshape.NewArray(typ, arr)
}

// fieldIDKey is the field metadata key in which pqarrow reports Parquet
// field ids, "-1" when the file has none.
const fieldIDKey = "PARQUET:field_id"

// dropUnsetFieldIDs removes the "PARQUET:field_id": "-1" entries that
// pqarrow adds to every field of a file without field ids, so that a
// schema survives a Parquet round trip unchanged.
func dropUnsetFieldIDs(s *arrow.Schema) *arrow.Schema {
	fields := s.Fields()
	for i, f := range fields {
		if v, ok := f.Metadata.GetValue(fieldIDKey); !ok || v != "-1" {
			continue
		}
		var keys, vals []string
		for j, k := range f.Metadata.Keys() {
			if k != fieldIDKey {
				keys = append(keys, k)
				vals = append(vals, f.Metadata.Values()[j])
			}
		}
		fields[i].Metadata = arrow.NewMetadata(keys, vals)
	}
	md := s.Metadata()
	return arrow.NewSchema(fields, &md)
}
