package parquetconv

import (
	"io"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	"github.com/fstensor/fstensor/arrowconv"
	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/varshape"
)

// Writer writes record batches with tensor columns to a Parquet file.
//
// A tensor column is stored as pyarrow stores a fixed_size_list: the
// Parquet LIST of its physical elements (Parquet has no fixed-size list),
// with the Arrow schema in the file's "ARROW:schema" key, so that
// arrow-go, pyarrow and polars get the tensor type back; readers that
// ignore the stored schema see variable-size lists (DuckDB types a
// float32 tensor column FLOAT[]).
//
// When every field is a tensor column or a flat column (booleans,
// integers, floats, strings, binaries, dates, times, timestamps,
// decimals), the Writer writes tensor columns itself: levels are built
// per row, not per element, values are copied straight from the column
// (1- and 2-byte integers widened to INT32), not
// dictionary-encoded, so every bit (NaN payloads and signs included)
// survives, and null tensors are written. Flat columns go through
// arrow-go's column writers in the same row groups. Schemas with other
// fields (structs, lists, maps, dictionaries, other extension types,
// variable-shape tensor columns) and tensor columns of non-numeric
// elements (bool, decimals, fixed-size binaries, dates, times...) are
// written through arrow-go's pqarrow column writers, column by column.
// pqarrow refuses a list level with null rows that span elements (a null
// FixedSizeList row always does); the Writer hands it such a level as a
// List whose null rows are empty (the same Parquet LIST and levels), so
// null tensors are written there too.
//
// A variable-shape tensor column (package varshape) is written as its
// storage struct<data: list<T>, shape: fixed_size_list<int32>[ndim]>
// with the extension name and metadata on the stored Arrow field, as
// pyarrow writes it; this package's reader, arrow-go's and pyarrow
// restore the type from them.
type Writer struct {
	schema  *arrow.Schema // the tensor schema the caller writes
	storage *arrow.Schema // the schema written to the file
	fast    *fastWriter   // nil on the pqarrow path
	fw      *pqarrow.FileWriter
	rows    int // rows per row group on the pqarrow path
	mem     memory.Allocator
	err     error // sticky: the file is broken after a failed write
	closed  bool
}

// NewWriter starts a Parquet file of the given schema on w, writing the
// leading magic bytes. Options: [WithAllocator], [WithCompression],
// [WithCompressionLevel], [WithRowGroupRows], [WithDataPageV2],
// [WithPageBytes], [WithoutPageIndex] and, on
// the fast path only, [WithRowGroupBytes] (bytes of tensor values per row
// group), [WithByteStreamSplit], [WithIdentityDictionary] and
// [WithoutIdentityDictionary]. Close
// writes the footer; it does not close w. A Writer is not safe for
// concurrent use.
func NewWriter(w io.Writer, schema *arrow.Schema, opts ...Option) (*Writer, error) {
	cfg, err := newConfig(opts)
	if err != nil {
		return nil, err
	}
	codec := compress.Codecs.Uncompressed
	switch cfg.compression {
	case Uncompressed:
	case Snappy:
		codec = compress.Codecs.Snappy
	case LZ4:
		codec = compress.Codecs.Lz4Raw
	case Gzip:
		codec = compress.Codecs.Gzip
	case ZSTD:
		codec = compress.Codecs.Zstd
	}
	storage := arrowconv.StorageSchema(schema)
	fields := storage.Fields()
	for i, f := range schema.Fields() {
		fields[i] = parquetStorageField(f, fields[i])
	}
	md := storage.Metadata()
	storage = arrow.NewSchema(fields, &md)
	if fastSchema(schema) {
		fast, err := newFastWriter(w, schema, storage, cfg, codec)
		if err != nil {
			return nil, err
		}
		return &Writer{schema: schema, storage: storage, fast: fast}, nil
	}
	version := parquet.DataPageV1
	if cfg.dataPageV2 {
		version = parquet.DataPageV2
	}
	props := parquet.NewWriterProperties(
		parquet.WithAllocator(cfg.mem),
		parquet.WithCompression(codec),
		parquet.WithCompressionLevel(cfg.compressionLevel),
		parquet.WithMaxRowGroupLength(int64(cfg.rowGroupRows)),
		parquet.WithDataPageVersion(version),
		parquet.WithDataPageSize(int64(cfg.pageBytes)),
		parquet.WithPageIndexEnabled(!cfg.noPageIndex),
	)
	aprops := pqarrow.NewArrowWriterProperties(pqarrow.WithStoreSchema(), pqarrow.WithAllocator(cfg.mem))
	// pqarrow closes a sink that is an io.Closer; hide Close so that w
	// stays open, as documented.
	fw, err := pqarrow.NewFileWriter(storage, writerOnly{w}, props, aprops)
	if err != nil {
		return nil, errorf("%w", err)
	}
	return &Writer{schema: schema, storage: storage, fw: fw, rows: cfg.rowGroupRows, mem: cfg.mem}, nil
}

// writerOnly hides every method of its writer but Write.
type writerOnly struct{ w io.Writer }

func (w writerOnly) Write(p []byte) (int, error) { return w.w.Write(p) }

// Write writes rec, whose schema must equal the writer's, as one or more
// new row groups of at most the configured rows and bytes (rows of
// different calls never share a row group; a record of 0 rows writes
// none). It does not take ownership of rec. An error from the schema
// check or the record's validation leaves the file as it was; after any
// other error the file is incomplete and Write and Close fail.
func (w *Writer) Write(rec arrow.RecordBatch) (err error) {
	if w.err != nil {
		return w.err
	}
	if w.closed {
		return errorf("write after close")
	}
	if !rec.Schema().Equal(w.schema) {
		return errorf("record schema %v does not match the writer's %v", rec.Schema(), w.schema)
	}
	if err := arrowconv.ValidateRecord(rec); err != nil {
		return err
	}
	if w.fast != nil {
		for i, c := range rec.Columns() {
			if f := rec.Schema().Field(i); !f.Nullable && c.NullN() > 0 {
				return errorf("column %q of a non-nullable field has %d nulls", f.Name, c.NullN())
			}
		}
		defer func() { w.err = err }()
		return w.fast.write(rec)
	}
	n := int(rec.NumRows())
	for start := 0; start < n; start += w.rows {
		end := min(start+w.rows, n)
		if err := w.writeRowGroup(rec, start, end); err != nil {
			w.err = errorf("write: %w", err)
			return w.err
		}
	}
	return nil
}

// writeRowGroup writes rows [start, end) of rec as one row group on the
// pqarrow path, column by column, with null list rows compacted (see
// compactNulls) so that pqarrow writes them.
func (w *Writer) writeRowGroup(rec arrow.RecordBatch, start, end int) error {
	chunk := rebasedRecord(w.storage, rec, start, end)
	defer chunk.Release()
	if err := w.fw.NewRowGroupChecked(); err != nil {
		return err
	}
	for _, c := range chunk.Columns() {
		cc, err := compactNulls(w.mem, c, nil)
		if err != nil {
			return err
		}
		err = w.fw.WriteColumnData(cc)
		cc.Release()
		if err != nil {
			return err
		}
	}
	return nil
}

// Close writes the footer; it does not close the io.Writer given to
// [NewWriter]. Calls after the first return nil.
func (w *Writer) Close() error {
	if w.closed {
		return nil
	}
	w.closed = true
	if w.err != nil {
		return w.err
	}
	if w.fast != nil {
		return w.fast.close()
	}
	if err := w.fw.Close(); err != nil {
		return errorf("close: %w", err)
	}
	return nil
}

// rebasedRecord returns rows [start, end) of rec under the storage schema,
// tensor columns as their storage and every FixedSizeList column without
// nulls rebased to offset 0: a new list array of offset 0 and no validity
// whose child is the slice of elements of those rows (FixedSizeList
// columns with nulls are sliced; compactNulls rewrites them).
func rebasedRecord(storage *arrow.Schema, rec arrow.RecordBatch, start, end int) arrow.RecordBatch {
	cols := make([]arrow.Array, rec.NumCols())
	for i, c := range rec.Columns() {
		switch t := c.(type) {
		case *fixedshape.Array:
			c = t.Storage()
		case *fixedshape.UnsupportedArray:
			c = t.Storage()
		case *varshape.Array:
			c = t.Storage()
		}
		cols[i] = rebase(c, start, end, storage.Field(i).Type)
	}
	out := array.NewRecordBatch(storage, cols, int64(end-start))
	for _, c := range cols {
		c.Release()
	}
	return out
}

// rebase returns rows [start, end) of c; for a FixedSizeList without
// nulls the result has offset 0 and shares c's child elements; a
// FixedSizeList takes type typ when typ is a FixedSizeList too (a tensor
// column's storage with its child made nullable).
func rebase(c arrow.Array, start, end int, typ arrow.DataType) arrow.Array {
	fsl, ok := c.(*array.FixedSizeList)
	if !ok {
		return array.NewSlice(c, int64(start), int64(end))
	}
	if typ == nil || typ.ID() != arrow.FIXED_SIZE_LIST {
		typ = fsl.DataType()
	}
	if fsl.NullN() > 0 {
		// Under typ, sliced: compactNulls rewrites it for pqarrow.
		d := fsl.Data()
		s := array.NewData(typ, d.Len(), d.Buffers(), d.Children(), d.NullN(), d.Offset())
		defer s.Release()
		m := array.MakeFromData(s)
		defer m.Release()
		return array.NewSlice(m, int64(start), int64(end))
	}
	size := int(fsl.DataType().(*arrow.FixedSizeListType).Len())
	first := (fsl.Data().Offset() + start) * size
	child := fsl.ListValues()
	elems := rebase(child, first, first+(end-start)*size, nil)
	defer elems.Release()
	d := array.NewData(typ, end-start, []*memory.Buffer{nil}, []arrow.ArrayData{elems.Data()}, 0, 0)
	defer d.Release()
	return array.MakeFromData(d)
}
