package parquetconv

import (
	"context"
	"io"
	"os"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	"github.com/fstensor/fstensor/arrowconv"
)

// OpenFile opens the Parquet file at path and returns a reader of
// its record batches; tensor columns come back as fixedshape arrays when
// the file stores an Arrow schema (fstensor, pyarrow and arrow-go write
// one) or when the field metadata carries the extension keys. Options:
// [WithAllocator], [WithBatchRows]. The caller releases the reader, which
// closes the file.
func OpenFile(path string, opts ...Option) (*arrowconv.RecordReader, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, errorf("open %s: %w", path, err)
	}
	r, err := newParquetReader(f, f.Close, newConfig(opts))
	if err != nil {
		f.Close()
		return nil, errorf("open %s: %w", path, err)
	}
	return r, nil
}

// NewReader is [OpenFile] for a file already open as r;
// releasing the reader does not close r.
func NewReader(r parquet.ReaderAtSeeker, opts ...Option) (*arrowconv.RecordReader, error) {
	return newParquetReader(r, nil, newConfig(opts))
}

func newParquetReader(r parquet.ReaderAtSeeker, closeFn func() error, cfg *config) (rr *arrowconv.RecordReader, err error) {
	defer recovered(&err, "read")
	pf, err := file.NewParquetReader(r, file.WithReadProps(parquet.NewReaderProperties(cfg.mem)))
	if err != nil {
		return nil, errorf("%w", err)
	}
	fr, err := pqarrow.NewFileReader(pf, pqarrow.ArrowReadProperties{BatchSize: int64(cfg.batchRows)}, cfg.mem)
	if err != nil {
		pf.Close()
		return nil, errorf("%w", err)
	}
	rec, err := fr.GetRecordReader(context.Background(), nil, nil)
	if err != nil {
		pf.Close()
		return nil, errorf("%w", err)
	}
	sc, err := arrowconv.TensorSchema(dropUnsetFieldIDs(rec.Schema()))
	if err != nil {
		rec.Release()
		pf.Close()
		return nil, err
	}
	next := func() (out arrow.RecordBatch, err error) {
		defer recovered(&err, "read")
		if !rec.Next() {
			if err := rec.Err(); err != nil && err != io.EOF {
				return nil, errorf("%w", err)
			}
			return nil, nil
		}
		tr, err := arrowconv.TensorRecord(rec.RecordBatch())
		if err != nil {
			return nil, err
		}
		defer tr.Release()
		return array.NewRecordBatch(sc, tr.Columns(), tr.NumRows()), nil
	}
	closeAll := func() {
		rec.Release()
		pf.Close()
		if closeFn != nil {
			closeFn()
		}
	}
	return arrowconv.NewRecordReader(sc, next, closeAll), nil
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
