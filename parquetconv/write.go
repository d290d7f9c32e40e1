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
)

// Writer writes record batches with tensor columns to a Parquet
// file, routing around three arrow-go defects:
//
//   - pqarrow refuses extension columns with FixedSizeList storage, so a
//     tensor column is written as its storage column with the extension
//     name and metadata in the field metadata ([arrowconv.StorageField]), and the
//     Arrow schema is stored in the file: arrow-go and pyarrow readers
//     get the tensor type back.
//   - pqarrow silently writes wrong rows for a FixedSizeList with a
//     non-zero offset (a sliced column, or any column it splits into row
//     groups itself), so every row group is written from a record whose
//     FixedSizeList columns are rebased to offset 0 (sharing the
//     elements; no copy).
//   - pqarrow cannot write null lists of a FixedSizeList, so a tensor
//     column with null tensors is refused with an error wrapping
//     arrow.ErrInvalid and arrow.ErrNotImplemented, before anything of
//     that record is written.
//
// Tensor element lists are written as Parquet repeated groups (the LIST
// logical type; Parquet has no fixed-size list). Readers that use the
// stored Arrow schema (arrow-go, pyarrow) get the tensor type back;
// others see variable-size lists: DuckDB 2.0 types a float32 tensor
// column FLOAT[] (LIST), not FLOAT[n] (ARRAY).
type Writer struct {
	schema  *arrow.Schema // the tensor schema the caller writes
	storage *arrow.Schema // the schema given to pqarrow
	fw      *pqarrow.FileWriter
	rows    int
	mem     memory.Allocator
}

// NewWriter starts a Parquet file of the given schema on w.
// Options: [WithAllocator], [WithCompression] (ZSTD, or LZ4 as
// LZ4_RAW), [WithRowGroupRows]. Close writes the footer; it does not
// close w.
func NewWriter(w io.Writer, schema *arrow.Schema, opts ...Option) (*Writer, error) {
	cfg := newConfig(opts)
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
	default:
		return nil, errorf("unknown compression %d", cfg.compression)
	}
	storage := arrowconv.StorageSchema(schema)
	props := parquet.NewWriterProperties(
		parquet.WithAllocator(cfg.mem),
		parquet.WithCompression(codec),
		parquet.WithMaxRowGroupLength(int64(cfg.rowGroupRows)),
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
// row groups of at most the configured number of rows. It does not take
// ownership of rec.
func (w *Writer) Write(rec arrow.RecordBatch) error {
	if !rec.Schema().Equal(w.schema) {
		return errorf("record schema %v does not match the writer's %v", rec.Schema(), w.schema)
	}
	if err := arrowconv.ValidateRecord(rec); err != nil {
		return err
	}
	for i, c := range rec.Columns() {
		if _, ok := c.(*fixedshape.Array); ok && c.NullN() > 0 {
			return errorf("column %q has %d null tensors; arrow-go cannot write null FixedSizeList entries: %w", rec.Schema().Field(i).Name, c.NullN(), arrow.ErrNotImplemented)
		}
	}
	n := int(rec.NumRows())
	for start := 0; start < n || (n == 0 && start == 0); start += w.rows {
		end := min(start+w.rows, n)
		chunk := rebasedRecord(w.storage, rec, start, end)
		err := w.fw.Write(chunk)
		chunk.Release()
		if err != nil {
			return errorf("write: %w", err)
		}
		if n == 0 {
			break
		}
	}
	return nil
}

// Close writes the footer.
func (w *Writer) Close() error {
	if err := w.fw.Close(); err != nil {
		return errorf("close: %w", err)
	}
	return nil
}

// rebasedRecord returns rows [start, end) of rec under the storage schema,
// tensor columns as their storage and every FixedSizeList column rebased
// to offset 0: a new list array of offset 0 and no validity whose child
// is the slice of elements of those rows (the caller has refused nulls in
// tensor columns; other FixedSizeList columns with nulls keep their
// validity and offset, as arrow-go cannot write them shifted).
func rebasedRecord(storage *arrow.Schema, rec arrow.RecordBatch, start, end int) arrow.RecordBatch {
	cols := make([]arrow.Array, rec.NumCols())
	for i, c := range rec.Columns() {
		if t, ok := c.(*fixedshape.Array); ok {
			c = t.Storage()
		}
		cols[i] = rebase(c, start, end)
	}
	out := array.NewRecordBatch(storage, cols, int64(end-start))
	for _, c := range cols {
		c.Release()
	}
	return out
}

// rebase returns rows [start, end) of c; for a FixedSizeList without
// nulls the result has offset 0 and shares c's child elements.
func rebase(c arrow.Array, start, end int) arrow.Array {
	fsl, ok := c.(*array.FixedSizeList)
	if !ok || fsl.NullN() > 0 {
		return array.NewSlice(c, int64(start), int64(end))
	}
	size := int(fsl.DataType().(*arrow.FixedSizeListType).Len())
	first := (fsl.Data().Offset() + start) * size
	child := fsl.ListValues()
	elems := rebase(child, first, first+(end-start)*size)
	defer elems.Release()
	d := array.NewData(fsl.DataType(), end-start, []*memory.Buffer{nil}, []arrow.ArrayData{elems.Data()}, 0, 0)
	defer d.Release()
	return array.MakeFromData(d)
}
