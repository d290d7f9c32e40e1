package parquetconv

import (
	"context"
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"runtime"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/flight"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/metadata"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	"github.com/apache/arrow-go/v18/parquet/schema"
	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/parquetconv/internal/format"
	"github.com/fstensor/fstensor/varshape"
)

// magic starts and ends every Parquet file.
var magic = []byte("PAR1")

// tellWriter counts the bytes written to w (arrow-go's page writers ask
// for the position) and keeps the first error.
//
// When splice is set, the write of its page (the same bytes: same
// address and length) writes the page's levels, then its values from
// the column where they lie, then the page's zero padding: arrow-go's
// page writer takes a page as one buffer, and copying a single-page
// chunk's values into one first cost a third of the write speed.
type tellWriter struct {
	w      io.Writer
	n      int64
	err    error
	splice *pageSlot
}

func (t *tellWriter) Write(p []byte) (int, error) {
	if t.err != nil {
		return 0, t.err
	}
	if s := t.splice; s != nil && len(p) == len(s.page) && len(p) > 0 && &p[0] == &s.page[0] {
		t.splice = nil
		return t.writeSpliced(s)
	}
	n, err := t.w.Write(p)
	t.n += int64(n)
	if err == nil && n < len(p) {
		err = io.ErrShortWrite
	}
	t.err = err
	return n, err
}

func (t *tellWriter) Tell() int64 { return t.n }

// writeSpliced writes the page of s: its bytes before the values, the
// values, then zero bytes to the page's length.
func (t *tellWriter) writeSpliced(s *pageSlot) (int, error) {
	n := 0
	for _, part := range [][]byte{s.page[:s.valAt], s.values} {
		m, err := t.Write(part)
		n += m
		if err != nil {
			return n, err
		}
	}
	for n < len(s.page) {
		m, err := t.Write(zeros[:min(len(zeros), len(s.page)-n)])
		n += m
		if err != nil {
			return n, err
		}
	}
	return n, nil
}

// zeros pads spliced pages.
var zeros [64]byte

// column is the plan of one top-level field: a tensor column written by
// this package's page writer, or a flat column written by arrow-go's
// column writer.
type column struct {
	tensor    bool
	nullable  bool
	descr     *schema.Column
	kind      valueKind // tensor columns: elements to values
	elemWidth int       // tensor columns: bytes per Arrow element
	valWidth  int       // tensor columns: bytes per Parquet value
	size      int       // tensor columns: elements per tensor
	bss       bool      // tensor columns: BYTE_STREAM_SPLIT values
	dict      []byte    // tensor columns: the identity dictionary page (PLAIN INT32), nil for none
	pageRows  int       // tensor columns: rows per data page
	single    bool      // tensor columns: a chunk of at most SinglePageBytes is one aligned page
}

// fastWriter writes Parquet files itself with arrow-go's metadata
// builders, page writers and codecs: tensor columns page by page with
// levels in O(rows), other (flat) columns through pqarrow's column
// writer in the same row groups.
type fastWriter struct {
	sink     *tellWriter
	props    *parquet.WriterProperties
	meta     *metadata.FileMetaDataBuilder
	cols     []column
	codec    compress.Compression
	level    int
	v2       bool
	groupMax int // rows per row group from the byte bound
	rowsMax  int // rows per row group from WithRowGroupRows
	groups   int
	ctx      context.Context
	index    *metadata.PageIndexBuilder // nil under WithoutPageIndex

	rep, def format.LevelEncoder
	slots    []pageSlot // pages assembled, compressed, written in turn
	vals     []byte     // BYTE_STREAM_SPLIT scratch
	cbuf     []byte     // compressed v2 page scratch
	defs     []int16    // definition levels of a flat column
	runHead  []byte     // identity dictionary: bit width and run header
}

// fastSchema reports whether every field of schema can go through
// fastWriter: tensor columns and flat columns of the kinds below.
func fastSchema(s *arrow.Schema) bool {
	for _, f := range s.Fields() {
		if t, ok := f.Type.(*fixedshape.Type); ok {
			// Decimals (big-endian in Parquet), dates, timestamps,
			// intervals and fixed-size binaries go through pqarrow.
			if !fixedshape.ElemNumeric(t.ElemType()) {
				return false
			}
			continue
		}
		if !flatType(f.Type) {
			return false
		}
	}
	return true
}

// flatType reports whether dt is a non-nested type that pqarrow writes
// as one leaf column of definition levels only.
func flatType(dt arrow.DataType) bool {
	switch dt.ID() {
	case arrow.BOOL, arrow.INT8, arrow.INT16, arrow.INT32, arrow.INT64,
		arrow.UINT8, arrow.UINT16, arrow.UINT32, arrow.UINT64,
		arrow.FLOAT32, arrow.FLOAT64, arrow.STRING, arrow.LARGE_STRING,
		arrow.BINARY, arrow.LARGE_BINARY, arrow.FIXED_SIZE_BINARY,
		arrow.DATE32, arrow.DATE64, arrow.TIMESTAMP, arrow.TIME32, arrow.TIME64,
		arrow.DECIMAL128, arrow.DECIMAL256:
		return true
	}
	return false
}

// parquetStorageField is arrowconv.StorageField but for the element
// field of a tensor column, which is always the nullable "item" of
// arrow.FixedSizeListOf: Arrow C++ restores the extension type only over
// a nullable child, and readers see a nullable leaf in the Parquet
// schema anyway.
//
// A variable-shape column is written as its storage struct with the
// extension keys on the field (varshape.StorageField): arrow-go's pqarrow
// refuses struct-backed extension types, and the stored Arrow schema then
// carries the keys from which readers restore the type.
func parquetStorageField(f arrow.Field, storage arrow.Field) arrow.Field {
	if _, ok := varshape.TypeOf(f.Type); ok {
		return varshape.StorageField(f)
	}
	t, ok := f.Type.(*fixedshape.Type)
	if !ok {
		return storage
	}
	storage.Type = arrow.FixedSizeListOf(int32(t.ListSize()), t.ElemType())
	return storage
}

func newFastWriter(w io.Writer, tensorSchema, storage *arrow.Schema, cfg *config, codec compress.Compression) (*fastWriter, error) {
	aprops := pqarrow.NewArrowWriterProperties(pqarrow.WithStoreSchema(), pqarrow.WithAllocator(cfg.mem))
	base := []parquet.WriterProperty{
		parquet.WithAllocator(cfg.mem),
		parquet.WithCompression(codec),
		parquet.WithCompressionLevel(cfg.compressionLevel),
		parquet.WithMaxRowGroupLength(int64(cfg.rowGroupRows)),
		parquet.WithDataPageSize(int64(cfg.pageBytes)),
		parquet.WithPageIndexEnabled(!cfg.noPageIndex),
	}
	if cfg.dataPageV2 {
		base = append(base, parquet.WithDataPageVersion(parquet.DataPageV2))
	}
	sc, err := pqarrow.ToParquet(storage, parquet.NewWriterProperties(base...), aprops)
	if err != nil {
		return nil, errorf("%w", err)
	}
	if sc.Root().NumFields() != storage.NumFields() {
		return nil, errorf("schema of %d fields maps to %d Parquet fields", storage.NumFields(), sc.Root().NumFields())
	}
	fw := &fastWriter{
		slots:   make([]pageSlot, compressWorkers(codec)),
		codec:   codec,
		level:   cfg.compressionLevel,
		v2:      cfg.dataPageV2,
		rowsMax: cfg.rowGroupRows,
		ctx:     pqarrow.NewArrowWriteContext(context.Background(), &aprops),
	}
	rowBytes := int64(0) // bytes of tensor values per row
	leaf := 0
	props := base
	for i, f := range tensorSchema.Fields() {
		c := column{nullable: f.Nullable}
		if leaf >= sc.NumColumns() || sc.ColumnRoot(leaf) != sc.Root().Field(i) {
			return nil, errorf("field %q does not map to one Parquet column", f.Name)
		}
		c.descr = sc.Column(leaf)
		leaf++
		if leaf < sc.NumColumns() && sc.ColumnRoot(leaf) == sc.Root().Field(i) {
			return nil, errorf("field %q maps to several Parquet columns", f.Name)
		}
		if t, ok := f.Type.(*fixedshape.Type); ok {
			c.tensor = true
			c.size = t.ListSize()
			c.elemWidth = t.ElemWidth()
			c.kind, c.valWidth = valueLayout(t.ElemType())
			if c.descr.MaxRepetitionLevel() != 1 {
				return nil, errorf("field %q: Parquet column %s has repetition level %d, want 1", f.Name, c.descr.Path(), c.descr.MaxRepetitionLevel())
			}
			if cfg.identityDictFor(c.kind) {
				c.dict = identityDictionary(c.kind)
				c.valWidth = c.elemWidth
			}
			tensorBytes := int64(c.size) * int64(c.valWidth)
			if tensorBytes > math.MaxInt32/2 {
				return nil, unsupported("field %q: a tensor of %d bytes does not fit a Parquet page", f.Name, tensorBytes)
			}
			c.pageRows = max(1, cfg.pageBytes/int(tensorBytes))
			rowBytes += tensorBytes
			// The chunk metadata lists the encodings these properties name.
			path := c.descr.Path()
			enc := parquet.Encodings.Plain
			if cfg.byteStreamSplit && (c.descr.PhysicalType() == parquet.Types.Float || c.descr.PhysicalType() == parquet.Types.Double) {
				c.bss = true
				enc = parquet.Encodings.ByteStreamSplit
			}
			c.single = codec == compress.Codecs.Uncompressed && !c.bss && !cfg.pageBytesSet
			props = append(props, parquet.WithDictionaryFor(path, c.dict != nil), parquet.WithEncodingFor(path, enc), parquet.WithStatsFor(path, false))
		}
		fw.cols = append(fw.cols, c)
	}
	if leaf != sc.NumColumns() {
		return nil, errorf("schema maps to %d Parquet columns, want %d", sc.NumColumns(), leaf)
	}
	fw.groupMax = int(min(max(1, cfg.rowGroupBytes/max(rowBytes, 1)), int64(cfg.rowGroupRows)))
	fw.props = parquet.NewWriterProperties(props...)

	kv := metadata.NewKeyValueMetadata()
	md := storage.Metadata()
	for i, k := range md.Keys() {
		if k != "ARROW:schema" {
			kv.Append(k, md.Values()[i])
		}
	}
	kv.Append("ARROW:schema", base64.StdEncoding.EncodeToString(flight.SerializeSchema(storage, cfg.mem)))
	fw.meta = metadata.NewFileMetadataBuilder(sc, fw.props, kv)
	if !cfg.noPageIndex {
		fw.index = &metadata.PageIndexBuilder{Schema: sc}
	}
	fw.sink = &tellWriter{w: w}
	if _, err := fw.sink.Write(magic); err != nil {
		return nil, errorf("write: %w", err)
	}
	return fw, nil
}

// compressWorkers returns how many pages of a column are compressed at
// once: one per processor (at most 4) with a codec, else 1.
func compressWorkers(codec compress.Compression) int {
	if codec == compress.Codecs.Uncompressed {
		return 1
	}
	return min(max(runtime.GOMAXPROCS(0), 1), 4)
}

// write writes rec (already validated) as row groups of at most
// min(groupMax, rowsMax) rows.
func (fw *fastWriter) write(rec arrow.RecordBatch) error {
	n := int(rec.NumRows())
	step := min(fw.groupMax, fw.rowsMax)
	for start := 0; start < n; start += step {
		if err := fw.writeGroup(rec, start, min(start+step, n)); err != nil {
			return err
		}
	}
	return nil
}

// writeGroup writes rows [start, end) of rec as one row group.
func (fw *fastWriter) writeGroup(rec arrow.RecordBatch, start, end int) (err error) {
	if fw.groups >= math.MaxInt16 {
		return errorf("more than %d row groups", math.MaxInt16)
	}
	rg := fw.meta.AppendRowGroup()
	ordinal := int16(fw.groups)
	fw.groups++
	if fw.index != nil {
		if err := fw.index.AppendRowGroup(); err != nil {
			return errorf("%w", err)
		}
	}
	for i := range fw.cols {
		c := &fw.cols[i]
		cm := rg.NextColumnChunk()
		pager, err := file.NewPageWriter(fw.sink, fw.codec, fw.level, cm, ordinal, int16(i), fw.props.Allocator(), false, nil, nil)
		if err == nil {
			err = fw.setIndexBuilders(pager, c, i)
		}
		if err != nil {
			return errorf("column %q: %w", rec.Schema().Field(i).Name, err)
		}
		if c.tensor {
			err = fw.writeTensorChunk(pager, c, rec.Column(i).(*fixedshape.Array), start, end)
		} else {
			err = fw.writeFlatChunk(pager, cm, c, rec.Column(i), start, end)
		}
		if err == nil {
			err = fw.sink.err
		}
		if err != nil {
			return errorf("column %q: %w", rec.Schema().Field(i).Name, err)
		}
	}
	rg.SetNumRows(end - start)
	if err := rg.Finish(0, ordinal); err != nil {
		return errorf("%w", err)
	}
	return nil
}

// setIndexBuilders hands pager the page index builders of leaf column i
// in the current row group: the OffsetIndex builder, and for a flat
// column the ColumnIndex builder (tensor pages have no statistics, for
// which arrow-go's builder would discard the ColumnIndex anyway).
func (fw *fastWriter) setIndexBuilders(pager file.PageWriter, c *column, i int) error {
	if fw.index == nil {
		return nil
	}
	oi, err := fw.index.GetOffsetIndexBuilder(i)
	if err != nil {
		return err
	}
	var ci metadata.ColumnIndexBuilder
	if !c.tensor {
		if ci, err = fw.index.GetColumnIndexBuilder(i); err != nil {
			return err
		}
	}
	pager.SetIndexBuilders(ci, oi)
	return nil
}

// writeFlatChunk writes rows [start, end) of a flat column through
// arrow-go's column writer (dictionary, statistics and all).
func (fw *fastWriter) writeFlatChunk(pager file.PageWriter, cm *metadata.ColumnChunkMetaDataBuilder, c *column, arr arrow.Array, start, end int) error {
	cw := file.NewColumnChunkWriter(cm, pager, fw.props)
	sl := array.NewSlice(arr, int64(start), int64(end))
	defer sl.Release()
	var defs []int16
	if c.descr.MaxDefinitionLevel() > 0 {
		fw.defs = fw.defs[:0]
		for r := range sl.Len() {
			if sl.IsValid(r) {
				fw.defs = append(fw.defs, 1)
			} else {
				fw.defs = append(fw.defs, 0)
			}
		}
		defs = fw.defs
	} else if sl.NullN() > 0 {
		return fmt.Errorf("%d nulls in a non-nullable field", sl.NullN())
	}
	if err := pqarrow.WriteArrowToColumn(fw.ctx, cw, sl, defs, nil, c.nullable); err != nil {
		cw.Close()
		return err
	}
	return cw.Close()
}

// close writes the page index, then the footer.
func (fw *fastWriter) close() error {
	if fw.index != nil {
		var loc metadata.PageIndexLocation
		fw.index.Finish()
		err := fw.index.WriteTo(fw.sink, &loc)
		if err == nil {
			err = fw.sink.err
		}
		if err == nil {
			err = fw.meta.SetPageIndexLocation(loc)
		}
		if err != nil {
			return errorf("close: page index: %w", err)
		}
	}
	fmd, err := fw.meta.Finish()
	if err != nil {
		return errorf("close: %w", err)
	}
	n, err := fmd.WriteTo(fw.sink, nil)
	if err == nil {
		_, err = fw.sink.Write(binary.LittleEndian.AppendUint32(nil, uint32(n)))
	}
	if err == nil {
		_, err = fw.sink.Write(magic)
	}
	if err != nil {
		return errorf("close: %w", err)
	}
	return nil
}
